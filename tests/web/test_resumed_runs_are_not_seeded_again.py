"""A resumed run's files are its own as its last boundary left them, not what it started from: a run that started
from an uploaded zip is not seeded again over them (the zip once went in again, and the resume failed with
`ArchiveRefused`: its files were already there)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from designer.models import Workflow
from runtime.durability import run_files
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunStatus
from tests.support.api_calls import post, wait_for
from tests.support.snapshots import TWO_WRITING_STEPS, TWO_WRITING_STEPS_SCRIPT, announced, stored_snapshot
from tests.support.zips import zip_bytes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"


def test_a_run_started_from_an_upload_resumes_with_its_own_files(owner_client, owner):
    upload = run_files.create_upload(owner, "start.zip", zip_bytes({"a.txt": b"as uploaded\n"}))
    workflow = Workflow.objects.get(pk=post(owner_client, "/api/v1/workflows", {"source": TWO_WRITING_STEPS}).json()["id"])
    long_ago = timezone.now() - timedelta(hours=1)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             script=TWO_WRITING_STEPS_SCRIPT, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago,
                             workspace_seed={"upload": upload["id"]})
    # It started from the zip (snapshot 1), and its first step rewrote a.txt (snapshot 2) before the worker was lost.
    stored_snapshot(run, 1, "start", {"a.txt": b"as uploaded\n"}, None)
    stored_snapshot(run, 2, "first", {"a.txt": b"a\n"}, 1)
    persist_events(run.pk, [
        {"type": "workflow_start", "seq": 1, "data": {"total": 2}},
        {**announced(2, 1, "start"), "stepId": None},
        announced(3, 2, "first"),
        {"type": "step_end", "seq": 4, "stepId": "first", "data": {"status": "completed", "content": "one"}},
    ])
    root = run_files.workspace_dir(run.pk)
    root.mkdir(parents=True)
    (root / "a.txt").write_bytes(b"a\n")

    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))

    assert done["status"] == "completed", done["reason"]
    assert {p.name: p.read_bytes() for p in root.iterdir()} == {"a.txt": b"a\n", "b.txt": b"b\n"}
