"""The one root API; each app mounts its Router here."""
from ninja import NinjaAPI

from accounts.api import router as accounts_router
from designer.api import router as designer_router
from designer.errors import install_error_handlers
from designer.json_body import StrictJsonParser
from designer.importers.api import router as import_router
from designer.templates.api import router as templates_router
from runtime.api import router as runs_router

api = NinjaAPI(title="Loop Designer API", version="1", docs_url="/docs", parser=StrictJsonParser())
install_error_handlers(api)
api.add_router("/", designer_router)
api.add_router("/", runs_router)
api.add_router("/", accounts_router)
api.add_router("/", import_router)
api.add_router("/", templates_router)
