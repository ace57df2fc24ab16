"""Hostile files on POST /import are refused at once with 422, naming the line or field.

Runsight YAML nested 2,000 deep cost 12-21 s of CPU and ended in a RecursionError (500);
Coqui JSON 3,000 deep, a RecursionError at once. Their shape is now checked by libyaml's
event stream before any recursive reader sees them, aliases counted as what they repeat.
"""
from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.support.servers import base_env, running_server

pytestmark = pytest.mark.serial  # holds the app to a wall-clock limit (answers within seconds): never beside another test

AT_ONCE = 2.0
GOOD_RUNSIGHT = "blocks:\n  draft:\n    type: linear\n    soul_ref: writer\nworkflow:\n  name: ok\n  entry: draft\n"


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(ANON_RATE="100000/min")) as s:
        assert httpx.post(s.url + "/api/v1/import", json={"kind": "runsight", "source": GOOD_RUNSIGHT}, timeout=60).status_code == 200
        yield s


def alias_bomb() -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\nblocks: *a8\n"


CASES = [
    ("runsight", "a: " + "[" * 2_000 + "]" * 2_000, ["nested more than 64 levels", "line 1"]),
    ("runsight", "blocks:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(1_000)), ["nested more than 64 levels", "line 6"]),
    ("coqui", '{"name": ' + "[" * 3_000 + "]" * 3_000 + "}", ["nested more than 64 levels", "line 1"]),
    ("runsight", alias_bomb(), ["more than 20,000 values", "aliases count"]),
    ("runsight", "blocks: [" + ",".join(["1"] * 120_000) + "]\n", ["more than 20,000 values"]),
    ("coqui", json.dumps({"name": "x", "roles": [{"role": "coder", "prompt": "p"}] * 30_000}), ["more than 20,000 values"]),
    ("coqui", json.dumps({"name": "x", "roles": [{"role": "coder", "prompt": "a\x00b"}]}), ["/roles/0/prompt", "NUL"]),
    ("runsight", GOOD_RUNSIGHT.replace("name: ok", 'name: "a\\0b"'), ["/name", "NUL"]),
    ("coqui", '{"name": "x", "max_iterations": %s, "roles": []}' % ("9" * 5_000), ["number too large"]),
]


@pytest.mark.parametrize("kind, source, words", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_hostile_import_is_refused_at_once_naming_where(server, kind, source, words):
    started = time.monotonic()
    response = httpx.post(server.url + "/api/v1/import", json={"kind": kind, "source": source}, timeout=60)
    took = time.monotonic() - started
    assert response.status_code == 422, response.text[:300]
    body = response.json()
    text = f"{body['detail']} field={body['field']} line {body['line']}"
    assert all(w in text for w in words), text
    assert took < AT_ONCE, f"{took:.2f} s"


def test_the_server_answers_a_good_import_after_the_hostile_ones(server):
    response = httpx.post(server.url + "/api/v1/import", json={"kind": "runsight", "source": GOOD_RUNSIGHT}, timeout=10)
    assert response.status_code == 200 and response.json()["valid"] is True
