"""Snapshot storage is bounded, and deleting runs gives it back (issue #30).

A step writing many files once grew the database by a gigabyte through its workspace snapshots. Past a run's
snapshot storage (RUN_SNAPSHOT_MB) or its workspace's over all its runs (WORKSPACE_SNAPSHOT_MB), the snapshots
still list the files with their sizes, keep no more contents, and say so in words, in the event, the snapshot list,
the file list and the file viewer. Deleting runs, one by one or in bulk or with their workflow, removes their
workspace directories (so does deleting their user, whose personal workspace goes with them), and
``manage.py reclaim_space`` gives the freed space back to the disk on SQLite.
"""
from __future__ import annotations

import io
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Sum
from django.db.models.functions import Length

from accounts.models import Workspace
from designer.models import FileBlob, VersionFile, Workflow
from runtime.durability.run_files import DatabaseStore
from runtime.management.commands.reclaim_space import sqlite_bytes
from runtime.models import Run, WorkspaceBlob
from tests.support.api_calls import client_for, post, wait_for
from tests.support.zips import upload, zipped

pytestmark = pytest.mark.django_db(transaction=True)

WRITER = """
version: 1
name: writer
agents:
  writer: {description: writes files}
steps:
  - id: write
    agent: writer
    loop: {until: "true", maxIterations: 1}
"""
KB300 = 300_000


def writes(count: int, size: int = KB300) -> dict:
    """A script whose one step writes ``count`` files of ``size`` random bytes with one bash call."""
    command = f"for i in $(seq {count}); do head -c {size} /dev/urandom > f$i.bin; done"
    return {"replies": {"write": [{"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}, "done"]}}


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    return settings.WORKSPACES_DIR


@pytest.fixture
def workflow_id(owner_client):
    return post(owner_client, "/api/v1/workflows", {"source": WRITER}).json()["id"]


def run_writing(client, workflow_id, count: int, size: int = KB300) -> str:
    created = post(client, "/api/v1/runs", {"workflow_id": workflow_id, "script": writes(count, size)})
    assert created.status_code == 201, created.content
    run_id = created.json()["id"]
    assert wait_for(client, run_id)["status"] == "completed"
    return run_id


def stored_bytes(**where) -> int:
    """The contents kept, measured from the data itself (not the size column the caps keep)."""
    return WorkspaceBlob.objects.filter(**where).aggregate(n=Sum(Length("data")))["n"] or 0


def last_snapshot(client, run_id: str) -> dict:
    return client.get(f"/api/v1/runs/{run_id}/workspace").json()["snapshots"][-1]


def test_a_step_writing_past_the_runs_cap_keeps_at_most_the_cap_and_says_why(owner_client, workflow_id, settings,
                                                                              workspaces):
    settings.RUN_SNAPSHOT_MB = 1
    run_id = run_writing(owner_client, workflow_id, 5)
    assert len(list((workspaces / run_id).glob("f*.bin"))) == 5  # the files themselves are all there

    assert 0 < stored_bytes(run_id=run_id) <= 2**20
    assert WorkspaceBlob.objects.filter(run_id=run_id).count() == 3  # 3 x 300 KB fit in 1 MB, the 4th does not

    snapshot = last_snapshot(owner_client, run_id)
    assert snapshot["note"] == "not stored: this run's snapshot storage (1 MB) is full"
    event = next(e for e in owner_client.get(f"/api/v1/runs/{run_id}/events").json()
                 if e["type"] == "workspace_snapshot")
    assert event["data"]["not_stored"] == 2 and event["data"]["note"] == snapshot["note"]

    listed = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{snapshot['number']}/files").json()
    assert listed["note"] == snapshot["note"]
    assert sorted(f["path"] for f in listed["files"]) == [f"f{i}.bin" for i in range(1, 6)]
    assert all(f["size"] == KB300 for f in listed["files"])
    missing = [f for f in listed["files"] if not f["stored"]]
    assert len(missing) == 2 and {f["reason"] for f in missing} == {snapshot["note"]}
    assert {f["reason"] for f in listed["files"] if f["stored"]} == {""}

    shown = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{snapshot['number']}/file",
                             {"path": missing[0]["path"]}).json()
    assert shown["stored"] is False and shown["text"] is None and shown["reason"] == snapshot["note"]


def test_the_workspaces_cap_counts_every_run_in_it(owner_client, workflow_id, settings):
    settings.RUN_SNAPSHOT_MB = 0  # no per-run limit: only the workspace's
    settings.WORKSPACE_SNAPSHOT_MB = 1
    first = run_writing(owner_client, workflow_id, 2)
    assert WorkspaceBlob.objects.filter(run_id=first).count() == 2
    assert last_snapshot(owner_client, first)["note"] == ""

    second = run_writing(owner_client, workflow_id, 2)
    assert WorkspaceBlob.objects.filter(run_id=second).count() == 1  # 600 KB kept before, room for one more
    workspace = Run.objects.get(pk=second).workspace_id
    assert stored_bytes(run__workspace_id=workspace) <= 2**20
    assert last_snapshot(owner_client, second)["note"] == \
        "not stored: its workspace's (all its runs') snapshot storage (1 MB) is full"


def test_runs_of_one_workspace_storing_at_once_never_pass_its_cap_together(owner_client, workflow_id, settings):
    """Each chunk of contents is stored in turn with the workspace's row locked: eight runs' snapshots landing at
    the same moment share the room, none of them counting on the room another is taking."""
    settings.RUN_SNAPSHOT_MB = 0
    settings.WORKSPACE_SNAPSHOT_MB = 1
    runs = [run_writing(owner_client, workflow_id, 0) for _ in range(8)]
    stores = [DatabaseStore(run_id) for run_id in runs]
    start = threading.Barrier(len(stores))

    def store(index: int) -> tuple[int, str]:
        start.wait()
        try:
            return stores[index]._save_blobs({f"{index}-{n}": bytes([index, n]) * (KB300 // 2) for n in range(2)})
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(stores)) as pool:
        answers = list(pool.map(store, range(len(stores))))
    workspace = Run.objects.get(pk=runs[0]).workspace_id
    assert 0 < stored_bytes(run__workspace_id=workspace) <= 2**20
    assert WorkspaceBlob.objects.filter(run_id__in=runs).count() == 3  # 3 x 300 KB, whoever came first
    assert sum(refused for refused, _ in answers) == 2 * len(stores) - 3
    assert {said for refused, said in answers if refused} == \
        {"not stored: its workspace's (all its runs') snapshot storage (1 MB) is full"}


def test_deleting_runs_in_bulk_or_with_their_workflow_or_workspace_removes_their_directories(owner_client, workflow_id,
                                                                                              workspaces):
    runs = [run_writing(owner_client, workflow_id, 1, 1000) for _ in range(4)]
    assert all((workspaces / run_id).is_dir() for run_id in runs)

    Run.objects.filter(pk__in=runs[:2]).delete()  # as the admin's "delete selected" does
    assert [(workspaces / run_id).exists() for run_id in runs] == [False, False, True, True]

    Workflow.objects.filter(pk=workflow_id).delete()
    assert not any((workspaces / run_id).exists() for run_id in runs)
    assert not WorkspaceBlob.objects.filter(run_id__in=runs).exists()

    other = post(owner_client, "/api/v1/workflows", {"source": WRITER}).json()["id"]
    last = run_writing(owner_client, other, 1, 1000)
    Workspace.objects.filter(pk=Run.objects.get(pk=last).workspace_id).delete()
    assert not (workspaces / last).exists() and not Run.objects.filter(pk=last).exists()


def users_runs(client, workspaces, count: int = 2) -> list[str]:
    """``count`` finished runs of a new workflow in the client's personal workspace, each with its folder and stored
    contents; the workflow holds a stored file of its own too (a bundle's prompt)."""
    uploaded = upload(client, zipped({"flow.yaml": WRITER.encode(), "notes.md": secrets.token_hex(16).encode()}),
                      main="flow.yaml")
    assert uploaded.status_code == 201, uploaded.content
    workflow = uploaded.json()["workflows"][0]["id"]
    runs = [run_writing(client, workflow, 1, 1000) for _ in range(count)]
    assert all((workspaces / run_id).is_dir() and WorkspaceBlob.objects.filter(run_id=run_id).exists()
               for run_id in runs)
    return runs


def workflow_files(user) -> set[str]:
    return set(VersionFile.objects.filter(version__workflow__owner=user).values_list("blob_id", flat=True))


def assert_pruned(runs: list[str], workspaces, workspace_id: int, files: set[str]) -> None:
    assert not [run_id for run_id in runs if (workspaces / run_id).exists()], "a run's folder outlived its user"
    assert not WorkspaceBlob.objects.filter(run_id__in=runs).exists(), "a run's stored contents outlived its user"
    assert not Run.objects.filter(pk__in=runs).exists() and not Workspace.objects.filter(pk=workspace_id).exists()
    assert files and not FileBlob.objects.filter(pk__in=files).exists(), "a workflow's stored file outlived its user"


def test_deleting_a_user_prunes_their_personal_workspaces_runs(owner, owner_client, workspaces):
    keeper = get_user_model().objects.create_user("keeper")
    kept = users_runs(client_for(keeper), workspaces, 1)
    runs = users_runs(owner_client, workspaces)
    personal, files, kept_files = Workspace.objects.get(personal_for=owner).pk, workflow_files(owner), workflow_files(keeper)

    owner.delete()
    assert_pruned(runs, workspaces, personal, files - kept_files)
    # Someone else's runs and workflow keep their folders, contents and files (the shared ones too).
    assert (workspaces / kept[0]).is_dir() and WorkspaceBlob.objects.filter(run_id=kept[0]).exists()
    assert set(FileBlob.objects.filter(pk__in=kept_files).values_list("pk", flat=True)) == kept_files


def test_deleting_users_in_bulk_prunes_their_runs_too(owner, owner_client, workspaces):
    """The path a bulk delete of users takes (``QuerySet.delete``: what Django's admin action "delete selected"
    calls, were an admin site installed; this server has none): each run's folder goes with its row."""
    other = get_user_model().objects.create_user("other")
    runs = users_runs(owner_client, workspaces) + users_runs(client_for(other), workspaces)
    personal = [Workspace.objects.get(personal_for=u).pk for u in (owner, other)]
    files = [workflow_files(u) for u in (owner, other)]

    get_user_model().objects.filter(pk__in=[owner.pk, other.pk]).delete()
    assert_pruned(runs[:2], workspaces, personal[0], files[0])
    assert_pruned(runs[2:], workspaces, personal[1], files[1])


def test_reclaim_space_shrinks_the_sqlite_file_after_a_run_is_deleted(owner_client, workflow_id):
    name = str(connection.settings_dict["NAME"])
    assert connection.vendor == "sqlite" and sqlite_bytes(name) > 0  # the suite's database is a file
    run_id = run_writing(owner_client, workflow_id, 10)  # 3 MB of contents
    assert stored_bytes(run_id=run_id) == 10 * KB300
    call_command("reclaim_space", stdout=io.StringIO())  # whatever else was free, from before
    with_run = sqlite_bytes(name)

    Run.objects.filter(pk=run_id).delete()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert sqlite_bytes(name) > with_run - 2**20  # deleted rows leave their pages in the file

    out = io.StringIO()
    call_command("reclaim_space", stdout=out)
    assert sqlite_bytes(name) < with_run - 2.5 * 2**20
    assert "MB before" in out.getvalue() and "MB freed" in out.getvalue()
