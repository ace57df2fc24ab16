from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common import archive
from common.errors import BadRequest
from designer import workflows


class Command(BaseCommand):
    help = ("Import a workflow folder (a zip, or a directory) as saved workflows of a user: the main file named, the "
            "only top-level workflow, or with --all one workflow per top-level workflow file.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", metavar="ZIP_OR_DIR")
        parser.add_argument("--user", required=True, help="the username that will own the workflows")
        parser.add_argument("--main", help="the main workflow file's path inside the folder")
        parser.add_argument("--all", action="store_true", help="one workflow per top-level workflow file")
        parser.add_argument("--workspace", type=int, help="a workspace id (default: the user's personal workspace)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if path.is_dir():
            data = archive.zip_directory(path)
        elif path.is_file():
            data = path.read_bytes()
        else:
            raise CommandError(f"{path}: no such file or directory", returncode=2)
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"--user: no user named {options['user']!r}", returncode=2)
        main = "*" if options["all"] else options["main"]
        try:
            made, skipped = workflows.import_bundle(user, data, main=main, workspace_id=options["workspace"])
        except BadRequest as exc:
            raise CommandError(f"{path}: {exc}", returncode=1) from None
        for workflow in made:
            version = workflow.latest()
            state = "valid" if version.valid else "has errors"
            self.stdout.write(f"{workflow.id}\t{workflow.name}\t{version.main_path}\t{version.files.count()} files\t{state}")
        for name, why in skipped.items():
            self.stderr.write(f"skipped {name}: {why}")
