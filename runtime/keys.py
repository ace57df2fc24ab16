"""Which API key a run uses, and whether there is one: the user's stored key first, then the server's.

One function decides for both the run (:func:`resolve`) and the run dialog's list
(:func:`availability`), so the dialog never promises what a run would not get.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from accounts.provider_keys import PROVIDERS_WITH_KEYS, provider_key
from runtime.providers.failures import label

KEYED = PROVIDERS_WITH_KEYS


@dataclass(frozen=True)
class ResolvedKey:
    api_key: str | None
    base_url: str | None
    source: str | None  # "account", "server", or None when there is no key


def resolve(user, provider: str) -> ResolvedKey:
    key, base_url = provider_key(user, provider)
    if key:
        return ResolvedKey(key, base_url, "account")
    server_key = getattr(settings, f"{provider.upper()}_API_KEY", None)
    if server_key:
        return ResolvedKey(server_key, None, "server")
    return ResolvedKey(None, None, None)


def availability(user) -> list[dict]:
    """Each provider, whether a run may use it now, and where its key comes from (never the key)."""
    out = [{"name": "simulated", "label": "Simulated", "ready": True, "key_source": None, "needs_key": False}]
    for name in KEYED:
        source = resolve(user, name).source
        out.append({"name": name, "label": label(name), "ready": source is not None, "key_source": source, "needs_key": True})
    return out
