"""Types the app's annotations share: a signed-in request (a page's, an API view's), a run's id, ASGI's callables.

Only for annotations: nothing here changes what runs.
"""
from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from django.http import HttpRequest

# A run's primary key as code meets it: the UUID from the database, or its text from a URL or a message.
RunId: TypeAlias = uuid.UUID | str

# ASGI (and Channels): a connection's scope, the messages of its receive and send callables, an application.
Scope: TypeAlias = dict[str, Any]
Message: TypeAlias = dict[str, Any]
Receive: TypeAlias = Callable[[], Awaitable[Message]]
Send: TypeAlias = Callable[[Message], Awaitable[None]]
ASGIApp: TypeAlias = Callable[[Scope, Receive, Send], Awaitable[Any]]

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    class AuthenticatedRequest(HttpRequest):
        """A request behind login_required (or an API's auth): its user is an account, never anonymous."""

        user: User

    class ApiRequest(AuthenticatedRequest):
        """A django-ninja view's request behind ``API_AUTH`` (accounts/tokens.py: a bearer token or the session):
        ``auth`` is what the authenticator returned, the account, which is also ``user``."""

        auth: User
else:
    AuthenticatedRequest = HttpRequest
    ApiRequest = HttpRequest
