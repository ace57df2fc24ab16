"""Pinned outputs in the engine (issue #33): an execution named in ``RunOptions.pins`` takes the pin's content and
result without a request to its provider (counted at the fake OpenAI server), its agent_turn events say
``pinned: true`` with no tokens and no cost, and what comes after it sees the pinned text as if the model wrote it."""
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import get_provider
from tests.fakes import FakeOpenAI
from tests.support.engine_runs import doc

FLOW = """
    name: pinned-loop
    agents:
      writer: {description: Writes., model: openai/model-x}
      judge:
        description: Judges.
        model: openai/model-x
        resultSchema:
          type: object
          required: [done]
          properties: {done: {type: boolean}, reason: {type: string}}
    steps:
      - id: dev
        loop:
          maxIterations: 3
          untilAgent: judge
          steps:
            - {id: draft, agent: writer, instructions: Write a draft.}
"""
PINS = {
    "dev.0.untilAgent": {"content": "pinned verdict", "result": {"done": False, "reason": "pinned: not yet"}},
    "dev.1.draft": {"content": "PINNED DRAFT TWO"},
}
DONE = {"tool_calls": [{"name": "submit_result", "arguments": {"done": True, "reason": "fine"}}]}


async def run(pins):
    sink = ListSink()
    with FakeOpenAI([{"content": "draft one"}, DONE, {"content": "draft two"}, DONE]) as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)
        try:
            result = await run_workflow(doc(FLOW), RunOptions(run_id="r", sink=sink, providers={"openai": provider},
                                                             default_provider="openai", pins=pins))
        finally:
            await provider.aclose()
        sent = [r.json for r in server.requests]
    return result, sink, sent


async def test_pinned_executions_make_no_request_and_say_pinned():
    result, sink, sent = await run(PINS)
    assert result.status == "completed", result.reason
    # Round 1's draft and round 2's judge went to the model; round 1's judge and round 2's draft were pinned.
    assert len(sent) == 2
    assert "PINNED DRAFT TWO" in sent[1]["messages"][-1]["content"]  # the judge of round 2 read the pinned draft
    verdicts = [e["data"] for e in sink.of_type("judge_verdict")]
    assert [v["result"] for v in verdicts] == [{"done": False, "reason": "pinned: not yet"}, {"done": True, "reason": "fine"}]
    turns = [e for e in sink.of_type("agent_turn")]
    pinned = {e["stepId"] for e in turns if e["data"].get("pinned")}
    assert pinned == {"dev.0.untilAgent", "dev.1.draft"}
    for e in turns:
        if e["data"].get("pinned") and e["data"]["phase"] == "response":
            assert e["tokens"] == {"prompt": 0, "completion": 0, "total": 0} and e["data"]["cost_usd"] == 0.0
    end = next(e for e in sink.of_type("step_end") if e["stepId"] == "dev.1.draft")
    assert end["data"]["content"] == "PINNED DRAFT TWO"


async def test_without_pins_every_execution_asks_the_model():
    result, sink, sent = await run(None)
    assert result.status == "completed", result.reason
    assert len(sent) == 2  # round 1's draft and judge; the judge said done
    assert not any(e["data"].get("pinned") for e in sink.of_type("agent_turn"))
