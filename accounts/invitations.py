"""Who may join: sign-up modes and invitation links.

``SIGNUP`` decides what /signup/ does once the server's owner exists: ``closed`` (nobody
new), ``invite`` (the default: only with an invitation link) or ``open`` (anyone).
``SIGNUP_DOMAINS`` lets e-mail addresses of the listed domains sign up without a link.
An invitation is single use and expires; only its SHA-256 digest is stored.
"""
from __future__ import annotations

import hashlib
import os
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import audit
from accounts.models import Invitation, Membership, Role, Workspace
from common.errors import BadRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

PREFIX = "inv_"
DEFAULT_DAYS = 7
MAX_DAYS = 30


class InvitationInvalid(Exception):
    """The link is unknown, used or expired; the message says which."""


def signup_mode() -> str:
    return settings.SIGNUP


def _domains() -> list[str]:
    return [d.strip().lower().lstrip("@") for d in settings.SIGNUP_DOMAINS if d.strip()]


def domains_listed() -> bool:
    return bool(_domains())


def allowed_domain(email: str) -> bool:
    domain = email.rsplit("@", 1)[-1].lower() if "@" in email else ""
    return bool(domain) and domain in _domains()


def first_user() -> bool:
    """A fresh install: the first person to come signs up as the server's owner."""
    return not get_user_model().objects.exists()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(by: User | None, *, workspace: Workspace | None = None, role: str = Role.EDITOR, email: str = "",
           days: float = DEFAULT_DAYS) -> tuple[Invitation, str]:
    """A new link; returns the row and the token (shown once)."""
    if not 0 < days <= MAX_DAYS:
        raise BadRequest(f"an invitation lasts between a moment and {MAX_DAYS} days, not {days}")
    if role not in Role.values:
        raise BadRequest(f"unknown role {role!r} (one of {', '.join(Role.values)})")
    token = PREFIX + secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(digest=_digest(token), email=email.strip()[:254], workspace=workspace, role=role,
                                           created_by=by, expires_at=timezone.now() + timedelta(days=days))
    audit.record(workspace.pk if workspace else None, by, "invitation_created", invitation=invitation.pk, role=role,
                 **({"email": invitation.email} if invitation.email else {}))
    return invitation, token


def link(token: str, request: HttpRequest | None = None, base: str | None = None) -> str:
    """The invitation's URL: under ``base`` when given, else PUBLIC_URL when set, else the address the request
    came to; without a request (manage.py invite), the port the server was started on (PORT, as `make run`)."""
    base = base or settings.PUBLIC_URL or (
        request.build_absolute_uri("/") if request is not None else f"http://127.0.0.1:{os.environ.get('PORT') or 8000}")
    return f"{base.rstrip('/')}/join/{token}/"


def find(token: str) -> Invitation:
    """The usable invitation behind ``token``, or InvitationInvalid saying why not."""
    found = Invitation.objects.select_related("workspace").filter(digest=_digest(token or "")).first() if token else None
    if found is None:
        raise InvitationInvalid("this invitation link is not valid: check that it was copied whole")
    if found.used_at is not None:
        raise InvitationInvalid("this invitation link has already been used; ask for a new one")
    if found.expires_at <= timezone.now():
        raise InvitationInvalid("this invitation link has expired; ask for a new one")
    return found


@transaction.atomic
def redeem(token: str, user: User) -> Invitation:
    """Use the invitation for ``user``: once, and only before it expires. Joins its workspace, if it has one."""
    invitation = find(token)
    # Claimed under a row lock: two people racing with one link cannot both get in.
    claimed = Invitation.objects.filter(pk=invitation.pk, used_at__isnull=True).update(used_at=timezone.now(), used_by=user)
    if not claimed:
        raise InvitationInvalid("this invitation link has already been used; ask for a new one")
    if invitation.workspace_id:
        _membership, made = Membership.objects.get_or_create(workspace_id=invitation.workspace_id, user=user,
                                                            defaults={"role": invitation.role})
        if made:
            audit.record(invitation.workspace_id, user, "member_added", user=user.get_username(), role=invitation.role,
                         via="invitation")
    audit.record(invitation.workspace_id, user, "invitation_used", invitation=invitation.pk)
    return invitation


def pending(workspace_id: int) -> list[dict]:
    rows = Invitation.objects.filter(workspace_id=workspace_id, used_at__isnull=True, expires_at__gt=timezone.now())
    return [{"id": i.id, "email": i.email, "role": i.role, "expires_at": i.expires_at,
             "created_by": i.created_by.get_username() if i.created_by else ""} for i in rows.select_related("created_by")]
