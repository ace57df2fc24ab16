"""The public API docs page loads Swagger UI from this server, not from a third-party CDN.

It loaded a script from a CDN without integrity: whoever controls the CDN could run code
on our origin. django-ninja ships the assets; with `ninja` installed as an app, the page
points at them under /static/, served like every other static file.
"""
from __future__ import annotations

import re

import httpx
import pytest

from tests.support.servers import base_env, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(base_env()) as s:
        yield s


def test_every_script_and_stylesheet_of_the_docs_page_comes_from_this_server(server):
    page = httpx.get(server.url + "/api/v1/docs", timeout=10)
    assert page.status_code == 200
    assets = re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]+)"', page.text)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets) and any(a.endswith("swagger-ui.css") for a in assets)
    for asset in assets:
        assert asset.startswith("/static/"), asset
    assert "cdn." not in page.text and "https://" not in page.text


def test_the_swagger_assets_are_served_with_their_types(server):
    page = httpx.get(server.url + "/api/v1/docs", timeout=10).text
    for asset, kind in ((re.search(r'src="(/static/[^"]+swagger-ui-bundle\.js)"', page).group(1), "javascript"),
                        (re.search(r'href="(/static/[^"]+swagger-ui\.css)"', page).group(1), "text/css")):
        response = httpx.get(server.url + asset, timeout=10)
        assert response.status_code == 200 and kind in response.headers["content-type"]
        assert len(response.content) > 10_000
