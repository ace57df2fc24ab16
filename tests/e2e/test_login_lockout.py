"""In the browser: failing to sign in LOGIN_FAILURE_LIMIT times shows our lockout page (429) saying how
long to wait; the right password is refused too until then; once the announced wait has passed the
same person signs in and reaches the app.

The server runs with a limit of 3 and a cool-off of a quarter of a minute (LOGIN_COOLOFF_MINUTES takes
fractions), so the wait is real but short; the page rounds it up to "1 minute".
"""
from __future__ import annotations

import re
import shutil
import time

import pytest

from tests.support.browser import VIEWPORT
from tests.support.content_security_policy import Watcher
from tests.support.servers import base_env, password_for, running_server

USERNAME = "locked"
LIMIT = 3


@pytest.fixture(scope="module")
def strict_server():
    env = base_env(LOGIN_FAILURE_LIMIT=LIMIT, LOGIN_COOLOFF_MINUTES=0.25)
    try:
        with running_server(env, users=(USERNAME,)) as live:
            yield live.url
    finally:
        shutil.rmtree(env["DESIGNER_DATA_DIR"], ignore_errors=True)


def submit(page, password: str):
    """Signs in through the form; answers the server's response to the POST."""
    page.fill("input[name=username]", USERNAME)
    page.fill("input[name=password]", password)
    with page.expect_response(lambda r: r.url.endswith("/login/") and r.request.method == "POST") as answer:
        page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    return answer.value


def test_locked_out_after_the_limit_told_how_long_and_let_in_after_it(browser, strict_server):
    ctx = browser.new_context(viewport=VIEWPORT, base_url=strict_server)
    try:
        page = ctx.new_page()
        watched = Watcher(page)
        page.goto("/login/")
        for _ in range(LIMIT - 1):
            assert submit(page, "wrong password").status == 200
            page.locator(".errors", has_text="did not match").wait_for()

        locked = submit(page, "wrong password")
        assert locked.status == 429
        message = page.get_by_test_id("lockout-message")
        assert message.inner_text() == "Too many failed sign-in attempts. Try again in 1 minute."
        # Our page, dressed like the account pages.
        assert page.title() == "Try again later · Loop Designer"
        assert page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor") == "rgb(255, 255, 255)"

        # The right password is refused while locked out.
        page.get_by_role("link", name="Back to log in").click()
        refused = submit(page, password_for(USERNAME))
        assert refused.status == 429
        assert "Try again in 1 minute." in page.get_by_test_id("lockout-message").inner_text()
        wait_s = int(refused.headers["retry-after"])
        assert 0 < wait_s <= 15

        # Once the announced wait has passed, the same password gets in, to the app.
        time.sleep(wait_s + 0.5)
        page.goto("/login/")
        assert submit(page, password_for(USERNAME)).status == 302
        page.wait_for_url(re.compile(r"/$"))
        page.get_by_role("button", name=re.compile("Runsight or Coqui")).wait_for()
        assert page.request.get("/api/v1/me").json() == {"username": USERNAME}
        watched.assert_clean()
    finally:
        ctx.close()
