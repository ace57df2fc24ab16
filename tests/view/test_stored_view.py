"""A finished run keeps its view: folded once from its stored events (reading only what the fold needs), equal
to the view of every event, and served as is to the next socket."""
from __future__ import annotations

import json
import time

import pytest
from asgiref.sync import sync_to_async

from runtime.live.view.hub import ViewHub
from runtime.live.view.state import RunView
from runtime.models import Run
from tests.support.api_calls import post, wait_for
from tests.support.documents import JUDGE_LOOP_SCRIPT, judge_loop

pytestmark = pytest.mark.django_db(transaction=True)


def stored_view(run_id: str, deadline: float = 60.0) -> dict:
    """The view is stored just after the status is announced, so it is waited for."""
    end = time.monotonic() + deadline
    while not (stored := Run.objects.get(pk=run_id).view):
        assert time.monotonic() < end, "the finished run's view was never stored"
        time.sleep(0.05)
    return stored


def test_a_finished_run_stores_the_view_of_all_its_events(owner_client):
    flow = post(owner_client, "/api/v1/workflows", {"source": judge_loop("stored", 4)}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": flow, "script": JUDGE_LOOP_SCRIPT}).json()["id"])
    events = owner_client.get(f"/api/v1/runs/{run['id']}/events").json()
    stored = stored_view(run["id"])
    assert stored == json.loads(json.dumps(RunView.of(events).snapshot()))
    assert stored["seq"] == events[-1]["seq"] == run["last_seq"]


async def test_the_hub_serves_a_finished_runs_stored_view_as_it_is(owner_client):
    flow = (await sync_to_async(post)(owner_client, "/api/v1/workflows", {"source": judge_loop("frozen", 2)})).json()["id"]
    created = await sync_to_async(post)(owner_client, "/api/v1/runs", {"workflow_id": flow, "script": JUDGE_LOOP_SCRIPT})
    run = await sync_to_async(wait_for)(owner_client, created.json()["id"])
    await sync_to_async(stored_view)(run["id"])  # the run's own store has landed, so it cannot overwrite the marker
    marker = {"seq": run["last_seq"], "run": {"status": "completed"}, "steps": {}, "loops": {}, "items": {}, "mark": 1}
    await sync_to_async(Run.objects.filter(pk=run["id"]).update)(view=marker)
    hub = ViewHub(run["id"])
    await hub.start()
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    await hub.attach(1, send)
    await hub.stop()
    assert json.loads(sent[0]) == {"kind": "view", "view": marker}  # not folded again
