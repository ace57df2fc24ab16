"""Reasoning levels (upstream's ``--thinking``) through the real provider clients to fake servers on loopback:
each level arrives as the provider's own field (OpenAI-compatible ``reasoning_effort``, Anthropic ``thinking``
with a budget below ``max_tokens``), ``off`` and no level send nothing, and what the provider returns of its
reasoning (tokens, text) lands in the agent_turn response without going back to the model as content."""
import pytest

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import get_provider
from runtime.providers.thinking import ANTHROPIC_BUDGETS, check_level
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes import FakeAnthropic, FakeOpenAI
from tests.support.engine_runs import doc

FLOW = """
    name: thinking-over-http
    agents:
      solver:
        description: Reads and answers.
        model: "%s/model-x"
        temperature: 0.3
        tools: [read]
        resultSchema:
          type: object
          required: [answer]
          properties: {answer: {type: string}}
    steps:
      - {id: solve, agent: solver, instructions: "What is in notes.txt?"}
"""
READ = {"name": "read", "arguments": {"path": "notes.txt"}}
SUBMIT = {"name": "submit_result", "arguments": {"answer": "4"}}


async def run_with(name: str, provider, tmp_path, thinking=None):
    (tmp_path / "ws").mkdir(parents=True, exist_ok=True)
    (tmp_path / "ws" / "notes.txt").write_text("two and two")
    tools = RunTools(tmp_path / "ws", store=MemoryStore())
    sink = ListSink()
    try:
        result = await run_workflow(doc(FLOW % name), RunOptions(
            run_id="r", sink=sink, providers={name: provider}, default_provider=name, tools=tools, thinking=thinking))
    finally:
        await provider.aclose()
    return result, sink


def responses(sink) -> list[dict]:
    return [e["data"] for e in sink.of_type("agent_turn") if e["data"]["phase"] == "response"]


def openai(server):
    return get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)


def anthropic(server):
    return get_provider("anthropic", base_url=server.url, api_key="sk-ant-test-123456", backoff=0.001)


@pytest.mark.parametrize("level", ["low", "medium", "high"])
async def test_openai_each_level_is_sent_as_reasoning_effort(tmp_path, level):
    with FakeOpenAI(default={"tool_calls": [SUBMIT]}) as server:
        result, sink = await run_with("openai", openai(server), tmp_path, thinking=level)
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert [body["reasoning_effort"] for body in sent] == [level]
    assert sink.of_type("workflow_start")[0]["data"]["thinking"] == level


@pytest.mark.parametrize("level", ["off", None])
async def test_openai_off_and_no_level_send_nothing(tmp_path, level):
    with FakeOpenAI(default={"tool_calls": [SUBMIT]}) as server:
        result, sink = await run_with("openai", openai(server), tmp_path, thinking=level)
        sent = server.requests[0].json
    assert result.status == "completed", result.reason
    assert "reasoning_effort" not in sent and "thinking" not in sent
    assert ("thinking" in sink.of_type("workflow_start")[0]["data"]) is (level is not None)


async def test_openai_reasoning_tokens_and_text_land_in_the_turn_and_never_go_back(tmp_path):
    thought = "The file says two and two; <b>that</b> is 4."
    replies = [{"tool_calls": [READ], "reasoning": thought, "usage": {"prompt": 40, "completion": 30, "reasoning": 22}},
               {"tool_calls": [SUBMIT], "usage": {"prompt": 60, "completion": 5, "reasoning": 0}}]
    with FakeOpenAI(replies) as server:
        result, sink = await run_with("openai", openai(server), tmp_path, thinking="high")
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    first, second = responses(sink)
    assert (first["reasoning_tokens"], first["reasoning"]) == (22, thought)
    assert second["reasoning_tokens"] == 0 and "reasoning" not in second
    assert sink.of_type("agent_turn")[1]["tokens"]["completion"] == 30  # reasoning is part of the completion
    assert thought not in str(sent[1]["messages"])


async def test_openai_a_reply_without_reasoning_has_no_reasoning_fields(tmp_path):
    with FakeOpenAI(default={"tool_calls": [SUBMIT]}) as server:
        result, sink = await run_with("openai", openai(server), tmp_path, thinking="low")
    assert result.status == "completed", result.reason
    assert "reasoning_tokens" not in responses(sink)[0] and "reasoning" not in responses(sink)[0]


@pytest.mark.parametrize("level", ["low", "medium", "high"])
async def test_anthropic_each_level_is_a_thinking_budget_below_max_tokens(tmp_path, level):
    with FakeAnthropic(default={"tool_calls": [SUBMIT], "thinking": "done"}) as server:
        result, _ = await run_with("anthropic", anthropic(server), tmp_path, thinking=level)
        sent = server.requests[0].json
    assert result.status == "completed", result.reason
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": ANTHROPIC_BUDGETS[level]}
    assert sent["max_tokens"] > ANTHROPIC_BUDGETS[level]
    assert "temperature" not in sent  # the agent's 0.3 would be refused while thinking


@pytest.mark.parametrize("level", ["off", None])
async def test_anthropic_off_and_no_level_send_nothing(tmp_path, level):
    with FakeAnthropic(default={"tool_calls": [SUBMIT]}) as server:
        result, _ = await run_with("anthropic", anthropic(server), tmp_path, thinking=level)
        sent = server.requests[0].json
    assert result.status == "completed", result.reason
    assert "thinking" not in sent and sent["temperature"] == 0.3


async def test_anthropic_thinking_text_lands_in_the_turn_and_its_signed_block_goes_back_before_the_tool_use(tmp_path):
    thought = "I should read notes.txt first."
    replies = [{"tool_calls": [READ], "thinking": thought}, {"tool_calls": [SUBMIT], "thinking": "It says 4."}]
    with FakeAnthropic(replies) as server:
        result, sink = await run_with("anthropic", anthropic(server), tmp_path, thinking="medium")
        sent = [r.json for r in server.requests]
    # The fake refuses (400) a tool-use turn sent back without its signed thinking block, as the API does.
    assert result.status == "completed", result.reason
    assert [d["reasoning"] for d in responses(sink)] == [thought, "It says 4."]
    # Anthropic counts thinking inside output_tokens only: no separate count is claimed.
    assert all("reasoning_tokens" not in d for d in responses(sink))
    assistant = next(m for m in sent[1]["messages"] if m["role"] == "assistant")
    assert assistant["content"][0]["type"] == "thinking" and assistant["content"][0]["thinking"] == thought
    assert not any(b.get("type") == "text" and thought in b.get("text", "") for b in assistant["content"])


async def test_anthropic_the_submit_result_reminder_does_not_force_a_tool_while_thinking(tmp_path):
    replies = [{"content": "the answer is 4", "thinking": "easy"}, {"tool_calls": [SUBMIT], "thinking": "submit"}]
    with FakeAnthropic(replies) as server:
        result, _ = await run_with("anthropic", anthropic(server), tmp_path, thinking="low")
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert sent[1]["tool_choice"] == {"type": "auto"}
    assert [t["name"] for t in sent[1]["tools"]] == ["submit_result"]


@pytest.mark.parametrize("bad", ["max", "HIGHEST", 3, True])
def test_a_bad_level_is_refused_naming_the_field_and_the_choices(bad):
    with pytest.raises(ValueError, match=r"thinking: .* \(choose one of: off, low, medium, high\)"):
        check_level(bad)
