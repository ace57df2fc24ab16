"""A breakpoint survives the worker dying: a run lost while held goes on from its last boundary and holds at that
breakpoint again, once; a run lost after someone let it go on does not hold there again."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent, RunStatus
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

LOOP = """name: survives
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 6
"""
SCRIPT = {"replies": {"write": [f"draft {i}" for i in range(6)]}}
BREAK = [{"id": "r3", "kind": "round", "step": "write", "round": 3}]


def held(client, run_id, timeout=60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/v1/runs/{run_id}/debug").json()
        if answer["holding"]:
            return answer
        assert time.monotonic() < deadline, f"run {run_id} never held ({answer['status']})"
        time.sleep(0.05)


@pytest.fixture
def donor(owner_client):
    """A run held before round 3, let go on, finished: (workflow id, its events)."""
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": LOOP}).json()["id"]
    run_id = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT, "breakpoints": BREAK,
                                                  "coordinator": "off"}).json()["id"]
    held(owner_client, run_id)
    post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "continue"})
    assert wait_for(owner_client, run_id)["status"] == "completed"
    return workflow_id, [e.event for e in RunEvent.objects.filter(run_id=run_id).order_by("seq")]


def lost(owner, workflow_id: int, events: list[dict], upto: int, hold: dict | None) -> Run:
    """A run whose worker died after event ``upto`` (held there when ``hold``)."""
    workflow = Workflow.objects.get(pk=workflow_id)
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             script=SCRIPT, breakpoints=BREAK, coordinator="off",
                             status=RunStatus.PAUSED if hold else RunStatus.RUNNING, debug_hold=hold,
                             paused_at=long_ago if hold else None, started_at=long_ago, heartbeat_at=long_ago,
                             worker="celery@gone")
    persist_events(run.pk, [{**e, "runId": str(run.pk)} for e in events if e["seq"] <= upto])
    Run.objects.filter(pk=run.pk).update(last_seq=upto)
    return run


def hits(client, run_id) -> list[dict]:
    return [e for e in client.get(f"/api/v1/runs/{run_id}/events").json()
            if e["type"] == "breakpoint_hit" and not e.get("superseded")]


def test_a_run_lost_while_held_holds_there_again_once(owner_client, owner, donor):
    workflow_id, events = donor
    hit = next(e for e in events if e["type"] == "breakpoint_hit")
    run = lost(owner, workflow_id, events, hit["seq"], hold=hit["data"])
    reap_lost_runs()
    # The lost run still says it holds (its stored hold) until the resumed one holds anew: wait for the new hit.
    deadline = time.monotonic() + 60
    while not hits(owner_client, str(run.pk)):
        assert time.monotonic() < deadline, "the resumed run never held again"
        time.sleep(0.05)
    again = held(owner_client, str(run.pk))
    assert again["hold"]["key"] == hit["data"]["key"] and again["status"] == "paused"
    [current] = hits(owner_client, str(run.pk))
    assert current["seq"] > hit["seq"]
    rounds_before = [e["data"]["iteration"] for e in owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
                     if e["type"] == "iteration_end" and not e.get("superseded")]
    assert rounds_before == [0, 1, 2]
    post(owner_client, f"/api/v1/runs/{run.pk}/debug", {"action": "continue"})
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "completed" and done["resumes"] == 1
    assert len(hits(owner_client, str(run.pk))) == 1


def test_a_run_lost_after_it_was_let_go_does_not_hold_there_again(owner_client, owner, donor):
    workflow_id, events = donor
    request = next(e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "write.3")
    run = lost(owner, workflow_id, events, request["seq"], hold=None)
    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "completed" and done["resumes"] == 1
    events = owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
    assert [e["superseded"] for e in events if e["type"] == "breakpoint_hit"] == [True]  # the lost attempt's only
    assert [e["data"]["iteration"] for e in events if e["type"] == "iteration_end" and not e.get("superseded")] == \
        [0, 1, 2, 3, 4, 5]
