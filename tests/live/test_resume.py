"""Runs that survive their worker: a SIGKILLed Celery worker or daphne server mid-iteration, and the run goes on
from its last boundary on another worker (or the restarted server) with the output a clean run gives, no finished
round run again, every event of the first attempt kept and one ordered stream for a watcher."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest
import websockets

from tests.support.documents import judge_loop
from tests.support.live_runs import LIVENESS, collect, wait_status
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, kill_hard, running_server, server_process, stop

ROUNDS = 10


def script(latency: float) -> dict:
    verdicts = [{"content": f"round {i}", "result": {"done": False, "reason": f"not yet {i}"}} for i in range(ROUNDS - 1)]
    verdicts.append({"content": "ship it", "result": {"done": True, "reason": "good"}})
    return {"latency": latency, "replies": {"draft": [f"draft {i}" for i in range(ROUNDS)], "review": ["a review"], "judge": verdicts}}


def start(client, latency: float) -> dict:
    workflow = client.post("/workflows", json={"source": judge_loop("durable-loop", ROUNDS, review=True)})
    assert workflow.status_code == 201, workflow.text
    run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script(latency)})
    assert run.status_code == 201, run.text
    return run.json()


def events_of(client, run_id: str) -> list[dict]:
    return client.get(f"/runs/{run_id}/events").json()


def loop_output(events: list[dict]) -> str:
    ends = [e for e in events if e["type"] == "loop_end"]
    assert len(ends) == 1, [e["seq"] for e in ends]
    return ends[0]["data"]["content"]


def wait_rounds(client, run_id: str, rounds: int, timeout: float = 60) -> int:
    """Wait until ``rounds`` rounds have ended; the run's last_seq then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [e for e in events_of(client, run_id) if e["type"] == "judge_verdict"]
        if len(done) >= rounds:
            return client.get(f"/runs/{run_id}").json()["last_seq"]
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} did not reach round {rounds}")


def check_resumed(events: list[dict], seen_before: int, clean_output: str) -> dict:
    """The assertions every resumed run must pass; the resume message's data."""
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "one stream, in order, nothing lost"
    assert len(events) > seen_before
    notes = [e for e in events if e["type"] == "message" and "resumed" in (e.get("data") or {})]
    assert notes, "an event says the run resumed"
    resumed = notes[0]["data"]["resumed"]
    # From a boundary the lost attempt had stored: before the note. Not necessarily at or before `seen_before`: the
    # attempt goes on between that reading and the kill, and on a loaded machine it reached the next boundary.
    assert resumed["reason"] and resumed["attempt"] == 1 and 0 < resumed["from_seq"] < notes[0]["seq"]
    # Rounds finished before the crash were not asked of the model again.
    finished = {e["data"]["iteration"] for e in events if e["type"] == "judge_verdict" and e["seq"] <= resumed["from_seq"]}
    assert finished, "the crash came after some rounds finished"
    again = [e for e in events if e["type"] == "agent_turn" and e["seq"] > notes[0]["seq"] and e["data"].get("phase") == "request"
             and any((e.get("stepId") or "").startswith(f"dev.{n}.") for n in finished)]
    assert again == [], [e["stepId"] for e in again]
    assert loop_output(events) == clean_output
    return resumed


@pytest.fixture(scope="module")
def cluster():
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, RUN_MAX_RESUMES=1, **LIVENESS)
        with running_server(env) as server:
            yield server


@pytest.fixture(scope="module")
def clean_output(cluster):
    with celery_worker(cluster.env, name="clean") as _worker, cluster.client("owner") as client:
        run = start(client, latency=0.0)
        wait_status(client, run["id"], ("completed",))
        return loop_output(events_of(client, run["id"]))


class Watcher(threading.Thread):
    """A websocket client on its own thread and loop: it reads on while the test blocks on processes."""

    def __init__(self, server, run_id: str):
        super().__init__(daemon=True)
        self.server, self.run_id = server, run_id
        self.events: list[dict] = []
        self.error: BaseException | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        async def watch() -> None:
            async with websockets.connect(self.server.ws_url + f"/ws/runs/{self.run_id}/", additional_headers=self.server.headers("owner"),
                                          open_timeout=10) as ws:
                self.connected.set()
                self.events, _ = await collect(ws, timeout=120)

        try:
            asyncio.run(watch())
        except BaseException as exc:  # reported by the test
            self.error = exc


def resumed_yet(client, run_id: str) -> bool:
    return any("resumed" in (e.get("data") or {}) for e in events_of(client, run_id))


def test_a_killed_celery_worker_costs_nothing_that_finished(cluster, clean_output):
    with cluster.client("owner") as client:
        with celery_worker(cluster.env, name="doomed") as worker:
            run = start(client, latency=0.15)
            wait_status(client, run["id"], ("running",))
            watcher = Watcher(cluster, run["id"])
            watcher.start()
            assert watcher.connected.wait(15)
            seen_before = wait_rounds(client, run["id"], 3)
            kill_hard(worker)
            killed = time.monotonic()
        with celery_worker(cluster.env, name="rescuer") as _rescuer:
            while not resumed_yet(client, run["id"]):
                assert time.monotonic() - killed < 60, "the run did not resume"
                time.sleep(0.1)
            resumed_after = time.monotonic() - killed
            final = wait_status(client, run["id"], ("completed",), timeout=90)
            watcher.join(60)
        events = events_of(client, run["id"])
    resumed = check_resumed(events, seen_before, clean_output)
    assert final["status"] == "completed" and resumed["reason"] == "worker lost"
    assert resumed_after < 30
    # The watcher's one connection saw every event from its start to the end, in order, across the crash.
    assert watcher.error is None, f"{watcher.error!r}; the server said:\n{cluster.log.read_text()[-4000:]}"
    seqs = [e["seq"] for e in watcher.events]
    assert seqs and seqs == list(range(seqs[0], final["last_seq"] + 1))


def test_a_run_that_keeps_losing_its_worker_fails_after_its_resumes(cluster):
    with cluster.client("owner") as client:
        with celery_worker(cluster.env, name="first") as worker:
            run = start(client, latency=0.15)
            wait_rounds(client, run["id"], 2)
            kill_hard(worker)
        with celery_worker(cluster.env, name="second") as worker:
            deadline = time.monotonic() + 60
            while not resumed_yet(client, run["id"]):
                assert time.monotonic() < deadline, "the run did not resume"
                time.sleep(0.1)
            time.sleep(0.5)
            kill_hard(worker)
        final = wait_status(client, run["id"], ("failed",), timeout=60)
        attempts = [e["data"]["resumed"]["attempt"] for e in events_of(client, run["id"]) if "resumed" in (e.get("data") or {})]
    assert attempts == [1]
    assert final["reason"].startswith("worker lost") and "resumed 1 times" in final["reason"]


def inline_server_stopped_mid_run(halt) -> tuple[dict, dict, str, str, int]:
    """An inline server that ran a clean run, then is stopped (``halt(process)``) in the fourth round of another:
    (env, tokens, that run's id, the clean run's output, the run's last seq before the stop)."""
    env = base_env(**LIVENESS)
    with running_server(env, users=("owner",)) as first:
        with first.client("owner") as client:
            clean = start(client, latency=0.0)
            clean_output = loop_output(events_of(client, wait_status(client, clean["id"], ("completed",))["id"]))
            run = start(client, latency=0.15)
            seen_before = wait_rounds(client, run["id"], 3)
        halt(first.process)
    return env, first.tokens, run["id"], clean_output, seen_before


def test_a_killed_inline_server_resumes_its_runs_when_it_starts_again():
    env, tokens, run_id, clean_output, seen_before = inline_server_stopped_mid_run(kill_hard)
    run = {"id": run_id}
    with server_process(env, tokens) as second, second.client("owner") as client:
        final = wait_status(client, run["id"], ("completed",), timeout=90)
        events = events_of(client, run["id"])
    resumed = check_resumed(events, seen_before, clean_output)
    assert resumed["reason"] == "the server restarted" and final["status"] == "completed"


def test_sigterm_on_a_celery_worker_hands_its_run_back_at_once(cluster, clean_output):
    with cluster.client("owner") as client:
        with celery_worker(cluster.env, name="leaving") as worker:
            run = start(client, latency=0.15)
            seen_before = wait_rounds(client, run["id"], 3)
            asked = time.monotonic()
            stop(worker)  # SIGTERM to the worker and its pool, as a deploy does
            stopped_in = time.monotonic() - asked
        handed = client.get(f"/runs/{run['id']}").json()
        with celery_worker(cluster.env, name="arriving") as _worker:
            final = wait_status(client, run["id"], ("completed",), timeout=90)
        events = events_of(client, run["id"])
    assert handed["status"] == "queued", handed  # given back, not left to be found lost
    assert stopped_in < 10
    notes = [e["data"]["resumed"] for e in events if "resumed" in (e.get("data") or {})]
    assert [(n["reason"], n["attempt"]) for n in notes] == [("its worker was shutting down", 0)]
    assert final["status"] == "completed" and loop_output(events) == clean_output
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)) and len(events) > seen_before


def test_sigterm_on_the_inline_server_hands_its_runs_back_for_its_next_start():
    env, tokens, run_id, clean_output, _ = inline_server_stopped_mid_run(stop)  # stop: SIGTERM
    run = {"id": run_id}
    with server_process(env, tokens) as second, second.client("owner") as client:
        final = wait_status(client, run["id"], ("completed",), timeout=90)
        events = events_of(client, run["id"])
    notes = [e["data"]["resumed"] for e in events if "resumed" in (e.get("data") or {})]
    assert [n["reason"] for n in notes] == ["its worker was shutting down"]
    assert final["status"] == "completed" and loop_output(events) == clean_output
