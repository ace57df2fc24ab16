"""The web fixtures (a signed-in owner) for the view tests that run against the database."""
from tests.web.conftest import owner, owner_client  # noqa: F401
