from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from designer.cli import InputError, format_diagnostic, read_input
from designer.documents import dump_json, dump_yaml, load_source


class Command(BaseCommand):
    help = "Print the canonical YAML or JSON of a valid workflow (comments kept in YAML)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", metavar="PATH", help="workflow file, or - for standard input")
        parser.add_argument("--to", choices=["yaml", "json"], default="yaml")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            data = read_input(path)
        except InputError as exc:
            raise CommandError(str(exc), returncode=2) from None
        loaded = load_source(data)
        if not loaded.valid:
            for diagnostic in loaded.report.errors:
                self.stderr.write(format_diagnostic(path, diagnostic))
            self.stderr.write(f"{path}: invalid, nothing exported")
            raise SystemExit(1)
        text = dump_yaml(loaded.document, source=loaded.source) if options["to"] == "yaml" else dump_json(loaded.document)
        self.stdout.write(text, ending="")
