"""A run whose steps call `bash` survives its worker: four steps each run a command, the third is killed mid-command
(the inline server SIGKILLed, or a Celery worker), and the run resumes from the second step's end with its files as
that boundary left them, runs the third command again and completes. Snapshot numbers go on after every one the lost
attempt stored (a resume once collided with them: `IntegrityError`), and the run's latest snapshot is what is on disk.
"""
from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest

from tests.support.live_runs import LIVENESS, wait_status
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, kill_hard, running_server, server_process

FLOW = """
version: 1
name: four-commands
agents:
  shell: {description: runs commands, tools: [bash]}
steps:
  - {id: one, agent: shell}
  - {id: two, agent: shell, dependsOn: [one]}
  - {id: three, agent: shell, dependsOn: [two]}
  - {id: four, agent: shell, dependsOn: [three]}
"""
# The third command leaves a file named afresh on each attempt (mktemp), appends to a file the earlier steps wrote,
# then waits for `go`, which the test writes once the run has resumed.
COMMANDS = {
    "one": "echo one > one.txt && mkdir -p notes && echo kept > notes/kept.txt",
    "two": "echo two >> one.txt && echo two > two.txt",
    "three": "echo three >> one.txt && mktemp scratch.XXXXXX && echo begun > three.txt "
             "&& while [ ! -e go ]; do sleep 0.05; done && echo finished >> three.txt",
    "four": "echo four > four.txt && rm two.txt",
}
SCRIPT = {"latency": 0.05, "replies": {
    step: [{"tool_calls": [{"name": "bash", "arguments": {"command": command, "timeout_seconds": 180}}]}, f"{step} done"]
    for step, command in COMMANDS.items()}}
AFTER = {"one.txt": b"one\ntwo\nthree\n", "notes/kept.txt": b"kept\n", "three.txt": b"begun\nfinished\n", "go": b"",
         "four.txt": b"four\n"}


def start(client) -> str:
    workflow = client.post("/workflows", json={"source": FLOW})
    assert workflow.status_code == 201, workflow.text
    run = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": SCRIPT})
    assert run.status_code == 201, run.text
    return run.json()["id"]


def workspace_of(env: dict, run_id: str) -> Path:
    return Path(env["DESIGNER_DATA_DIR"]).resolve() / "workspaces" / run_id


def files_in(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def wait_for_the_third_command(root: Path, timeout: float = 90) -> str:
    """Wait until the third command waits for `go`; the name of the file it made."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        made = sorted(p.name for p in root.glob("scratch.*"))
        if made and (root / "three.txt").is_file():
            return made[0]
        time.sleep(0.05)
    raise AssertionError(f"the third command did not start in {root}")


def events_of(client, run_id: str) -> list[dict]:
    return client.get(f"/runs/{run_id}/events").json()


def let_the_resumed_run_finish(client, run_id: str, root: Path) -> dict:
    """Once the run says it resumed (its files were put back before that), let the third command end; the run."""
    deadline = time.monotonic() + 90
    while not any("resumed" in (e.get("data") or {}) for e in events_of(client, run_id)):
        assert time.monotonic() < deadline, "the run did not resume"
        time.sleep(0.1)
    (root / "go").touch()
    return wait_status(client, run_id, ("completed", "partial", "failed", "cancelled"), timeout=120)


def check_resumed(client, run_id: str, final: dict, root: Path, lost_scratch: str) -> None:
    assert final["status"] == "completed", final["reason"]
    events = events_of(client, run_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    note = next(e for e in events if "resumed" in (e.get("data") or {}))
    two_done = next(e["seq"] for e in events if e["type"] == "step_end" and e["stepId"] == "two")
    assert note["data"]["resumed"]["from_seq"] >= two_done
    # The coordinator's own turns (no step; runs over HTTP narrate by default) are not steps run again.
    asked_again = {e["stepId"] for e in events if e["type"] == "agent_turn" and e["seq"] > note["seq"]
                   and e["data"].get("phase") == "request" and e.get("agent") != "coordinator"}
    assert asked_again == {"three", "four"}, "finished steps are not run again"

    # On disk: the second step's boundary, then what the third (run again, once) and fourth wrote.
    on_disk = files_in(root)
    scratch = [p for p in on_disk if p.startswith("scratch.")]
    assert len(scratch) == 1 and scratch[0] != lost_scratch, (scratch, lost_scratch)
    assert {p: d for p, d in on_disk.items() if p not in scratch} == AFTER

    # Snapshot numbers: unique, and increasing in the order they were announced, across the resume.
    announced = [e["data"]["snapshot"] for e in events if e["type"] == "workspace_snapshot"]
    assert announced == sorted(set(announced)), announced
    workspace = client.get(f"/runs/{run_id}/workspace").json()
    numbers = [s["number"] for s in workspace["snapshots"]]
    assert numbers == sorted(set(numbers))
    live = [s for s in workspace["snapshots"] if s["workspace"] == "run" and not s["superseded"]]
    latest = live[-1]["number"]
    listed = client.get(f"/runs/{run_id}/workspace/snapshots/{latest}/files").json()
    assert {f["path"] for f in listed["files"]} == set(on_disk)
    with zipfile.ZipFile(io.BytesIO(client.get(f"/runs/{run_id}/workspace.zip").content)) as zipped:
        assert {name: zipped.read(name) for name in zipped.namelist()} == on_disk
    # The third step's snapshot after the resume counts its changes from the second step's, as the disk was put back.
    rerun = next(e["data"]["snapshot"] for e in events if e["type"] == "workspace_snapshot" and e["seq"] > note["seq"]
                 and e["data"]["label"] == "three")
    changes = {c["path"]: c for c in client.get(f"/runs/{run_id}/workspace/snapshots/{rerun}/diff").json()["changes"]}
    assert changes["one.txt"]["change"] == "modified" and changes["one.txt"]["diff"].count("+three") == 1
    assert "two.txt" not in changes and "notes/kept.txt" not in changes and lost_scratch not in changes


def test_a_killed_inline_server_resumes_a_run_whose_steps_call_bash():
    env = base_env(**LIVENESS)
    with running_server(env, users=("owner",)) as first:
        with first.client("owner") as client:
            run_id = start(client)
            root = workspace_of(env, run_id)
            lost_scratch = wait_for_the_third_command(root)
        kill_hard(first.process)
    with server_process(env, first.tokens) as second, second.client("owner") as client:
        final = let_the_resumed_run_finish(client, run_id, root)
        check_resumed(client, run_id, final, root, lost_scratch)


@pytest.fixture(scope="module")
def cluster():
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, RUN_MAX_RESUMES=1, **LIVENESS)
        with running_server(env) as server:
            yield server


def test_a_run_whose_steps_call_bash_resumes_on_another_celery_worker(cluster):
    with cluster.client("owner") as client:
        with celery_worker(cluster.env, name="doomed") as worker:
            run_id = start(client)
            root = workspace_of(cluster.env, run_id)
            lost_scratch = wait_for_the_third_command(root)
            kill_hard(worker)
        with celery_worker(cluster.env, name="rescuer"):
            final = let_the_resumed_run_finish(client, run_id, root)
        check_resumed(client, run_id, final, root, lost_scratch)
