"""Hooks and fixtures for the whole suite. What tests import lives in tests/support/ (its __init__.py lists it).

The data folder is chosen before this file is loaded: pytest.ini's settings module, tests/support/settings.py."""
import concurrent.futures
import os
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.tokens import create_token

# A test spread over xdist workers that never reports fails the run (make test runs three parts that way).
pytest_plugins = ("tests.support.every_test_reported",)

# Hypothesis keeps its example database outside the checkout too (its default is ./.hypothesis), in one folder
# that outlives the session, so a failing example is tried first the next time.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "designer-hypothesis"))


def pytest_report_header(config):
    return f"data folder (removed at the end): {settings.DATA_DIR}"


def pytest_itemcollected(item):
    # Live and browser tests start their own servers, workers and Chromium: `make test` runs them apart from the
    # in-process tests (marked here, before -m selects), tests/live and tests/e2e as two pytest processes side by
    # side: Playwright's sync API leaves an event loop running in its process, where an asyncio test can no longer
    # run. The group marks keep them apart too in a run of both with --dist loadgroup.
    for folder, group in (("/tests/live/", "live"), ("/tests/e2e/", "browser")):
        if folder in str(item.path):
            item.add_marker(pytest.mark.own_servers)
            item.add_marker(pytest.mark.xdist_group(group))


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
    # Looked up, not imported: until a test loads the in-process backend, no run of it can be live.
    dispatch = sys.modules.get("runtime.execution.dispatch")
    if dispatch is None:
        return
    for run_id in list(dispatch._live):
        dispatch.control_local(run_id, "stop")
    pending = dispatch.local_futures()
    if pending:
        concurrent.futures.wait(pending, timeout=30)
    # Experiments (runtime.evals) are driven on threads of their own: they end once their runs have.
    experiments = sys.modules.get("runtime.evals.experiments")
    if experiments is not None:
        experiments.wait_for_drivers(timeout=60)


# ---------------------------------------------------------------- people (tests/web, tests/view, ...)


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("owner", password="owner-pass-123")


@pytest.fixture
def server_owner(db, settings):
    """The server's superuser, whose personal workspace may use the server's provider keys; provider URLs may be
    private (the fake providers listen on loopback)."""
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    return get_user_model().objects.create_superuser("boss", password=None)


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("stranger", password="stranger-pass-123")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def stranger_client(stranger):
    c = Client()
    c.force_login(stranger)
    return c


@pytest.fixture
def owner_token(owner):
    return create_token(owner, "tests")
