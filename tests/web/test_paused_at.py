"""A run records since when it is paused and how long its pauses lasted, so a page opened mid-pause (or
after one) shows the right clock: paused_at is set on pause, cleared on resume (paused_ms grows by the
pause) and cleared when the run ends, however it ends."""
import json
import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.execution.reaper import reap_lost_runs
from runtime.models import Run, RunStatus
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

# A judge that never says done, slowly: the run is still going while the test pauses it.
SLOW = {"latency": 0.3, "replies": {"draft": ["x"], "judge": [{"content": "no", "result": {"done": False}}]}}
PAUSE_S = 0.4


def post(client, path, body=None):
    return client.post(path, data=json.dumps(body or {}), content_type="application/json")


def wait_for(client, run_id, statuses=("completed", "partial", "failed", "cancelled"), timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        body = client.get(f"/api/v1/runs/{run_id}").json()
        if body["status"] in statuses:
            return body
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {body['status']}")


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


@pytest.fixture
def running(owner_client):
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("slow-loop", 20)}).json()["id"]
    run = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SLOW}).json()
    wait_for(owner_client, run["id"], statuses=("running",))
    yield run["id"]
    post(owner_client, f"/api/v1/runs/{run['id']}/stop")
    wait_for(owner_client, run["id"])


def test_a_new_run_is_not_paused_and_has_no_paused_time(owner_client, running):
    run = owner_client.get(f"/api/v1/runs/{running}").json()
    assert run["paused_at"] is None and run["paused_ms"] == 0


def test_pausing_sets_paused_at_and_resuming_clears_it_adding_the_pause(owner_client, running):
    before = timezone.now()
    paused = post(owner_client, f"/api/v1/runs/{running}/pause").json()
    assert paused["status"] == "paused"
    assert paused["paused_at"] is not None and before <= when(paused["paused_at"]) <= timezone.now()
    assert paused["paused_ms"] == 0
    # A page opened now reads the same record.
    assert owner_client.get(f"/api/v1/runs/{running}").json()["paused_at"] == paused["paused_at"]

    time.sleep(PAUSE_S)
    resumed = post(owner_client, f"/api/v1/runs/{running}/resume").json()
    assert resumed["status"] == "running" and resumed["paused_at"] is None
    assert PAUSE_S * 1000 <= resumed["paused_ms"] < PAUSE_S * 1000 + 5000

    # A second pause adds to the first.
    post(owner_client, f"/api/v1/runs/{running}/pause")
    time.sleep(PAUSE_S)
    again = post(owner_client, f"/api/v1/runs/{running}/resume").json()
    assert again["paused_at"] is None and again["paused_ms"] >= resumed["paused_ms"] + PAUSE_S * 1000


def test_a_run_stopped_while_paused_ends_without_paused_at_and_counts_that_pause(owner_client, running):
    post(owner_client, f"/api/v1/runs/{running}/pause")
    time.sleep(PAUSE_S)
    post(owner_client, f"/api/v1/runs/{running}/stop")
    done = wait_for(owner_client, running)
    assert done["status"] == "cancelled"
    assert done["paused_at"] is None
    assert done["paused_ms"] >= PAUSE_S * 1000


def test_a_finished_run_never_paused_has_no_paused_time(owner_client):
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("quick-loop", 2)}).json()["id"]
    script = {"replies": {"draft": ["x"], "judge": [{"content": "yes", "result": {"done": True}}]}}
    run = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": script}).json()
    done = wait_for(owner_client, run["id"])
    assert done["status"] == "completed" and done["paused_at"] is None and done["paused_ms"] == 0


def test_a_lost_paused_run_keeps_no_stale_paused_at(owner_client, owner, settings):
    settings.RESUME_LOST_RUNS = False  # failed for good, as before runs could resume
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("lost-loop", 2)}).json()["id"]
    workflow = Workflow.objects.get(pk=workflow_id)
    long_ago = timezone.now() - timedelta(hours=1)
    # A run whose worker died while it was paused (nothing executes it here).
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             status=RunStatus.PAUSED, started_at=long_ago, heartbeat_at=long_ago,
                             paused_at=long_ago + timedelta(minutes=10), paused_ms=2000)
    assert reap_lost_runs() == [str(run.pk)]
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.reason == "worker lost"
    assert run.paused_at is None
    # The pause lasted from paused_at until the run was marked lost: about 50 minutes, on top of the 2 s before.
    assert 2000 + 49 * 60_000 <= run.paused_ms <= 2000 + 51 * 60_000
