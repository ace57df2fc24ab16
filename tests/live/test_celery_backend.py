"""PostgreSQL, Redis (channels_redis and the broker) and a real Celery worker process."""
import asyncio
import time
from pathlib import Path

import pytest
import websockets

from tests.support.live_runs import collect, start_run, wait_status
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, kill_hard, manage, running_server


@pytest.fixture(scope="module")
def cluster():
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        # RESUME_LOST_RUNS=0: a lost worker fails its run, as before runs could resume (tests/live/test_resume.py).
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, RUN_HEARTBEAT_S=1, RUN_LOST_AFTER_S=6, RUN_REAPER_INTERVAL_S=1,
                       RESUME_LOST_RUNS=0)
        with running_server(env) as server:
            yield server


def ws_connect(server, path, user="owner"):
    return websockets.connect(server.ws_url + path, additional_headers=server.headers(user), open_timeout=10)


async def test_a_run_executes_on_the_worker_and_streams_to_a_websocket_client(cluster):
    with celery_worker(cluster.env) as _worker, cluster.client("owner") as client:
        run = start_run(client, latency=0.05)
        assert run["backend"] == "celery"
        async with ws_connect(cluster, f"/ws/runs/{run['id']}/") as ws:
            events, updates = await collect(ws)
        final = wait_status(client, run["id"], ("completed",))
    assert [e["seq"] for e in events] == list(range(1, final["last_seq"] + 1))
    assert updates[-1]["status"] == "completed"
    assert final["loops"]["dev"]["break_reason"] == "judge"


async def test_with_resume_off_killing_the_worker_mid_run_marks_the_run_lost_and_keeps_its_events(cluster):
    with cluster.client("owner") as client:
        with celery_worker(cluster.env, name="doomed") as worker:
            run = start_run(client, iterations=40, latency=0.2, done_at=40)
            wait_status(client, run["id"], ("running",))
            deadline = time.monotonic() + 30
            while client.get(f"/runs/{run['id']}").json()["last_seq"] < 10 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            kill_hard(worker)
            seen_before = client.get(f"/runs/{run['id']}").json()["last_seq"]
            killed_at = time.monotonic()
        lost = wait_status(client, run["id"], ("failed",), timeout=60)
        elapsed = time.monotonic() - killed_at
        events = client.get(f"/runs/{run['id']}/events").json()
    assert lost["reason"] == "worker lost" and elapsed < 60
    assert len(events) >= seen_before >= 10
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


async def test_a_redelivered_task_never_runs_a_run_twice(cluster):
    log = Path(cluster.env["DESIGNER_DATA_DIR"]) / "worker-again.log"
    with celery_worker(cluster.env, name="again") as _worker, cluster.client("owner") as client:
        run = start_run(client, latency=0.0)
        wait_status(client, run["id"], ("completed",))
        before = client.get(f"/runs/{run['id']}").json()["last_seq"]
        # Deliver the same task again, as a broker does after a late ack.
        manage(cluster.env, "shell", "-c", f"from runtime.execution.tasks import execute_run_task; execute_run_task.delay({run['id']!r})")
        deadline = time.monotonic() + 60
        while log.read_text().count("succeeded in") < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        after = client.get(f"/runs/{run['id']}").json()
    assert log.read_text().count("succeeded in") == 2
    assert after["status"] == "completed" and after["last_seq"] == before


async def test_pause_resume_and_stop_work_on_the_worker(cluster):
    with celery_worker(cluster.env) as _worker, cluster.client("owner") as client:
        run = start_run(client, iterations=30, latency=0.1, done_at=30)
        wait_status(client, run["id"], ("running",))
        assert client.post(f"/runs/{run['id']}/pause").status_code == 200
        wait_status(client, run["id"], ("paused",), timeout=15)
        await asyncio.sleep(1.0)
        frozen = client.get(f"/runs/{run['id']}").json()["last_seq"]
        await asyncio.sleep(1.5)
        # Running agent turns may finish, but no new step starts while paused.
        still = client.get(f"/runs/{run['id']}").json()["last_seq"]
        assert still - frozen <= 4
        client.post(f"/runs/{run['id']}/resume")
        wait_status(client, run["id"], ("running",), timeout=15)
        client.post(f"/runs/{run['id']}/stop")
        final = wait_status(client, run["id"], ("cancelled",), timeout=30)
    assert final["status"] == "cancelled"


async def test_a_websocket_with_nothing_to_say_for_longer_than_redis_reads_stays_open(cluster):
    """redis-py 8 gives up a read after 5 s by default, as long as channels_redis blocks for a message: each model
    call here takes 6 s, so the run's socket has nothing for longer than that, more than once. It stays open and
    still gets every event (before the fix the server closed it with 1011 at the first silence)."""
    with celery_worker(cluster.env) as _worker, cluster.client("owner") as client:
        run = start_run(client, iterations=1, latency=6, done_at=1)
        async with ws_connect(cluster, f"/ws/runs/{run['id']}/") as ws:
            events, updates = await collect(ws, timeout=90)
        final = wait_status(client, run["id"], ("completed",))
    assert [e["seq"] for e in events] == list(range(1, final["last_seq"] + 1))
    assert updates[-1]["status"] == "completed"
