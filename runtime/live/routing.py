from django.urls import re_path

from runtime.live.consumers import RunConsumer, RunListConsumer, RunViewConsumer

websocket_urlpatterns = [
    re_path(r"^ws/runs/$", RunListConsumer.as_asgi()),
    re_path(r"^ws/runs/(?P<run_id>[0-9a-fA-F-]{1,64})/$", RunConsumer.as_asgi()),
    re_path(r"^ws/runs/(?P<run_id>[0-9a-fA-F-]{1,64})/view/$", RunViewConsumer.as_asgi()),
]
