"""The file tools on real files: happy paths, upstream's limits, and confinement to the workspace for every tool
(``..``, absolute paths, and a symlink inside the workspace that points out)."""
from __future__ import annotations

import os

import pytest

from runtime import tools as registry
from runtime.tools import ToolError, ToolSettings
from runtime.tools.sandbox import MAX_OUTPUT, TRUNCATION_NOTE
from runtime.tools.workspace import Workspace

SETTINGS = ToolSettings()


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP SECRET\n")
    os.symlink(outside, root / "link-dir")
    os.symlink(outside / "secret.txt", root / "link-file")
    return Workspace(root)


async def call(name: str, ws: Workspace, **args):
    return await registry.get(name).run(args, ws, SETTINGS)


async def test_write_creates_parents_read_reads_edit_replaces(ws):
    assert (await call("write", ws, path="a/b/c.txt", content="alpha beta alpha")).output == \
        "wrote 16 bytes to a/b/c.txt"
    assert (await call("read", ws, path="a/b/c.txt")).output == "alpha beta alpha"
    with pytest.raises(ToolError, match="occurs 2 times"):
        await call("edit", ws, path="a/b/c.txt", old_string="alpha", new_string="gamma")
    assert "replaced 2" in (await call("edit", ws, path="a/b/c.txt", old_string="alpha", new_string="gamma",
                                       replace_all=True)).output
    assert (await call("edit", ws, path="a/b/c.txt", old_string="beta", new_string="delta")).output.startswith("replaced 1")
    assert (ws.root / "a/b/c.txt").read_text() == "gamma delta gamma"
    with pytest.raises(ToolError, match="was not found"):
        await call("edit", ws, path="a/b/c.txt", old_string="zeta", new_string="x")


async def test_read_stops_at_one_megabyte_and_says_so(ws):
    (ws.root / "big.txt").write_bytes(b"x" * (MAX_OUTPUT + 5000))
    result = await call("read", ws, path="big.txt")
    assert result.truncated and result.output.endswith(TRUNCATION_NOTE)
    assert len(result.output) == MAX_OUTPUT + len(TRUNCATION_NOTE)


async def test_grep_is_a_fixed_string_unless_regex_and_glob_lists_matches(ws):
    (ws.root / "src").mkdir()
    (ws.root / "src/a.py").write_text("x = a.b\nx = aXb\n")
    assert (await call("grep", ws, pattern="a.b", path="src")).output == "src/a.py:1:x = a.b"
    assert (await call("grep", ws, pattern="a.b", path="src", regex=True)).output == "src/a.py:1:x = a.b\nsrc/a.py:2:x = aXb"
    assert (await call("grep", ws, pattern="nothing-here", path=".")).output.startswith("no matches")
    # A regex a backtracking engine would choke on: GNU grep answers at once.
    (ws.root / "src/evil.txt").write_text("a" * 5000 + "!\n")
    assert (await call("grep", ws, pattern="(a+)+$", path="src/evil.txt", regex=True)).output.startswith("no matches")
    assert (await call("glob", ws, pattern="src/*.py")).output == "src/a.py"
    assert (await call("glob", ws, pattern="**/*.txt")).output == "src/evil.txt"  # nothing reached through link-dir


ESCAPES = ["../outside/secret.txt", "/etc/hostname", "link-file", "link-dir/secret.txt"]


@pytest.mark.parametrize("path", ESCAPES)
async def test_every_file_tool_refuses_paths_that_lead_outside(ws, path):
    for name, args in (("read", {"path": path}), ("write", {"path": path, "content": "pwned"}),
                       ("edit", {"path": path, "old_string": "TOP", "new_string": "pwned"}),
                       ("grep", {"pattern": "SECRET", "path": path})):
        with pytest.raises(ToolError, match="outside the workspace"):
            await call(name, ws, **args)
    assert (ws.root.parent / "outside" / "secret.txt").read_text() == "TOP SECRET\n"


@pytest.mark.parametrize("pattern", ["../outside/*", "/etc/*", "link-dir/*"])
async def test_glob_never_lists_outside(ws, pattern):
    try:
        result = (await call("glob", ws, pattern=pattern)).output
    except ToolError as exc:
        assert "inside the workspace" in str(exc)
    else:
        assert "secret" not in result


async def test_grep_over_the_whole_workspace_does_not_follow_a_symlink_out(ws):
    assert (await call("grep", ws, pattern="SECRET", path=".")).output.startswith("no matches")


async def test_bash_cannot_follow_a_symlink_out_either(ws):
    result = await call("bash", ws, command="cat link-file link-dir/secret.txt ../outside/secret.txt 2>&1; echo done")
    assert "TOP SECRET" not in result.output and result.output.rstrip().endswith("done")


async def test_bad_arguments_are_errors_the_model_can_read(ws):
    with pytest.raises(ToolError, match="`path` is required"):
        await call("read", ws)
    with pytest.raises(ToolError, match="`command`"):
        await call("bash", ws, command="")
    with pytest.raises(ToolError, match="`timeout_seconds`"):
        await call("bash", ws, command="true", timeout_seconds="soon")


async def test_a_symlink_that_stays_inside_is_followed_and_an_absolute_path_inside_is_accepted(ws):
    (ws.root / "src").mkdir()
    (ws.root / "src/a.txt").write_text("alpha\n")
    os.symlink("src", ws.root / "inner-dir")
    os.symlink("src/a.txt", ws.root / "inner-file")
    assert (await call("read", ws, path="inner-file")).output == "alpha\n"
    assert (await call("read", ws, path=str(ws.root / "src/a.txt"))).output == "alpha\n"
    assert (await call("grep", ws, pattern="alpha", path="inner-dir")).output == "inner-dir/a.txt:1:alpha"
    assert (await call("write", ws, path="inner-dir/b.txt", content="beta")).output == "wrote 4 bytes to inner-dir/b.txt"
    assert (ws.root / "src/b.txt").read_text() == "beta"
    # glob lists a link that points inside, never one that points out, and enters no linked directory.
    assert (await call("glob", ws, pattern="*")).output == "inner-dir\ninner-file\nsrc"
    assert (await call("glob", ws, pattern="**/*.txt")).output == "src/a.txt\nsrc/b.txt"
