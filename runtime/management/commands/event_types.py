"""Print (or --write) the front end's TypeScript types for the run event contract."""
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from runtime.contract_ts import TARGET, render


class Command(BaseCommand):
    help = "TypeScript types for runtime/contract.py (frontend/src/api/events.gen.ts)"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help=f"write {TARGET.name} instead of printing it")

    def handle(self, *args: Any, write: bool = False, **options: Any) -> None:
        text = render()
        if write:
            TARGET.write_text(text)
            self.stdout.write(f"wrote {TARGET}")
        else:
            self.stdout.write(text, ending="")
