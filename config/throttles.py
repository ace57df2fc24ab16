"""Rate limits for the endpoints anyone may call without signing in.

`/validate`, `/render` and `/import` stay open (a script or a CI job can check a file with
no account), so an address that is not signed in gets ANON_RATE requests (default 120 a
minute) on them; past it the answer is 429 with Retry-After. Signed-in callers (a session
or an API token) are not counted: their work is bounded per request like everyone's.
The count lives in Django's cache (Redis when REDIS_URL is set, so every server process
shares it). Behind a reverse proxy, TRUSTED_PROXIES tells whose X-Forwarded-For to believe.
"""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

from accounts.tokens import user_for_token


class AnonymousPerAddress(SimpleRateThrottle):
    scope = "anonymous"

    def __init__(self) -> None:
        super().__init__(rate=settings.ANON_RATE)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if _signed_in(request):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def _signed_in(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return True
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return scheme.lower() == "bearer" and user_for_token(token.strip()) is not None
