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


@pytest.fixture(autouse=True)
def no_run_outlives_its_test():
    """Runs started through the in-process backend execute on a background loop: stop and
    await them before the next test (and before its database is flushed)."""
    yield
    import sys

    if "runtime.execution.dispatch" not in sys.modules:  # no test here started a run in this process
        return
    import concurrent.futures

    from runtime.execution import dispatch

    for run_id in list(dispatch._live):
        dispatch.control_local(run_id, "stop")
    pending = dispatch.local_futures()
    if pending:
        concurrent.futures.wait(pending, timeout=30)
