from django.urls import path

from config.api import api
from designer import pages

urlpatterns = [
    path("api/v1/", api.urls),
    path("", pages.index, name="index"),
]
