"""Redis restarted mid-run on the scaled-out stack (PostgreSQL, Redis as broker and channel layer, Celery workers,
daphne). The Redis is the test's own, configured as the machine's (nothing persisted), and crashes: the queue, the
channel layer's groups and the cache are gone when it comes back. Every run still ends (completed, or failed with a
reason in words), its events one stream, and every watcher, reconnecting from its last seq, sees that stream whole."""
from __future__ import annotations

import time

import pytest

from tests.support.faults import Watchers, check_run, check_watch, private_redis, wait_final, wait_until
from tests.support.live_runs import LIVENESS, start_run
from tests.support.servers import base_env, celery_worker, fresh_postgres, running_server

RUNS = 8
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def stack():
    with fresh_postgres() as database_url, private_redis() as redis_server:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_server.url, **LIVENESS)
        with running_server(env) as server:
            server.redis = redis_server
            yield server


def test_a_redis_crash_mid_run_loses_no_run_and_no_event(stack):
    redis_server = stack.redis
    watchers = Watchers(lambda: stack.ws_url, stack.headers("owner"))
    try:
        with celery_worker(stack.env, name="r1"), celery_worker(stack.env, name="r2"), stack.client("owner") as client:
            # Two running on the workers, the rest waiting in the broker's queue when Redis goes.
            runs = [start_run(client, iterations=8, latency=0.15, done_at=8) for _ in range(RUNS)]
            ids = [r["id"] for r in runs]
            for run_id in ids:
                watchers.watch(run_id)
            wait_until(watchers.connected, 60, "every watcher to connect")
            wait_until(lambda: client.get(f"/runs/{ids[0]}").json()["last_seq"] >= 10, 120, "the first run to be under way")
            waiting = [r for r in ids if client.get(f"/runs/{r}").json()["status"] == "queued"]
            assert waiting, "some runs wait in the broker's queue when it crashes"
            redis_server.stop()
            # While Redis is down the API answers (the cache and the broker are Redis), and a run can be started:
            # it waits in the database until its task can be sent.
            assert client.get(f"/runs/{ids[0]}").status_code == 200
            during = start_run(client, iterations=8, latency=0.15, done_at=8)
            assert during["status"] == "queued"
            ids.append(during["id"])
            watchers.watch(during["id"])
            time.sleep(2)  # the outage itself
            redis_server.start()
            restarted = time.monotonic()
            finals = wait_final(client, ids, timeout=300)
            took = time.monotonic() - restarted
            watchers.wait(120)
            for run_id in ids:
                check_run(client, finals[run_id])
                check_watch(watchers.watches[run_id], finals[run_id])
    finally:
        watchers.close()
    assert all(f["status"] == "completed" for f in finals.values()), {r: (f["status"], f["reason"]) for r, f in finals.items()}
    assert took < 300
    # The runs whose tasks the crash lost were sent again (runtime.execution.reaper.resend_lost_tasks).
    assert "sent the tasks of" in stack.log.read_text()
