"""An agent can leave its workspace in a state the server cannot change: ``chmod 555`` on a folder stops a server
that is not root from removing or adding files in it. Putting the run's files back on resume then skips what it
cannot change, says which, and raises nothing: one such workspace never blocks the resume (or the reaper's other
lost runs). A run that starts again from its beginning gets a fresh workspace, nothing an agent left surviving.

The server runs as root here, where ``chmod 555`` stops nothing: the unprivileged case is run in a child process
that drops to uid/gid 65534 with no groups (what ``setpriv --reuid=65534 --regid=65534 --clear-groups`` does; a
child forked from this one because the test interpreter lives where that user cannot execute it)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone

from designer import workflows
from runtime.durability import continuation, run_files
from runtime.models import Run, RunEvent, RunStatus, WorkspaceBlob, WorkspaceSnapshot

pytestmark = pytest.mark.django_db(transaction=True)

NOBODY = 65534
DOCUMENT = {"name": "files", "description": "Writes files.", "agents": {"w": {"description": "writes"}},
            "steps": [{"id": "work", "agent": "w", "instructions": "Write."}]}


def as_nobody(work) -> dict:
    """``work()`` (returning something JSON can carry) in a forked child running as uid/gid 65534 with no
    supplementary groups; what it returned, or the exception it raised, as {"result"} or {"raised"}."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop every privilege for good, do the work, report, and leave without cleanup
        code = 0
        try:
            os.close(reader)
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            try:
                report = {"result": work(), "uid": os.geteuid()}
            except BaseException as exc:  # reported to the parent, which fails the test
                report = {"raised": f"{type(exc).__name__}: {exc}"}
            os.write(writer, json.dumps(report).encode())
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writer)
    chunks = []
    while chunk := os.read(reader, 65536):
        chunks.append(chunk)
    os.close(reader)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and chunks, "the unprivileged child did not report"
    return json.loads(b"".join(chunks))


def owned_by_nobody(top: Path) -> None:
    for folder, dirs, files in os.walk(top):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(folder, name), NOBODY, NOBODY)
    os.lchown(top, NOBODY, NOBODY)


@pytest.fixture
def reachable():
    """A folder that user can reach (pytest's own are beneath a 0700 folder of root's), removed after the test."""
    found = Path(tempfile.mkdtemp(prefix="unwritable-"))
    os.chmod(found, 0o755)
    yield found
    for folder, dirs, _ in os.walk(found):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o755)
    shutil.rmtree(found)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another uid needs root")
def test_put_back_as_an_unprivileged_server_skips_what_an_agent_made_read_only(reachable):
    base = reachable
    root = base / "run"
    (root / "locked" / "sub").parent.mkdir(parents=True)
    (root / "locked" / "stale.txt").write_text("the lost attempt's\n")       # to be removed
    (root / "locked" / "draft.md").write_text("half-written\n")              # to be rewritten (replace: unlink first)
    (root / "locked" / "sub").write_text("a file where a folder must go\n")  # to be replaced by a folder
    (root / "ok.txt").write_text("changed by the lost attempt\n")
    (root / "extra.tmp").write_text("x\n")
    (root / "open").mkdir()
    (root / "open" / "leftover.txt").write_text("y\n")
    owned_by_nobody(root)
    os.chmod(root / "locked", 0o555)  # what the agent did: as that user, nothing in it can be added or removed
    wanted = {"locked/draft.md": b"the boundary's draft\n", "locked/new.txt": b"new\n", "locked/sub/a.txt": b"a\n",
              "ok.txt": b"as the boundary left it\n", "gone.txt": b"written again\n", "open/kept.txt": b"kept\n",
              "big.bin": None}

    def put_back_here() -> dict:
        failed: list[str] = []
        changed = run_files.put_files_back(root, wanted, failed=failed)
        return {"changed": changed, "failed": sorted(failed)}

    report = as_nobody(put_back_here)

    assert "raised" not in report, report["raised"]
    assert report["uid"] == NOBODY
    assert report["result"]["failed"] == ["locked/draft.md", "locked/new.txt", "locked/stale.txt", "locked/sub",
                                         "locked/sub/a.txt"]
    # Everything it could change it did: two removed (extra.tmp, open/leftover.txt), three written.
    assert report["result"]["changed"] == 5
    assert (root / "ok.txt").read_bytes() == b"as the boundary left it\n"
    assert (root / "gone.txt").read_bytes() == b"written again\n"
    assert (root / "open" / "kept.txt").read_bytes() == b"kept\n"
    assert not (root / "extra.tmp").exists() and not (root / "open" / "leftover.txt").exists()
    assert stat.S_IMODE(os.stat(root / "locked").st_mode) == 0o555
    assert (root / "locked" / "stale.txt").exists()  # it could not be removed, and is reported


def store_snapshot(run: Run, number: int, files: dict[str, bytes], seq: int, **fields) -> None:
    manifest = {}
    for path, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        WorkspaceBlob.objects.get_or_create(run=run, digest=digest, defaults={"data": data})
        manifest[path] = [len(data), 0, digest]
    manifest.update(fields.pop("manifest", {}))
    WorkspaceSnapshot.objects.create(run=run, number=number, label=f"s{number}", manifest=manifest,
                                     files=len(manifest), added=len(manifest))
    RunEvent.objects.create(run=run, seq=seq, type="workspace_snapshot", event_json=json.dumps(
        {"type": "workspace_snapshot", "seq": seq, "data": {"snapshot": number, "label": f"s{number}",
                                                              "workspace": "run"}}))


def a_run(owner, **fields) -> Run:
    workflow = workflows.create(owner, source=None, document=DOCUMENT)
    return Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow,
                              version=workflow.versions.get(), provider="simulated", **fields)


def lost(owner) -> Run:
    long_ago = timezone.now() - timedelta(hours=1)
    return a_run(owner, status=RunStatus.RUNNING, started_at=long_ago, heartbeat_at=long_ago, worker="celery@gone")


def test_a_lost_run_whose_files_cannot_be_put_back_still_resumes(owner, settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    run = lost(owner)
    # A snapshot the restore cannot even read (a size that is no number): restoring raises, the requeue goes on.
    store_snapshot(run, 1, {"a.txt": b"a\n"}, seq=3, manifest={"b.txt": ["many", 0, "0" * 64]})

    assert continuation.resume_or_fail(run.pk, "worker lost") == "resumed"

    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED and run.resumes == 1 and run.start_checkpoint


def test_where_the_workspace_cannot_be_made_the_run_is_told_which_files_were_not_put_back(owner, settings, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the workspaces go\n")
    settings.WORKSPACES_DIR = blocker  # every workspace beneath it fails to be made, even for root
    run = a_run(owner)
    store_snapshot(run, 1, {"a.txt": b"a\n", "notes/b.md": b"b\n"}, seq=3)

    failed: list[str] = []
    assert run_files.put_back(run, 1, failed) == 0
    assert sorted(failed) == ["a.txt", "notes/b.md"]

    tools = run_files.build_run_tools(run, DOCUMENT)  # where it executes: put back again, and said on the run
    notices = async_to_sync(tools.open)()
    assert notices[:1] == tools.notices and len(tools.notices) == 1
    assert "2 files could not be put back as snapshot 1 left them" in notices[0]
    assert "a.txt" in notices[0] and "notes/b.md" in notices[0]


def test_a_run_that_starts_again_from_its_beginning_gets_a_fresh_workspace(owner, settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("outside's own\n")
    earlier = a_run(owner)
    store_snapshot(earlier, 1, {"seeded.txt": b"from the earlier run\n"}, seq=3)
    run = a_run(owner, workspace_seed={"from_run": str(earlier.pk), "snapshot": 1})
    # What the attempt that recorded nothing left: files, a link to a folder outside, a read-only folder.
    root = run_files.workspace_dir(run.pk)
    (root / "locked").mkdir(parents=True)
    (root / "locked" / "planted.txt").write_text("left behind\n")
    os.chmod(root / "locked", 0o555)
    (root / "seeded.txt").write_text("tampered\n")
    os.symlink(outside, root / "out")

    tools = run_files.build_run_tools(run, DOCUMENT)

    assert tools.notices == []
    assert sorted(os.listdir(root)) == ["seeded.txt"]
    assert (root / "seeded.txt").read_text() == "from the earlier run\n"
    assert sorted(os.listdir(outside)) == ["keep.txt"] and (outside / "keep.txt").read_text() == "outside's own\n"
    # The old workspace was moved aside and removed: nothing of it is left beside the new one.
    assert sorted(os.listdir(root.parent)) == [root.name]
