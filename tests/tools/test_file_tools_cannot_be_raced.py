"""The file tools and the snapshot scan against a workspace that changes under them.

An agent's ``bash`` can swap a workspace entry between a plain file (or directory) and a symlink to a secret
outside while another step's tools use that name. Here a separate process does it as fast as it can, in two ways
by turns: ``renameat2(RENAME_EXCHANGE)`` (the name always exists, as the one or the other) and unlink-and-recreate
(the name vanishes now and then). No answer may ever carry the secret, nothing may be written outside, and every
failure must reach the model as a :class:`ToolError` in words. A run of the loop lasts 15 s; the figures of what
happened are asserted too, so that a race that never took place cannot pass for one that was won.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from runtime import tools as registry
from runtime.tools import ToolError, ToolSettings
from runtime.tools import workspace as workspace_module
from runtime.tools.snapshots import scan
from runtime.tools.workspace import Workspace

RACE_SECONDS = 15.0
SETTINGS = ToolSettings()

SWAPPER = r"""
import ctypes, os, shutil, sys
workspace, name = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
os.chdir(workspace)
link, away = name + ".link", name + ".away"
target = os.readlink(link)
is_dir = os.path.isdir(name)


def make_real():
    # The tools write too (a file named `name`, parents under it): whatever they made, `name` is real again.
    while True:
        try:
            if is_dir:
                if os.path.lexists(away):
                    if os.path.isdir(name) and not os.path.islink(name):
                        shutil.rmtree(name)
                    elif os.path.lexists(name):
                        os.unlink(name)
                    os.rename(away, name)
            elif os.path.islink(name) or not os.path.lexists(name):
                if os.path.lexists(name):
                    os.unlink(name)
                with open(name, "w") as handle:
                    handle.write("plain content\n")
            return
        except OSError:
            continue  # a tool made something in the way meanwhile: again


print("ready", flush=True)
while True:
    for _ in range(2000):  # an even number: afterwards `name` is the real one again
        if libc.renameat2(-100, name.encode(), -100, link.encode(), 2) != 0:
            sys.exit("renameat2: errno %d" % ctypes.get_errno())
    for _ in range(200):
        try:
            if is_dir:
                os.rename(name, away)
                os.symlink(target, name)
                os.unlink(name)
                os.rename(away, name)
            else:
                os.unlink(name)
                os.symlink(target, name)
                os.unlink(name)
                with open(name, "w") as handle:
                    handle.write("plain content\n")
        except OSError:
            make_real()
    make_real()
"""


def start_swapper(root: Path, name: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), name], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"  # blocks only until the swapper starts
    return proc


def stop(proc: subprocess.Popen) -> None:
    still_running = proc.poll() is None
    proc.kill()
    proc.wait(timeout=10)
    assert still_running, f"the swapper stopped by itself (exit {proc.returncode}): the race was not run"


async def call(ws: Workspace, name: str, **args) -> tuple[str, bool]:
    """(the text the model reads, whether it was an error); any other exception fails the test."""
    try:
        return (await registry.get(name).run(args, ws, SETTINGS)).output, False
    except ToolError as exc:
        return str(exc), True


@pytest.fixture
def secret(tmp_path) -> tuple[Path, str]:
    marker = f"SECRET-{uuid.uuid4().hex}"
    outside = tmp_path / "server-data"
    outside.mkdir()
    (outside / "secret_key").write_text(marker + "\n")
    (outside / "x.txt").write_text(marker + " in a directory\n")
    return outside, marker


def check_scan(root: Path, marker: str, forbidden_digests: set[str]) -> None:
    result = scan(root, None, set())
    for rel, state in result.manifest.items():
        # (`f.link` may be listed: an exchange leaves the plain file under that name half of the time)
        assert state.digest not in forbidden_digests, rel
    for data in result.blobs.values():
        assert marker.encode() not in data


async def test_a_file_swapped_with_a_link_out_never_answers_with_what_the_link_points_to(tmp_path, secret):
    outside, marker = secret
    root = tmp_path / "ws"
    root.mkdir()
    (root / "f").write_text("plain content\n")
    os.symlink(outside / "secret_key", root / "f.link")
    ws = Workspace(root)
    forbidden = {hashlib.sha256((outside / "secret_key").read_bytes()).hexdigest()}
    seen: dict[str, int] = {}

    def note(kind: str, text: str) -> None:
        assert marker not in text, f"{kind} answered with the secret: {text[:200]!r}"
        seen[kind] = seen.get(kind, 0) + 1

    swapper = start_swapper(root, "f")
    try:
        deadline = time.monotonic() + RACE_SECONDS
        while time.monotonic() < deadline:
            text, error = await call(ws, "grep", pattern=".", regex=True, path="f")
            note("grep f: error" if error else "grep f: matched" if "plain content" in text else "grep f", text)
            text, error = await call(ws, "grep", pattern=".", regex=True, path=".")
            note("grep -r .", text)
            text, error = await call(ws, "read", path="f")
            note("read f: error" if error else "read f: " + text.strip(), text)
            text, error = await call(ws, "edit", path="f", old_string="plain", new_string="plain")
            note("edit f", text)
            text, error = await call(ws, "write", path="f", content="plain content\n")
            note("write f", text)
            listed, error = await call(ws, "glob", pattern="**/*")
            note("glob", listed)
            for name in ([] if error else listed.splitlines()):
                note("glob then read", (await call(ws, "read", path=name))[0])
            check_scan(root, marker, forbidden)
            seen["scan"] = seen.get("scan", 0) + 1
    finally:
        stop(swapper)
    print("what happened:", seen)  # shown with -s
    assert (outside / "secret_key").read_text() == marker + "\n", "a tool wrote through the link"
    # The race took place: the file was read as itself, and refused as a link (hundreds of times each on an idle
    # machine, tens under a load of 5: at least once is asked, so that a busy machine does not fail the test).
    assert seen.get("read f: plain content", 0) > 0 and seen.get("read f: error", 0) > 0, seen
    assert seen.get("grep f: matched", 0) > 0 and seen.get("grep f: error", 0) > 0, seen


async def test_a_directory_swapped_with_a_link_out_is_never_searched_read_or_written_through(tmp_path, secret):
    outside, marker = secret
    root = tmp_path / "ws"
    (root / "d").mkdir(parents=True)
    (root / "d" / "x.txt").write_text("plain x\n")
    os.symlink(outside, root / "d.link")
    ws = Workspace(root)
    before = sorted(p.name for p in outside.iterdir())
    forbidden = {hashlib.sha256(p.read_bytes()).hexdigest() for p in outside.iterdir()}
    seen: dict[str, int] = {}

    def note(kind: str, text: str) -> None:
        assert marker not in text, f"{kind} answered with the secret: {text[:200]!r}"
        seen[kind] = seen.get(kind, 0) + 1

    swapper = start_swapper(root, "d")
    try:
        deadline = time.monotonic() + RACE_SECONDS
        i = 0
        while time.monotonic() < deadline:
            i += 1
            text, error = await call(ws, "grep", pattern=".", regex=True, path="d")
            note("grep -r d: error" if error else "grep -r d: matched" if "plain x" in text else "grep -r d", text)
            note("grep -r .", (await call(ws, "grep", pattern=".", regex=True, path="."))[0])
            note("grep d/x.txt", (await call(ws, "grep", pattern=".", regex=True, path="d/x.txt"))[0])
            text, error = await call(ws, "read", path="d/x.txt")
            note("read d/x.txt: error" if error else "read d/x.txt: " + text.strip(), text)
            text, error = await call(ws, "write", path=f"d/new-{i % 50}.txt", content="new\n")
            note("write under d: error" if error else "write under d: wrote", text)
            text, error = await call(ws, "write", path=f"d/sub{i % 5}/deeper/new.txt", content="new\n")
            note("write with parents under d", text)
            listed, error = await call(ws, "glob", pattern="d/*")
            note("glob", listed)
            for name in ([] if error else listed.splitlines()[:5]):
                note("glob then read", (await call(ws, "read", path=name))[0])
            check_scan(root, marker, forbidden)
    finally:
        stop(swapper)
    print("what happened:", seen)  # shown with -s
    assert sorted(p.name for p in outside.iterdir()) == before, "a tool created a file outside the workspace"
    assert (outside / "x.txt").read_text() == marker + " in a directory\n"
    assert seen.get("read d/x.txt: plain x", 0) > 0 and seen.get("read d/x.txt: error", 0) > 0, seen
    assert seen.get("write under d: wrote", 0) > 0 and seen.get("write under d: error", 0) > 0, seen
    assert seen.get("grep -r d: matched", 0) > 0, seen


# -- failures in words ---------------------------------------------------------------------------------------------

@pytest.fixture
def ws(tmp_path) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    return Workspace(root)


async def within(seconds: float, awaitable):
    """A tool that would hang on a FIFO fails the test after ``seconds`` instead of hanging it."""
    return await asyncio.wait_for(awaitable, seconds)


async def test_a_fifo_never_hangs_a_tool_and_is_refused_in_words(ws):
    root = ws.ensure()
    os.mkfifo(root / "pipe")
    (root / "notes.txt").write_text("a note\n")
    for name, args in (("read", {"path": "pipe"}), ("write", {"path": "pipe", "content": "x"}),
                       ("edit", {"path": "pipe", "old_string": "a", "new_string": "b"}),
                       ("grep", {"pattern": "a", "path": "pipe"})):
        with pytest.raises(ToolError, match="named pipe"):
            await within(10, call_raw(ws, name, **args))
    with pytest.raises(ToolError, match=r"pipe is a named pipe \(FIFO\), not a directory"):
        await within(10, call_raw(ws, "write", path="pipe/inner.txt", content="x"))
    # Searching or listing the folder that holds it skips it, and still finds the rest.
    assert (await within(10, call_raw(ws, "grep", pattern="note", path="."))).output == "notes.txt:1:a note"
    assert (await within(10, call_raw(ws, "glob", pattern="*"))).output == "notes.txt\npipe"
    assert set(await within(10, asyncio.to_thread(lambda: scan(root, None, set()).manifest))) == {"notes.txt"}


async def test_a_fifo_with_a_reader_is_still_not_written_to(ws):
    root = ws.ensure()
    os.mkfifo(root / "pipe")
    reader = os.open(root / "pipe", os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(ToolError, match="named pipe"):
            await within(10, call_raw(ws, "write", path="pipe", content="x"))
        assert os.read(reader, 10) == b""
    finally:
        os.close(reader)


async def test_missing_files_directories_and_files_in_the_way_are_errors_in_words(ws):
    root = ws.ensure()
    (root / "dir").mkdir()
    (root / "file.txt").write_text("x\n")
    cases = [("read", {"path": "gone.txt"}, "gone.txt: no such file"),
             ("grep", {"pattern": "x", "path": "gone"}, "gone: no such file or directory"),
             ("edit", {"path": "gone.txt", "old_string": "a", "new_string": "b"}, "gone.txt: no such file"),
             ("read", {"path": "dir"}, "dir is a directory; use glob to list it"),
             ("write", {"path": "dir", "content": "x"}, "dir is a directory"),
             ("write", {"path": "file.txt/inner.txt", "content": "x"}, "file.txt is a file, not a directory"),
             ("read", {"path": "file.txt/inner.txt"}, "file.txt is a file, not a directory"),
             ("write", {"path": ".", "content": "x"}, "names the workspace itself")]
    for name, args, words in cases:
        with pytest.raises(ToolError) as caught:
            await call_raw(ws, name, **args)
        assert words in str(caught.value), (name, args, str(caught.value))


async def test_a_file_that_vanishes_between_glob_and_read_is_named_as_gone(ws):
    root = ws.ensure()
    (root / "a.txt").write_text("a\n")
    listed = (await call_raw(ws, "glob", pattern="*.txt")).output
    os.unlink(root / "a.txt")
    with pytest.raises(ToolError, match=re.escape("a.txt: no such file")):
        await call_raw(ws, "read", path=listed)


async def test_permission_denied_is_said_in_words(ws, monkeypatch):
    # The server runs as root here, where mode bits deny nothing: make the open itself answer EACCES.
    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    (ws.ensure() / "locked.txt").write_text("x")
    monkeypatch.setattr(workspace_module, "open_beneath", denied)
    for name, args in (("read", {"path": "locked.txt"}), ("write", {"path": "locked.txt", "content": "y"}),
                       ("grep", {"pattern": "x", "path": "locked.txt"})):
        with pytest.raises(ToolError, match=re.escape("locked.txt: permission denied")):
            await call_raw(ws, name, **args)


async def call_raw(ws: Workspace, name: str, **args):
    return await registry.get(name).run(args, ws, SETTINGS)
