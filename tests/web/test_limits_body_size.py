"""A body over the limit is answered 413 naming the limit, on every route, before any view reads it.

Django raised RequestDataTooBig only when a view read the body: a 500 in the API, a bare
400 on pages. The server here runs with a 64 KiB limit (REQUEST_MAX_BYTES) so each route
can be tried without shipping megabytes; the message names whatever limit is set.
"""
from __future__ import annotations

import httpx
import pytest

from tests.support.servers import base_env, running_server

LIMIT = 64 * 1024
NAMED = "the limit is 0.0625 MiB (65,536 bytes)"
PAGES = [("POST", "/login/"), ("POST", "/signup/"), ("POST", "/account/"), ("POST", "/logout/"), ("POST", "/"),
         ("POST", "/workflows/7"), ("GET", "/runs/x"), ("POST", "/api/v1/docs"), ("POST", "/api/v1/no-such-route")]


UPLOAD_LIMIT = 128 * 1024  # a workspace zip has its own limit (WORKSPACE_UPLOAD_MAX_BYTES), plus multipart's 64 KiB
UPLOADS = "/api/v1/uploads"


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(REQUEST_MAX_BYTES=LIMIT, WORKSPACE_UPLOAD_MAX_BYTES=UPLOAD_LIMIT)) as s:
        yield s


def api_routes(server) -> list[tuple[str, str]]:
    paths = httpx.get(server.url + "/api/v1/openapi.json", timeout=10).json()["paths"]
    return [(method.upper(), path.replace("{workflow_id}", "1").replace("{run_id}", "x").replace("{number}", "1")
             .replace("{action}", "stop").replace("{slug}", "x"))
            for path, operations in paths.items() for method in operations]


def test_every_api_route_answers_413_in_json_naming_the_limit(server):
    routes = api_routes(server)
    assert len(routes) > 20
    body = b"x" * (LIMIT + 1)
    for method, path in routes:
        if (method, path) == ("POST", UPLOADS):
            continue  # its own, larger limit: below
        for headers in ({}, server.headers("owner")):
            response = httpx.request(method, server.url + path, content=body, headers=headers, timeout=30)
            assert response.status_code == 413, (method, path, response.status_code)
            assert response.json()["detail"] == f"the request body is {LIMIT + 1:,} bytes; {NAMED}", (method, path)


@pytest.mark.parametrize("method, path", PAGES)
def test_every_page_answers_413_naming_the_limit(server, method, path):
    response = httpx.request(method, server.url + path, content=b"a=" + b"x" * LIMIT, timeout=30,
                             headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413
    assert NAMED in response.text


def test_a_chunked_body_without_a_length_is_measured_as_it_arrived(server):
    def chunks():
        for _ in range(20):
            yield b"y" * 4096
    response = httpx.post(server.url + "/api/v1/validate", content=chunks(), headers={"content-type": "application/json"}, timeout=30)
    assert response.status_code == 413
    assert response.json()["detail"] == f"the request body is {20 * 4096:,} bytes; {NAMED}"


def test_a_multipart_upload_over_the_limit_is_refused_before_it_is_parsed(server):
    response = httpx.post(server.url + "/api/v1/workflows/import", files={"file": ("big.yaml", b"name: w\n" + b"#" * LIMIT)},
                          headers=server.headers("owner"), timeout=30)
    assert response.status_code == 413 and NAMED in response.json()["detail"]


def test_a_body_at_the_limit_is_read(server):
    source = "name: w\nsteps:\n  - id: a\n# " + "x" * 40_000 + "\n"
    response = httpx.post(server.url + "/api/v1/validate", json={"source": source}, timeout=30)
    assert response.status_code == 200 and response.json()["valid"] is True



def test_a_workspace_zip_has_its_own_limit_and_is_refused_past_it_naming_it(server):
    within = httpx.post(server.url + UPLOADS, files={"file": ("w.zip", b"x" * (LIMIT * 2))}, headers=server.headers("owner"),
                        timeout=30)
    assert within.status_code == 400 and "not a zip" in within.json()["detail"]  # past the general limit: read
    past = UPLOAD_LIMIT + 64 * 1024 + 1
    response = httpx.post(server.url + UPLOADS, content=b"x" * past, headers=server.headers("owner"), timeout=30)
    assert response.status_code == 413
    assert response.json()["detail"].startswith(f"the request body is {past:,} bytes; the limit is")
