websocket_urlpatterns: list = []

try:  # The runtime app contributes its consumers once it has them.
    from runtime.routing import websocket_urlpatterns as _runtime_ws

    websocket_urlpatterns += _runtime_ws
except ImportError:
    pass
