"""Workspaces and roles: who may read, run, edit or manage what.

Every workflow, run and provider key belongs to a workspace; a user reaches it
through a membership. Someone who is not a member is told the thing does not
exist (404, so ids cannot be probed); a member whose role falls short is told
which role the action needs (403).
"""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404

from accounts import audit
from accounts.models import Membership, Role, Workspace
from accounts.sockets import close_member_sockets
from common.errors import BadRequest, Forbidden

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class Need(StrEnum):
    READ = "read"      # see, watch, export
    RUN = "run"        # start, pause, resume, stop runs
    EDIT = "edit"      # create, save, delete, move workflows
    MANAGE = "manage"  # members, invitations, keys, limits, audit log
    OWN = "own"        # delete the workspace, hand it over


# The lowest role that may do each thing; roles are ordered owner > admin > editor > runner > viewer.
RANK = {Role.VIEWER: 0, Role.RUNNER: 1, Role.EDITOR: 2, Role.ADMIN: 3, Role.OWNER: 4}
LOWEST = {Need.READ: Role.VIEWER, Need.RUN: Role.RUNNER, Need.EDIT: Role.EDITOR, Need.MANAGE: Role.ADMIN, Need.OWN: Role.OWNER}
WORDS = {Need.READ: "read", Need.RUN: "run or control runs", Need.EDIT: "edit workflows",
         Need.MANAGE: "manage members, keys and limits", Need.OWN: "do this (owner only)"}


def allows(role: str | None, need: Need) -> bool:
    return role is not None and RANK[Role(role)] >= RANK[LOWEST[need]]


def role_of(user: User, workspace_id: int | None) -> str | None:
    if workspace_id is None or not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(workspace_id=workspace_id, user=user).values_list("role", flat=True).first()


def require(user: User, workspace_id: int | None, need: Need, what: str = "this") -> str:
    """The user's role in the workspace, when it allows ``need``; else 404 (not a member) or 403."""
    role = role_of(user, workspace_id)
    if role is None:
        raise Http404(f"{what} not found")
    if not allows(role, need):
        # A refused action is something someone tried in the workspace: the log keeps it (reads are not actions).
        if need != Need.READ:
            audit.record(workspace_id, user, "action_refused", needs=str(LOWEST[need]), role=role, tried=WORDS[need],
                         what=what)
        raise Forbidden(f"your role in this workspace is {role}: it cannot {WORDS[need]} "
                        f"(that needs {LOWEST[need]!s} or above)")
    return role


def member_workspace_ids(user: User, need: Need = Need.READ) -> list[int]:
    roles = [r for r in Role.values if allows(r, need)]
    return list(Membership.objects.filter(user=user, role__in=roles).values_list("workspace_id", flat=True))


def personal(user: User) -> Workspace:
    """The user's own workspace, made on first need (accounts made before workspaces existed have one from the migration)."""
    found = Workspace.objects.filter(personal_for=user).first()
    return found or make_personal(user)


def make_personal(user: User) -> Workspace:
    with transaction.atomic():
        # The server's owner spends the server's own keys in their own workspace; nobody else does unless granted.
        workspace, _ = Workspace.objects.get_or_create(
            personal_for=user, defaults={"name": f"{user.get_username()} (personal)", "server_keys": bool(user.is_superuser)})
        Membership.objects.get_or_create(workspace=workspace, user=user, defaults={"role": Role.OWNER})
    return workspace


def chosen(user: User, workspace_id: int | None, need: Need = Need.READ) -> Workspace:
    """The workspace a list or a new thing is for: the one named (checked), else the user's personal one."""
    if workspace_id is None:
        return personal(user)
    require(user, workspace_id, need, "workspace")
    return Workspace.objects.get(pk=workspace_id)


def create_team(user: User, name: str) -> Workspace:
    with transaction.atomic():
        workspace = Workspace.objects.create(name=name.strip()[:100] or "Team")
        Membership.objects.create(workspace=workspace, user=user, role=Role.OWNER)
    return workspace


def memberships(user: User) -> list[dict]:
    rows = (Membership.objects.filter(user=user).select_related("workspace").order_by("workspace_id"))
    return [{"id": m.workspace_id, "name": m.workspace.name, "role": m.role,
             "personal": m.workspace.personal_for_id == user.pk} for m in rows]


def members(workspace_id: int) -> list[dict]:
    User = get_user_model()
    rows = Membership.objects.filter(workspace_id=workspace_id).select_related("user").order_by("user__username")
    return [{"user_id": m.user_id, "username": getattr(m.user, User.USERNAME_FIELD), "role": m.role} for m in rows]


# ---------------------------------------------------------------- managing a workspace (admin or owner)

LIMIT_FIELDS = ("max_concurrent_runs", "max_runs_per_day", "max_tokens_per_day", "max_cost_usd_per_day")


def _owners(workspace_id: int) -> int:
    return Membership.objects.filter(workspace_id=workspace_id, role=Role.OWNER).count()


@transaction.atomic
def set_role(by: User, workspace_id: int, user_id: int, role: str) -> None:
    """Change a member's role. Admins manage editors, runners and viewers; owners manage everyone;
    a workspace always keeps an owner."""
    mine = require(by, workspace_id, Need.MANAGE, "workspace")
    if role not in Role.values:
        raise BadRequest(f"unknown role {role!r} (one of {', '.join(Role.values)})")
    member = Membership.objects.select_for_update().filter(workspace_id=workspace_id, user_id=user_id).first()
    if member is None:
        raise Http404(f"user {user_id} is not a member of this workspace")
    if mine != Role.OWNER and (Role.OWNER in (role, member.role) or member.role == Role.ADMIN):
        raise Forbidden("only an owner can change an owner's or an admin's role, or make someone an owner")
    if member.role == Role.OWNER and role != Role.OWNER and _owners(workspace_id) == 1:
        raise Forbidden("a workspace keeps at least one owner: make someone else owner first")
    if member.role != role:
        before = member.role
        member.role = role
        member.save(update_fields=["role"])
        audit.record(workspace_id, by, "role_changed", user=member.user.get_username(), before=before, after=role)


@transaction.atomic
def remove_member(by: User, workspace_id: int, user_id: int) -> None:
    """Take someone out (admins: editors, runners, viewers; owners: anyone but the last owner); anyone may leave."""
    member = Membership.objects.select_for_update().select_related("user").filter(workspace_id=workspace_id, user_id=user_id).first()
    leaving = by.pk == user_id
    mine = role_of(by, workspace_id) if leaving else require(by, workspace_id, Need.MANAGE, "workspace")
    if member is None or mine is None:
        raise Http404(f"user {user_id} is not a member of this workspace")
    if Workspace.objects.filter(pk=workspace_id, personal_for_id=user_id).exists():
        raise Forbidden("nobody leaves their own personal workspace")
    if not leaving and mine != Role.OWNER and member.role in (Role.OWNER, Role.ADMIN):
        raise Forbidden("only an owner can remove an owner or an admin")
    if member.role == Role.OWNER and _owners(workspace_id) == 1:
        raise Forbidden("a workspace keeps at least one owner: make someone else owner first")
    member.delete()
    audit.record(workspace_id, by, "member_removed", user=member.user.get_username(), role=member.role)
    # Their open sockets on this workspace's runs close too: a socket checks membership only when it opens.
    transaction.on_commit(lambda: close_member_sockets(workspace_id, user_id))


def rename(by: User, workspace_id: int, name: str) -> Workspace:
    require(by, workspace_id, Need.MANAGE, "workspace")
    workspace = Workspace.objects.get(pk=workspace_id)
    workspace.name = name.strip()[:100] or workspace.name
    workspace.save(update_fields=["name"])
    return workspace


def set_limits(by: User, workspace_id: int, values: dict) -> Workspace:
    """Admins set the workspace's run limits; None (or absent) is no limit."""
    require(by, workspace_id, Need.MANAGE, "workspace")
    workspace = Workspace.objects.get(pk=workspace_id)
    changed = {}
    for field in LIMIT_FIELDS:
        if field in values and getattr(workspace, field) != values[field]:
            changed[field] = values[field]
            setattr(workspace, field, values[field])
    if changed:
        workspace.save(update_fields=list(changed))
        audit.record(workspace_id, by, "limits_changed", **changed)
    return workspace


def grant_server_keys(by: User, workspace_id: int, granted: bool) -> Workspace:
    """Only the server's owner (a superuser) decides who spends the server's own provider keys."""
    if not by.is_superuser:
        require(by, workspace_id, Need.READ, "workspace")  # strangers still get a 404
        raise Forbidden("only the server's owner can grant a workspace the server's provider keys")
    workspace = Workspace.objects.filter(pk=workspace_id).first()
    if workspace is None:
        raise Http404("workspace not found")
    if workspace.server_keys != granted:
        workspace.server_keys = granted
        workspace.save(update_fields=["server_keys"])
        audit.record(workspace_id, by, "server_keys_granted" if granted else "server_keys_revoked")
    return workspace


def detail(user: User, workspace_id: int) -> dict:
    role = require(user, workspace_id, Need.READ, "workspace")
    workspace = Workspace.objects.get(pk=workspace_id)
    return {"id": workspace.pk, "name": workspace.name, "role": role, "personal": workspace.personal_for_id is not None,
            "server_keys": workspace.server_keys, "can_grant_server_keys": bool(user.is_superuser),
            "limits": {f: getattr(workspace, f) for f in LIMIT_FIELDS}, "members": members(workspace_id)}
