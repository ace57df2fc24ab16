"""The real client path with tools, both ways: the fake OpenAI and Anthropic servers ask for tool calls over
streamed HTTP, the tools run in the workspace, and the results go back in the next request."""
from __future__ import annotations

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import get_provider
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes import FakeAnthropic
from tests.fakes.openai import FakeToolAgent
from tests.support.engine_runs import doc

FLOW = """
    version: 1
    agents:
      coder: {description: codes, model: "%s/model-x", tools: [write, read]}
    steps:
      - {id: build, agent: coder}
"""
CALLS = [{"name": "write", "arguments": {"path": "notes/a.txt", "content": "from the model"}},
         {"name": "read", "arguments": {"path": "notes/missing.txt"}}]


async def run_with(provider_name: str, provider, tmp_path):
    sink = ListSink()
    result = await run_workflow(doc(FLOW % provider_name), RunOptions(
        run_id="t", sink=sink, providers={provider_name: provider}, default_provider=provider_name,
        tools=RunTools(tmp_path / "ws", store=MemoryStore())))
    await provider.aclose()
    return result, sink


async def test_openai_tool_calls_run_and_their_results_go_back(tmp_path):
    with FakeToolAgent(CALLS, final="finished") as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456")
        result, sink = await run_with("openai", provider, tmp_path)
        requests = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert (tmp_path / "ws" / "notes" / "a.txt").read_text() == "from the model"
    offered = [t["function"]["name"] for t in requests[0]["tools"]]
    assert offered == ["write", "read", "send_message"]  # the agent's own order
    results = [m for m in requests[1]["messages"] if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in results] == [
        ("call_0", "wrote 14 bytes to notes/a.txt"), ("call_1", "error: notes/missing.txt: no such file")]
    assignment = next(m for m in requests[1]["messages"] if m["role"] == "assistant")
    assert [c["function"]["name"] for c in assignment["tool_calls"]] == ["write", "read"]
    assert next(e for e in sink.events if e["type"] == "step_end")["data"]["content"] == "finished"


async def test_anthropic_tool_use_runs_and_tool_results_go_back(tmp_path):
    with FakeAnthropic([{"tool_calls": CALLS}, {"content": "finished"}]) as server:
        provider = get_provider("anthropic", base_url=server.url, api_key="sk-ant-123456")
        result, _sink = await run_with("anthropic", provider, tmp_path)
        requests = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert (tmp_path / "ws" / "notes" / "a.txt").read_text() == "from the model"
    assert sorted(t["name"] for t in requests[0]["tools"]) == ["read", "send_message", "write"]
    last = requests[1]["messages"][-1]
    assert last["role"] == "user"
    blocks = [(b["type"], b["content"]) for b in last["content"]]
    assert blocks == [("tool_result", "wrote 14 bytes to notes/a.txt"),
                      ("tool_result", "error: notes/missing.txt: no such file")]
