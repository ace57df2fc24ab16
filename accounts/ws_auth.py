"""Websocket auth: the browser's session, or `Authorization: Bearer <token>` for scripts."""
from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.security.websocket import AllowedHostsOriginValidator

from accounts.login_limits import socket_request
from accounts.models import ApiToken
from accounts.sockets import credential_group
from accounts.tokens import counted_token_for
from common.orm import off_loop
from common.types import ASGIApp, Receive, Scope, Send


class BearerTokenMiddleware:
    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        headers = dict(scope.get("headers") or [])
        value = headers.get(b"authorization", b"").decode("latin-1")
        if value.lower().startswith("bearer "):
            found = await _token_for(scope, value[7:].strip())
            if found is not None:
                scope = {**scope, "user": found.user, "credential": credential_group(token_id=found.pk)}
        elif scope.get("session") is not None and scope["session"].session_key:
            scope = {**scope, "credential": credential_group(session_key=scope["session"].session_key)}
        return await self.inner(scope, receive, send)


@off_loop
def _token_for(scope: Scope, token: str) -> ApiToken | None:
    # Guessing tokens over a socket counts like guessing them over the API; a locked-out address gets no user.
    return counted_token_for(socket_request(scope), token)


def TokenOrSessionAuthMiddlewareStack(inner: ASGIApp) -> ASGIApp:
    # The session stack runs first; a valid bearer token then takes precedence.
    return AuthMiddlewareStack(BearerTokenMiddleware(inner))


class OriginCheck:
    """Refuse websocket handshakes from pages of other sites.

    Browsers always send Origin on a websocket handshake, so a cross-site page
    riding on the session cookie is refused here. Scripts and CI clients send
    no Origin and authenticate with a bearer token instead.
    """

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        headers = dict(scope.get("headers") or [])
        if b"origin" not in headers:
            return await self.inner(scope, receive, send)
        return await self.checked(scope, receive, send)
