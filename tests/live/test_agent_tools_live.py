"""Agent tools on real servers: tool calls and approvals over a real websocket, and a run executed by a real
Celery worker whose workspace lives elsewhere, read back by the web server from the database."""
from __future__ import annotations

import asyncio
import io
import json
import tempfile
import zipfile

import pytest
import websockets

from tests.support.live_runs import wait_status
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, running_server

FLOW = """
version: 1
name: tool-live
agents:
  coder: {description: writes code, tools: [bash, write, read]}
steps:
  - {id: build, agent: coder}
"""
SCRIPT = {"latency": 0.05, "replies": {"build": [
    {"tool_calls": [{"id": "gated", "name": "bash", "arguments": {"command": "echo compiled > build.log"}},
                    {"id": "free", "name": "write", "arguments": {"path": "src/main.c", "content": "int main(){}\n"}}]},
    "built",
]}}


def start(client, **extra) -> dict:
    workflow = client.post("/workflows", json={"source": FLOW})
    assert workflow.status_code == 201, workflow.text
    run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": SCRIPT, "ask_before": ["bash"], **extra})
    assert run.status_code == 201, run.text
    return run.json()


async def watch_and_approve(server, client, run: dict) -> list[dict]:
    """Watch the run's socket; approve the gated call when the socket says it waits; the events, to the end."""
    events: list[dict] = []
    async with websockets.connect(server.ws_url + f"/ws/runs/{run['id']}/", additional_headers=server.headers("owner"),
                                  open_timeout=10) as socket:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=60))
            if message["kind"] != "event":
                continue
            event = message["event"]
            events.append(event)
            if event["type"] == "tool_approval" and event["data"]["phase"] == "asked":
                answer = await asyncio.to_thread(client.post, f"/runs/{run['id']}/tool-calls/gated/approve")
                assert answer.status_code == 200, answer.text
            if event["type"] == "workflow_end":
                return events


def check_events(events: list[dict]) -> None:
    kinds = [(e["type"], e["data"].get("phase")) for e in events if e["type"] in ("tool_call", "tool_approval")]
    assert ("tool_approval", "asked") in kinds and ("tool_approval", "approved") in kinds
    ends = {e["data"]["tool_call_id"]: e for e in events if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    assert ends["gated"].get("error") is None and ends["free"]["data"]["output"].startswith("wrote 13 bytes")
    approved = next(e for e in events if e["type"] == "tool_approval" and e["data"]["phase"] == "approved")
    assert approved["data"]["actor"] == "owner"
    snapshot = next(e for e in events if e["type"] == "workspace_snapshot")
    assert snapshot["data"]["added"] == 2 and snapshot["data"]["label"] == "build"


@pytest.fixture(scope="module")
def embedded():
    with running_server(base_env()) as server:
        yield server


async def test_tool_calls_and_an_approval_travel_over_the_websocket(embedded):
    with embedded.client("owner") as client:
        run = start(client)
        events = await watch_and_approve(embedded, client, run)
        final = wait_status(client, run["id"], ("completed",))
    check_events(events)
    assert [e["seq"] for e in events] == list(range(1, final["last_seq"] + 1))


async def test_a_celery_worker_elsewhere_runs_the_tools_and_the_web_server_shows_the_files(tmp_path):
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
        # The worker's disk is not the server's: its own WORKSPACES_DIR, which the web server never reads.
        worker_env = {**env, "WORKSPACES_DIR": tempfile.mkdtemp(prefix="worker-disk-")}
        with running_server(env) as server, celery_worker(worker_env) as _worker, server.client("owner") as client:
            run = start(client)
            assert run["backend"] == "celery"
            events = await watch_and_approve(server, client, run)
            wait_status(client, run["id"], ("completed",))
            info = client.get(f"/runs/{run['id']}/workspace").json()
            number = info["snapshots"][-1]["number"]
            files = client.get(f"/runs/{run['id']}/workspace/snapshots/{number}/files").json()["files"]
            diff = client.get(f"/runs/{run['id']}/workspace/snapshots/{number}/diff").json()
            archive = client.get(f"/runs/{run['id']}/workspace.zip")
    check_events(events)
    assert info["on_disk"] is False  # the server's disk never had it
    assert [f["path"] for f in files] == ["build.log", "src/main.c"]
    assert {c["path"]: c["change"] for c in diff["changes"]} == {"build.log": "added", "src/main.c": "added"}
    with zipfile.ZipFile(io.BytesIO(archive.content)) as z:
        assert z.read("build.log") == b"compiled\n"
