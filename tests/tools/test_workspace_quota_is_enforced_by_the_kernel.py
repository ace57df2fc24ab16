"""The workspace's quota (AGENT_WORKSPACE_MB) held by the kernel: each run's workspace is a loop-mounted ext4
filesystem of that size (runtime.tools.disk), so ``bash`` in the real bubblewrap sandbox, step copies and the file
tools are all refused the write past it (ENOSPC), and the tool's answer names the limit."""
from __future__ import annotations

import os
import subprocess

import pytest

from runtime.tools import ToolSettings
from runtime.tools import disk as disks
from runtime.tools.sandbox import probe, run_command
from runtime.tools.session import MemoryStore, RunTools
from tests.support.engine_runs import doc, run, script


@pytest.fixture(autouse=True)
def kernel_quota_here() -> None:
    """Fails (never skips) where the quota cannot be enforced: these tests are the proof that it is."""
    missing = disks.unavailable_reason() or probe()
    if missing:
        pytest.fail(f"the kernel quota needs loop mounts and bubblewrap as root (make sandbox): {missing}")

QUOTA_MB = 8


def on_disk_bytes(path) -> int:
    """What a folder holds on the host, in bytes (du), through whatever is mounted there."""
    return int(subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True, check=True).stdout.split()[0])


@pytest.fixture
def disk(tmp_path):
    attached = disks.attach(tmp_path / "ws", QUOTA_MB)
    assert attached.mounted, attached.reason
    yield attached
    disks.remove(tmp_path / "ws")
    assert not disks.mounted(tmp_path / "ws") and not disks.mounted(disks.steps_of(tmp_path / "ws"))
    assert not os.path.exists(disks.home_of(tmp_path / "ws"))


async def test_one_big_file_and_many_small_ones_stop_at_the_quota_in_the_sandbox(disk):
    big = await run_command("head -c 30000000 /dev/zero > big.bin; echo exit=$?", workspace=disk.root, timeout=60)
    assert "No space left on device" in big.output and "exit=1" in big.output
    assert on_disk_bytes(disk.root) <= (QUOTA_MB + 1) * 2**20
    await run_command("rm big.bin", workspace=disk.root)
    # RLIMIT_FSIZE would let each of these through: only a filesystem of the quota's size stops the sum.
    many = await run_command("for i in $(seq 1 100); do head -c 200000 /dev/zero > f$i.bin || { echo stopped at $i;"
                             " break; }; done", workspace=disk.root, timeout=60)
    assert "No space left on device" in many.output and "stopped at" in many.output
    assert on_disk_bytes(disk.root) <= (QUOTA_MB + 1) * 2**20


def test_the_files_stay_in_the_image_between_attempts(disk):
    (disk.root / "kept.txt").write_text("still here")
    disk.detach()
    assert not disks.mounted(disk.root) and not os.listdir(disk.root)
    again = disks.attach(disk.root, QUOTA_MB)
    assert again.mounted and (disk.root / "kept.txt").read_text() == "still here"


QUOTA_DOC = """
    version: 1
    agents:
      w: {description: writes}
    steps:
      - {id: fill, agent: w}
"""


async def test_bash_and_write_past_the_quota_are_refused_in_words_naming_it_and_rm_makes_room(disk):
    tools = RunTools(disk.root, settings=ToolSettings(workspace_mb=QUOTA_MB), store=MemoryStore(), disk=disk)
    more = "x" * 200_000  # past the last free blocks
    replies = script(f"""
        replies:
          fill:
            - tool_calls: [{{id: b1, name: bash, arguments: {{command: "head -c 30000000 /dev/urandom > big.bin"}}}}]
            - tool_calls: [{{id: w1, name: write, arguments: {{path: notes.txt, content: "{more}"}}}}]
            - tool_calls: [{{id: b2, name: bash, arguments: {{command: "rm big.bin"}}}}]
            - tool_calls: [{{id: w2, name: write, arguments: {{path: notes.txt, content: "{more}"}}}}]
            - "done"
    """)
    result, sink = await run(doc(QUOTA_DOC), replies, tools=tools)
    assert result.status == "completed", result.reason
    ends = {e["data"]["tool_call_id"]: e for e in sink.events
            if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    said = "it holds at most 8 MB (AGENT_WORKSPACE_MB), a limit the kernel enforces"
    assert "No space left on device" in ends["b1"]["data"]["output"] and said in ends["b1"]["data"]["output"]
    assert said in ends["w1"]["error"] and "notes.txt" in ends["w1"]["error"]
    assert ends["w2"].get("error") is None
    # The run's end unmounts its workspace; the image keeps the files for a resume.
    assert not disks.mounted(disk.root)
    last = tools.store.records[-1].manifest
    assert set(last) == {"notes.txt"} and last["notes.txt"].size == len(more)
    assert disks.attach(disk.root, QUOTA_MB).mounted and (disk.root / "notes.txt").read_text() == more


async def test_step_copies_count_against_the_same_quota(disk):
    tools = RunTools(disk.root, settings=ToolSettings(workspace_mb=QUOTA_MB), store=MemoryStore(), isolation="step",
                     disk=disk)
    assert tools.copies_root == disks.steps_of(disk.root) and disks.mounted(tools.copies_root)
    replies = script("""
        replies:
          fill:
            - tool_calls: [{id: b1, name: bash, arguments: {command: "head -c 30000000 /dev/zero > big.bin"}}]
            - "done"
    """)
    result, sink = await run(doc(QUOTA_DOC), replies, tools=tools)
    ends = [e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == "end"]
    assert "AGENT_WORKSPACE_MB" in ends[0]["data"]["output"], ends[0]
    assert on_disk_bytes(tools.copies_root) <= (QUOTA_MB + 1) * 2**20
    assert result.status in ("completed", "failed")


def test_where_the_kernel_cannot_be_asked_the_disk_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(disks, "unavailable_reason", lambda: "the server does not run as root, which mounting needs")
    fallback = disks.attach(tmp_path / "ws", QUOTA_MB)
    assert not fallback.mounted and not disks.mounted(tmp_path / "ws")
    notice = fallback.fallback_notice()
    assert "8 MB limit (AGENT_WORKSPACE_MB) is not enforced by the kernel" in notice
    assert "does not run as root" in notice and "measured at each snapshot only" in notice


def test_a_workspace_with_files_from_before_is_not_hidden_under_a_mount(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "old.txt").write_text("from before")
    left = disks.attach(root, QUOTA_MB)
    assert not left.mounted and "before it could be limited" in left.reason
    assert (root / "old.txt").read_text() == "from before"


async def test_a_step_copy_that_does_not_fit_fails_the_step_naming_the_quota(disk):
    (disk.root / "half.bin").write_bytes(b"\0" * 5 * 2**20)  # a step's copy of it would need 10 MB of the 8
    tools = RunTools(disk.root, settings=ToolSettings(workspace_mb=QUOTA_MB), store=MemoryStore(), isolation="step",
                     disk=disk)
    replies = script("""
        replies:
          fill:
            - "never asked: the step fails before its first turn"
    """)
    result, sink = await run(doc(QUOTA_DOC), replies, tools=tools)
    assert result.status == "failed"
    said = result.reason + " ".join(str(e.get("error") or "") for e in sink.events)
    assert "fill: its copy of the workspace could not be made: the workspace is full: it holds at most 8 MB" in said
