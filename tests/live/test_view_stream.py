"""The view stream on a real daphne server: a socket from the start and one that joins mid-run both end with
the view rebuilt from the stored events; patches come at most ten a second whatever the event rate; a
stranger's handshake is refused."""
from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from runtime.live.view.state import RunView
from tests.support.live_runs import wait_status
from tests.support.servers import base_env, running_server

ITEMS = 600


@pytest.fixture(scope="module")
def server():
    with running_server(base_env()) as s:
        yield s


def start(client) -> dict:
    workflow = client.post("/workflows", json={"source": (
        "version: 1\nname: wide\nsteps:\n  - id: each\n    instructions: go\n"
        f"    loop: {{forEach: {list(range(ITEMS))}, maxConcurrency: 40}}\n")})
    assert workflow.status_code == 201, workflow.text
    script = {"latency": 0.05, "replies": {"each": ["done"] * 5 + [{"error": "broken item"}] + ["done"] * 3}}
    run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script, "coordinator": "off",
                                     "policies": {"on_iteration_error": "skip"}})
    assert run.status_code == 201, run.text
    return run.json()


async def watch(server, run_id: str, stamps: list[float]) -> dict:
    """Hold the view as the browser does: the snapshot, then every patch merged, until the run is final."""
    view = None
    final = False
    async with websockets.connect(server.ws_url + f"/ws/runs/{run_id}/view/", additional_headers=server.headers("owner"),
                                  open_timeout=10, max_size=2**24) as socket:
        while True:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), timeout=1.0 if final else 60))
            except TimeoutError:
                return view  # final, and nothing more came
            stamps.append(time.monotonic())
            if message["kind"] == "view":
                view = message["view"]
            elif message["kind"] == "patch":
                RunView.merge(view, message)
            elif message["kind"] == "run" and message["run"]["status"] in ("completed", "partial", "failed", "cancelled"):
                final = True


async def test_early_and_late_watchers_end_with_the_rebuilt_view_at_a_bounded_rate(server):
    with server.client("owner") as client:
        run = start(client)
        early_stamps: list[float] = []
        late_stamps: list[float] = []
        early = asyncio.create_task(watch(server, run["id"], early_stamps))
        await asyncio.sleep(0.6)
        late = asyncio.create_task(watch(server, run["id"], late_stamps))
        first, second = await asyncio.gather(early, late)
        wait_status(client, run["id"], ("completed", "partial", "failed"))
        events = client.get(f"/runs/{run['id']}/events").json()
    expected = json.loads(json.dumps(RunView.of(events).snapshot()))
    assert first == expected
    assert second == expected
    each = expected["loops"]["each"]
    assert sum(each["counts"].values()) == ITEMS and each["counts"].get("failed", 0) >= 1
    assert expected["run"]["tokens"] == events[-1]["tokens"]
    # Bounded: well under one message per event, and never more than ~10 a second (plus the snapshot and status).
    assert len(events) > 4 * ITEMS
    assert len(early_stamps) < len(events) / 10
    seconds = max(early_stamps[-1] - early_stamps[0], 0.1)
    assert len(early_stamps) <= seconds * 10 + 5, (len(early_stamps), seconds)


async def test_a_stranger_cannot_watch_the_view(server):
    with server.client("owner") as client:
        run = start(client)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(server.ws_url + f"/ws/runs/{run['id']}/view/",
                                      additional_headers=server.headers("stranger"), open_timeout=10):
            pass


async def test_a_socket_that_drops_mid_run_reconnects_to_a_snapshot_then_patches_with_nothing_missed(server):
    with server.client("owner") as client:
        run = start(client)
        url = server.ws_url + f"/ws/runs/{run['id']}/view/"
        # The first connection takes its snapshot and a few patches, then drops (as a flaky network does).
        async with websockets.connect(url, additional_headers=server.headers("owner"), open_timeout=10,
                                      max_size=2**24) as socket:
            view = None
            patches = 0
            while patches < 3:
                message = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
                if message["kind"] == "view":
                    view = message["view"]
                elif message["kind"] == "patch":
                    RunView.merge(view, message)
                    patches += 1
        dropped_at = view["seq"]
        assert dropped_at > 0, "the run had not started when the socket dropped"
        stamps: list[float] = []
        again = await watch(server, run["id"], stamps)
        wait_status(client, run["id"], ("completed", "partial", "failed"))
        events = client.get(f"/runs/{run['id']}/events").json()
    expected = json.loads(json.dumps(RunView.of(events).snapshot()))
    assert again == expected
    assert again["seq"] == events[-1]["seq"] > dropped_at
