"""A run found lost while its worker still executes it (its heartbeats could not be written through a database
outage longer than RUN_LOST_AFTER_S, a stalled machine) is resumed: the attempt that was thought lost then stops at
once and stores nothing more, so the run executes once, its events one stream with one end. Here both attempts
execute in this process (the inline backend), which is the hardest case: they share its tables of live runs."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import Superseded, persist_events
from runtime.models import Run, RunEvent
from tests.support.api_calls import post, wait_for
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 8


def slow_run(owner_client) -> str:
    verdicts = [{"content": f"round {i}", "result": {"done": i == ROUNDS - 1, "reason": "r"}} for i in range(ROUNDS)]
    flow = post(owner_client, "/api/v1/workflows", {"source": judge_loop("thought-lost", ROUNDS)}).json()["id"]
    run = post(owner_client, "/api/v1/runs", {"workflow_id": flow, "script": {
        "latency": 0.1, "replies": {"draft": [f"draft {i}" for i in range(ROUNDS)], "judge": verdicts}}})
    assert run.status_code == 201, run.content
    return run.json()["id"]


def test_an_attempt_thought_lost_stops_and_the_run_ends_once(owner_client, caplog):
    run_id = slow_run(owner_client)
    deadline = time.monotonic() + 60
    while Run.objects.get(pk=run_id).last_seq < 8:
        assert time.monotonic() < deadline, "the run never got under way"
        time.sleep(0.05)
    # The reaper sees no heartbeat (as after a long outage) and resumes the run while its attempt still executes.
    Run.objects.filter(pk=run_id).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    assert reap_lost_runs() == [run_id]
    final = wait_for(owner_client, run_id, timeout=120)
    time.sleep(1.0)  # anything the first attempt still wrote would be stored by now
    seqs = list(RunEvent.objects.filter(run_id=run_id).order_by("seq").values_list("seq", flat=True))
    ends = RunEvent.objects.filter(run_id=run_id, type="workflow_end").count()
    run = Run.objects.get(pk=run_id)
    assert final["status"] == "completed", final["reason"]
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] == run.last_seq
    assert ends == 1 and run.resumes == 1
    # The first attempt stopped at its next write or heartbeat; it did not go on racing the second for the same
    # seqs (a unique key refusing its batches, retried until it gave up).
    logged = [r.getMessage() for r in caplog.records]
    assert any("resumed elsewhere while it still executed here" in m for m in logged)
    assert not [m for m in logged if "could not persist events" in m]


def test_a_batch_of_an_attempt_the_run_is_no_longer_is_not_stored(owner_client):
    run_id = slow_run(owner_client)
    wait_for(owner_client, run_id)
    run = Run.objects.get(pk=run_id)
    # Finished: no attempt may add to it; nor may an attempt with a past count of resumes.
    with pytest.raises(Superseded):
        persist_events(run_id, [{"seq": run.last_seq + 1, "type": "message"}], attempt=run.resumes)
    Run.objects.filter(pk=run_id).update(status="running", resumes=2)
    with pytest.raises(Superseded):
        persist_events(run_id, [{"seq": run.last_seq + 1, "type": "message"}], attempt=1)
    persist_events(run_id, [{"seq": run.last_seq + 1, "type": "message"}], attempt=2)
    assert Run.objects.get(pk=run_id).last_seq == run.last_seq + 1
