"""Workspace endpoints: the switcher's list, members and roles, invitations, keys, limits, the audit log.
Thin over accounts.workspaces and accounts.invitations."""
from __future__ import annotations

from typing import Any, Optional

from django.conf import settings
from ninja import Router, Status

from accounts import audit, invitations, trace_settings, workspaces
from accounts.models import ProviderKey, Role
from accounts.provider_keys import PROVIDERS_WITH_KEYS, base_url_problem, shown_base_url, store_provider_key
from accounts.schemas import (
    AuditEntryOut,
    InvitationIn,
    InvitationOut,
    KeyIn,
    LimitsIn,
    PendingInvitationOut,
    RoleIn,
    ServerKeysIn,
    TracingIn,
    TracingOut,
    WorkspaceIn,
    WorkspaceKeyOut,
    WorkspaceOut,
    WorkspaceSummaryOut,
)
from accounts.tokens import API_AUTH
from accounts.workspaces import Need, require
from common.addresses import AddressRefused, check_public_url
from common.errors import BadRequest, Forbidden
from common.schemas import errors
from common.types import ApiRequest

router = Router(tags=["workspaces"], auth=API_AUTH)

@router.get("/workspaces", response={200: list[WorkspaceSummaryOut], **errors(401)})
def list_workspaces(request: ApiRequest) -> list[dict]:
    """Every workspace you are in, with your role: the top bar's switcher."""
    workspaces.personal(request.auth)
    return workspaces.memberships(request.auth)


@router.post("/workspaces", response={201: WorkspaceOut, **errors(401, 422)})
def create_workspace(request: ApiRequest, payload: WorkspaceIn) -> Status[dict]:
    """A team workspace, with you as its owner. The server's keys are off until the server's owner grants them."""
    workspace = workspaces.create_team(request.auth, payload.name)
    audit.record(workspace.pk, request.auth, "workspace_created", name=workspace.name)
    return Status(201, workspaces.detail(request.auth, workspace.pk))


@router.get("/workspaces/{workspace_id}", response={200: WorkspaceOut, **errors(401, 404)})
def get_workspace(request: ApiRequest, workspace_id: int) -> dict:
    return workspaces.detail(request.auth, workspace_id)


@router.patch("/workspaces/{workspace_id}", response={200: WorkspaceOut, **errors(400, 401, 403, 404, 422)})
def rename_workspace(request: ApiRequest, workspace_id: int, payload: WorkspaceIn) -> dict:
    workspaces.rename(request.auth, workspace_id, payload.name)
    return workspaces.detail(request.auth, workspace_id)


@router.put("/workspaces/{workspace_id}/members/{user_id}", response={200: WorkspaceOut, **errors(400, 401, 403, 404, 422)})
def set_member_role(request: ApiRequest, workspace_id: int, user_id: int, payload: RoleIn) -> dict:
    workspaces.set_role(request.auth, workspace_id, user_id, payload.role)
    return workspaces.detail(request.auth, workspace_id)


@router.delete("/workspaces/{workspace_id}/members/{user_id}", response={204: None, **errors(400, 401, 403, 404)})
def remove_member(request: ApiRequest, workspace_id: int, user_id: int) -> Status[None]:
    workspaces.remove_member(request.auth, workspace_id, user_id)
    return Status(204, None)


@router.get("/workspaces/{workspace_id}/invitations", response={200: list[PendingInvitationOut], **errors(401, 403, 404)})
def list_invitations(request: ApiRequest, workspace_id: int) -> list[dict]:
    require(request.auth, workspace_id, Need.MANAGE, "workspace")
    return invitations.pending(workspace_id)


@router.post("/workspaces/{workspace_id}/invitations", response={201: InvitationOut, **errors(401, 403, 404, 422)})
def invite(request: ApiRequest, workspace_id: int, payload: InvitationIn) -> Status[dict[str, Any]]:
    """A single-use link that lets one person sign up (or sign in) and join with the role given."""
    mine = require(request.auth, workspace_id, Need.MANAGE, "workspace")
    if payload.role == Role.OWNER and mine != Role.OWNER:
        raise Forbidden("only an owner can invite another owner")
    workspace = workspaces.Workspace.objects.get(pk=workspace_id)
    if workspace.personal_for_id is not None:
        raise Forbidden("a personal workspace has no other members: create a team workspace to share")
    invitation, token = invitations.create(request.auth, workspace=workspace, role=payload.role, email=payload.email,
                                           days=payload.days)
    return Status(201, {"id": invitation.pk, "url": invitations.link(token, request), "role": invitation.role,
                        "email": invitation.email, "expires_at": invitation.expires_at})


@router.delete("/workspaces/{workspace_id}/invitations/{invitation_id}", response={204: None, **errors(401, 403, 404)})
def revoke_invitation(request: ApiRequest, workspace_id: int, invitation_id: int) -> Status[None]:
    require(request.auth, workspace_id, Need.MANAGE, "workspace")
    invitations.Invitation.objects.filter(workspace_id=workspace_id, pk=invitation_id, used_at__isnull=True).delete()
    return Status(204, None)


@router.put("/workspaces/{workspace_id}/limits", response={200: WorkspaceOut, **errors(400, 401, 403, 404, 422)})
def set_limits(request: ApiRequest, workspace_id: int, payload: LimitsIn) -> dict:
    """Run limits for the workspace, field by field: a field left out keeps its value, null clears it. A start
    past one is answered 429 with when it frees up."""
    workspaces.set_limits(request.auth, workspace_id, payload.dict(exclude_unset=True))
    return workspaces.detail(request.auth, workspace_id)


@router.put("/workspaces/{workspace_id}/server-keys", response={200: WorkspaceOut, **errors(401, 403, 404, 422)})
def set_server_keys(request: ApiRequest, workspace_id: int, payload: ServerKeysIn) -> dict:
    """Whether runs in the workspace may spend the server's own provider keys (the server's owner decides)."""
    workspaces.grant_server_keys(request.auth, workspace_id, payload.granted)
    return workspaces.detail(request.auth, workspace_id)


@router.get("/workspaces/{workspace_id}/keys", response={200: list[WorkspaceKeyOut], **errors(401, 404)})
def list_keys(request: ApiRequest, workspace_id: int) -> list[dict[str, Any]]:
    """Which providers the workspace has its own key for (never the key)."""
    require(request.auth, workspace_id, Need.READ, "workspace")
    stored = {k.provider: k for k in ProviderKey.objects.filter(workspace_id=workspace_id).select_related("user")}
    return [{"provider": p, "set": p in stored, "base_url": shown_base_url(stored[p].base_url) if p in stored else "",
             "stored_by": stored[p].user.get_username() if p in stored else ""} for p in PROVIDERS_WITH_KEYS]


@router.put("/workspaces/{workspace_id}/keys", response={200: list[WorkspaceKeyOut], **errors(400, 401, 403, 404, 422)})
def store_key(request: ApiRequest, workspace_id: int, payload: KeyIn) -> list[dict[str, Any]]:
    require(request.auth, workspace_id, Need.MANAGE, "workspace")
    if payload.base_url and (problem := base_url_problem(payload.base_url)):
        raise BadRequest(f"base_url: {problem}")
    if payload.base_url and not settings.PROVIDER_URLS_ALLOW_PRIVATE:
        try:
            check_public_url(payload.base_url)
        except AddressRefused as exc:
            raise BadRequest(f"base_url: {exc}; only public addresses are allowed (an administrator can allow "
                             "private ones with PROVIDER_URLS_ALLOW_PRIVATE=1)") from None
    store_provider_key(workspaces.Workspace.objects.get(pk=workspace_id), request.auth, payload.provider, payload.api_key,
                       payload.base_url)
    audit.record(workspace_id, request.auth, "key_stored", provider=payload.provider)
    return list_keys(request, workspace_id)


@router.delete("/workspaces/{workspace_id}/keys/{provider}", response={204: None, **errors(401, 403, 404)})
def delete_key(request: ApiRequest, workspace_id: int, provider: str) -> Status[None]:
    require(request.auth, workspace_id, Need.MANAGE, "workspace")
    if ProviderKey.objects.filter(workspace_id=workspace_id, provider=provider).delete()[0]:
        audit.record(workspace_id, request.auth, "key_deleted", provider=provider)
    return Status(204, None)


@router.get("/workspaces/{workspace_id}/tracing", response={200: TracingOut, **errors(401, 404)})
def get_tracing(request: ApiRequest, workspace_id: int) -> dict[str, Any]:
    """Where the workspace's runs send their OpenTelemetry spans, and the link to a run's trace (header names only)."""
    return trace_settings.shown(request.auth, workspace_id)


@router.put("/workspaces/{workspace_id}/tracing", response={200: TracingOut, **errors(400, 401, 403, 404, 422)})
def set_tracing(request: ApiRequest, workspace_id: int, payload: TracingIn) -> dict[str, Any]:
    """Owners and admins: the server's collector, the workspace's own endpoint (with headers, write-only) or no
    traces; and the workspace's link to a trace. Errors name the field."""
    return trace_settings.save(request.auth, workspace_id, mode=payload.mode, endpoint=payload.endpoint,
                               headers=payload.headers, link_template=payload.link_template)


@router.get("/workspaces/{workspace_id}/audit", response={200: list[AuditEntryOut], **errors(401, 403, 404, 422)})
def audit_log(request: ApiRequest, workspace_id: int, before: Optional[int] = None) -> list[dict]:
    """What happened in the workspace, newest first (admins and owners)."""
    require(request.auth, workspace_id, Need.MANAGE, "workspace")
    return audit.entries(workspace_id, before=before)
