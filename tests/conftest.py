import os
import tempfile
from pathlib import Path

# Tests never touch the developer's data folder.
os.environ.setdefault("DESIGNER_DATA_DIR", tempfile.mkdtemp(prefix="designer-test-"))

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO.parent / "shared" / "zenflow-spec-v1"


import pytest  # noqa: E402


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    # Playwright's sync API keeps an event loop running in the main thread while its
    # browser lives; browser tests go last so asyncio-based tests never run beside it.
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path))
