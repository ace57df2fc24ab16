"""A run's workspace quota held by the kernel, end to end: the server puts the run's workspace on a filesystem of
AGENT_WORKSPACE_MB (AGENT_WORKSPACE_DISK=auto), bash in the real sandbox is refused past it and the tool's answer
names the limit; the run's end unmounts it, deleting the run removes its image. Where the kernel cannot be asked,
the run says its limit is measured at snapshots only."""
from __future__ import annotations

import os

import pytest

from runtime.durability import run_files
from runtime.models import Run
from runtime.tools import disk as disks
from runtime.tools.sandbox import probe
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FILLS = """
version: 1
name: fills
agents:
  coder: {description: writes a lot}
steps:
  - {id: fill, agent: coder, instructions: fill it}
"""
SCRIPT = {"replies": {"fill": [
    {"tool_calls": [{"id": "b1", "name": "bash", "arguments": {"command": "head -c 30000000 /dev/urandom > big.bin"}}]},
    "done",
]}}


@pytest.fixture(autouse=True)
def quota(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    settings.AGENT_WORKSPACE_DISK = "auto"
    settings.AGENT_WORKSPACE_MB = 8
    return settings.WORKSPACES_DIR


def start(client) -> str:
    workflow_id = post(client, "/api/v1/workflows", {"source": FILLS}).json()["id"]
    created = post(client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT})
    assert created.status_code == 201, created.content
    return created.json()["id"]


def events(client, run_id) -> list[dict]:
    return client.get(f"/api/v1/runs/{run_id}/events").json()


def test_bash_past_the_quota_is_refused_by_the_kernel_and_the_run_says_which_limit(owner_client, quota):
    missing = disks.unavailable_reason() or probe()
    if missing:  # fails, never skips: this test is the proof that the kernel holds the quota
        pytest.fail(f"the kernel quota needs loop mounts and bubblewrap as root (make sandbox): {missing}")
    run_id = start(owner_client)
    wait_for(owner_client, run_id)
    root = quota / run_id
    end = next(e for e in events(owner_client, run_id)
               if e["type"] == "tool_call" and e["data"]["phase"] == "end" and e["data"]["tool_call_id"] == "b1")
    assert "No space left on device" in end["data"]["output"]
    assert "it holds at most 8 MB (AGENT_WORKSPACE_MB), a limit the kernel enforces" in end["data"]["output"]
    # The snapshot saw no more than the quota, and nothing is mounted once the run has ended.
    snapshot = owner_client.get(f"/api/v1/runs/{run_id}/workspace").json()["snapshots"][-1]["number"]
    files = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{snapshot}/files").json()["files"]
    assert [f["path"] for f in files] == ["big.bin"] and files[0]["size"] <= 9 * 2**20
    assert not disks.mounted(root) and not disks.mounted(disks.steps_of(root))
    assert os.path.exists(disks.home_of(root) / "image")
    # Put back for a resume (after a reboot: nothing mounted), it is written onto its own filesystem again.
    run_files.put_back(Run.objects.get(pk=run_id), snapshot)
    assert disks.mounted(root) and (root / "big.bin").stat().st_size == files[0]["size"]
    Run.objects.get(pk=run_id).delete()
    assert not disks.mounted(root)
    assert not os.path.lexists(root) and not os.path.lexists(disks.home_of(root))


def test_where_the_kernel_cannot_be_asked_the_run_says_its_limit_is_measured_at_snapshots(owner_client, quota,
                                                                                         monkeypatch):
    monkeypatch.setattr(disks, "unavailable_reason", lambda: "there is no loop device (/dev/loop-control)")
    run_id = start(owner_client)
    wait_for(owner_client, run_id)
    said = [e.get("message") or "" for e in events(owner_client, run_id)]
    notice = next((m for m in said if "AGENT_WORKSPACE_MB" in m), None)
    assert notice is not None, said
    assert "not enforced by the kernel on this server (there is no loop device" in notice
    assert "measured at each snapshot only" in notice
    assert not os.path.lexists(disks.home_of(quota / run_id))
