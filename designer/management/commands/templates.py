"""python manage.py templates [SLUG]: the template gallery."""
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from designer.templates import get_template, list_templates


class Command(BaseCommand):
    help = ("List the loop templates, or print one template's zenflow YAML (--script: its simulated-run script). "
            "Exit 1 for an unknown template.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", metavar="SLUG", help="the template to print")
        parser.add_argument("--script", action="store_true", help="print the template's simulated-run script")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        if not slug:
            if options["script"]:
                raise CommandError("--script needs a template SLUG", returncode=1)
            templates = list_templates()
            if options["json"]:
                self.stdout.write(json.dumps([t.summary() for t in templates], indent=2))
                return
            width = max(len(t.slug) for t in templates)
            for t in templates:
                self.stdout.write(f"{t.slug:<{width}}  {t.title}: {t.description}")
            return
        try:
            template = get_template(slug)
        except KeyError:
            known = ", ".join(t.slug for t in list_templates())
            raise CommandError(f"no template {slug!r}; templates: {known}", returncode=1) from None
        if options["json"]:
            self.stdout.write(json.dumps(template.as_dict(), indent=2))
        else:
            self.stdout.write(template.script_yaml if options["script"] else template.document_yaml, ending="")
