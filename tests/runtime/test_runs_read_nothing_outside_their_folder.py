"""Context files, `@` files and includes resolve inside the workflow's folder, at any depth: an absolute path, a
`..` out (to the data dir, or deep), or a symbolic link (planted by an agent, or left in the folder) fails the
step before any provider call, naming the path and the rule, and nothing of the file reaches an event."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.engine_runs import doc, run, step_end

MARKER = "SECRET-MARKER-9f3c1e"


@pytest.fixture
def layout(tmp_path):
    """data/secret_key beside data/workspaces/run/flow/ (the workflow's folder is data/workspaces/run)."""
    data = tmp_path / "data"
    (data / "workspaces/run/flow/sub").mkdir(parents=True)
    (data / "secret_key").write_text(MARKER)
    return data / "workspaces/run", data / "secret_key"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def one_step(**fields) -> dict:
    step = {"id": "peek", "agent": "reader", "instructions": "Read.", **fields}
    return {"name": "escape", "agents": {"reader": {"description": "Reads."}}, "steps": [step]}


async def run_in(folder: Path, document: dict, base: str = "flow"):
    return await run(document, base_dir=folder / base, folder=folder)


def assert_refused_before_any_call(sink, step_id: str, *words: str) -> str:
    end = step_end(sink, step_id)
    assert end["data"]["status"] == "failed"
    for word in words:
        assert word in end["error"], end["error"]
    assert [e for e in sink.events if e["type"] == "agent_turn" and e.get("stepId") == step_id] == []
    assert MARKER not in json.dumps(sink.events, default=str)
    return end["error"]


@pytest.mark.parametrize("name, rule", [
    ("ABSOLUTE", "is absolute"),
    ("../../secret_key", "leaves the workflow's folder"),
    ("sub/../../../../secret_key", "leaves the workflow's folder"),
    ("../../../data/secret_key", "leaves the workflow's folder"),
])
async def test_a_context_file_outside_the_folder_fails_its_step_before_any_call(layout, name, rule):
    folder, secret = layout
    name = str(secret) if name == "ABSOLUTE" else name
    result, sink = await run_in(folder, one_step(contextFiles=[name]))
    assert result.status == "failed"
    error = assert_refused_before_any_call(sink, "peek", "contextFiles", rule)
    assert name in error


async def test_a_context_file_may_climb_within_the_folder(layout):
    folder, _ = layout
    write(folder / "notes.md", "shared notes")
    result, sink = await run_in(folder, one_step(contextFiles=["../notes.md"]))
    assert result.status == "completed"
    prompt = next(e for e in sink.events if e["type"] == "agent_turn" and "prompt" in e.get("data", {}))
    assert "shared notes" in prompt["data"]["prompt"]["user"]


async def test_a_symlink_to_the_secret_key_is_not_followed(layout):
    folder, secret = layout
    os.symlink(secret, folder / "flow/notes.txt")
    _result, sink = await run_in(folder, one_step(contextFiles=["notes.txt"]))
    assert_refused_before_any_call(sink, "peek", "notes.txt", "symbolic link")


async def test_a_symlinked_directory_is_not_followed(layout):
    folder, secret = layout
    os.symlink(secret.parent, folder / "flow/up")
    _, sink = await run_in(folder, one_step(contextFiles=["up/secret_key"]))
    assert_refused_before_any_call(sink, "peek", "up/secret_key")


async def test_a_link_inside_the_folder_is_refused_too(layout):
    # Links are never followed, even ones that stay inside: the folder is the agents' workspace, and a link that
    # points inside now can point outside a moment later.
    folder, _ = layout
    write(folder / "flow/real.txt", "fine")
    os.symlink("real.txt", folder / "flow/alias.txt")
    _, sink = await run_in(folder, one_step(contextFiles=["alias.txt"]))
    assert_refused_before_any_call(sink, "peek", "alias.txt", "symbolic link")


@pytest.mark.parametrize("field", ["instructions", "prompt"])
async def test_an_at_file_outside_the_folder_fails_its_step(layout, field):
    folder, _ = layout
    document = one_step()
    if field == "prompt":
        document["agents"]["reader"]["prompt"] = "@../../secret_key"
    else:
        document["steps"][0]["instructions"] = "@../../secret_key"
    _, sink = await run_in(folder, document)
    assert_refused_before_any_call(sink, "peek", field, "../../secret_key", "leaves the workflow's folder")


async def test_an_at_file_through_a_link_fails_its_step(layout):
    folder, secret = layout
    os.symlink(secret, folder / "flow/task.md")
    _, sink = await run_in(folder, one_step(instructions="@task.md"))
    assert_refused_before_any_call(sink, "peek", "task.md", "symbolic link")


async def test_an_include_outside_the_folder_fails_its_step(layout, tmp_path):
    folder, _ = layout
    write(tmp_path / "data/other.yaml", "name: other\nsteps: [{id: leak, instructions: Leak.}]\n")
    document = doc("""
        name: parent
        steps: [{id: ship, include: ../../other.yaml}]
    """)
    result, sink = await run_in(folder, document)
    assert result.status == "failed"
    assert_refused_before_any_call(sink, "ship", "../../other.yaml", "leaves the workflow's folder")
    assert not [e for e in sink.events if (e.get("stepId") or "").startswith("ship.")]


async def test_an_included_workflows_context_file_is_held_to_the_same_rule(layout):
    folder, _ = layout
    # flow/sub/inner.yaml names ../../../secret_key: from flow/sub that is data/secret_key.
    write(folder / "flow/sub/inner.yaml", json.dumps({
        "name": "inner", "agents": {"reader": {"description": "Reads."}},
        "steps": [{"id": "leaf", "agent": "reader", "instructions": "Read.", "contextFiles": ["../../../secret_key"]}]}))
    document = doc("""
        name: parent
        steps: [{id: ship, include: sub/inner.yaml}]
    """)
    result, sink = await run_in(folder, document)
    assert result.status == "failed"
    assert_refused_before_any_call(sink, "ship.leaf", "../../../secret_key", "leaves the workflow's folder")


async def test_an_included_workflow_reads_its_own_files_relative_to_itself(layout):
    folder, _ = layout
    write(folder / "flow/sub/notes.txt", "inner notes")
    write(folder / "flow/sub/inner.yaml", json.dumps({
        "name": "inner", "steps": [{"id": "leaf", "instructions": "Read.", "contextFiles": ["notes.txt"]}]}))
    result, sink = await run_in(folder, doc("name: parent\nsteps: [{id: ship, include: sub/inner.yaml}]"))
    assert result.status == "completed"
    assert "inner notes" in json.dumps(sink.events, default=str)


async def test_a_fifo_where_a_context_file_was_expected_does_not_hang_the_run(layout):
    folder, _ = layout
    os.mkfifo(folder / "flow/pipe")
    _, sink = await run_in(folder, one_step(contextFiles=["pipe"]))
    assert_refused_before_any_call(sink, "peek", "pipe", "not a regular file")


async def test_without_a_folder_given_the_workflow_files_directory_is_the_folder(tmp_path):
    (tmp_path / "flow").mkdir()
    (tmp_path / "secret").write_text(MARKER)
    result, sink = await run(one_step(contextFiles=["../secret"]), base_dir=tmp_path / "flow")
    assert result.status == "failed"
    assert_refused_before_any_call(sink, "peek", "../secret", "leaves the workflow's folder")
