"""End-to-end tests: Debian's Chromium (Playwright) against the real server.

The session starts its own ``manage.py runserver`` on a free port with a
temporary data folder, migrates it, creates a user and logs the browser in
through ``/login/``. Every test gets a new page (1280x800), already signed in, in
one browser context the session shares: what a test's page leaves in it (local
storage, cookies, permissions, other pages) is put back before the next test.
A test that needs a context of its own makes one (``browser.new_context``).

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


# Storage a page can leave for the next test's pages of the same origin; cookies are put back apart.
LEFT_IN_STORAGE = "local_storage,indexeddb,cache_storage,service_workers,file_systems"


@pytest.fixture(scope="session")
def shared_context(browser, server, auth_state):
    """The browser context every test's page opens in, the cookies it starts with, and the blank page the next
    test gets. Measured: a new context per test cost Chromium 1.9-2.0 s of CPU to open an editor, against 0.7-0.9 s
    in a context that has loaded the app before (its cache and renderer warm). The suite is CPU-bound on two
    cores, so that is minutes of `make test`; `reset_context` keeps the tests apart as a context of their own did."""
    ctx = browser.new_context(viewport=VIEWPORT, accept_downloads=True, storage_state=auth_state, base_url=server)
    yield ctx, ctx.cookies(), []
    ctx.close()


def reset_context(ctx, cookies: list, origin: str):
    """Puts back what a test's pages may have changed in the shared context: closes its pages (first: a page
    that closes may still save a draft), clears the origin's storage, restores the sign-in cookies and drops
    granted permissions (tests/e2e/test_the_shared_context_is_reset.py holds it). Answers the blank page the
    storage was cleared from, for the next test."""
    for p in list(ctx.pages):
        p.close()
    blank = ctx.new_page()
    cdp = ctx.new_cdp_session(blank)
    try:
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": LEFT_IN_STORAGE})
    finally:
        cdp.detach()
    if ctx.cookies() != cookies:
        ctx.clear_cookies()
        ctx.add_cookies(cookies)
    ctx.clear_permissions()
    return blank


@pytest.fixture
def page(request, shared_context, server):
    ctx, cookies, spare = shared_context
    pg = spare.pop() if spare else ctx.new_page()
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
    spare.append(reset_context(ctx, cookies, server))
    assert not errors, f"uncaught errors in the page: {errors}"
