"""Runs on a live server (tests/support/servers.py), through its HTTP API and websockets: a workflow and a script
that make a run last a while, waiting for a status, reading the stream; the quick liveness the durability tests use."""
from __future__ import annotations

import asyncio
import json
import time

from tests.support.documents import judge_loop

# Quick liveness, so a lost worker is noticed within seconds (the resume-latency target assumes 1 s heartbeats).
LIVENESS = {"RUN_HEARTBEAT_S": 1, "RUN_LOST_AFTER_S": 3, "RUN_REAPER_INTERVAL_S": 0.5}


def script(latency: float, done_at: int) -> dict:
    verdicts = [{"content": f"round {i}", "result": {"done": False, "reason": f"not yet {i}"}} for i in range(done_at - 1)]
    verdicts.append({"content": "ship it", "result": {"done": True, "reason": "good"}})
    return {"latency": latency, "replies": {"draft": ["a draft"], "review": ["a review"], "judge": verdicts}}


def start_run(client, iterations: int = 6, latency: float = 0.05, done_at: int = 5, **extra) -> dict:
    workflow = client.post("/workflows", json={"source": judge_loop("live-loop", iterations, review=True)})
    assert workflow.status_code == 201, workflow.text
    run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script(latency, done_at), **extra})
    assert run.status_code == 201, run.text
    return run.json()


def wait_status(client, run_id: str, statuses, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    body = {}
    while time.monotonic() < deadline:
        body = client.get(f"/runs/{run_id}").json()
        if body["status"] in statuses:
            return body
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} is {body.get('status')}, expected one of {statuses}")


async def collect(ws, until_final: bool = True, limit: int | None = None, timeout: float = 60) -> tuple[list[dict], list[dict]]:
    """Read messages: (events, run updates), until the run is final and its last event arrived."""
    events, runs = [], []
    final_seq = None
    while True:
        raw = await asyncio.wait_for(ws.recv(), timeout=timeout)
        message = json.loads(raw)
        if message["kind"] == "event":
            events.append(message["event"])
        else:
            runs.append(message["run"])
            if message["run"]["status"] in ("completed", "partial", "failed", "cancelled"):
                final_seq = message["run"]["last_seq"]
        if limit is not None and len(events) >= limit:
            return events, runs
        if until_final and final_seq is not None and events and events[-1]["seq"] >= final_seq:
            return events, runs
