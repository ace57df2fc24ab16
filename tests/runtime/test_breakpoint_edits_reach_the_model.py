"""What is edited at a hold reaches the model: an edited previous output and edited instructions are in the next
request the OpenAI-compatible fake server received, an edited item is what the forEach item runs with; the judge,
tool and condition breakpoints hold where they say, once each."""
from __future__ import annotations

import asyncio

from runtime.engine import RunOptions, run_workflow
from runtime.engine.debugger import Debugger
from runtime.providers import get_provider
from tests.fakes import FakeOpenAI
from tests.support.debugging import DEADLINE_S, Driver, cont
from tests.support.documents import judge_loop
from tests.support.engine_runs import doc, prompts, run

LOOP = """
name: over-http
agents:
  writer: {description: Writes., model: "openai/gpt-test"}
steps:
  - id: write
    agent: writer
    instructions: Write the next draft.
    loop:
      maxIterations: 4
"""


def user_text(request) -> str:
    return next(m["content"] for m in request.json["messages"] if m["role"] == "user")


async def test_an_edited_previous_output_and_instructions_are_what_the_server_receives():
    with FakeOpenAI([{"content": f"draft {i}"} for i in range(4)]) as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)
        debugger = Debugger([{"id": "b", "kind": "round", "step": "write", "round": 2}])
        sink = Driver(debugger, [[
            {"action": "edit", "field": "previous_output", "value": "THE EDITED DRAFT", "actor": "ann"},
            {"action": "edit", "field": "instructions", "value": "Rewrite it as a haiku.", "actor": "ann"},
            *cont()]])
        try:
            result = await asyncio.wait_for(run_workflow(doc(LOOP), RunOptions(
                run_id="r", sink=sink, providers={"openai": provider}, default_provider="openai", debugger=debugger)),
                DEADLINE_S)
        finally:
            await provider.aclose()
    assert result.status == "completed"
    sent = [user_text(r) for r in server.requests]
    assert len(sent) == 4
    assert "THE EDITED DRAFT" in sent[2] and "draft 1" not in sent[2]
    assert "Rewrite it as a haiku." in sent[2] and "Write the next draft." not in sent[2]
    assert "Write the next draft." in sent[3]  # instructions edited for that execution only
    assert "THE EDITED DRAFT" not in sent[1]


async def test_an_edited_item_is_what_the_item_runs_with():
    document = doc("""
        name: items
        steps:
          - id: each
            instructions: Handle the item.
            loop:
              forEach: ["apple", "pear", "plum"]
              maxConcurrency: 1
    """)
    debugger = Debugger([{"id": "i", "kind": "round", "step": "each", "item": 1}])
    sink = Driver(debugger, [[{"action": "edit", "field": "item", "value": "quince"}, *cont()]])
    result, _ = await asyncio.wait_for(run(document, {"replies": {"each": ["a", "b", "c"]}}, sink=sink,
                                           debugger=debugger), DEADLINE_S)
    assert result.status == "completed"
    [hit] = sink.hits()
    assert hit["data"]["inputs"]["item"] == "pear" and hit["data"]["where"]["item"] is True
    assert "quince" in prompts(sink, "each[1]")[0] and "pear" not in prompts(sink, "each[1]")[0]
    [end] = [e for e in sink.events if e["type"] == "iteration_end" and e["data"].get("index") == 1]
    assert end["data"]["item"] == "quince"


async def test_a_judge_breakpoint_holds_after_the_verdict_it_names():
    replies = {"draft": ["one", "two", "three"],
               "judge": [{"result": {"done": False, "reason": "more"}}, {"result": {"done": False, "reason": "more"}},
                         {"result": {"done": True, "reason": "good"}}]}
    debugger = Debugger([{"id": "j", "kind": "judge", "step": "dev", "done": True}])
    sink = Driver(debugger, [cont()])
    result, _ = await asyncio.wait_for(run(doc(judge_loop("judged", 5)), {"replies": replies}, sink=sink,
                                           debugger=debugger), DEADLINE_S)
    assert result.status == "completed"
    [hit] = sink.hits()
    assert hit["data"]["where"] == {"kind": "judge", "loop": "dev", "round": 2}
    assert hit["data"]["inputs"]["verdict"]["done"] is True and not hit["data"]["skippable"]
    verdicts = [e["seq"] for e in sink.events if e["type"] == "judge_verdict"]
    assert verdicts[-1] < hit["seq"]


async def test_a_tool_breakpoint_holds_before_the_call_and_skip_answers_it():
    document = doc("""
        name: talk
        steps:
          - {id: talker, instructions: Tell the others.}
    """)
    script = {"replies": {"talker": [{"tool_calls": [{"name": "send_message", "arguments": {"text": "hi"}}]}, "done"]}}
    debugger = Debugger([{"id": "t", "kind": "tool", "tool": "send_message"}])
    sink = Driver(debugger, [[{"action": "skip", "output": "not sent: held by ann"}]])
    result, _ = await asyncio.wait_for(run(document, script, sink=sink, debugger=debugger), DEADLINE_S)
    assert result.status == "completed"
    [hit] = sink.hits()
    assert hit["data"]["inputs"] == {"tool": "send_message", "arguments": {"text": "hi"}}
    [end] = [e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == "end"]
    assert end["data"]["output"] == "not sent: held by ann" and end["data"]["debugger"] == "skipped"
    assert not [e for e in sink.events if e["type"] == "message_sent"]


async def test_a_condition_breakpoint_holds_once_when_it_becomes_true():
    document = doc("""
        name: chain
        steps:
          - {id: a, instructions: First.}
          - {id: b, instructions: Second., dependsOn: [a]}
          - {id: c, instructions: Third., dependsOn: [b]}
    """)
    debugger = Debugger([{"id": "c1", "kind": "condition", "condition": "steps.a.content.contains('TODO')"}])
    sink = Driver(debugger, [cont()])
    result, _ = await asyncio.wait_for(run(document, {"replies": {"a": ["a TODO left"], "b": ["x"], "c": ["y"]}},
                                           sink=sink, debugger=debugger), DEADLINE_S)
    assert result.status == "completed"
    [hit] = sink.hits()
    assert hit["data"]["where"] == {"kind": "step", "step": "b"}
    assert hit["data"]["inputs"]["scope"]["steps"]["a"]["content"] == "a TODO left"
