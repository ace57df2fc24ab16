"""A run that lost its worker mid-loop and went on: its record and its resume message say why, which attempt and
after which round; the events of the lost attempt past that boundary come marked superseded from the API; and the
loop's duration spans the resume, counted from its first start rather than from the resume, without the time no
worker ran it."""
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.events import rfc3339
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent, RunStatus
from tests.support.api_calls import post, wait_for
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = [{"content": f"round {i}", "result": {"done": False, "reason": "more"}} for i in range(3)]
SCRIPT = {"replies": {"draft": ["a draft"], "judge": [*ROUNDS, {"content": "ok", "result": {"done": True, "reason": "good"}}]}}
LOOP_STARTED_AGO = timedelta(minutes=10)


def lost_mid_loop(owner_client, owner, lost_ago: timedelta = timedelta(0)) -> tuple[Run, int, list[dict]]:
    """A run whose first attempt judged two rounds, began a third and was lost ``lost_ago``: (run, the second
    verdict's seq, the events it had stored). Its loop had begun ten minutes before that."""
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("resumed", 6)}).json()["id"]
    donor = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": SCRIPT}).json()
    assert wait_for(owner_client, donor["id"])["status"] == "completed"
    events = [e.event for e in RunEvent.objects.filter(run_id=donor["id"]).order_by("seq")]
    second_verdict = [e["seq"] for e in events if e["type"] == "judge_verdict"][1]
    third_round = next(e for e in events if e["seq"] > second_verdict and e["type"] == "agent_turn")["seq"]
    workflow = Workflow.objects.get(pk=workflow_id)
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(), script=SCRIPT,
                             status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago, worker="celery@gone")
    began = rfc3339((timezone.now() - lost_ago - LOOP_STARTED_AGO).timestamp())
    stored = [{**e, "runId": str(run.pk), "timestamp": began if e["type"] == "step_start" and e["stepId"] == "dev"
               else rfc3339(_seconds(e["timestamp"]) - lost_ago.total_seconds())}
              for e in events if e["seq"] <= third_round]
    persist_events(run.pk, stored)
    Run.objects.filter(pk=run.pk).update(last_seq=third_round)
    return run, second_verdict, stored


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_the_record_and_the_message_say_why_which_attempt_and_after_which_round(owner_client, owner):
    run, second_verdict, _ = lost_mid_loop(owner_client, owner)
    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "completed", done["reason"]
    assert done["resumes"] == 1
    assert done["resumed"] == {"reason": "worker lost", "attempt": 1, "of": 3, "from_seq": second_verdict,
                               "after": {"kind": "round", "step": "dev", "iteration": 1}}
    events = owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
    note = next(e for e in events if e["type"] == "message" and "resumed" in (e.get("data") or {}))
    assert note["message"] == f"run resumed after round 2 of dev (event {second_verdict}): worker lost (resume 1 of 3)"
    assert "started" not in note["data"]["resumed"]  # the engine's start times are not a reader's


def test_the_lost_attempts_events_past_the_boundary_come_marked_superseded(owner_client, owner):
    run, second_verdict, stored = lost_mid_loop(owner_client, owner)
    reap_lost_runs()
    wait_for(owner_client, str(run.pk))
    events = owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
    lost = {e["seq"] for e in stored if e["seq"] > second_verdict}
    assert lost, "the lost attempt had begun the third round"
    assert {e["seq"] for e in events if e.get("superseded")} == lost
    assert set(RunEvent.objects.filter(run=run, superseded=True).values_list("seq", flat=True)) == lost
    assert all("superseded" not in e for e in events if e["seq"] <= second_verdict or e["seq"] > max(lost))


def test_the_loops_duration_spans_the_resume(owner_client, owner):
    run, _, stored = lost_mid_loop(owner_client, owner)
    first_start = next(e["timestamp"] for e in stored if e["type"] == "step_start" and e["stepId"] == "dev")
    reap_lost_runs()
    wait_for(owner_client, str(run.pk))
    events = owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
    starts = [e for e in events if e["type"] == "step_start" and e["stepId"] == "dev"]
    assert len(starts) == 2 and starts[1]["data"]["started_at"] == first_start
    end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "dev")
    # (The lost attempt's last event came a moment before the stand-in loop start's ten minutes were up.)
    assert end["durationMs"] >= (LOOP_STARTED_AGO.total_seconds() - 30) * 1000
    # The inner steps of the round that ran again start clean: timed from their own start.
    drafts = [e for e in events if e["type"] == "step_start" and e["stepId"] == "dev.2.draft"]
    assert "started_at" not in drafts[-1]["data"]


def test_the_time_no_worker_ran_the_loop_is_not_in_its_duration(owner_client, owner):
    # Lost an hour ago (its last event and heartbeat then), ten minutes into the loop: resumed now.
    run, _, _ = lost_mid_loop(owner_client, owner, lost_ago=timedelta(hours=1))
    reap_lost_runs()
    wait_for(owner_client, str(run.pk))
    events = owner_client.get(f"/api/v1/runs/{run.pk}/events").json()
    start = [e for e in events if e["type"] == "step_start" and e["stepId"] == "dev"][-1]
    assert LOOP_STARTED_AGO.total_seconds() - 30 <= start["data"]["carried_s"] <= LOOP_STARTED_AGO.total_seconds()
    end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "dev")
    assert (LOOP_STARTED_AGO.total_seconds() - 30) * 1000 <= end["durationMs"] < timedelta(minutes=30).total_seconds() * 1000
