"""A Celery pool process killed by the out-of-memory killer mid-run, on the scaled-out stack (PostgreSQL, Redis,
Celery, daphne). The kernel's choice is simulated (tests/support/faults.oom_kill: SIGKILL to the pool process using
the most memory, the one executing the run; the worker's main process lives on). The run resumes at once, told by
the worker's main process rather than found silent by the reaper RUN_LOST_AFTER_S later, with the kill in words;
one that is killed on every attempt fails past its resumes with that reason."""
from __future__ import annotations

import time

import psycopg
import pytest

from tests.support.faults import Watchers, check_run, check_watch, children, oom_kill, wait_final, wait_until
from tests.support.live_runs import start_run
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, running_server

pytestmark = pytest.mark.timeout(900)
LOST_AFTER_S = 60  # the reaper alone would take this long: the resume must come sooner, from the worker itself
KILLED = "worker lost: its process was killed (SIGKILL), as the out-of-memory killer does"


@pytest.fixture(scope="module")
def stack():
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, RUN_HEARTBEAT_S=1, RUN_LOST_AFTER_S=LOST_AFTER_S,
                       RUN_REAPER_INTERVAL_S=1, RUN_MAX_RESUMES=2)
        with running_server(env) as server:
            server.database_url = database_url
            yield server


def executing(stack, run_id: str) -> tuple[str, str]:
    """(status, worker label) of the run, from the database."""
    with psycopg.connect(stack.database_url) as conn:
        return conn.execute("SELECT status, worker FROM runtime_run WHERE id = %s", (run_id,)).fetchone()


def resumes_of(client, run_id: str) -> list[dict]:
    events = client.get(f"/runs/{run_id}/events").json()
    return [e["data"]["resumed"] for e in events if "resumed" in (e.get("data") or {})]


def test_a_run_whose_process_the_oom_killer_takes_resumes_at_once(stack):
    watchers = Watchers(lambda: stack.ws_url, stack.headers("owner"))
    try:
        with celery_worker(stack.env, name="small") as worker, stack.client("owner") as client:
            run_id = start_run(client, iterations=10, latency=0.15, done_at=10)["id"]
            watch = watchers.watch(run_id)
            wait_until(lambda: client.get(f"/runs/{run_id}").json()["last_seq"] >= 12, 120, "the run to be under way")
            victim, size = oom_kill(worker)
            killed = time.monotonic()
            wait_until(lambda: resumes_of(client, run_id), 30, "the run to resume")
            resumed_in = time.monotonic() - killed
            final = wait_final(client, [run_id], timeout=180)[run_id]
            watchers.wait(120)
            check_run(client, final)
            check_watch(watch, final)
            assert worker.poll() is None, "the worker's main process lives on"
            notes = resumes_of(client, run_id)
    finally:
        watchers.close()
    assert final["status"] == "completed", final["reason"]
    assert [n["reason"][:len(KILLED)] for n in notes] == [KILLED] and size > 0 and victim != worker.pid
    assert resumed_in < LOST_AFTER_S / 2, resumed_in


def test_a_run_killed_on_every_attempt_fails_with_the_reason_in_words(stack):
    with celery_worker(stack.env, name="w1") as first, celery_worker(stack.env, name="w2") as second, \
            stack.client("owner") as client:
        run_id = start_run(client, iterations=10, latency=0.15, done_at=10)["id"]
        killed: list[int] = []
        deadline = time.monotonic() + 300
        while client.get(f"/runs/{run_id}").json()["status"] not in ("completed", "failed", "cancelled"):
            assert time.monotonic() < deadline, "the run neither failed nor completed"
            status, label = executing(stack, run_id)
            pid = int(label.rpartition(":")[2]) if status == "running" and ":" in label else None
            if pid is not None and pid not in killed:
                # Its step takes more memory than the machine has, on whichever worker it lands: killed every time.
                worker = first if pid in children(first.pid) else second
                victim, _ = oom_kill(worker)
                killed.append(victim)
            time.sleep(0.2)
        final = client.get(f"/runs/{run_id}").json()
        check_run(client, final)
        assert first.poll() is None and second.poll() is None
    assert final["status"] == "failed" and len(killed) == 3, (final["status"], killed)
    assert final["reason"].startswith(KILLED) and final["reason"].endswith("(it had resumed 2 times, the most allowed)"), final["reason"]
