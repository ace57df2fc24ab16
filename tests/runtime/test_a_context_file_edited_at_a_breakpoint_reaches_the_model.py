"""A context file edited while a run holds at a breakpoint reaches the model in its place: the OpenAI-compatible
fake server receives the edited text in that execution's prompt only, the file in the run's folder is left as it
was, the edit is one ``debug_action`` naming the file and the actor, and a path the step does not name is dropped."""
from __future__ import annotations

import asyncio

from runtime.engine import RunOptions, run_workflow
from runtime.engine.debugger import Debugger
from runtime.providers import get_provider
from tests.fakes import FakeOpenAI
from tests.support.debugging import DEADLINE_S, Driver, cont
from tests.support.engine_runs import doc

ORIGINAL = "The deadline is Friday."
EDITED = "The deadline moved to Monday."

TWO_STEPS = """
name: notes
agents:
  writer: {description: Writes., model: "openai/gpt-test"}
steps:
  - {id: plan, agent: writer, instructions: Plan the week.}
  - id: review
    agent: writer
    instructions: Review the plan against the notes.
    dependsOn: [plan]
    contextFiles: [notes/deadline.md]
"""

THREE_ROUNDS = """
name: rounds
agents:
  writer: {description: Writes., model: "openai/gpt-test"}
steps:
  - id: write
    agent: writer
    instructions: Write the next draft.
    contextFiles: [notes/deadline.md]
    loop:
      maxIterations: 3
"""


def user_text(request) -> str:
    return next(m["content"] for m in request.json["messages"] if m["role"] == "user")


async def held_run(tmp_path, source: str, breakpoint: dict, commands: list[dict], replies: int):
    """Runs ``source`` in a folder holding notes/deadline.md against the fake server, answering the one hold with
    ``commands``: (the result, the sink, what the server received)."""
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "deadline.md").write_text(ORIGINAL)
    with FakeOpenAI([{"content": f"reply {i}"} for i in range(replies)]) as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)
        debugger = Debugger([breakpoint])
        sink = Driver(debugger, [commands])
        try:
            result = await asyncio.wait_for(run_workflow(doc(source), RunOptions(
                run_id="r", sink=sink, providers={"openai": provider}, default_provider="openai", debugger=debugger,
                base_dir=tmp_path)), DEADLINE_S)
        finally:
            await provider.aclose()
    return result, sink, [user_text(r) for r in server.requests]


async def test_an_edited_context_file_is_what_the_server_receives_and_the_file_stays(tmp_path):
    commands = [
        {"action": "edit", "field": "context_file", "path": "elsewhere.md", "value": "NOT NAMED", "actor": "ann"},
        {"action": "edit", "field": "context_file", "path": "notes/deadline.md", "value": EDITED, "actor": "ann"},
        *cont()]
    result, sink, sent = await held_run(tmp_path, TWO_STEPS, {"id": "b", "kind": "step", "step": "review"},
                                        commands, replies=2)
    assert result.status == "completed", result.reason
    [hit] = sink.hits()
    assert "context_file" in hit["data"]["editable"]
    [shown] = hit["data"]["inputs"]["context_files"]
    assert shown["path"] == "notes/deadline.md" and shown["text"] == ORIGINAL and shown["edited"] is False

    edits = [e for e in sink.events if e["type"] == "debug_action" and e["data"]["action"] == "edit"]
    assert len(edits) == 1, "an edit of a file the step does not name is dropped"
    [edit] = edits
    assert edit["data"]["field"] == "context_file" and edit["data"]["path"] == "notes/deadline.md"
    assert edit["data"]["actor"] == "ann" and edit["data"]["value"] == EDITED
    assert edit["message"] == "context file notes/deadline.md edited by ann"
    [now] = edit["data"]["inputs"]["context_files"]
    assert now["text"] == EDITED and now["edited"] is True
    assert EDITED in edit["data"]["inputs"]["prompt"]["user"]

    assert len(sent) == 2
    assert f"## Context file: notes/deadline.md\n{EDITED}" in sent[1] and ORIGINAL not in sent[1]
    assert "NOT NAMED" not in sent[1]
    assert (tmp_path / "notes" / "deadline.md").read_text() == ORIGINAL


async def test_a_context_file_edited_before_a_round_is_that_rounds_only(tmp_path):
    commands = [{"action": "edit", "field": "context_file", "path": "notes/deadline.md", "value": EDITED}, *cont()]
    result, sink, sent = await held_run(tmp_path, THREE_ROUNDS, {"id": "r", "kind": "round", "step": "write", "round": 1},
                                        commands, replies=3)
    assert result.status == "completed", result.reason
    [hit] = sink.hits()
    assert hit["data"]["where"] == {"kind": "round", "loop": "write", "round": 1}
    assert "context_file" in hit["data"]["editable"]
    assert len(sent) == 3
    assert ORIGINAL in sent[0] and EDITED not in sent[0]
    assert EDITED in sent[1] and ORIGINAL not in sent[1]
    assert ORIGINAL in sent[2] and EDITED not in sent[2]  # the pending execution's only, as instructions
