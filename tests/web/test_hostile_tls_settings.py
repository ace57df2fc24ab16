"""Behind TLS (HTTPS=1), cookies are Secure, browsers get HSTS and plain HTTP is redirected.

Off by default: the embedded default serves plain http on 127.0.0.1, where a Secure cookie
would never come back. With TRUSTED_PROXIES=1 the proxy's X-Forwarded-Proto says whether
the browser's connection was TLS.
"""
from __future__ import annotations

import httpx
import pytest

from tests.support.servers import base_env, running_server

BEHIND_TLS = {"X-Forwarded-Proto": "https"}


@pytest.fixture(scope="module")
def tls_server():
    with running_server(base_env(HTTPS=1, TRUSTED_PROXIES=1), users=("owner",)) as s:
        yield s


@pytest.fixture(scope="module")
def plain_server():
    with running_server(base_env(), users=("owner",)) as s:
        yield s


def test_behind_tls_cookies_are_secure_and_browsers_are_told_to_keep_to_https(tls_server):
    response = httpx.get(tls_server.url + "/login/", headers=BEHIND_TLS, timeout=10)
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "Secure" in cookie


def test_behind_tls_a_plain_http_request_is_redirected_to_https(tls_server):
    response = httpx.get(tls_server.url + "/login/?next=/", timeout=10)
    assert response.status_code == 301
    assert response.headers["Location"] == tls_server.url.replace("http://", "https://") + "/login/?next=/"


def test_by_default_nothing_assumes_tls(plain_server):
    response = httpx.get(plain_server.url + "/login/", headers=BEHIND_TLS, timeout=10)
    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response.headers
    assert "Secure" not in response.headers["Set-Cookie"]
