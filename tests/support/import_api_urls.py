"""A URLconf mounting the import and template routers on their own API, so
their tests do not depend on where the root API mounts them."""
from django.urls import path
from ninja import NinjaAPI

from designer.errors import install_error_handlers
from designer.importers.api import make_router as import_router
from designer.templates.api import make_router as templates_router

api = NinjaAPI(title="import tests", urls_namespace="import-tests")
install_error_handlers(api)
api.add_router("/", import_router())
api.add_router("/", templates_router())

urlpatterns = [path("api/v1/", api.urls)]
