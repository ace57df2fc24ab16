"""Which API key a run uses, and whether there is one: the workspace's stored key first, then the
server's own key, only where the server's owner granted it to the workspace (never billed silently).

One function decides for both the run (:func:`resolve`) and the run dialog's list
(:func:`availability`), so the dialog never promises what a run would not get.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from accounts.models import Workspace
from accounts.provider_keys import PROVIDERS_WITH_KEYS, provider_key
from runtime.providers import catalog
from runtime.providers.failures import label, missing_key

KEYED = PROVIDERS_WITH_KEYS
if KEYED != catalog.KEY_HOLDERS:
    raise RuntimeError("accounts' PROVIDERS_WITH_KEYS and the catalog's KEY_HOLDERS must agree")


def holder(provider: str) -> str | None:
    """The keyed provider whose key a call to ``provider`` spends (azure-deployment: azure); None: no key at all."""
    name = catalog.key_holder(provider)
    return name if name in KEYED else None


def needs_key(provider: str) -> bool:
    """Whether a run on ``provider`` must have a key before it starts (Ollama's is optional)."""
    spec = catalog.spec(provider)
    return holder(provider) is not None and (spec is None or spec.needs_key)


def server_key(provider: str) -> str | None:
    return getattr(settings, f"{catalog.setting_prefix(provider)}_API_KEY", None) or None


@dataclass(frozen=True)
class ResolvedKey:
    api_key: str | None
    base_url: str | None
    source: str | None  # "workspace", "server", or None when there is no key


def resolve(workspace: Workspace, provider: str) -> ResolvedKey:
    provider = catalog.key_holder(provider)
    key, base_url = provider_key(workspace.pk, provider)
    if key:
        return ResolvedKey(key, base_url, "workspace")
    found = server_key(provider)
    if found and workspace.server_keys:
        return ResolvedKey(found, None, "server")
    return ResolvedKey(None, None, None)


def why_missing(workspace: Workspace, provider: str) -> str:
    """Why a run in ``workspace`` has no key for ``provider``, with the fix that applies there: a server that
    has the key but has not granted it to this workspace is a grant to ask for, not a key to set."""
    server_has_it = bool(server_key(provider))
    return missing_key(provider, workspace_name=workspace.name, workspace_id=workspace.pk,
                       personal=workspace.personal_for_id is not None, server_has_it=server_has_it)


def availability(workspace: Workspace) -> list[dict]:
    """Each provider, whether a run in the workspace may use it now, and where its key comes from (never the key)."""
    out = [{"name": "simulated", "label": "Simulated", "ready": True, "key_source": None, "needs_key": False}]
    for name in KEYED:
        source = resolve(workspace, name).source
        needed = needs_key(name)
        out.append({"name": name, "label": label(name), "ready": source is not None or not needed,
                    "key_source": source, "needs_key": needed})
    return out
