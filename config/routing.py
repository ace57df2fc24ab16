from runtime.live.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
