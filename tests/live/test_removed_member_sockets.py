"""Taken out of a workspace, a member stops watching its runs at once, on a real daphne server: their
open run socket and view socket close (4403), their runs list stops telling them the workspace's
runs, and a new handshake is refused. Another member's sockets go on."""
from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.support.documents import judge_loop
from tests.support.live_runs import script
from tests.support.servers import base_env, manage, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(), users=("owner", "leaver", "stayer")) as s:
        with s.client("owner") as owner:
            team = owner.post("/workspaces", json={"name": "Team"})
            assert team.status_code == 201, team.text
        s.team = team.json()["id"]
        manage(s.env, "shell", "-c", "from django.contrib.auth import get_user_model as U; from accounts.models import Membership; "
               + "; ".join(f"Membership.objects.create(workspace_id={s.team}, user=U().objects.get(username={m!r}), role='viewer')"
                           for m in ("leaver", "stayer")))
        yield s


def ws(server, path, user):
    return websockets.connect(server.ws_url + path, additional_headers=server.headers(user), open_timeout=10)


def start_team_run(server, latency: float) -> dict:
    with server.client("owner") as owner:
        workflow = owner.post("/workflows", json={"source": judge_loop("team-loop", 4, review=True), "workspace_id": server.team})
        assert workflow.status_code == 201, workflow.text
        run = owner.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script(latency, 3)})
        assert run.status_code == 201, run.text
        return run.json()


async def closed_with(socket, timeout: float = 10) -> int:
    """Reads until the server closes the socket; its close code."""
    with pytest.raises(websockets.exceptions.ConnectionClosed) as ended:
        while True:
            await asyncio.wait_for(socket.recv(), timeout=timeout)
    return ended.value.rcvd.code if ended.value.rcvd else -1


async def test_a_removed_member_stops_watching_at_once_and_the_others_go_on(server):
    run = start_team_run(server, latency=0.5)
    async with ws(server, f"/ws/runs/{run['id']}/", "leaver") as events, \
            ws(server, f"/ws/runs/{run['id']}/view/", "leaver") as view, \
            ws(server, "/ws/runs/", "leaver") as listing, \
            ws(server, f"/ws/runs/{run['id']}/", "stayer") as other:
        await asyncio.wait_for(events.recv(), timeout=10)  # the replay has begun: watching
        await asyncio.wait_for(view.recv(), timeout=10)
        with server.client("owner") as owner:
            detail = owner.get(f"/workspaces/{server.team}").json()
            leaver = next(m["user_id"] for m in detail["members"] if m["username"] == "leaver")
            removed = owner.delete(f"/workspaces/{server.team}/members/{leaver}")
            assert removed.status_code == 204, removed.text
        assert await closed_with(events) == 4403
        assert await closed_with(view) == 4403
        # The list socket stays open (other workspaces) but hears nothing more of this one's runs.
        start_team_run(server, latency=0.0)
        with pytest.raises(asyncio.TimeoutError):
            while True:
                message = json.loads(await asyncio.wait_for(listing.recv(), timeout=2.0))
                assert message["run"]["workspace_id"] != server.team, message
        # The member who stays still gets the run's events.
        message = json.loads(await asyncio.wait_for(other.recv(), timeout=10))
        assert message["kind"] in ("event", "events", "run")
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with ws(server, f"/ws/runs/{run['id']}/", "leaver"):
            pass
