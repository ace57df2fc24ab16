"""Anyone may call /validate, /render and /import without signing in, at ANON_RATE requests per address.

Past the rate an anonymous address gets 429 with Retry-After and the wait in words; the
three endpoints share one count. Signed-in callers (a session or an API token) are not
counted. X-Forwarded-For is not believed unless TRUSTED_PROXIES says a proxy sets it, so
a client cannot buy a fresh count by inventing addresses.
"""
from __future__ import annotations

import re

import httpx
import pytest

from tests.support.servers import base_env, password_for, running_server

SOURCE = {"source": "name: w\nsteps:\n  - id: a\n"}


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(ANON_RATE="4/min")) as s:
        yield s


def validate(server, **kw) -> httpx.Response:
    return httpx.post(server.url + "/api/v1/validate", json=SOURCE, timeout=30, **kw)


def test_an_address_past_the_rate_gets_429_with_the_wait_until_the_minute_is_over(server):
    answers = [validate(server).status_code,
               httpx.post(server.url + "/api/v1/render", json={"document": {"name": "w"}}, timeout=30).status_code,
               httpx.post(server.url + "/api/v1/import", json={"kind": "coqui", "source": "{}"}, timeout=30).status_code,
               validate(server).status_code]
    assert 429 not in answers
    refused = validate(server)
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 0 < wait <= 60
    assert re.fullmatch(r"too many requests from your address; try again in \d+ s", refused.json()["detail"])
    # Another route of the same address is refused too: one count for the three.
    assert httpx.post(server.url + "/api/v1/render", json={"document": {"name": "w"}}, timeout=30).status_code == 429


def test_an_invented_forwarded_address_does_not_reset_the_count(server):
    for _ in range(5):
        validate(server)
    assert validate(server, headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 429


def test_a_caller_with_an_api_token_is_not_counted(server):
    for _ in range(5):
        validate(server)
    answers = {validate(server, headers=server.headers("owner")).status_code for _ in range(8)}
    assert answers == {200}


def test_a_signed_in_browser_session_is_not_counted(server):
    with httpx.Client(base_url=server.url, timeout=30) as browser:
        browser.get("/login/")
        signed_in = browser.post("/login/", data={"username": "owner", "password": password_for("owner"),
                                                  "csrfmiddlewaretoken": browser.cookies["csrftoken"]})
        assert signed_in.status_code == 302 and "sessionid" in browser.cookies
        answers = {browser.post("/api/v1/validate", json=SOURCE).status_code for _ in range(8)}
    assert answers == {200}
