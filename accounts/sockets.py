"""Websockets end with the credential that opened them (a revoked token, a session logged out) and with
the membership that let them watch (someone taken out of a workspace stops watching its runs at once)."""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest


def credential_group(*, token_id: int | None = None, session_key: str | None = None) -> str:
    """Sockets opened with one API token or one browser session: closed together when it ends."""
    return f"auth.token.{token_id}" if token_id is not None else f"auth.session.{session_key}"


async def end_credential(group: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    with contextlib.suppress(Exception):  # an unreachable layer: sockets re-check their credential when they next read
        await layer.group_send(group, {"type": "auth.ended"})


def member_group(workspace_id: int, user_id: int) -> str:
    """Sockets one user watches a workspace's runs with: told when that user leaves the workspace."""
    return f"access.ws{workspace_id}.user{user_id}"


async def end_membership(workspace_id: int, user_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    with contextlib.suppress(Exception):  # an unreachable layer: each socket's next read of the run re-checks membership
        await layer.group_send(member_group(workspace_id, user_id), {"type": "access.ended", "workspace_id": workspace_id})


def close_member_sockets(workspace_id: int, user_id: int) -> None:
    async_to_sync(end_membership)(workspace_id, user_id)


def close_token_sockets(token_id: int) -> None:
    async_to_sync(end_credential)(credential_group(token_id=token_id))


def close_session_sockets(sender: type[User], request: HttpRequest | None, user: User | None, **kwargs: Any) -> None:
    """On logout, the websockets the browser session opened close too (connected in apps.py)."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        async_to_sync(end_credential)(credential_group(session_key=key))
