"""Request bodies that are not JSON a store can hold get a 400 saying where, on a real server.

A body nested 10,000 deep got a bare "Cannot parse request body"; docs/api.md promises the
line and column. Bodies are also held to a depth and a number of values, and to text
PostgreSQL and UTF-8 can hold, so nothing later recurses, fails to encode or fails to save.
"""
from __future__ import annotations

import httpx
import pytest

from tests.support.servers import base_env, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(ANON_RATE="100000/min")) as s:
        yield s


def post(server, path: str, raw: bytes, content_type: str = "application/json") -> httpx.Response:
    headers = {"content-type": content_type, **server.headers("owner")}
    return httpx.post(server.url + "/api/v1" + path, content=raw, headers=headers, timeout=60)


@pytest.mark.parametrize("path", ["/validate", "/render", "/workflows", "/runs", "/import"])
def test_a_body_nested_ten_thousand_deep_is_refused_with_its_line_and_column(server, path):
    response = post(server, path, b'{"document": ' + b"[" * 10_000 + b"]" * 10_000 + b"}")
    assert response.status_code == 400
    assert response.json()["detail"] == "invalid JSON body: nested more than 256 levels deep at line 1, column 1038"


def test_a_body_nested_past_the_limit_but_within_the_parser_is_refused_naming_the_place(server):
    response = post(server, "/validate", b'{"document": {"steps": ' + b"[" * 300 + b"]" * 300 + b"}}")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("invalid JSON body: `/document/steps/0/0/0")
    assert "nested more than 256 levels deep" in response.json()["detail"]


@pytest.mark.parametrize("raw, words", [
    (b'{"source": "\xff\xfe"}', "not UTF-8 text"),
    (b'{"document": {"version": ' + b"9" * 5_000 + b"}}", "number too large for JSON readers (over 1.8e308) at line 1, column 26"),
    (b'{"document": {"version": ' + b"9" * 400 + b"}}", "`/document/version` is a number too large"),
    (b'{"document": {"name": "a\\u0000b"}}', "`/document/name` holds a NUL character"),
    (b'{"document": {"a\\ud800": 1}}', "`/document/a\\ud800` has a key that holds a lone surrogate"),
    (b'{"document": [' + b"0," * 250_000 + b"0]}", "the body holds more than 200,000 values"),
])
def test_values_no_store_can_hold_are_refused_saying_which(server, raw, words):
    response = post(server, "/validate", raw)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_a_multipart_body_that_does_not_parse_is_a_400_not_a_500(server):
    response = post(server, "/workflows/import", b"--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc",
                    content_type="multipart/form-data; boundary=x")
    assert response.status_code == 400 or response.status_code == 422
    assert response.json()["detail"]


def test_too_many_form_fields_are_a_400_not_a_500(server):
    fields = {f"f{i}": "v" for i in range(1_200)}
    response = httpx.post(server.url + "/api/v1/workflows/import", data=fields, files={"file": ("w.yaml", b"name: w\n")},
                          headers=server.headers("owner"), timeout=60)
    assert response.status_code == 400 and "DATA_UPLOAD_MAX_NUMBER_FIELDS" in response.json()["detail"]
