"""python manage.py import --from runsight|coqui FILE: translate another loop system's file into zenflow v1."""
import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from designer.cli import InputError, read_input
from designer.documents import dump_yaml, validate_document
from designer.importers import KINDS, ImportFailed, format_table, import_loop


class Command(BaseCommand):
    help = ("Import a Runsight workflow (YAML) or a Coqui loop definition (JSON) as a zenflow v1 document. "
            "The YAML goes to --output or standard output; the field-by-field report to standard error "
            "(or standard output with --output). Exit 1 on bad input.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="kind", choices=KINDS, required=True, help="the source system")
        parser.add_argument("path", metavar="FILE", help="the file to import, or - for standard input")
        parser.add_argument("-o", "--output", metavar="OUT", help="write the zenflow YAML here")
        parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                            help="a Coqui {{parameter}} value (repeatable); 'goal' is written into the stages")
        parser.add_argument("--json", action="store_true", help="print one JSON object: document, yaml, report, warnings")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        parameters = {}
        for item in options["param"]:
            name, sep, value = item.partition("=")
            if not sep or not name.strip():
                raise CommandError(f"--param {item!r}: use NAME=VALUE", returncode=1)
            parameters[name.strip()] = value
        try:
            text = read_input(path).decode("utf-8")
        except InputError as exc:
            raise CommandError(str(exc), returncode=1) from None
        except UnicodeDecodeError:
            raise CommandError(f"{path}: not UTF-8 text", returncode=1) from None
        try:
            result = import_loop(options["kind"], text, parameters=parameters)
        except ImportFailed as exc:
            raise CommandError(f"{path}: cannot import: {exc}", returncode=1) from None
        report = validate_document(result.document)
        yaml_text = dump_yaml(result.document)

        if options["json"]:
            payload = result.as_dict()
            payload.update(yaml=yaml_text, valid=report.valid, diagnostics=[d.as_dict() for d in report.diagnostics])
            self.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False))
        else:
            out = self.stdout if options["output"] else self.stderr
            out.write(format_table(result.report))
            counts = result.counts()
            out.write(f"\n{path}: {counts['carried']} carried, {counts['approximated']} approximated, "
                      f"{counts['dropped']} dropped")
            for warning in result.warnings:
                out.write(f"warning: {warning}")
            for diagnostic in report.diagnostics:
                out.write(f"{diagnostic.severity}: [{diagnostic.code}] {diagnostic.message} (at {diagnostic.path})")
            if options["output"]:
                try:
                    Path(options["output"]).write_text(yaml_text, encoding="utf-8")
                except OSError as exc:
                    raise CommandError(f"{options['output']}: {exc.strerror}", returncode=1) from None
                self.stdout.write(f"wrote {options['output']}")
            else:
                self.stdout.write(yaml_text, ending="")
        if not report.valid:
            self.stderr.write("the imported document does not validate (an importer bug: please report it)")
            sys.exit(1)
