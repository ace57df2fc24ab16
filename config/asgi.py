import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from accounts.ws_auth import OriginCheck, TokenOrSessionAuthMiddlewareStack  # noqa: E402
from common import offload  # noqa: E402
from config.memory import freeze_loaded_objects  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from runtime.execution.dispatch import hand_back_at_shutdown  # noqa: E402
from runtime.execution.reaper import start_reaper  # noqa: E402
from runtime.execution.server_loop import capture_loop_at_start, capture_server_loop  # noqa: E402

application = capture_server_loop(
    ProtocolTypeRouter(
        {
            # The embedded default serves the built front end itself.
            "http": django_asgi_app,  # WhiteNoise (a middleware) serves static files, with nosniff and the 413
            "websocket": OriginCheck(TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)
capture_loop_at_start()
hand_back_at_shutdown()
start_reaper()
offload.warm_up_in_background()  # the document workers start beside the server, not on the first request
list(get_resolver().url_patterns)  # import the views and the API now, so they are frozen with the rest
freeze_loaded_objects()
