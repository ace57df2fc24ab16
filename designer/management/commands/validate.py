import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from designer.cli import InputError, format_diagnostic, read_input
from designer.documents import load_source
from designer.folders import DiskFolder
from designer.resolve import resolve_references


class Command(BaseCommand):
    help = "Validate zenflow v1 workflow files. Exit 0 when all are valid, 1 when any is invalid, 2 on usage or I/O errors."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="workflow files, or - for standard input")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument("--resolve", action="store_true", help="also open includes, @ references and contextFiles")

    def handle(self, *args: Any, **options: Any) -> None:
        results = []
        for path in options["paths"]:
            try:
                data = read_input(path)
            except InputError as exc:
                raise CommandError(str(exc), returncode=2) from None
            loaded = load_source(data)
            report = loaded.report
            if options["resolve"] and loaded.parsed:
                # References resolve inside the file's own folder (stdin: the current directory's).
                base, name = (Path(path).parent, Path(path).name) if path != "-" else (Path.cwd(), "")
                report.extend(resolve_references(loaded.document, DiskFolder(base), name).diagnostics)
            results.append((path, report))

        if options["format"] == "json":
            files = [{"path": p, **r.as_dict()} for p, r in results]
            self.stdout.write(json.dumps({"files": files}, indent=2))
        else:
            for path, report in results:
                for diagnostic in report.diagnostics:
                    self.stdout.write(format_diagnostic(path, diagnostic))
                verdict = "valid" if report.valid else f"invalid ({len(report.errors)} error{'s' if len(report.errors) != 1 else ''})"
                extra = f", {len(report.warnings)} warning{'s' if len(report.warnings) != 1 else ''}" if report.warnings else ""
                self.stdout.write(f"{path}: {verdict}{extra}")
        if not all(r.valid for _, r in results):
            raise SystemExit(1)
