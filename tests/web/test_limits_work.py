"""Checking documents runs in worker processes with a time bound and a queue bound.

A task past WORK_TIMEOUT_S is stopped and answered 422 naming the bound; more than
WORK_QUEUE checks at once are answered 503 with Retry-After; either way the next request is
served as usual. This server gets one worker, a 0.3 s bound and a queue of one, so a
document near the value cap (a second or two of reading) shows both.
"""
from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.support.servers import base_env, running_server

SMALL = {"source": "name: w\nsteps:\n  - id: a\n"}
# A result schema near the 50,000-value cap: legal, and a second or two of reading and checking.
HEAVY = {"source": "name: w\nagents:\n  a:\n    description: d\n    resultSchema:\n      type: object\n      properties:\n"
         + "".join(f"        p{i}: {{type: string, enum: [a, b, c, d, e, f, g, h]}}\n" for i in range(4_500))
         + "steps:\n  - id: s\n    agent: a\n"}


@pytest.fixture(scope="module")
def server():
    env = base_env(ANON_RATE="100000/min", WORK_PROCESSES=1, WORK_QUEUE=1, WORK_TIMEOUT_S="0.3")
    with running_server(env) as s:
        assert validate(s, SMALL).status_code == 200  # the worker is up before anything is timed
        yield s


def validate(server, body) -> httpx.Response:
    return httpx.post(server.url + "/api/v1/validate", json=body, timeout=60)


def test_a_check_past_the_time_bound_is_stopped_and_answered_422(server):
    started = time.monotonic()
    response = validate(server, HEAVY)
    assert response.status_code == 422
    assert response.json()["detail"] == ("checking the document needed more than 0.3 s of work and was stopped; "
                                         "it is too large or too complex")
    assert time.monotonic() - started < 5
    assert validate(server, SMALL).json()["valid"] is True  # a fresh worker took the stopped one's place


def test_a_check_beyond_the_queue_is_answered_503_and_the_next_one_is_served(server):
    answers: list[httpx.Response] = []
    running = threading.Thread(target=lambda: answers.append(validate(server, HEAVY)))
    running.start()
    while running.is_alive():  # small checks while the heavy one is read, queued or run: one of them is refused
        answers.append(validate(server, SMALL))
        time.sleep(0.02)
    running.join()
    busy = [a for a in answers if a.status_code == 503]
    assert busy, [a.status_code for a in answers]
    assert busy[0].headers["Retry-After"] == "2"
    assert busy[0].json()["detail"] == "the server is busy checking other documents (at most 1 at once); try again in a moment"
    assert {a.status_code for a in answers} <= {200, 422, 503}
    assert validate(server, SMALL).status_code == 200
