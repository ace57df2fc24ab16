"""The one root API; each app mounts its Router here."""
from ninja import NinjaAPI

from designer.api import router as designer_router
from designer.errors import install_error_handlers

api = NinjaAPI(title="Loop Designer API", version="1", docs_url="/docs")
install_error_handlers(api)
api.add_router("/", designer_router)
