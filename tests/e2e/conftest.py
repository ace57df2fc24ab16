"""End-to-end tests: Debian's Chromium (Playwright) against the real server.

The session starts its own ``manage.py runserver`` on a free port with a
temporary data folder, migrates it, creates a user and logs the browser in
through ``/login/``. Every test gets a fresh browser context (1280x800) that
is already signed in.

Fails (never skips) when Chromium or the built front end is missing:
``make chromium`` and ``make frontend`` provide them.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PASSWORD, USERNAME, VIEWPORT
from tests.support.servers import REPO, base_env, running_server


@pytest.fixture(scope="session")
def server():
    """Base URL of a real server started for this session."""
    dist = Path(os.environ.get("FRONTEND_DIST", REPO / "frontend" / "dist"))
    if not (dist / "index.html").exists():
        pytest.fail(f"{dist} is missing: run `make frontend` first (make test does)")
    # What a stdio MCP server may read inside the sandbox (tests/fixtures/mcp): the interpreter and the fixtures.
    mcp = REPO / "tests" / "fixtures" / "mcp"
    env = base_env(MCP_SANDBOX_PATHS=":".join(dict.fromkeys((sys.prefix, sys.base_prefix, str(mcp)))))
    try:
        with running_server(env, users=(USERNAME,)) as live:
            yield live.url
    finally:
        shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (make test does)")
    # launch() gives every run a fresh temporary profile (user-data dir).
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def auth_state(server, browser, tmp_path_factory):
    """Signs in once through the login page; tests reuse the session cookie."""
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    page.goto(server + "/login/")
    page.fill("input[name=username]", USERNAME)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state("networkidle")
    me = page.request.get(server + "/api/v1/me")
    assert me.ok, f"login through /login/ did not give a session: GET /api/v1/me -> {me.status}"
    path = tmp_path_factory.mktemp("auth") / "state.json"
    ctx.storage_state(path=str(path))
    ctx.close()
    return str(path)


FAILURES = Path(tempfile.gettempdir()) / "e2e-failures"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call":
        item.e2e_failed = rep.failed


@pytest.fixture
def page(request, browser, server, auth_state):
    ctx = browser.new_context(viewport=VIEWPORT, accept_downloads=True, storage_state=auth_state,
                              base_url=server)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # Every wait is for a condition: beside the live tests (make test runs the two side by side) a loaded machine
    # takes longer to get there, never less far.
    pg.set_default_timeout(45_000)
    expect.set_options(timeout=45_000)  # assertions wait as long as locators do on a loaded machine
    yield pg
    if getattr(request.node, "e2e_failed", False):
        FAILURES.mkdir(exist_ok=True)
        shot = FAILURES / f"{request.node.name[:80]}.png"
        with contextlib.suppress(Exception):  # the page may be gone
            pg.screenshot(path=str(shot))
            print(f"screenshot of the failure: {shot}")
    ctx.close()
    assert not errors, f"uncaught errors in the page: {errors}"
