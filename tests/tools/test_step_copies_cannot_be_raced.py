"""A step's copy of the workspace (``isolation: step``) is taken while the run's other agents (``bash``, a stdio MCP
server) may be changing the workspace: a folder swapped for a link to the server's files while the copy is made
must never bring those files into the copy (which is scanned, stored and downloadable). And a copy never carries
setuid, setgid or sticky bits, neither into a step's copy nor back into the run's workspace."""
from __future__ import annotations

import asyncio
import ctypes
import os
import socket
import stat
import subprocess
import sys
import time

import pytest

from runtime.tools.session import MemoryStore, RunTools

SECRET = "the server's own key\n"
SWAP_SECONDS = 12.0

# Exchanges `d` (a real folder) and `d.link` (a link to the secret folder) atomically, as fast as it can, so that
# at any moment `d` may be either. Prints how many swaps it made.
SWAPPER = r"""
import ctypes, os, sys, time
os.chdir(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
swaps, end = 0, time.monotonic() + float(sys.argv[2])
print("ready", flush=True)
while time.monotonic() < end:
    if libc.renameat2(AT_FDCWD, b"d", AT_FDCWD, b"d.link", RENAME_EXCHANGE) == 0:
        swaps += 1
print(swaps, flush=True)
"""


def _has_renameat2() -> bool:
    return hasattr(ctypes.CDLL(None), "renameat2")


def _regular_files(top):
    """Every regular file in ``top`` (relative path -> content), links listed nowhere and never followed."""
    found = {}
    for folder, _dirs, files in os.walk(top, followlinks=False):
        for name in files:
            path = os.path.join(folder, name)
            if stat.S_ISREG(os.lstat(path).st_mode):
                with open(path, "rb") as f:
                    found[os.path.relpath(path, top)] = f.read()
    return found


@pytest.mark.skipif(not _has_renameat2(), reason="libc has no renameat2")
async def test_a_folder_swapped_for_a_link_while_copying_never_brings_the_secret_in(tmp_path):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "KEY").write_text(SECRET)
    (secret / "inner").mkdir()
    (secret / "inner" / "KEY2").write_text(SECRET)
    root = tmp_path / "ws"
    root.mkdir()
    (root / "top.txt").write_text("top\n")
    (root / "d").mkdir()
    (root / "d" / "x").write_text("x\n")
    (root / "d" / "sub").mkdir()
    (root / "d" / "sub" / "y").write_text("y\n")
    os.symlink(secret, root / "d.link")
    store = MemoryStore()
    tools = RunTools(root, isolation="step", store=store)

    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), str(SWAP_SECONDS)],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert swapper.stdout is not None and swapper.stdout.readline().strip() == "ready"
        copies = with_d = 0
        end = time.monotonic() + SWAP_SECONDS - 1
        while time.monotonic() < end:
            copy = await tools.begin(f"batch[{copies % 3}]")
            assert copy is not None
            copies += 1
            leaked = [path for path in copy.base if "KEY" in path]
            on_disk = _regular_files(copy.workspace.root)
            assert not leaked, f"copy {copies} listed {leaked}"
            assert not [p for p, content in on_disk.items() if SECRET.encode() in content or "KEY" in p], \
                f"copy {copies} holds the secret: {sorted(on_disk)}"
            with_d += "d/x" in on_disk
            # The links stay links in the copy (one of the two names is the link at any moment), never followed.
            links = [n for n in ("d", "d.link") if os.path.islink(copy.workspace.root / n)]
            assert all(os.readlink(copy.workspace.root / n) == str(secret) for n in links)
    finally:
        out, _ = swapper.communicate(timeout=SWAP_SECONDS + 30)
    swaps = int(out.split()[-1])
    assert swaps > 1000, f"the swapper made only {swaps} swaps: the race was not exercised"
    assert copies >= 20 and with_d > 0, (copies, with_d)
    # Nor did the run workspace's snapshots (taken before each copy) store it.
    assert not [blob for blob in store.blobs.values() if SECRET.encode() in blob]
    assert not [path for record in store.records for path in record.manifest if "KEY" in path]
    assert (secret / "KEY").read_text() == SECRET and sorted(p.name for p in secret.iterdir()) == ["KEY", "inner"]


async def test_a_copy_never_carries_setuid_setgid_or_sticky_bits(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    tool = root / "tool"
    tool.write_text("#!/bin/sh\n")
    os.chmod(tool, 0o4755)
    (root / "plain").write_text("p\n")
    os.chmod(root / "plain", 0o640)
    (root / "shared").mkdir()
    os.chmod(root / "shared", 0o2775)
    (root / "shared" / "g").write_text("g\n")
    os.chmod(root / "shared" / "g", 0o2755)
    (root / "tmp").mkdir()
    os.chmod(root / "tmp", 0o1777)
    (root / "locked").mkdir()
    (root / "locked" / "in").write_text("in\n")
    os.chmod(root / "locked", 0o555)
    tools = RunTools(root, isolation="step", store=MemoryStore())

    copy = await tools.begin("build")

    assert copy is not None
    made = copy.workspace.root
    mode = lambda p: stat.S_IMODE(os.lstat(p).st_mode)
    assert mode(made / "tool") == 0o755 and (made / "tool").read_text() == "#!/bin/sh\n"
    assert mode(made / "plain") == 0o640
    assert mode(made / "shared") == 0o775 and mode(made / "shared" / "g") == 0o755
    assert mode(made / "tmp") == 0o777
    assert mode(made / "locked") == 0o555 and (made / "locked" / "in").read_text() == "in\n"
    assert os.stat(made / "tool").st_mtime_ns == os.stat(tool).st_mtime_ns  # times kept: unchanged files stay so

    # The step's command (host uid 0 when the server runs as root) makes a setuid file; it comes back without it.
    (made / "new-tool").write_text("#!/bin/sh\necho hi\n")
    os.chmod(made / "new-tool", 0o4755)
    (made / "tool").write_text("#!/bin/sh\necho changed\n")
    os.chmod(made / "tool", 0o6755)

    assert await tools.finish(copy) == []

    assert mode(root / "new-tool") == 0o755 and (root / "new-tool").read_text() == "#!/bin/sh\necho hi\n"
    assert mode(root / "tool") == 0o755 and (root / "tool").read_text() == "#!/bin/sh\necho changed\n"


async def test_a_retried_step_copies_afresh_and_leaves_fifos_and_sockets_out(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    os.mkfifo(root / "pipe")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(root / "sock"))
    try:
        tools = RunTools(root, isolation="step", store=MemoryStore())
        first = await asyncio.wait_for(tools.begin("build"), timeout=20)
        assert first is not None
        (first.workspace.root / "scratch.txt").write_text("left by the first attempt\n")

        again = await asyncio.wait_for(tools.begin("build"), timeout=20)
    finally:
        listener.close()

    assert again is not None
    assert sorted(os.listdir(again.workspace.root)) == ["a.txt"]
    assert sorted(again.base) == ["a.txt"]
