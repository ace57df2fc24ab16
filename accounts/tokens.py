"""Personal API tokens and the API's two ways in: a bearer token or the browser's session.

Tokens are random, shown once, and stored as a SHA-256 digest.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone
from ninja.security import HttpBearer, SessionAuth

from accounts.login_limits import address_failed, address_locked
from accounts.models import ApiToken

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

TOKEN_PREFIX = "ld_"  # noqa: S105 - the tokens' visible prefix, not a secret
# "Last used" is shown to the minute; a script opening fifty sockets writes it once.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def create_token(user: User, name: str = "token") -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:100] or "token", prefix=token[:10], digest=_digest(token))
    return token


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_for(token: str) -> ApiToken | None:
    """The stored token (with its user) that ``token`` is, if it is valid and its user active."""
    if not token or not token.startswith(TOKEN_PREFIX):
        return None
    found = ApiToken.objects.select_related("user").filter(digest=_digest(token)).first()
    if found is None or not found.user.is_active:
        return None
    now = timezone.now()
    if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found


def user_for_token(token: str) -> User | None:
    found = token_for(token)
    return found.user if found else None


def counted_token_for(request: HttpRequest, token: str) -> ApiToken | None:
    """``token_for`` where a credential is being presented: refused while the request's address is
    locked out (accounts/login_limits.py), and a wrong token counts as a failed sign-in for it."""
    if address_locked(request):
        return None
    found = token_for(token)
    if found is None:
        address_failed(request, sender=BearerToken)
    return found


def signed_in(request: HttpRequest) -> User | None:
    """Who a request on a route open to anyone comes from, by session or by bearer token (None: nobody), so
    such a route answers a token holder as it answers the same person's browser."""
    if request.user.is_authenticated:
        return request.user
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    found = counted_token_for(request, token.strip())
    return found.user if found is not None else None


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        found = counted_token_for(request, token)
        if found is not None:
            request.user = found.user
            return found.user
        return None


class Session(SessionAuth):
    """The browser's session; ninja checks CSRF for unsafe methods."""


API_AUTH = [BearerToken(), Session()]
