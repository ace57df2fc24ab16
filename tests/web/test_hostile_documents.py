"""Documents no store or reader can hold are refused at once, naming the field, by /validate and /workflows alike.

Against a real server on PostgreSQL, which refuses NUL in text and jsonb: every case of
issue 17 that answered 500 (or took seconds of CPU) now answers a 4xx, or for /validate
`valid: false`, with the field or line named, well within a second or two, and nothing
is saved. /validate never calls valid what /workflows refuses to store.
"""
from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.support.servers import base_env, fresh_postgres, running_server

pytestmark = pytest.mark.serial  # holds the app to a wall-clock limit (answers within seconds): never beside another test

# Seconds: "answered at once", against the 3-21 s of CPU these cases cost before.
AT_ONCE = 2.0
HUGE_INTEGER = "1" * 5_000


@pytest.fixture(scope="module")
def server():
    with fresh_postgres() as database_url, running_server(base_env(DATABASE_URL=database_url, ANON_RATE="100000/min")) as s:
        # The first check starts the worker processes; the cases below measure answers, not that.
        assert httpx.post(s.url + "/api/v1/validate", json={"source": "name: w\nsteps:\n  - id: a\n"}, timeout=60).status_code == 200
        yield s


def send(server, path: str, body: dict, user: str | None = "owner") -> tuple[httpx.Response, float]:
    # ensure_ascii (the default) writes a lone surrogate as the escape \ud800, as JSON allows.
    headers = {"content-type": "application/json", **(server.headers(user) if user else {})}
    started = time.monotonic()
    response = httpx.post(server.url + "/api/v1" + path, content=json.dumps(body).encode(), headers=headers, timeout=60)
    return response, time.monotonic() - started


def nothing_saved(server) -> bool:
    return httpx.get(server.url + "/api/v1/workflows", headers=server.headers("owner"), timeout=10).json() == []


STEPS = [{"id": "a", "instructions": "Write it."}]


def in_a_loop(steps: list) -> dict:
    return {"document": {"name": "w", "steps": [{"id": "l", "loop": {"maxIterations": 2, "steps": steps}}]}}


# (what, body, words the answer must hold: the field or line, and the reason)
CASES = [
    ("a lone surrogate in the name", {"document": {"name": "a\ud800b", "steps": STEPS}}, ["/document/name", "lone surrogate"]),
    ("a lone surrogate in the description", {"document": {"name": "w", "description": "a\udfffb", "steps": STEPS}},
     ["/document/description", "lone surrogate"]),
    ("a NUL in the name", {"document": {"name": "a\x00b", "steps": STEPS}}, ["/document/name", "NUL"]),
    ("a NUL in instructions", {"document": {"name": "w", "steps": [{"id": "a", "instructions": "x\x00"}]}},
     ["/document/steps/0/instructions", "NUL"]),
    ("a YAML integer of 5,000 digits", {"source": f"name: w\nversion: {HUGE_INTEGER}\nsteps:\n  - id: a\n"}, ["/version", "line 2", "too large"]),
    ("a JSON integer of 5,000 digits in source text", {"source": f'{{"name": "w", "version": {HUGE_INTEGER}, "steps": [{{"id": "a"}}]}}'},
     ["/version", "too large"]),
    ("a NUL written as a YAML escape", {"source": 'name: "a\\0b"\nsteps:\n  - id: a\n'}, ["/name", "line 1", "NUL"]),
    ("a lone surrogate written as a JSON escape in source text", {"source": '{"name": "a\\ud800b", "steps": [{"id": "a"}]}'},
     ["/name", "lone surrogate"]),
    ("a 100,000-step document", in_a_loop([{"id": f"s{i}"} for i in range(100_000)]), ["more than", "values"]),
    ("60,000 steps in 1.8 MB", in_a_loop([{"id": f"step-{i:05}", "instructions": "x" * 10} for i in range(60_000)]), ["50,000 values"]),
    ("1,500 steps across loops", {"document": {"name": "w", "steps": [in_a_loop([{"id": f"s{i}"} for i in range(150)])["document"]["steps"][0]
                                                                     | {"id": f"l{k}"} for k in range(10)]}},
     ["/steps", "1,000 steps in all"]),
    ("100 steps with distinct 4 kB conditions",
     {"document": {"name": "w", "steps": [{"id": f"s{i}", "condition": f"'{i}' == '{'y' * 3_990}'"} for i in range(100)]}},
     ["/steps/5/condition", "20,000"]),
    ("a document object over 1 MiB as JSON",
     {"document": {"name": "w", "steps": [{"id": "each", "loop": {"forEach": ["z" * 600] * 2_000, "steps": [{"id": "a"}]}}]}},
     ["1 MiB", "1,048,576 bytes"]),
    ("a source text over 1 MiB", {"source": "name: w\n# " + "x" * (1024 * 1024) + "\nsteps:\n  - id: a\n"}, ["1 MiB"]),
]


def answer_text(response: httpx.Response) -> str:
    body = response.json()
    if "errors" in body and "valid" in body:
        return " ".join(f"{e['path']} line {e['line']} {e['message']}" for e in body["errors"])
    return body["detail"] + " " + " ".join(f"{d['path']} line {d['line']} {d['message']}" for d in body.get("diagnostics", []))


@pytest.mark.parametrize("what, body, words", CASES, ids=[c[0] for c in CASES])
def test_validate_refuses_it_at_once_naming_the_field(server, what, body, words):
    response, took = send(server, "/validate", body, user=None)
    assert took < AT_ONCE, f"{what}: {took:.2f} s"
    assert 200 <= response.status_code < 500
    if response.status_code == 200:
        assert response.json()["valid"] is False and response.json()["canonical"] is None
    text = answer_text(response)
    assert all(w in text for w in words), text


@pytest.mark.parametrize("what, body, words", CASES, ids=[c[0] for c in CASES])
def test_workflows_refuses_to_store_it_at_once_naming_the_field(server, what, body, words):
    response, took = send(server, "/workflows", body)
    assert took < AT_ONCE, f"{what}: {took:.2f} s"
    assert 400 <= response.status_code < 500, response.text[:300]
    text = answer_text(response)
    assert all(w in text for w in words), text
    assert nothing_saved(server)


@pytest.mark.parametrize("field, value", [("name", "a\ud800b"), ("name", "a\x00b"), ("layout", {"a\x00": 1})])
def test_the_fields_beside_the_document_are_held_to_the_same_rules(server, field, value):
    response, _ = send(server, "/workflows", {"source": "name: w\nsteps:\n  - id: a\n", field: value})
    assert response.status_code == 400 and f"`/{field}" in response.json()["detail"]
    assert nothing_saved(server)


def test_a_draft_with_errors_is_still_saved_so_only_what_cannot_be_stored_is_refused(server):
    response, _ = send(server, "/workflows", {"document": {"name": "w", "steps": [{"id": "a", "dependsOn": ["ghost"]}]}})
    assert response.status_code == 201 and response.json()["valid"] is False
    httpx.delete(f"{server.url}/api/v1/workflows/{response.json()['id']}", headers=server.headers("owner"), timeout=10)
