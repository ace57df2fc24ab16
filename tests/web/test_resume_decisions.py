"""What happens to a run whose worker stopped beating: it resumes (and runs to its end here, on the inline
backend), or past its resumes, or with RESUME_LOST_RUNS=0, it fails saying why; a paused one goes on paused."""
import hashlib
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.durability import continuation, run_files
from runtime.durability.continuation import restore_workspace
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent, RunStatus, WorkspaceBlob, WorkspaceSnapshot
from tests.support.api_calls import post, wait_for
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = {"replies": {"draft": ["a draft"], "judge": [{"content": "yes", "result": {"done": True, "reason": "ok"}}]}}


def lost_run(owner_client, owner, **fields) -> Run:
    workflow = Workflow.objects.get(pk=post(owner_client, "/api/v1/workflows", {"source": judge_loop("lost", 2)}).json()["id"])
    long_ago = timezone.now() - timedelta(hours=1)
    return Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(), script=SCRIPT,
                              status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago, worker="celery@gone", **fields)


def test_a_lost_run_resumes_and_runs_to_its_end(owner_client, owner):
    run = lost_run(owner_client, owner)
    assert reap_lost_runs() == [str(run.pk)]
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "completed", done["reason"]
    run.refresh_from_db()
    assert run.resumes == 1 and run.started_at < timezone.now() - timedelta(minutes=59)  # its first start is kept
    notes = [e.event for e in RunEvent.objects.filter(run=run, type="message") if "resumed" in (e.event.get("data") or {})]
    assert [n["data"]["resumed"]["reason"] for n in notes] == ["worker lost"]


def test_past_its_resumes_a_lost_run_fails_for_good(owner_client, owner, settings):
    run = lost_run(owner_client, owner, resumes=settings.RUN_MAX_RESUMES)
    reap_lost_runs()
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.reason == f"worker lost (it had resumed {settings.RUN_MAX_RESUMES} times, the most allowed)"


def test_with_resume_off_a_lost_run_fails_as_before(owner_client, owner, settings):
    settings.RESUME_LOST_RUNS = False
    run = lost_run(owner_client, owner)
    reap_lost_runs()
    run.refresh_from_db()
    assert (run.status, run.reason, run.resumes) == (RunStatus.FAILED, "worker lost", 0)


def test_a_lost_paused_run_goes_on_paused(owner_client, owner):
    run = lost_run(owner_client, owner, paused_at=timezone.now() - timedelta(minutes=5))
    Run.objects.filter(pk=run.pk).update(status=RunStatus.PAUSED)
    reap_lost_runs()
    paused = wait_for(owner_client, str(run.pk), statuses=("paused",))
    assert paused["status"] == "paused"
    assert post(owner_client, f"/api/v1/runs/{run.pk}/stop", {}).status_code == 200
    assert wait_for(owner_client, str(run.pk))["status"] == "cancelled"


def test_a_resumed_run_counts_what_it_spent_before_against_its_budget(owner_client, owner):
    rounds = [{"content": f"round {i}", "result": {"done": False, "reason": "more"}} for i in range(5)]
    script = {"tokens": {"prompt": 10, "completion": 5}, "replies": {"draft": ["a draft"], "judge": [*rounds, {"content": "ok", "result": {"done": True}}]}}
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("spent", 6)}).json()["id"]
    donor = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": script}).json()
    assert wait_for(owner_client, donor["id"])["status"] == "completed"
    events = [e.event for e in RunEvent.objects.filter(run_id=donor["id"]).order_by("seq")]
    second_verdict = [e["seq"] for e in events if e["type"] == "judge_verdict"][1]
    # A run that did two rounds (draft and judge, 15 tokens each: 60 tokens) under a 100-token budget, then lost its worker.
    workflow = Workflow.objects.get(pk=workflow_id)
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(), script=script,
                             budgets={"max_tokens": 100}, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago)
    persist_events(run.pk, [{**e, "runId": str(run.pk)} for e in events if e["seq"] <= second_verdict])
    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "failed" and "token budget exceeded" in done["reason"], done["reason"]
    after = [e.event for e in RunEvent.objects.filter(run=run, seq__gt=second_verdict, type="agent_turn")]
    rounds_after = {e["stepId"].split(".")[1] for e in after if e["data"].get("phase") == "request"}
    # 60 spent before, 30 a round: the budget stops it in the second round after the resume, not the fourth.
    assert rounds_after == {"2", "3"}, rounds_after


def test_a_resumed_runs_workspace_is_put_back_as_its_boundary_left_it(owner_client, owner, settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    run = lost_run(owner_client, owner)
    kept, changed = b"kept as it was\n", b"the boundary's text\n"
    manifest = {}
    for path, data in (("notes/kept.txt", kept), ("draft.md", changed)):
        digest = hashlib.sha256(data).hexdigest()
        WorkspaceBlob.objects.create(run=run, digest=digest, data=data)
        manifest[path] = [len(data), 0, digest]
    WorkspaceSnapshot.objects.create(run=run, number=1, label="dev.0", manifest=manifest, files=2, added=2)
    RunEvent.objects.create(run=run, seq=5, type="workspace_snapshot", event_json=json.dumps(
        {"type": "workspace_snapshot", "seq": 5, "data": {"snapshot": 1, "label": "dev.0", "workspace": "run"}}))
    # What the lost attempt did after that boundary: a file changed, one written, one removed.
    root = run_files.workspace_dir(run.pk)
    (root / "notes").mkdir(parents=True)
    (root / "draft.md").write_bytes(b"half-written by the lost attempt")
    (root / "scratch.tmp").write_bytes(b"x")
    assert restore_workspace(run, 9) == 3
    files = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert files == {"notes/kept.txt": kept, "draft.md": changed}
    # A boundary before any snapshot: nothing recorded to put back.
    assert restore_workspace(run, 4) == 0


def test_one_lost_run_that_cannot_be_handled_does_not_keep_the_others_waiting(owner_client, owner, monkeypatch):
    broken, fine = lost_run(owner_client, owner), lost_run(owner_client, owner)
    real = continuation.resume_or_fail

    def resume_or_fail(run_id, reason):
        if str(run_id) == str(broken.pk):  # as when its files cannot be put back
            raise PermissionError("a folder the agent made read-only")
        return real(run_id, reason)

    monkeypatch.setattr(continuation, "resume_or_fail", resume_or_fail)
    assert set(reap_lost_runs()) == {str(broken.pk), str(fine.pk)}
    assert wait_for(owner_client, str(fine.pk))["status"] == "completed"
    broken.refresh_from_db()
    assert broken.status == RunStatus.RUNNING  # left for the next sweep


def test_a_lost_run_whose_end_was_stored_is_finished_from_it_not_run_again(owner_client, owner):
    # The server died between storing a run's workflow_end and marking the run final: the run has ended, and
    # resuming it would run its end (and the coordinator's synthesis, a paid model call) a second time.
    script = {"tokens": {"prompt": 10, "completion": 5}, **SCRIPT}
    workflow_id = post(owner_client, "/api/v1/workflows", {"source": judge_loop("ended", 2)}).json()["id"]
    donor = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": script}).json()
    done = wait_for(owner_client, donor["id"])
    assert done["status"] == "completed", done["reason"]
    events = [e.event for e in RunEvent.objects.filter(run_id=donor["id"]).order_by("seq")]
    assert events[-1]["type"] == "workflow_end"
    workflow = Workflow.objects.get(pk=workflow_id)
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(), script=script,
                             status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago, worker="inline@gone")
    persist_events(run.pk, [{**e, "runId": str(run.pk)} for e in events])
    assert reap_lost_runs() == [str(run.pk)]
    run.refresh_from_db()
    end = events[-1]
    assert (run.status, run.reason, run.resumes) == (RunStatus.COMPLETED, "", 0)
    assert run.finished_at is not None
    assert (run.tokens_prompt, run.tokens_completion) == (end["tokens"]["prompt"], end["tokens"]["completion"]) != (0, 0)
    assert run.loops == end["data"]["loops"] and run.summary == end["data"].get("summary", "")
    stored = list(RunEvent.objects.filter(run=run).order_by("seq").values_list("type", "superseded"))
    assert len(stored) == len(events) and stored[-1] == ("workflow_end", False)
    assert not any(superseded for _, superseded in stored)


def test_a_lost_run_whose_stored_end_was_superseded_resumes(owner_client, owner):
    # An end a resume already set aside is not the run's end: the run goes on from its boundary.
    run = lost_run(owner_client, owner, last_seq=1)
    RunEvent.objects.create(run=run, seq=1, type="workflow_end", superseded=True, event_json=json.dumps(
        {"type": "workflow_end", "seq": 1, "superseded": True, "data": {"status": "failed", "reason": "old"}}))
    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))
    assert done["status"] == "completed", done["reason"]
