"""`isolation: step` copies the run's workspace for each step and brings its changes back; links an agent left are
copied as links, never followed (a link to a folder outside does not bring that folder in), a FIFO is left out
rather than hanging the copy, and a change coming back never goes through a link in the run's workspace."""
from __future__ import annotations

import asyncio
import os

from runtime.tools.session import MemoryStore, RunTools


def booby_trapped(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("the server's\n")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    os.symlink(outside, root / "out")
    os.symlink(outside / "secret.txt", root / "secret-link")
    os.symlink("a.txt", root / "inside-link")
    os.mkfifo(root / "pipe")
    return root, outside


async def test_a_steps_copy_keeps_links_as_links_and_leaves_a_fifo_out(tmp_path):
    root, outside = booby_trapped(tmp_path)
    tools = RunTools(root, isolation="step", store=MemoryStore())

    copy = await asyncio.wait_for(tools.begin("build"), timeout=20)

    made = copy.workspace.root
    assert (made / "a.txt").read_text() == "a\n"
    assert os.readlink(made / "out") == str(outside) and os.readlink(made / "secret-link") == str(outside / "secret.txt")
    assert os.readlink(made / "inside-link") == "a.txt"
    assert not (made / "pipe").exists() and not (made / "pipe").is_symlink()
    assert sorted(copy.base) == ["a.txt"]  # links are no files of its own: the outside folder was not brought in


async def test_a_steps_changes_come_back_through_no_link(tmp_path):
    root, outside = booby_trapped(tmp_path)
    tools = RunTools(root, isolation="step", store=MemoryStore())
    copy = await asyncio.wait_for(tools.begin("build"), timeout=20)
    made = copy.workspace.root
    # The step's agent made `out` a folder of its own in its copy and wrote there; in the run's workspace `out` is
    # still the link to the folder outside.
    os.unlink(made / "out")
    (made / "out").mkdir()
    (made / "out" / "secret.txt").write_text("overwritten?\n")
    (made / "b.txt").write_text("b\n")

    conflicts = await tools.finish(copy)

    assert conflicts == ["out/secret.txt"]  # kept in the copy: the way back goes through a link
    assert (outside / "secret.txt").read_text() == "the server's\n"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (root / "b.txt").read_text() == "b\n"
