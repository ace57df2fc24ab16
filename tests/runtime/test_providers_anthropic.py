import pytest

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import ProviderError, get_provider
from runtime.tools.results import submit_tool
from tests.fakes import FakeAnthropic
from tests.support.engine_runs import doc
from tests.support.provider_clients import chat_request, opened

KEY = "sk-ant-test-secret-987654"
JUDGE = {"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}, "reason": {"type": "string"}}}


@pytest.fixture
def server():
    with FakeAnthropic() as s:
        yield s


pytestmark = pytest.mark.usefixtures("close_opened")


def provider(server, **kw):
    made = get_provider("anthropic", base_url=server.url, api_key=KEY, backoff=0.001, **kw)
    return opened(made)


def request(**kw):
    return chat_request("claude-test", **kw)


async def test_text_streams_in_as_deltas_with_usage(server):
    server.add({"content": "Hello from the fake Claude", "usage": {"prompt": 20, "completion": 9}})
    deltas = []

    async def on_delta(text):
        deltas.append(text)

    reply = await provider(server).chat(request(), on_delta)
    assert reply.content == "Hello from the fake Claude"
    assert len(deltas) > 1
    assert (reply.usage.prompt, reply.usage.completion) == (20, 9)
    sent = server.requests[0]
    assert sent.path == "/v1/messages"
    assert sent.headers["x-api-key"] == KEY and sent.headers["anthropic-version"] == "2023-06-01"
    assert sent.json["system"] == "be brief"
    assert sent.json["messages"] == [{"role": "user", "content": "say hi"}]


async def test_submit_result_is_a_tool_and_its_tool_use_is_parsed(server):
    server.add({"content": "Judging.", "tool_calls": [{"id": "toolu_1", "name": "submit_result",
                                                       "arguments": {"done": True, "reason": "ok"}}]})
    reply = await provider(server).chat(request(tools=[submit_tool(JUDGE)]))
    assert reply.content == "Judging."
    assert reply.tool_calls[0].id == "toolu_1"
    assert reply.tool_calls[0].arguments == {"done": True, "reason": "ok"}
    assert server.requests[0].json["tools"][0]["input_schema"] == JUDGE
    assert reply.finish_reason == "tool_use"


async def test_rate_limits_and_overload_are_retried(server):
    server.add({"status": 429, "retry_after": "0"}, {"status": 529}, {"content": "there"})
    p = provider(server)
    assert (await p.chat(request())).content == "there"
    assert len(server.requests) == 3 and p.retries_done == 2


async def test_errors_never_show_the_key(server):
    server.add({"status": 401, "message": f"invalid x-api-key {KEY}"})
    with pytest.raises(ProviderError) as err:
        await provider(server).chat(request())
    assert KEY not in str(err.value) and "401" in str(err.value)


async def test_a_judge_on_anthropic_retries_an_invalid_submit_and_stops_the_loop(server):
    server.add(
        {"content": "worker output"},
        {"tool_calls": [{"id": "t1", "name": "submit_result", "arguments": {"done": "yes"}}]},
        {"tool_calls": [{"id": "t2", "name": "submit_result", "arguments": {"done": True, "reason": "good"}}]},
    )
    d = doc("""
        name: judged
        agents:
          judge: {description: "Judge.", model: anthropic/claude-test}
          worker: {description: "Works.", model: anthropic/claude-test}
        steps:
          - id: loop
            agent: worker
            instructions: "Work."
            loop: {maxIterations: 3, untilAgent: judge}
    """)
    d["agents"]["judge"]["resultSchema"] = JUDGE
    sink = ListSink()
    result = await run_workflow(d, RunOptions(run_id="r", sink=sink, providers={"anthropic": provider(server)}))
    assert result.status == "completed"
    assert result.loops["loop"] == {"rounds_completed": 1, "broke_early": True, "break_reason": "judge"}
    retry = server.requests[2].json["messages"]
    assert retry[-1]["role"] == "user" and retry[-1]["content"][0]["type"] == "tool_result"
    assert retry[-1]["content"][0]["tool_use_id"] == "t1" and "done" in retry[-1]["content"][0]["content"]
    assert retry[-2]["content"][0] == {"type": "tool_use", "id": "t1", "name": "submit_result", "input": {"done": "yes"}}
