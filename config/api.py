"""The one root API; each app mounts its Router here."""
from ninja import NinjaAPI

from accounts.api import router as accounts_router
from accounts.mcp_api import router as mcp_router
from accounts.workspaces_api import router as workspaces_router
from config.throttles import AnonymousPerAddress
from designer.api import router as designer_router
from designer.errors import install_error_handlers
from designer.folder_api import router as folder_router
from designer.importers.api import router as import_router
from designer.json_body import StrictJsonParser
from designer.templates.api import router as templates_router
from runtime.api import router as runs_router
from runtime.evals.api import router as evals_router

api = NinjaAPI(title="Loop Designer API", version="1", docs_url="/docs", parser=StrictJsonParser())
install_error_handlers(api)
# Before the designer's router: its /workflows/{id} would otherwise take /workflows/import-bundle.
api.add_router("/", folder_router)
# /validate, /render and /import answer anyone: an address not signed in is rate-limited on them.
api.add_router("/", designer_router, throttle=AnonymousPerAddress())
# Before the runs router: its POST /runs/{id}/{action} would otherwise take GET /runs/{id}/rounds.
api.add_router("/", evals_router)
api.add_router("/", runs_router)
api.add_router("/", accounts_router)
api.add_router("/", workspaces_router)
api.add_router("/", mcp_router)
api.add_router("/", import_router, throttle=AnonymousPerAddress())
api.add_router("/", templates_router)
