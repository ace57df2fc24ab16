"""What happens beside an account's life: its personal workspace at birth, its sockets at logout,
its sign-ins in the audit log."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_save

from accounts import audit
from accounts.sockets import close_session_sockets
from accounts.workspaces import make_personal, member_workspace_ids

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest


def personal_workspace(sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any) -> None:
    if created and not raw:  # every account, however made (sign-up, invitation, createsuperuser, tests)
        make_personal(instance)


def signed_in(sender: type[User], request: HttpRequest, user: User, **kwargs: Any) -> None:
    # In every workspace the user is in: a team's admins see when its members sign in.
    make_personal(user)
    for workspace_id in member_workspace_ids(user):
        audit.record(workspace_id, user, "signed_in")


def connect() -> None:
    user_logged_out.connect(close_session_sockets, dispatch_uid="accounts.close_session_sockets")
    user_logged_in.connect(signed_in, dispatch_uid="accounts.signed_in")
    post_save.connect(personal_workspace, sender=get_user_model(), dispatch_uid="accounts.personal_workspace")
