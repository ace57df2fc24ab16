"""Chromium for the browser tests (tests/e2e), and what they do with a signed-in page: call the REST API with its
session, wait until the editor has judged the latest edit, open a new editor; a browser signed in to a server of a
test's own."""
from __future__ import annotations

import json
import os

from tests.support.servers import password_for

# Debian's headless shell: the same Chromium (one source package, one version) built without the windowed browser's
# parts. The browser tests cost it about a quarter less CPU than /usr/bin/chromium (README, "How long"); the benches
# that time the editor as users see it (bench/editor.py, bench/liveview.py) keep the full browser.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")  # for the benches
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
USERNAME = "e2e"
PASSWORD = password_for(USERNAME)
VIEWPORT = {"width": 1280, "height": 800}


def csrf(page) -> str:
    for c in page.context.cookies():
        if c["name"] == "csrftoken":
            return c["value"]
    return ""


def api(page, method: str, path: str, body=None):
    """Calls the REST API with the page's session (and CSRF token); returns parsed JSON. The page need not have
    loaded the app: its context has the session's cookies, CSRF token included, from the sign-in."""
    headers = {"X-CSRFToken": csrf(page), "Content-Type": "application/json"}
    if page.url.startswith("http"):
        headers["Referer"] = page.url
    res = page.request.fetch("/api/v1" + path, method=method, headers=headers,
                             data=json.dumps(body) if body is not None else None)
    assert res.ok, f"{method} {path} -> {res.status}: {res.text()[:500]}"
    return res.json() if res.status != 204 else None


def wait_checked(page, timeout: float = 45_000) -> None:
    """Waits until the server has judged the latest edit (the problems panel is current)
    and the editor's text, graph and problems all match it (the YAML is rendered after the verdict)."""
    page.wait_for_selector("[data-testid=problems][data-state=idle]", timeout=timeout)
    page.wait_for_function(
        "() => !document.querySelector(\"[data-testid=editor][data-synced='0']\")", timeout=timeout
    )


def wait_canvas_still(page, still_ms: int = 300, timeout: float = 30_000) -> None:
    """Waits until the editor's canvas view (pan and zoom) has not moved for ``still_ms``. The canvas fits itself
    after it opens and after an import (a timer, then a frame): a click aimed at a node before that fit lands where
    the node was (a full run once toggled a step's breakpoint in its margin instead of selecting it)."""
    page.evaluate("() => { delete window.__canvasStill; }")
    page.wait_for_function(
        """ms => {
            const view = document.querySelector('[data-testid=canvas] .react-flow__viewport');
            if (!view) return false;
            const now = performance.now(), seen = (window.__canvasStill ??= {});
            if (seen.transform !== view.style.transform) {
                seen.transform = view.style.transform;
                seen.since = now;
                return false;
            }
            return now - seen.since >= ms;
        }""", arg=still_ms, polling="raf", timeout=timeout)


def open_saved_workflow(page, source: str) -> dict:
    """Saves ``source`` as a new workflow through the API and opens it in the editor, ready: the workflow."""
    workflow = api(page, "POST", "/workflows", {"source": source})
    page.goto(f"/workflows/{workflow['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    return workflow


def open_new_editor(page) -> None:
    page.goto("/workflows/new")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)


def signed_in_context(browser, base_url: str, username: str, viewport: dict | None = None):
    """A new browser context on a server of the test's own (tests/support/servers.py), signed in as ``username``
    through its login page. The caller closes it."""
    context = browser.new_context(viewport=viewport or VIEWPORT, base_url=base_url)
    page = context.new_page()
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password_for(username))
    page.locator("form button[type=submit], form input[type=submit]").first.click()
    page.wait_for_load_state("networkidle")
    me = page.request.get(base_url + "/api/v1/me")
    assert me.ok, f"signing in as {username} did not give a session: GET /api/v1/me -> {me.status}"
    page.close()
    return context
