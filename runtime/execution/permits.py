"""What lets a run call its models, taken when its work starts or resumes and re-checked before every call.

A run may call a model while its owner may still run in the run's workspace (a member whose role allows it,
with an active account) and while the key it started with is still the key its workspace would be given: the
workspace's own key unchanged, or the server's key still granted to the workspace. Removing a key, revoking a
grant, removing a member or lowering a role therefore stops the runs that depended on it before their next
model call (:func:`still_holds`, called by the engine through ``RunOptions.permit``, read at most once a second:
:mod:`runtime.execution.permit_checks`), with the reason and who
made the change, from the workspace's audit log.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from accounts.models import AuditEntry, Workspace
from accounts.workspaces import WORDS, Need, allows, role_of
from runtime.models import Run
from runtime.providers import keys
from runtime.providers.failures import label

# The audit actions that can take a permit away, by what they change.
_MEMBERSHIP = ("member_removed", "role_changed")
_KEYS = ("key_deleted", "key_stored", "server_keys_revoked")


class PermitRefused(Exception):  # a refusal in words, raised where the work would start
    pass


@dataclass(frozen=True)
class Permit:
    run_id: str
    workspace_id: int
    owner_id: int
    # Per keyed provider: where its key came from when the work started, and a digest of the key itself.
    keys: dict[str, tuple[str | None, str]] = field(default_factory=dict)


def _key_of(workspace: Workspace, provider: str) -> tuple[str | None, str]:
    found = keys.resolve(workspace, provider)
    return found.source, hashlib.sha256((found.api_key or "").encode()).hexdigest()


def take(run: Run) -> Permit:
    """The run's permit as its work starts or resumes: refused in words when its owner may no longer run in the
    workspace or its own provider has no key (every check a start makes of who and which key)."""
    workspace = Workspace.objects.get(pk=run.workspace_id)
    refused = _owner_refused(run.owner_id, workspace.pk)
    if refused:
        raise PermitRefused(refused)
    held = {name: _key_of(workspace, name) for name in keys.KEYED}
    if keys.needs_key(run.provider) and held[keys.holder(run.provider) or run.provider][0] is None:
        raise PermitRefused(keys.why_missing(workspace, run.provider))
    return Permit(str(run.pk), workspace.pk, run.owner_id, held)


def still_holds(permit: Permit, provider: str) -> str | None:
    """None while the run may call ``provider``'s model; else why not, in words, naming who changed it."""
    refused = _owner_refused(permit.owner_id, permit.workspace_id)
    if refused:
        return f"{refused}{_by(permit.workspace_id, _MEMBERSHIP)}"
    provider = keys.holder(provider) or provider
    if provider not in permit.keys:
        return None  # no key involved (the simulated provider)
    started, digest = permit.keys[provider]
    if started is None:
        return None  # it had no key to lose: the provider itself answers that it has none
    now, now_digest = _key_of(Workspace.objects.get(pk=permit.workspace_id), provider)
    if (now, now_digest) == (started, digest):
        return None
    name = label(provider)
    if started == "server":
        what = f"the server's {name} key is no longer granted to this workspace"
    elif now == "workspace":
        what = f"this workspace's {name} key was replaced"
    else:
        what = f"this workspace's {name} key was removed"
    return f"{what}{_by(permit.workspace_id, _KEYS)}"


def _owner_refused(owner_id: int, workspace_id: int) -> str | None:
    owner = get_user_model().objects.filter(pk=owner_id).first()
    if owner is None or not owner.is_active:
        return "the account that started the run is no longer active"
    role = role_of(owner, workspace_id)
    if role is None:
        return f"{owner.get_username()} is no longer a member of this workspace"
    if not allows(role, Need.RUN):
        return f"{owner.get_username()}'s role in this workspace is now {role}, which cannot {WORDS[Need.RUN]}"
    return None


def _by(workspace_id: int, actions: tuple[str, ...]) -> str:
    entry = AuditEntry.objects.filter(workspace_id=workspace_id, action__in=actions).order_by("-id").first()
    return f" (by {entry.actor_name})" if entry is not None and entry.actor_name else ""
