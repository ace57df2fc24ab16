from runtime.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
