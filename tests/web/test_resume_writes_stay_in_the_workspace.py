"""What the server writes into a workspace an agent has had its hands on stays in it: a folder the lost attempt
replaced by a link to a directory outside (and a file replaced by a link) is never written through, emptied or
entered, whether the run's files are put back on resume, seeded from an earlier run or from the workflow's folder."""
from __future__ import annotations

import hashlib
import io
import os
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from designer.models import Workflow
from runtime.durability import run_files
from runtime.execution.reaper import reap_lost_runs
from runtime.live.recorder import persist_events
from runtime.models import Run, RunStatus, WorkspaceBlob, WorkspaceSnapshot
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

TWO_STEPS = """
version: 1
name: links
agents:
  w: {description: writes}
steps:
  - {id: first, agent: w}
  - {id: second, agent: w, dependsOn: [first]}
"""
KEPT = {"notes/kept.txt": b"kept at the boundary\n", "draft.md": b"the boundary's draft\n"}


@pytest.fixture
def outside(tmp_path) -> Path:
    """A directory outside every workspace, with files of its own."""
    found = tmp_path / "outside"
    found.mkdir()
    (found / "kept.txt").write_bytes(b"outside's own\n")
    (found / "draft.md").write_bytes(b"outside's draft\n")
    return found


def contents(root: Path) -> dict[str, bytes]:
    """The regular files beneath ``root``; links are neither listed nor followed."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def booby_trapped(root: Path, outside: Path) -> None:
    """What an agent can leave: its folder a link to a directory outside, a file a link to a file outside."""
    root.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, root / "notes")
    os.symlink(outside / "draft.md", root / "draft.md")


def stored_snapshot(run: Run, number: int, files: dict[str, bytes]) -> None:
    manifest = {}
    for path, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        WorkspaceBlob.objects.get_or_create(run=run, digest=digest, defaults={"data": data})
        manifest[path] = [len(data), 0, digest]
    WorkspaceSnapshot.objects.create(run=run, number=number, label="first", step_id="first", manifest=manifest,
                                     files=len(files), added=len(files))


def new_run(owner, workflow: Workflow, **fields) -> Run:
    return Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                              script={"replies": {"first": ["one"], "second": ["two"]}}, **fields)


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"


@pytest.fixture
def workflow(owner_client) -> Workflow:
    return Workflow.objects.get(pk=post(owner_client, "/api/v1/workflows", {"source": TWO_STEPS}).json()["id"])


def test_a_resumed_run_puts_its_files_back_through_no_link_the_lost_attempt_left(owner_client, owner, workflow, outside):
    long_ago = timezone.now() - timedelta(hours=1)
    run = new_run(owner, workflow, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago)
    stored_snapshot(run, 1, KEPT)
    persist_events(run.pk, [
        {"type": "workspace_snapshot", "seq": 1, "stepId": "first", "data": {"snapshot": 1, "label": "first", "workspace": "run"}},
        {"type": "step_end", "seq": 2, "stepId": "first", "data": {"status": "completed", "content": "one"}},
    ])
    root = run_files.workspace_dir(run.pk)
    booby_trapped(root, outside)
    before = contents(outside)

    assert reap_lost_runs() == [str(run.pk)]
    done = wait_for(owner_client, str(run.pk))

    assert done["status"] == "completed", done["reason"]
    assert contents(outside) == before  # nothing written, emptied or removed through the links
    assert not (root / "notes").is_symlink() and not (root / "draft.md").is_symlink()
    assert contents(root) == KEPT


def test_a_run_resumed_before_it_recorded_files_starts_again_from_its_seed_through_no_link(owner_client, owner,
                                                                                          workflow, outside):
    earlier = new_run(owner, workflow, status=RunStatus.COMPLETED)
    stored_snapshot(earlier, 1, KEPT)
    long_ago = timezone.now() - timedelta(hours=1)
    run = new_run(owner, workflow, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago,
                  workspace_seed={"from_run": str(earlier.pk), "snapshot": 1})
    root = run_files.workspace_dir(run.pk)
    booby_trapped(root, outside)
    (root / "half-written.txt").write_bytes(b"by the lost attempt")
    before = contents(outside)

    reap_lost_runs()
    done = wait_for(owner_client, str(run.pk))

    assert done["status"] == "completed", done["reason"]
    assert contents(outside) == before
    assert contents(root) == KEPT


def test_seeding_from_an_earlier_run_writes_nothing_through_a_link(owner, workflow, outside):
    earlier = new_run(owner, workflow, status=RunStatus.COMPLETED)
    stored_snapshot(earlier, 1, {**KEPT, "top.txt": b"top\n"})
    run = new_run(owner, workflow, workspace_seed={"from_run": str(earlier.pk)})
    root = run_files.workspace_dir(run.pk)
    booby_trapped(root, outside)
    before = contents(outside)

    assert run_files.seed(run, root) == 1  # top.txt; notes/kept.txt and draft.md have links in their way
    assert contents(outside) == before
    assert (root / "top.txt").read_bytes() == b"top\n"


def test_the_workflows_folder_is_put_in_the_workspace_through_no_link(owner_client, owner, outside):
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w") as zf:
        zf.writestr("flow.yaml", TWO_STEPS.replace("{id: first, agent: w}", "{id: first, agent: w, instructions: '@notes/prompt.md'}"))
        zf.writestr("notes/prompt.md", "the folder's prompt\n")
        zf.writestr("other.md", "another file\n")
    answer = owner_client.post("/api/v1/workflows/import-bundle",
                               {"file": SimpleUploadedFile("flow.zip", bundle.getvalue(), content_type="application/zip")})
    assert answer.status_code == 201, answer.content
    workflow = Workflow.objects.get(pk=answer.json()["workflows"][0]["id"])
    run = new_run(owner, workflow)
    root = run_files.workspace_dir(run.pk)
    booby_trapped(root, outside)
    before = contents(outside)

    written = run_files.seed_folder(run, root)

    assert contents(outside) == before
    assert written == 2 and (root / "other.md").read_bytes() == b"another file\n"  # the main file and other.md
    assert sorted(contents(root)) == ["flow.yaml", "other.md"]
