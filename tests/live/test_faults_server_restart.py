"""The server (daphne) killed and started again while 50 runs are live, each with a watcher, on the scaled-out stack
(PostgreSQL, Redis, daphne; the runs on Celery workers, or inside the server itself on the inline backend). Every run
still ends (completed, or failed with a reason in words), its events one stream with nothing lost or twice, and every
watcher, reconnecting to the new server from its last seq, sees that stream whole."""
from __future__ import annotations

import contextlib
import time

import pytest

from tests.support.documents import judge_loop
from tests.support.faults import Watchers, check_run, check_watch, private_postgres, wait_final, wait_until
from tests.support.live_runs import LIVENESS, script
from tests.support.servers import base_env, celery_worker, create_users, fresh_redis_db, kill_hard, migrated, server_process

RUNS = 50
pytestmark = pytest.mark.timeout(1200)


def start_runs(client, n: int, latency: float) -> list[str]:
    """``n`` runs of one judge loop, each 8 rounds of three model calls of ``latency`` seconds."""
    workflow = client.post("/workflows", json={"source": judge_loop("fifty", 8, review=True)})
    assert workflow.status_code == 201, workflow.text
    ids = []
    for _ in range(n):
        run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script(latency, 8)})
        assert run.status_code == 201, run.text
        ids.append(run.json()["id"])
    return ids


@pytest.mark.parametrize("backend", ["celery", "inline"])
def test_fifty_live_runs_survive_the_server_being_killed(backend):
    # A PostgreSQL of the test's own: fifty runs, two workers of three processes and a server hold more connections
    # than the machine's shared one has left while other tests run.
    with private_postgres() as cluster, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=cluster.create_database("designer"), REDIS_URL=redis_url, RUNTIME_BACKEND=backend, **LIVENESS)
        migrated(env)
        tokens = create_users(env, ("owner",))
        where = {}
        watchers = Watchers(lambda: where["ws"], {"Authorization": f"Bearer {tokens['owner']}"})
        with contextlib.ExitStack() as workers:
            try:
                with server_process(env, tokens) as first, first.client("owner") as client:
                    where["ws"] = first.ws_url
                    # On Celery the runs wait in the broker until every one is watched, then six execute at a time:
                    # however slow the machine is to start and watch fifty, none has ended before the kill. Inline
                    # all fifty execute from the start, so each lasts longer (some 50 s) to be still live once the
                    # last is started and watched on a loaded machine (at 25 s, CI saw 32 of 50 done before the kill;
                    # at 50 s a slow host, the two cores taken by the rest of the suite, saw 12).
                    ids = start_runs(client, RUNS, latency=0.3 if backend == "celery" else 2.0)
                    for run_id in ids:
                        watchers.watch(run_id)
                    wait_until(watchers.connected, 120, "every watcher to connect")
                    if backend == "celery":
                        workers.enter_context(celery_worker(env, name="s1", concurrency=3))
                        workers.enter_context(celery_worker(env, name="s2", concurrency=3))
                    wait_until(lambda: sum(w.last > 0 for w in watchers.watches.values()) >= 3, 120, "runs to be under way")
                    # Live by the watchers' own streams, read at once, and the server killed right after: asking the
                    # server for fifty statuses took long enough on a loaded CI machine (the server itself executing
                    # fifty runs inline) for 35 to end in between.
                    live = [r for r, w in watchers.watches.items() if not w.done]
                    kill_hard(first.process)
                    # Half is plenty for what is tested: every one of them lives through the kill.
                    assert len(live) >= RUNS // 2, f"only {len(live)} runs live when the server goes"
                time.sleep(2)  # the server is down: watchers are refused, runs on workers go on
                with server_process(env, tokens) as second, second.client("owner") as client:
                    where["ws"] = second.ws_url
                    finals = wait_final(client, ids, timeout=600)
                    watchers.wait(300)
                    for run_id in ids:
                        check_run(client, finals[run_id])
                        check_watch(watchers.watches[run_id], finals[run_id])
            finally:
                watchers.close()
    outcomes = {f["status"]: 0 for f in finals.values()}
    for f in finals.values():
        outcomes[f["status"]] += 1
    assert outcomes == {"completed": RUNS}, {r: f["reason"] for r, f in finals.items() if f["status"] != "completed"}
    reconnected = sum(w.connections > 1 for w in watchers.watches.values())
    assert reconnected >= len(live) // 2, f"{reconnected} watchers reconnected"
