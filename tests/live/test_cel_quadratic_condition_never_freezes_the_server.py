"""The issue's attack against a real server: runs whose step condition is the quadratic
`size(L.map(a, L.map(b, a))) > 0` (L a literal list of 350-380 integers) fail that step with the CEL
budget error every time, while a second client's GET /api/v1/me goes on answering — on the inline
backend (runs inside the daphne process) and on a Celery worker.

No latency figure is asserted (the machine is shared); the loose bound below is one the old freeze
(21-23 s) breaks. bench/hostile.py measures the p99.
"""
import threading
import time

import httpx
import pytest

from tests.support.live_runs import wait_status
from tests.support.servers import (
    base_env,
    celery_worker,
    fresh_postgres,
    fresh_redis_db,
    running_server,
)

SIZES = (350, 365, 380)
LOOSE_BOUND_S = 2.0
# The CPU timer ends it; on a machine loaded enough to starve the worker, the wall-clock bound does.
BUDGET_ERRORS = {
    "condition: expression exceeded its evaluation budget (cel_budget_exceeded: more than 50 ms of CPU time)",
    ("condition: expression exceeded its evaluation budget (cel_budget_exceeded: no answer within 5000 ms "
     "of wall-clock time)"),
}


def quadratic(n: int) -> str:
    numbers = "[" + ",".join(str(i) for i in range(n)) + "]"
    return f"size({numbers}.map(a, {numbers}.map(b, a))) > 0"


def attack(n: int) -> dict:
    return {"name": f"attack-{n}", "steps": [
        {"id": "first", "instructions": "Go."},
        {"id": "check", "dependsOn": ["first"], "condition": quadratic(n), "instructions": "Never runs."},
    ]}


class MePoller:
    """GET /api/v1/me in a loop from its own thread and connection, recording status and latency."""

    def __init__(self, server):
        self.client = httpx.Client(base_url=server.url + "/api/v1", headers=server.headers("owner"), timeout=60)
        self.answers: list[tuple[int, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.perf_counter()
            status = self.client.get("/me").status_code
            self.answers.append((status, time.perf_counter() - started))
            time.sleep(0.01)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=90)
        self.client.close()


@pytest.fixture(scope="module", params=["inline", "celery"])
def server(request):
    if request.param == "inline":
        with running_server(base_env()) as s:
            yield s
        return
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
        with running_server(env) as s, celery_worker(env):
            yield s


def test_each_quadratic_condition_fails_its_step_while_me_keeps_answering(server):
    with server.client("owner") as client, MePoller(server) as poller:
        for n in SIZES:
            workflow = client.post("/workflows", json={"document": attack(n)})
            assert workflow.status_code == 201, workflow.text
            run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": {"replies": {"first": ["ok"]}}})
            assert run.status_code == 201, run.text
            assert run.json()["backend"] == ("celery" if "REDIS_URL" in server.env else "inline")
            final = wait_status(client, run.json()["id"], ("completed", "partial", "failed", "cancelled"), timeout=120)
            events = client.get(f"/runs/{final['id']}/events").json()
            check_end = next(e for e in events if e["type"] == "step_end" and e.get("stepId") == "check")
            assert final["status"] == "partial", final  # "first" completed, "check" failed
            assert check_end["error"] in BUDGET_ERRORS
            assert check_end["data"]["status"] == "failed"
        time.sleep(0.2)  # a few more answers after the last run
    statuses = [status for status, _ in poller.answers]
    slowest = max(latency for _, latency in poller.answers)
    assert len(statuses) >= 10 and set(statuses) == {200}
    assert slowest < LOOSE_BOUND_S, f"GET /me took {slowest:.2f} s"
