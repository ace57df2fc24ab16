"""Both websockets, per role, on a real daphne server: every member of a team watches its runs live
(the run's socket and the runs list); a stranger's handshake is refused and their list stays silent."""
from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.support.documents import judge_loop
from tests.support.live_runs import collect, script, wait_status
from tests.support.servers import base_env, manage, running_server

MEMBERS = ("admin", "editor", "runner", "viewer")


@pytest.fixture(scope="module")
def server():
    with running_server(base_env(), users=("owner", *MEMBERS, "stranger")) as s:
        with s.client("owner") as owner:
            team = owner.post("/workspaces", json={"name": "Team"})
            assert team.status_code == 201, team.text
        s.team = team.json()["id"]
        # Members join through invitation links in the browser; here the rows are written directly.
        manage(s.env, "shell", "-c", "from django.contrib.auth import get_user_model as U; from accounts.models import Membership; "
               + "; ".join(f"Membership.objects.create(workspace_id={s.team}, user=U().objects.get(username={m!r}), role={m!r})"
                           for m in MEMBERS))
        yield s


def ws(server, path, user):
    return websockets.connect(server.ws_url + path, additional_headers=server.headers(user), open_timeout=10)


def start_team_run(server, latency=0.1) -> dict:
    with server.client("owner") as owner:
        workflow = owner.post("/workflows", json={"source": judge_loop("team-loop", 4, review=True), "workspace_id": server.team})
        assert workflow.status_code == 201, workflow.text
        run = owner.post("/runs", json={"workflow_id": workflow.json()["id"], "script": script(latency, 3)})
        assert run.status_code == 201, run.text
        return run.json()


@pytest.mark.parametrize("role", ("owner", *MEMBERS))
async def test_a_member_of_any_role_watches_a_team_run_live(server, role):
    run = start_team_run(server)
    async with ws(server, f"/ws/runs/{run['id']}/", role) as socket:
        events, updates = await collect(socket)
    with server.client(role) as client:
        final = wait_status(client, run["id"], ("completed",))
    assert [e["seq"] for e in events] == list(range(1, final["last_seq"] + 1))
    assert updates[-1]["status"] == "completed" and updates[-1]["started_by"] == "owner"


async def test_a_strangers_handshake_is_refused_for_a_team_run(server):
    run = start_team_run(server, latency=0.0)
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        async with ws(server, f"/ws/runs/{run['id']}/", "stranger"):
            pass
    assert refused.value.response.status_code == 403


async def test_the_runs_list_socket_tells_members_and_not_strangers(server):
    async with ws(server, "/ws/runs/", "viewer") as viewer, ws(server, "/ws/runs/", "stranger") as stranger:
        await asyncio.sleep(0.3)  # both joined their groups
        run = start_team_run(server, latency=0.05)
        seen = []
        while not seen or seen[-1]["status"] != "completed":
            message = json.loads(await asyncio.wait_for(viewer.recv(), timeout=30))
            if message["run"]["id"] == run["id"]:
                seen.append(message["run"])
        assert seen[-1]["workspace_id"] == server.team
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(stranger.recv(), timeout=1.0)
