"""PostgreSQL restarted mid-run on the scaled-out stack (PostgreSQL, Redis, Celery workers, daphne). The cluster is
the test's own (initdb in a temporary folder): restarting the machine's would fail every other test using it. Every
run still ends (completed, or failed with a reason in words), its events one stream with nothing lost or twice, and
every watcher, reconnecting from its last seq, sees that stream whole."""
from __future__ import annotations

import time

import pytest

from tests.support.faults import Watchers, check_run, check_watch, private_postgres, wait_final, wait_until
from tests.support.live_runs import LIVENESS, start_run
from tests.support.servers import base_env, celery_worker, fresh_redis_db, running_server

RUNS = 6
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def stack():
    with private_postgres() as cluster, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=cluster.create_database("designer"), REDIS_URL=redis_url, **LIVENESS)
        with running_server(env) as server:
            server.cluster = cluster
            yield server


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_postgresql_restart_mid_run_loses_no_run_and_no_event(stack, mode):
    watchers = Watchers(lambda: stack.ws_url, stack.headers("owner"))
    try:
        with celery_worker(stack.env, name="p1"), celery_worker(stack.env, name="p2"), stack.client("owner") as client:
            ids = [start_run(client, iterations=8, latency=0.15, done_at=8)["id"] for _ in range(RUNS)]
            for run_id in ids:
                watchers.watch(run_id)
            wait_until(watchers.connected, 60, "every watcher to connect")
            wait_until(lambda: client.get(f"/runs/{ids[0]}").json()["last_seq"] >= 10, 120, "the first run to be under way")
            running = [r for r in ids if client.get(f"/runs/{r}").json()["status"] == "running"]
            assert running, "some runs are executing when the database goes"
            # fast: sessions ended (57P01), a clean shutdown; immediate: as a crash, recovered from the WAL at start.
            stack.cluster.restart(down_s=3, mode=mode)
            restarted = time.monotonic()
            finals = wait_final(client, ids, timeout=300)
            took = time.monotonic() - restarted
            watchers.wait(120)
            for run_id in ids:
                check_run(client, finals[run_id])
                check_watch(watchers.watches[run_id], finals[run_id])
            # The API answers again once the database is back (a request on a connection the restart closed is
            # answered 503 in words, never a bare 500).
            assert client.get("/runs").status_code == 200
    finally:
        watchers.close()
    outcomes = {r: (f["status"], f["reason"]) for r, f in finals.items()}
    assert all(f["status"] == "completed" for f in finals.values()), outcomes
    assert took < 300
