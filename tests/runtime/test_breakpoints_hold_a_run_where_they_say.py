"""A breakpoint holds the run at its exact boundary, once: before round k of a repeat-until, before a step in
round k, after a judge's verdict, before a tool call, when a condition becomes true; Step holds again at the next
boundary, Skip gives the pending step the typed output, and nothing is held when no breakpoint says so."""
from __future__ import annotations

import asyncio

from runtime.engine.debugger import Debugger
from tests.support.debugging import DEADLINE_S, Driver, cont
from tests.support.engine_runs import doc, prompts, run

TEN_ROUNDS = """
name: ten
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 10
"""


def rounds_script(n: int = 10) -> dict:
    return {"replies": {"write": [f"draft {i}" for i in range(n)]}}


async def held(document: dict, script: dict, breakpoints: list[dict], answers: list) -> tuple:
    debugger = Debugger(breakpoints)
    sink = Driver(debugger, answers)
    result, _ = await asyncio.wait_for(run(document, script, sink=sink, debugger=debugger), DEADLINE_S)
    return result, sink


def ended_rounds(sink, before_seq: int) -> list[int]:
    return [e["data"]["iteration"] for e in sink.events
            if e["type"] == "iteration_end" and e["seq"] < before_seq]


async def test_a_break_before_round_6_of_ten_holds_once_with_rounds_0_to_5_done():
    result, sink = await held(doc(TEN_ROUNDS), rounds_script(), [{"id": "b1", "kind": "round", "step": "write", "round": 6}],
                              [cont()])
    assert result.status == "completed"
    [hit] = sink.hits()
    assert hit["data"]["breakpoint"]["id"] == "b1" and hit["data"]["where"]["round"] == 6
    # In the words every page uses: round 7 is write.6 (docs/format.md, "Numbering").
    assert hit["message"] == "breakpoint b1 hit: before round 7 (write.6)"
    assert ended_rounds(sink, hit["seq"]) == [0, 1, 2, 3, 4, 5]
    assert hit["data"]["inputs"]["previous_output"] == "draft 5"
    assert "draft 5" in hit["data"]["inputs"]["prompt"]["user"]
    assert len(prompts(sink, "write.9")) == 1


async def test_an_edit_of_the_previous_output_reaches_the_next_prompt_and_is_an_event():
    edit = [{"action": "edit", "field": "previous_output", "value": "EDITED DRAFT", "actor": "ann"}, *cont()]
    _, sink = await held(doc(TEN_ROUNDS), rounds_script(), [{"id": "b", "kind": "round", "step": "write", "round": 3}],
                         [edit])
    [prompt] = prompts(sink, "write.3")
    assert "EDITED DRAFT" in prompt and "draft 2" not in prompt.split("EDITED DRAFT")[0][-50:]
    [edited] = [e for e in sink.events if e["type"] == "debug_action" and e["data"]["action"] == "edit"]
    assert edited["data"]["actor"] == "ann" and edited["data"]["field"] == "previous_output"
    assert "EDITED DRAFT" in edited["data"]["inputs"]["prompt"]["user"]


async def test_step_holds_again_at_the_next_boundary_only():
    _, sink = await held(doc(TEN_ROUNDS), rounds_script(), [{"id": "b", "kind": "round", "step": "write", "round": 2}],
                         [[{"action": "step"}], [{"action": "step"}], cont()])
    wheres = [(h["data"]["breakpoint"]["id"], h["data"]["where"]) for h in sink.hits()]
    assert wheres == [("b", {"kind": "round", "loop": "write", "round": 2}),
                      ("step", {"kind": "step", "step": "write.2"}),
                      ("step", {"kind": "round", "loop": "write", "round": 3})]


async def test_skip_gives_the_round_the_typed_output_without_asking_the_model():
    skip = [{"action": "skip", "output": "typed by hand", "actor": "ann"}]
    result, sink = await held(doc(TEN_ROUNDS), rounds_script(9), [{"id": "b", "kind": "step", "step": "write", "round": 4}],
                              [skip])
    assert result.status == "completed"
    assert not prompts(sink, "write.4")
    end = next(e for e in sink.events if e["type"] == "step_end" and e["stepId"] == "write.4")
    assert end["data"]["content"] == "typed by hand" and end["data"]["debugger"] == "skipped"
    assert "typed by hand" in prompts(sink, "write.5")[0]


async def test_a_step_breakpoint_without_a_round_holds_before_every_execution():
    document = doc(TEN_ROUNDS.replace("maxIterations: 10", "maxIterations: 3"))
    _, sink = await held(document, rounds_script(3), [{"id": "b", "kind": "step", "step": "write"}],
                         [cont(), cont(), cont(), cont()])
    assert [h["data"]["where"]["step"] for h in sink.hits()] == ["write", "write.0", "write.1", "write.2"]


async def test_no_breakpoint_no_hold():
    result, sink = await held(doc(TEN_ROUNDS), rounds_script(), [], [])
    assert result.status == "completed" and not sink.hits()
