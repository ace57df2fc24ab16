from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from designer import bundles
from designer.models import WorkflowVersion


class Command(BaseCommand):
    help = "Write a saved workflow's folder (the main YAML and every file at its relative path) as a zip."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("workflow", type=int, metavar="WORKFLOW_ID")
        parser.add_argument("--number", type=int, help="a version number (default: the latest)")
        parser.add_argument("-o", "--output", help="the zip to write (default: the name the server would give)")

    def handle(self, *args: Any, **options: Any) -> None:
        rows = WorkflowVersion.objects.select_related("workflow").filter(workflow_id=options["workflow"])
        found = (rows.filter(number=options["number"]) if options["number"] else rows.order_by("-number")).first()
        if found is None:
            raise CommandError(f"workflow {options['workflow']} has no version {options['number'] or ''}".rstrip(), returncode=2)
        name, data = bundles.export_zip(found, found.workflow.name)
        out = Path(options["output"] or name)
        out.write_bytes(data)
        self.stdout.write(f"{out}: {len(data):,} bytes, version {found.number}")
