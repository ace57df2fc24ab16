"""A resumed run's workspace snapshots: numbered after every one the lost attempt stored, counted from the one its
files were put back to; the lost attempt's announced snapshots stay, marked superseded as their events are, and are
never the run's latest files; one it stored but never announced (its event was lost with the worker) is dropped."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.durability import run_files
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent, RunStatus
from tests.support.api_calls import post, wait_for
from tests.support.snapshots import TWO_WRITING_STEPS, TWO_WRITING_STEPS_SCRIPT, announced, stored_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"


def lost_in_the_second_step(owner_client, owner) -> Run:
    """A run that finished `first` (snapshot 1), then in `second` stored snapshot 2 (announced) and 3 (its event
    lost with the worker) and left files on disk, before its worker stopped beating."""
    workflow = Workflow.objects.get(pk=post(owner_client, "/api/v1/workflows", {"source": TWO_WRITING_STEPS}).json()["id"])
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             script=TWO_WRITING_STEPS_SCRIPT, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago)
    stored_snapshot(run, 1, "first", {"a.txt": b"a\n"}, None)
    stored_snapshot(run, 2, "second", {"a.txt": b"a\n", "lost.txt": b"lost\n"}, 1)
    stored_snapshot(run, 3, "end", {"a.txt": b"a\n", "lost.txt": b"lost\n", "lost-too.txt": b"x"}, 2)
    persist_events(run.pk, [
        {"type": "workflow_start", "seq": 1, "data": {"total": 2}},
        announced(2, 1, "first"),
        {"type": "step_end", "seq": 3, "stepId": "first", "data": {"status": "completed", "content": "one"}},
        {"type": "step_start", "seq": 4, "stepId": "second", "data": {}},
        announced(5, 2, "second"),
    ])
    root = run_files.workspace_dir(run.pk)
    root.mkdir(parents=True)
    for name, data in (("a.txt", b"a\n"), ("lost.txt", b"lost\n"), ("lost-too.txt", b"x")):
        (root / name).write_bytes(data)
    return run


def test_a_resumed_runs_snapshots_number_on_and_the_lost_attempts_are_superseded(owner_client, owner):
    run = lost_in_the_second_step(owner_client, owner)

    assert reap_lost_runs() == [str(run.pk)]
    done = wait_for(owner_client, str(run.pk))

    assert done["status"] == "completed", done["reason"]
    snapshots = owner_client.get(f"/api/v1/runs/{run.pk}/workspace").json()["snapshots"]
    by_number = {s["number"]: s for s in snapshots}
    assert [s["number"] for s in snapshots] == sorted(by_number)
    assert by_number[1]["superseded"] is False
    assert by_number[2]["superseded"] is True and by_number[2]["label"] == "second"  # kept, as its event is
    assert RunEvent.objects.get(run=run, seq=5).superseded
    # The lost attempt's "end" (snapshot 3) was never announced: dropped, its number free; the run's own go after 2.
    again = [s for s in snapshots if s["number"] > 2]
    assert [s["label"] for s in again] == ["second"] and not again[0]["superseded"]
    rerun = again[0]["number"]
    diff = owner_client.get(f"/api/v1/runs/{run.pk}/workspace/snapshots/{rerun}/diff").json()
    assert diff["base"] == 1 and [(c["path"], c["change"]) for c in diff["changes"]] == [("b.txt", "added")]
    # The run's latest files are the resumed attempt's, on disk and in the database alike.
    assert run_files.latest(run.pk).number == rerun
    listed = owner_client.get(f"/api/v1/runs/{run.pk}/workspace/snapshots/{rerun}/files").json()["files"]
    assert [f["path"] for f in listed] == ["a.txt", "b.txt"]
    root = run_files.workspace_dir(run.pk)
    assert sorted(p.name for p in root.iterdir()) == ["a.txt", "b.txt"]


def test_a_resumed_run_that_changes_no_more_files_has_the_boundarys_as_its_latest(owner_client, owner):
    run = lost_in_the_second_step(owner_client, owner)
    Run.objects.filter(pk=run.pk).update(script={"replies": {**TWO_WRITING_STEPS_SCRIPT["replies"], "second": ["nothing to write"]}})

    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))

    assert done["status"] == "completed", done["reason"]
    assert run_files.latest(run.pk).number == 1  # not the superseded snapshot 2, which has lost.txt
    zipped = owner_client.get(f"/api/v1/runs/{run.pk}/workspace.zip")
    assert zipped.status_code == 200 and "workspace-1.zip" in zipped["Content-Disposition"]
