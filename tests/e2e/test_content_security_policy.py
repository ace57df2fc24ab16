"""Every page is served with a Content-Security-Policy (scripts only from this server, none inline,
no eval, nothing from elsewhere), and the whole app works under it with no violation: the editor and
its palette, the import dialog, a run watched live over the websocket, the account pages, the API docs.

Violations are collected twice: the `securitypolicyviolation` events of each page (an init script
keeps them in window.__cspViolations and hands them to the test, as a navigation would lose them)
and Chromium's console lines about the policy, which also cover workers. A control test injects an
inline script, an inline event handler and a script from another origin and expects each to be
refused and reported, so an empty list means a policy that was enforced and watched, not a watcher
that saw nothing.
"""
from __future__ import annotations

import re

import pytest

from tests.support.browser import VIEWPORT, api, open_new_editor, wait_checked
from tests.support.content_security_policy import Watcher

WORKFLOW = "name: csp\nsteps:\n  - id: hello\n    instructions: Say hello.\n"
SCRIPT = "latency: 0.2\nreplies:\n  hello: ['hello from the simulated provider']\n"
IMPORTED = "name: imported\nsteps:\n  - id: first\n    instructions: One.\n  - id: second\n    dependsOn: [first]\n    instructions: Two.\n"


@pytest.fixture
def watched(page) -> Watcher:
    return Watcher(page)


def test_inline_and_foreign_scripts_are_refused_and_reported(watched):
    """The control: what the policy forbids is refused, and both collectors see it."""
    page = watched.page
    page.goto("/account/")
    page.evaluate("""() => {
        const inline = document.createElement('script');
        inline.textContent = 'window.__inlineRan = true';
        document.head.appendChild(inline);
        const foreign = document.createElement('script');
        foreign.src = 'https://cdn.example.com/library.js';
        document.head.appendChild(foreign);
        const handler = document.createElement('img');
        handler.setAttribute('onerror', 'window.__handlerRan = true');
        handler.src = '/static/missing.png';
        document.body.appendChild(handler);
    }""")
    page.wait_for_function("window.__cspViolations.length >= 3")
    page.wait_for_timeout(500)  # console lines arrive a moment after the events
    assert page.evaluate("[window.__inlineRan, window.__handlerRan]") == [None, None]
    seen = watched.in_page()
    assert sorted(v["directive"] for v in seen) == ["script-src-attr", "script-src-elem", "script-src-elem"]
    assert "https://cdn.example.com/library.js" in {v["blocked"] for v in seen}
    assert len(watched.events) == 3 and len(watched.console) == 3


def test_the_editor_the_import_dialog_and_a_live_run_work_under_the_policy(watched):
    page = watched.page
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    # The editor: a node from the palette (React Flow positions and sizes nodes with inline styles).
    open_new_editor(page)
    page.get_by_test_id("palette-step").click()
    page.locator(".react-flow__node").first.wait_for()
    wait_checked(page)
    # The elk layout runs in a worker loaded from /static.
    page.get_by_test_id("fit").click()

    # The import dialog.
    page.get_by_test_id("import").click()
    page.get_by_test_id("import-text").fill(IMPORTED)
    page.get_by_test_id("import-submit").click()
    page.wait_for_selector("[data-testid=import-text]", state="detached")
    wait_checked(page)
    page.locator("[data-testid='node-second']").wait_for()
    assert page.get_by_test_id("validity").inner_text() == "valid"

    # A run with the simulated provider, its events arriving over the websocket.
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    script = page.locator("[data-testid=run-script]")  # CodeMirror, whose <style> element needs inline styles
    script.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url(re.compile(r"/runs/[0-9a-fA-F-]+$"))
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.get_by_text("hello from the simulated provider").first.wait_for()
    assert any("/ws/runs/" in url for url in sockets), sockets

    watched.assert_clean()


def test_the_account_page_works_under_the_policy(watched):
    page = watched.page
    page.goto("/account/")
    # Styled by its stylesheet, not an inline block: the cards are white on the grey page.
    assert page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor") == "rgb(255, 255, 255)"
    page.fill("#token-name", "csp")
    page.get_by_role("button", name="Create token").click()
    page.locator("#new-token").wait_for()
    watched.assert_clean()


def test_the_api_docs_work_under_the_policy(watched):
    page = watched.page
    page.goto("/api/v1/docs")
    page.locator(".swagger-ui .info .title", has_text="Loop Designer API").wait_for()
    page.locator(".opblock").first.wait_for()
    watched.assert_clean()


def test_signing_in_and_up_work_under_the_policy(browser, server):
    ctx = browser.new_context(viewport=VIEWPORT, base_url=server)
    try:
        page = ctx.new_page()
        watched = Watcher(page)
        page.goto("/signup/")  # the form, or the page saying sign-up needs an invitation (SIGNUP)
        page.locator(".card h1").wait_for()
        page.goto("/login/")
        page.fill("input[name=username]", "nobody")
        page.fill("input[name=password]", "wrong password")
        page.get_by_role("button", name="Log in").click()
        page.locator(".errors", has_text="did not match").wait_for()
        assert page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor") == "rgb(255, 255, 255)"
        watched.assert_clean()
    finally:
        ctx.close()
