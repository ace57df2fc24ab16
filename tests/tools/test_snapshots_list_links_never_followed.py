"""A workspace's symbolic links are in its snapshot as links: each with its target as written, never followed (a
link to a directory is not entered, a link to the server's files is not read, no content of theirs is kept);
a link made alone is a change worth a snapshot; too many are listed in part, and say so."""
from __future__ import annotations

import os

from runtime.tools import snapshots
from runtime.tools.session import MemoryStore, RunTools
from runtime.tools.snapshots import scan


def test_links_are_listed_with_their_targets_and_never_entered(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("a")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("the server's")
    os.symlink(str(outside), tmp_path / "out")
    os.symlink("/etc/passwd", tmp_path / "notes" / "secret")
    os.symlink("nowhere", tmp_path / "dangling")
    found = scan(tmp_path)
    assert found.links == {"dangling": "nowhere", "notes/secret": "/etc/passwd", "out": str(outside)}
    assert sorted(found.manifest) == ["notes/a.md"]  # behind `out` nothing was walked, nothing of a target kept
    assert b"the server's" not in b"".join(found.blobs.values()) and not found.partial


def test_too_many_links_are_listed_in_part(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshots, "MAX_LINKS", 3)
    for i in range(5):
        os.symlink(f"t{i}", tmp_path / f"l{i}")
    found = scan(tmp_path)
    assert len(found.links) == 3 and found.partial


async def test_a_link_made_alone_is_recorded_and_kept_with_the_snapshot(tmp_path):
    store = MemoryStore()
    tools = RunTools(tmp_path / "ws", store=store)
    tools.workspace.ensure()
    (tools.workspace.root / "a.txt").write_text("a")
    assert (await tools.snapshot("one")) is not None
    assert (await tools.snapshot("same")) is None  # nothing changed
    os.symlink("a.txt", tools.workspace.root / "alias")
    record = await tools.snapshot("linked")
    assert record is not None and record.links == {"alias": "a.txt"} and record.changes.empty
    assert store.records[-1].links == {"alias": "a.txt"}
