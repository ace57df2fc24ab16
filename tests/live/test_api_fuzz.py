"""Property-based fuzzing of every API route from our own OpenAPI schema, against a real server.

Schemathesis generates requests for each operation of the schema the server serves
(boundary values and wrong types first, then random ones) and sends them to a daphne
server on a fresh PostgreSQL database, which refuses more than SQLite does (NUL in text).
Half the generated bodies, queries and paths also get hostile values mixed in: NUL,
lone surrogates, integers past any reader, nesting past every limit, workflow text
that is deep, huge or full of escapes. Once signed in with an API token, once anonymous.
Whatever the input: no 5xx, no answer slower than RESPONSE_BOUND_S, an anonymous caller never served
by a route that asks who it is, and the server still answers afterwards. A fixed example budget and
seed keep it deterministic: some two minutes alone at rest on this machine, some five beside the
browser tests.
"""
from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from config.api import api
from tests.support.servers import base_env, fresh_postgres, running_server

EXAMPLES_PER_OPERATION = 12
# An anonymous call to a route that asks who is calling is answered 401 before its path, query or body is
# read (django-ninja runs the auth check first): all the fuzzer can reach there is routing, the middleware's
# limits and the check itself, which a few hostile inputs a route exercise as well as twelve (alone at rest:
# 65 s of the fuzz's 149 s with twelve, 50 s of 130 s with four).
ANONYMOUS_EXAMPLES_PER_SECURED_OPERATION = 4
# Where a document is read and stored, the likeliest place for a value to break the database.
EXAMPLES_PER_DOCUMENT_OPERATION = 40
# Generous: "answered at once" against "seconds of CPU", on a shared two-core machine.
RESPONSE_BOUND_S = 5.0


def nested(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_TEXT = ["a\x00b", "\x00", "a\ud800b", "\udfff", "x" * 70_000, "\u2028\u0085", "{{name}}", "ö" * 50]
# Query strings, paths and forms cannot carry a lone surrogate at all (the client cannot encode it).
HOSTILE_URL_TEXT = ["a\x00b", "\x00", "x" * 5_000, "..%2f", "9" * 40]
HOSTILE_NUMBERS = [10**400, -(2**63) - 1, 2**64, 1e308, -0.0]
HOSTILE_VALUES = [nested(300), {"a": nested(250)}, [0] * 60_000]
HOSTILE_SOURCES = [
    'name: "a\\0b"\nsteps:\n  - id: a\n',
    'name: x\nversion: ' + "1" * 5_000 + "\nsteps:\n  - id: a\n",
    '{"name": "a\\ud800b", "steps": [{"id": "a"}]}',
    '{"name": "x", "version": ' + "1" * 5_000 + ', "steps": [{"id": "a"}]}',
    "a: " + "[" * 2_500 + "]" * 2_500,
    "{\"name\": " + "[" * 3_000 + "]" * 3_000 + "}",
    "a: [" + ",".join(["1"] * 120_000) + "]\n",
    "name: x\nsteps:\n" + "".join(f"  - id: s{i}\n    condition: \"'{i}' == '{'y' * 3_900}'\"\n" for i in range(100)),
]
SEED_DOCUMENT = {"name": "review", "description": "d", "agents": {"writer": {"description": "w", "resultSchema": {"type": "object"}}},
                 "steps": [{"id": "draft", "agent": "writer", "instructions": "Write it."},
                           {"id": "loop", "dependsOn": ["draft"], "loop": {"maxIterations": 3, "until": "iteration > 1",
                                                                         "steps": [{"id": "edit", "instructions": "Edit."}]}}]}


# Operations whose body may carry a workflow `document`.
TAKES_DOCUMENT = {"/api/v1/validate", "/api/v1/render", "/api/v1/workflows", "/api/v1/workflows/{workflow_id}"}


def hostile(body: Any, takes_document: bool, text: list[str], values: list) -> st.SearchStrategy:
    """``body`` with one to three of its values (or itself) swapped for hostile ones.

    A few swaps a body, not every value: Hypothesis has a bounded amount of choice per input.
    Where a document is taken, the body first gets a real workflow as its `document` (the
    generated one is still sent untouched too), so the swaps reach what saving reads.
    """
    bodies = [body]
    if takes_document and isinstance(body, dict):
        bodies = [{k: v for k, v in body.items() if k != "source"} | {"document": copy.deepcopy(SEED_DOCUMENT)}]
    return st.sampled_from(bodies).flatmap(
        lambda chosen: st.lists(st.tuples(st.sampled_from(_places(chosen)), st.integers(0, 99)), min_size=1, max_size=3)
        .map(lambda swaps: _swapped(chosen, swaps, text, values)))


def _places(value: Any, limit: int = 300) -> list[tuple]:
    places, queue = [], [()]
    while queue and len(places) < limit:
        path = queue.pop(0)
        if path or not isinstance(value, (dict, list)) or not value:  # the whole body only when it has no parts
            places.append(path)
        node = _at(value, path)
        keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
        queue.extend((*path, k) for k in keys)
    return places


def _at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def _swapped(body: Any, swaps: list[tuple], text: list[str], values: list) -> Any:
    body = copy.deepcopy(body)
    for path, pick in swaps:
        try:
            old = _at(body, path)
        except (KeyError, IndexError, TypeError):  # an earlier swap replaced what held it
            continue
        choices = (HOSTILE_SOURCES if path and path[-1] == "source" else text if isinstance(old, str)
                   else HOSTILE_NUMBERS if isinstance(old, (int, float)) and not isinstance(old, bool) else values)
        new = copy.deepcopy(choices[pick % len(choices)])
        if not path:
            return new
        _at(body, path[:-1])[path[-1]] = new
    return body


def hostile_in_url(values: dict | None) -> st.SearchStrategy:
    if not values:
        return st.just(values)
    # 1 is the workflow (and version) the fixture saved: a save with a hostile body reaches the database.
    return st.fixed_dictionaries({k: st.sampled_from([v, 1, *HOSTILE_URL_TEXT]) for k, v in values.items()})


# The schema the server serves (checked below), built here at collection: each operation is a test.
schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
OPERATIONS = {(method.upper(), path): operation for path, item in schema.raw_schema["paths"].items()
              for method, operation in item.items() if isinstance(operation, dict)}
# Operations an anonymous caller may use (no security requirement in the schema).
OPEN = {key for key, operation in OPERATIONS.items() if not operation.get("security")}


def is_open(context) -> bool:
    return (context.operation.method.upper(), context.operation.path) in OPEN


@schema.hook
def flatmap_body(context, body):
    # A multipart form cannot carry a lone surrogate (JSON escapes it), and a list in a form is
    # one part per item: 60,000 parts measure the client's speed, not the server's.
    if all(b.media_type == "application/json" for b in context.operation.body):
        text, values = HOSTILE_TEXT, HOSTILE_VALUES
    else:
        text, values = HOSTILE_URL_TEXT, HOSTILE_VALUES[:1]
    swapped = hostile(body, context.operation.path in TAKES_DOCUMENT, text, values)
    return st.one_of(st.just(body), swapped, swapped)


@schema.hook
def flatmap_query(context, query):
    return st.one_of(st.just(query), hostile_in_url(query))


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    return st.one_of(st.just(path_parameters), hostile_in_url(path_parameters))


# No shrinking: each call goes to a real server, and the failure message carries the request as curl.
FUZZ = settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None, deadline=None,
                phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def server():
    with fresh_postgres() as database_url:
        # Not rate-limited; a worker task past 3 s is stopped (a 422), within the bound. The fuzzer sends
        # made-up bearer tokens: without a huge failure limit the address is locked out and the rest is 429s.
        env = base_env(DATABASE_URL=database_url, ANON_RATE="1000000/min", WORK_TIMEOUT_S="3",
                       LOGIN_FAILURE_LIMIT="1000000")
        with running_server(env) as s:
            with s.client("owner") as client:  # a workflow to find, and the workers warm
                client.post("/workflows", json={"source": "name: w\nsteps:\n  - id: a\n    instructions: hi\n"})
            yield s


def call_and_check(case, server, headers: dict) -> Any:
    response = case.call(base_url=server.url, headers=headers, timeout=RESPONSE_BOUND_S * 2)
    where = f"{case.method} {case.formatted_path} -> {response.status_code}"
    assert response.status_code < 500, f"{where}: {response.text[:500]}\n{as_curl(case)}"
    assert response.elapsed < RESPONSE_BOUND_S, f"{where} took {response.elapsed:.1f} s\n{as_curl(case)}"
    return response


def as_curl(case) -> str:
    try:
        return case.as_curl_command()[:2000]
    except UnicodeError:  # a lone surrogate in the body: the repr says it as well
        return repr(case.body)[:2000]


def test_the_fuzzed_schema_is_the_one_the_server_serves(server):
    assert httpx.get(server.url + "/api/v1/openapi.json", timeout=10).json() == schema.raw_schema


@schema.parametrize()
@FUZZ
def test_no_input_from_a_signed_in_user_gets_a_server_error_or_a_slow_answer(case, server):
    call_and_check(case, server, server.headers("owner"))


def test_some_routes_are_open_to_anonymous_callers_and_the_rest_are_not():
    # Both fuzzers below must have operations to fuzz: a schema that lost its security requirements would
    # otherwise move every route to the open one unnoticed.
    assert ("POST", "/api/v1/validate") in OPEN and ("GET", "/api/v1/workflows") not in OPEN, sorted(OPEN)
    assert 0 < len(OPEN) < len(OPERATIONS) // 4, sorted(OPEN)


@schema.include(is_open).parametrize()
@FUZZ
def test_no_anonymous_input_to_an_open_route_gets_a_server_error_or_a_slow_answer(case, server):
    call_and_check(case, server, {})


@schema.exclude(is_open).parametrize()
@settings(FUZZ, max_examples=ANONYMOUS_EXAMPLES_PER_SECURED_OPERATION)
def test_no_anonymous_input_to_a_secured_route_is_served_or_gets_a_server_error(case, server):
    response = call_and_check(case, server, {})
    assert not 200 <= response.status_code < 300, (
        f"{case.method} {case.formatted_path} served an anonymous caller ({response.status_code})\n{as_curl(case)}")


@schema.include(path_regex="^/api/v1/(validate|render|workflows|workflows/{workflow_id})$", method_regex="POST|PUT").parametrize()
@settings(FUZZ, max_examples=EXAMPLES_PER_DOCUMENT_OPERATION)
def test_no_document_a_signed_in_user_sends_to_be_read_or_stored_gets_a_server_error(case, server):
    call_and_check(case, server, server.headers("owner"))


def test_the_server_still_answers_after_the_fuzzing(server):
    assert server.process.poll() is None
    me = httpx.get(server.url + "/api/v1/me", headers=server.headers("owner"), timeout=5)
    assert me.status_code == 200 and me.json()["username"] == "owner"
