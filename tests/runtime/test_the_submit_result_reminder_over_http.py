"""The submit_result reminder over the real provider clients: only submit_result is offered, a tool is required.

Ports upstream's internal/exec/agent_retry_test.go, TestZFB3_AgentRunner_RetriesSubmitResultOnMiss, to
the HTTP path: the first request offers the agent's tools (a distractor, `read`) beside submit_result with
the tool choice left to the model; the reminder request offers submit_result alone, requires a tool call
(OpenAI `tool_choice: "required"`, Anthropic `{"type": "any"}`) and ends with a user message naming
submit_result. A tool other than submit_result called on the reminder turn is refused, though the agent
may use it otherwise.
"""
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import get_provider
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes import FakeAnthropic, FakeOpenAI
from tests.support.engine_runs import doc

FLOW = """
    name: reminded-over-http
    agents:
      answerer:
        description: Reads and answers.
        model: "%s/model-x"
        tools: [read]
        resultSchema:
          type: object
          required: [done, answer]
          properties: {done: {type: boolean}, answer: {type: string}}
    steps:
      - {id: ask, agent: answerer, instructions: "Please answer."}
"""
SUBMIT = {"tool_calls": [{"name": "submit_result", "arguments": {"done": True, "answer": "42"}}]}


async def run_with(name: str, provider, tmp_path, flow: str = FLOW):
    tools = RunTools(tmp_path / "ws", store=MemoryStore())
    (tmp_path / "ws").mkdir(parents=True, exist_ok=True)
    (tmp_path / "ws" / "notes.txt").write_text("readable")
    sink = ListSink()
    try:
        result = await run_workflow(doc(flow % name), RunOptions(run_id="r", sink=sink, providers={name: provider},
                                                                 default_provider=name, tools=tools))
    finally:
        await provider.aclose()
    return result, sink


async def test_openai_the_reminder_request_offers_only_submit_result_and_requires_it(tmp_path):
    with FakeOpenAI([{"content": "here is my final answer, but I forgot to call the tool"}, SUBMIT]) as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)
        result, _ = await run_with("openai", provider, tmp_path)
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert result.steps["ask"].result == {"done": True, "answer": "42"}
    assert len(sent) == 2
    assert [t["function"]["name"] for t in sent[0]["tools"]] == ["read", "send_message", "submit_result"]
    assert "tool_choice" not in sent[0]
    assert [t["function"]["name"] for t in sent[1]["tools"]] == ["submit_result"]
    assert sent[1]["tool_choice"] == "required"
    last = sent[1]["messages"][-1]
    assert last["role"] == "user" and "submit_result" in last["content"]
    assert sent[1]["messages"][-2] == {"role": "assistant",
                                       "content": "here is my final answer, but I forgot to call the tool"}


async def test_openai_a_tool_other_than_submit_result_is_refused_on_the_reminder_turn(tmp_path):
    disobeying = {"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]}
    with FakeOpenAI([{"content": "no tool"}, disobeying, SUBMIT]) as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456", backoff=0.001)
        result, sink = await run_with("openai", provider, tmp_path)
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert len(sent) == 3 and sent[2]["tool_choice"] == "required"
    refused = sent[2]["messages"][-1]
    assert refused["role"] == "tool" and refused["content"].startswith("error: tool 'read' is not available")
    end = next(e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end" and e["data"]["tool_name"] == "read")
    assert "not available" in end["error"]


async def test_anthropic_the_reminder_request_offers_only_submit_result_and_requires_a_tool(tmp_path):
    with FakeAnthropic([{"content": "plain text answer"}, SUBMIT]) as server:
        provider = get_provider("anthropic", base_url=server.url, api_key="sk-ant-123456", backoff=0.001)
        result, _ = await run_with("anthropic", provider, tmp_path)
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert result.steps["ask"].result == {"done": True, "answer": "42"}
    assert sorted(t["name"] for t in sent[0]["tools"]) == ["read", "send_message", "submit_result"]
    assert "tool_choice" not in sent[0]
    assert [t["name"] for t in sent[1]["tools"]] == ["submit_result"]
    assert sent[1]["tool_choice"] == {"type": "any"}
    last = sent[1]["messages"][-1]
    assert last["role"] == "user" and "submit_result" in last["content"]


async def test_anthropic_a_reminder_after_tool_results_joins_their_user_turn(tmp_path):
    reading = {"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]}
    with FakeAnthropic([reading, SUBMIT]) as server:
        provider = get_provider("anthropic", base_url=server.url, api_key="sk-ant-123456", backoff=0.001)
        flow = FLOW.replace("tools: [read]", "tools: [read]\n        maxTurns: 1")
        result, _ = await run_with("anthropic", provider, tmp_path, flow)
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    roles = [m["role"] for m in sent[1]["messages"]]
    assert roles == ["user", "assistant", "user"]  # alternating: the reminder is in the tool results' turn
    blocks = sent[1]["messages"][-1]["content"]
    assert [b["type"] for b in blocks] == ["tool_result", "text"]
    assert blocks[0]["content"] == "readable" and "submit_result" in blocks[1]["text"]
