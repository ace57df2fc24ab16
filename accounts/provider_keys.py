"""Workspaces' own provider API keys, encrypted at rest.

Keys are encrypted with a Fernet key derived from PROVIDER_KEYS_SECRET (or the
SECRET_KEY), so a database dump alone does not reveal them.
"""
from __future__ import annotations

import base64
import hashlib
import json
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

from accounts.models import ProviderKey, Workspace

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The providers a user can store a key for (the simulated one needs none), by upstream's names; the runtime's
# catalog (runtime/providers/catalog.py KEY_HOLDERS) lists the same, in the same order. Bedrock's key is a
# Bedrock API key or "ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]"; Ollama's is optional.
PROVIDERS_WITH_KEYS = ("openai", "anthropic", "google", "vertex", "bedrock", "azure", "mistral", "groq", "deepseek",
                       "openrouter", "ollama", "xai", "together", "fireworks", "cerebras")


def _fernet() -> Fernet:
    secret = getattr(settings, "PROVIDER_KEYS_SECRET", "") or settings.SECRET_KEY
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(("provider-keys:" + secret).encode()).digest()))


def encrypt_values(values: dict[str, str]) -> str:
    """Secret values (headers, environment variables) as one token stored beside a workspace's keys ("": none)."""
    return _fernet().encrypt(json.dumps(values).encode()).decode() if values else ""


def decrypt_values(token: str) -> dict[str, str]:
    """What :func:`encrypt_values` stored; empty when the secret changed since (the caller says what that means)."""
    if not token:
        return {}
    try:
        return json.loads(_fernet().decrypt(token.encode()).decode())
    except (InvalidToken, ValueError):
        return {}


def base_url_problem(url: str, *, secrets_go: str = "the key field", example: str = "") -> str | None:
    """What keeps ``url`` from being saved as a provider's base URL, in words (None: nothing).

    A base URL is shown to everyone in the workspace (viewers too) and named in the errors of the runs that use
    it, so it may hold no secret: no ``user:password@`` (the key goes in the key field), no query string and no
    fragment (where keys ride too: ``?key=...``). The caller names the field.
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return "is not a URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host name" + (f" ({example})" if example else "")
    if "@" in parts.netloc:
        return ("must not hold a user name or password (user:password@...): it is shown to everyone in the "
                f"workspace; put it in {secrets_go}")
    if "?" in url:
        return "must not have a query string (?...): it is shown to everyone in the workspace and named in errors"
    if "#" in url:
        return "must not have a fragment (#...)"
    return None


def shown_base_url(url: str) -> str:
    """A stored base URL as it is shown: one saved before the rule above keeps no user, password, query or
    fragment on the page."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def store_provider_key(workspace: Workspace, by: User, provider: str, api_key: str, base_url: str = "") -> None:
    """The workspace's key for ``provider``, stored by the user ``by`` (it replaces the one before)."""
    ProviderKey.objects.update_or_create(
        workspace=workspace, provider=provider,
        defaults={"user": by, "encrypted_key": _fernet().encrypt(api_key.encode()).decode(), "base_url": base_url},
    )


def provider_key(workspace_id: int, provider: str) -> tuple[str | None, str | None]:
    """(api_key, base_url) stored for the workspace, or (None, None)."""
    found = ProviderKey.objects.filter(workspace_id=workspace_id, provider=provider).first()
    if found is None:
        return None, None
    try:
        return _fernet().decrypt(found.encrypted_key.encode()).decode(), found.base_url or None
    except InvalidToken:
        return None, None
