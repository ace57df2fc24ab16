"""Workspaces' own provider API keys, encrypted at rest.

Keys are encrypted with a Fernet key derived from PROVIDER_KEYS_SECRET (or the
SECRET_KEY), so a database dump alone does not reveal them.
"""
from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

from accounts.models import ProviderKey

# The providers a user can store a key for (the simulated one needs none).
PROVIDERS_WITH_KEYS = ("openai", "anthropic")


def _fernet() -> Fernet:
    secret = getattr(settings, "PROVIDER_KEYS_SECRET", "") or settings.SECRET_KEY
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(("provider-keys:" + secret).encode()).digest()))


def store_provider_key(workspace, by, provider: str, api_key: str, base_url: str = "") -> None:
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
