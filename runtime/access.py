"""Who is asking: personal API tokens, session auth, and encrypted provider keys.

Tokens are random, shown once, and stored as a SHA-256 digest. Provider keys
are encrypted with a Fernet key derived from PROVIDER_KEYS_SECRET (or the
SECRET_KEY), so a database dump alone does not reveal them.
"""
from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import timedelta

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from ninja.security import HttpBearer, SessionAuth

from runtime.models import ApiToken, ProviderKey

TOKEN_PREFIX = "ld_"


def create_token(user, name: str = "token") -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:100] or "token", prefix=token[:10], digest=_digest(token))
    return token


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


LAST_USED_RESOLUTION = timedelta(minutes=1)


def user_for_token(token: str):
    found = token_for(token)
    return found.user if found else None


def token_for(token: str) -> ApiToken | None:
    """The stored token (with its user) that ``token`` is, if it is valid and its user active."""
    if not token or not token.startswith(TOKEN_PREFIX):
        return None
    found = ApiToken.objects.select_related("user").filter(digest=_digest(token)).first()
    if found is None or not found.user.is_active:
        return None
    now = timezone.now()
    # "Last used" is shown to the minute; a script opening fifty sockets writes it once.
    if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found


class BearerToken(HttpBearer):
    def authenticate(self, request, token):
        user = user_for_token(token)
        if user is not None:
            request.user = user
        return user


class Session(SessionAuth):
    """The browser's session; ninja checks CSRF for unsafe methods."""


API_AUTH = [BearerToken(), Session()]


# ---- provider keys


def _fernet() -> Fernet:
    secret = getattr(settings, "PROVIDER_KEYS_SECRET", "") or settings.SECRET_KEY
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(("provider-keys:" + secret).encode()).digest()))


def store_provider_key(user, provider: str, api_key: str, base_url: str = "") -> None:
    ProviderKey.objects.update_or_create(
        user=user, provider=provider,
        defaults={"encrypted_key": _fernet().encrypt(api_key.encode()).decode(), "base_url": base_url},
    )


def provider_key(user, provider: str) -> tuple[str | None, str | None]:
    """(api_key, base_url) stored by the user, or (None, None)."""
    found = ProviderKey.objects.filter(user=user, provider=provider).first()
    if found is None:
        return None, None
    try:
        return _fernet().decrypt(found.encrypted_key.encode()).decode(), found.base_url or None
    except InvalidToken:
        return None, None


def anonymous() -> AnonymousUser:
    return AnonymousUser()


def close_session_sockets(sender, request, user, **kwargs) -> None:
    """On logout, the websockets the browser session opened close too (connected in apps.py)."""
    from asgiref.sync import async_to_sync

    from runtime.broadcast import credential_group, end_credential

    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        async_to_sync(end_credential)(credential_group(session_key=key))
