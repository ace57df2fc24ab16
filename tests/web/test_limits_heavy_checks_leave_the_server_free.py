"""Four concurrent worst-case validations leave the server free to answer everyone else.

Validation ran in the server's own threads, where it held the GIL the event loop needs:
four heavy anonymous validations made a signed-in `GET /me` wait 1.5 s (p99). They now run
in worker processes. The bound below is generous (a shared two-core machine); the target,
200 ms at p99, is measured in bench/hostile.py.
"""
from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.support.servers import base_env, running_server

pytestmark = pytest.mark.serial  # holds the app to a wall-clock limit (answers within seconds beside heavy work): never beside another test

# Legal documents near the 50,000-value cap: each a second or two of reading and checking.
SCHEMA_HEAVY = ("name: w\nagents:\n  a:\n    description: d\n    resultSchema:\n      type: object\n      properties:\n"
                + "".join(f"        p{i}: {{type: string, enum: [a, b, c, d, e, f, g, h]}}\n" for i in range(4_500))
                + "steps:\n  - id: s\n    agent: a\n")
LIST_HEAVY = ("name: w\nsteps:\n  - id: each\n    loop:\n      forEach: [" + ",".join(str(i) for i in range(48_000))
              + "]\n      steps:\n        - id: a\n")


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(ANON_RATE="100000/min")) as s:
        assert httpx.post(s.url + "/api/v1/validate", json={"source": "name: w\nsteps:\n  - id: a\n"}, timeout=60).status_code == 200
        yield s


def test_me_answers_at_once_while_four_heavy_validations_run(server):
    stop = threading.Event()
    checked: list[tuple[int, float]] = []

    def attacker(k: int) -> None:
        with httpx.Client(base_url=server.url + "/api/v1", timeout=60) as client:
            n = 0
            while not stop.is_set():
                started = time.monotonic()
                response = client.post("/validate", json={"source": (SCHEMA_HEAVY, LIST_HEAVY)[(k + n) % 2]})
                checked.append((response.status_code, time.monotonic() - started))
                n += 1

    attackers = [threading.Thread(target=attacker, args=(k,)) for k in range(4)]
    for thread in attackers:
        thread.start()
    latencies = []
    try:
        time.sleep(1.0)
        with httpx.Client(base_url=server.url + "/api/v1", headers=server.headers("owner"), timeout=30) as me:
            for _ in range(40):
                started = time.monotonic()
                assert me.get("/me").status_code == 200
                latencies.append(time.monotonic() - started)
                time.sleep(0.05)
    finally:
        stop.set()
        for thread in attackers:
            thread.join()
    latencies.sort()
    assert len(checked) >= 4 and {status for status, _ in checked} == {200}
    assert max(took for _, took in checked) > 0.3  # the validations were heavy, and ran meanwhile
    assert latencies[int(len(latencies) * 0.95)] < 0.5, [round(x, 3) for x in latencies]
