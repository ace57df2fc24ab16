"""manage.py invite EMAIL [--workspace ID] [--role ROLE] [--days N] [--url BASE]: print a single-use link to join."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import invitations
from accounts.models import Role, Workspace
from common.errors import BadRequest


class Command(BaseCommand):
    help = "Print a single-use invitation link to sign up (and join a workspace, with a role)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="who the link is for (shown on the join page and in the audit log)")
        parser.add_argument("--workspace", type=int, help="a team workspace to join (its id); default: none")
        parser.add_argument("--role", default=Role.EDITOR, choices=Role.values, help="the role in that workspace")
        parser.add_argument("--days", type=float, default=invitations.DEFAULT_DAYS, help="how long the link works")
        parser.add_argument("--url", default="", help="the server's address as people reach it (default: PUBLIC_URL, "
                                                      "else http://127.0.0.1:$PORT, PORT as `make run` uses it)")

    def handle(self, *args: Any, email: str, workspace: int | None, role: str, days: float, url: str,
               **options: Any) -> None:
        workspace_row = None
        if workspace is not None:
            workspace_row = Workspace.objects.filter(pk=workspace).first()
            if workspace_row is None:
                raise CommandError(f"there is no workspace {workspace}")
            if workspace_row.personal_for_id is not None:
                raise CommandError(f"workspace {workspace} is someone's personal workspace; invite to a team workspace")
        # Made on behalf of the server's owner, so the audit log says who stood behind it.
        owner = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        try:
            _, token = invitations.create(owner, workspace=workspace_row, role=role, email=email, days=days)
        except BadRequest as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(invitations.link(token, base=url or None))
