import pytest

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import ProviderError, get_provider
from runtime.tools.results import submit_tool
from tests.fakes import FakeOpenAI
from tests.fakes.server import Response
from tests.support.engine_runs import doc, step_end
from tests.support.provider_clients import chat_request, opened

KEY = "sk-test-secret-123456"
SCHEMA = {"type": "object", "required": ["tags"], "properties": {
    "tags": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}


@pytest.fixture
def server():
    with FakeOpenAI() as s:
        yield s


pytestmark = pytest.mark.usefixtures("close_opened")


def provider(server, **kw):
    made = get_provider("openai", base_url=server.url + "/v1", api_key=KEY, backoff=0.001, **kw)
    return opened(made)


def request(**kw):
    return chat_request("gpt-test", **kw)


async def test_text_streams_in_as_deltas_and_usage_is_recorded(server):
    server.add({"content": "Hello there, streaming world", "usage": {"prompt": 12, "completion": 7}})
    deltas = []

    async def on_delta(text):
        deltas.append(text)

    reply = await provider(server).chat(request(), on_delta)
    assert reply.content == "Hello there, streaming world"
    assert len(deltas) > 1 and "".join(deltas) == reply.content
    assert (reply.usage.prompt, reply.usage.completion) == (12, 7)
    sent = server.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.json["stream"] is True and sent.json["model"] == "gpt-test"
    assert sent.json["messages"][0] == {"role": "system", "content": "be brief"}


async def test_submit_result_is_offered_as_a_function_tool_and_its_call_parsed(server):
    server.add({"tool_calls": [{"id": "call_9", "name": "submit_result", "arguments": {"tags": [{"name": "a"}]}}]})
    reply = await provider(server).chat(request(tools=[submit_tool(SCHEMA)]))
    assert reply.tool_calls[0].id == "call_9"
    assert reply.tool_calls[0].name == "submit_result"
    assert reply.tool_calls[0].arguments == {"tags": [{"name": "a"}]}
    tool = server.requests[0].json["tools"][0]
    assert tool["type"] == "function" and tool["function"]["parameters"] == SCHEMA


async def test_429_is_retried_with_backoff(server):
    server.add({"status": 429, "retry_after": "0"}, {"status": 503}, {"content": "finally"})
    p = provider(server)
    reply = await p.chat(request())
    assert reply.content == "finally"
    assert len(server.requests) == 3
    assert p.retries_done == 2


async def test_errors_after_the_last_retry_fail_without_leaking_the_key(server):
    server.add(*[{"status": 500, "message": f"Incorrect API key provided: {KEY}"}] * 3)
    with pytest.raises(ProviderError) as err:
        await provider(server, max_retries=2).chat(request())
    assert KEY not in str(err.value)
    assert "***" in str(err.value) and "500" in str(err.value)
    assert KEY not in repr(provider(server))


async def test_client_errors_are_not_retried(server):
    server.add({"status": 400, "message": "bad model"})
    with pytest.raises(ProviderError, match="bad model"):
        await provider(server).chat(request())
    assert len(server.requests) == 1


async def test_an_invalid_submit_goes_back_to_the_agent_with_json_paths_and_a_valid_one_ends_the_step(server):
    server.add(
        {"content": "Here goes.", "tool_calls": [{"name": "submit_result", "arguments": {"tags": [{"name": "ok"}, {"name": 3}]}}]},
        {"tool_calls": [{"name": "submit_result", "arguments": {"tags": [{"name": "ok"}, {"name": "fixed"}]}}]},
        {"content": "never asked"},
    )
    d = doc("""
        name: tagged
        agents:
          tagger:
            description: "Tags things."
            model: openai/gpt-test
        steps:
          - id: tag
            agent: tagger
            instructions: "Tag it."
    """)
    d["agents"]["tagger"]["resultSchema"] = SCHEMA
    sink = ListSink()
    result = await run_workflow(d, RunOptions(run_id="r", sink=sink, providers={"openai": provider(server)},
                                              default_provider="openai"))
    assert result.status == "completed"
    assert result.steps["tag"].result == {"tags": [{"name": "ok"}, {"name": "fixed"}]}
    assert len(server.requests) == 2
    second = server.requests[1].json["messages"]
    assert second[-1]["role"] == "tool"
    assert "tags[1].name" in second[-1]["content"] and '"status": "error"' in second[-1]["content"]
    assert second[-2]["tool_calls"][0]["function"]["name"] == "submit_result"
    assert result.tokens["total"] == 30
    ends = [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"]
    assert ends[0]["error"].startswith("tags[1].name") and "error" not in ends[1]
    assert step_end(sink, "tag")["data"]["content"] == "Here goes."


async def test_a_step_whose_agent_never_submits_fails(server):
    server.add({"content": "I refuse to use tools."}, {"content": "Still no tools."})
    d = doc("""
        name: stubborn
        agents:
          a: {description: "A.", resultSchema: {type: object, required: [x], properties: {x: {type: string}}}}
        steps:
          - {id: s, agent: a, instructions: "Do it."}
    """)
    sink = ListSink()
    result = await run_workflow(d, RunOptions(run_id="r", sink=sink, providers={"openai": provider(server)},
                                              default_provider="openai"))
    assert result.status == "failed"
    assert step_end(sink, "s")["error"] == ("resultSchema defined but submit_result never called, not even after "
                                             'a reminder; its last message: "Still no tools."')
    assert len(server.requests) == 2


async def test_output_events_stream_from_a_real_provider(server):
    server.add({"content": "one two three four five six"})
    d = doc("""
        name: streamed
        steps:
          - {id: s, instructions: "Talk."}
    """)
    sink = ListSink()
    await run_workflow(d, RunOptions(run_id="r", sink=sink, providers={"openai": provider(server)}, default_provider="openai"))
    outputs = sink.of_type("output")
    assert "".join(e.get("delta", "") for e in outputs) == "one two three four five six"
    assert outputs[-1]["done"] is True


async def test_connections_are_kept_alive_between_calls(server):
    p = provider(server)
    for _ in range(3):
        await p.chat(request())
    assert server.connections == 1
    await p.aclose()


async def test_a_connection_the_server_dropped_while_idle_is_replaced_transparently(server):
    server.add({"content": "first", "hangup": True}, {"content": "second"})
    p = provider(server)
    assert (await p.chat(request())).content == "first"
    assert (await p.chat(request())).content == "second"
    assert len(server.requests) == 2 and server.connections == 2


async def test_an_unreachable_server_fails_after_retries(server):
    p = get_provider("openai", base_url="http://127.0.0.1:9/v1", api_key=KEY, backoff=0.001, max_retries=1)
    opened(p)
    with pytest.raises(ProviderError, match="Cannot reach OpenAI: ") as err:
        await p.chat(request())
    assert err.value.retryable and KEY not in str(err.value)


class NonStreaming(FakeOpenAI):
    def respond(self, request, reply):
        request.body = request.body.replace(b'"stream": true', b'"stream": false')
        return super().respond(request, reply)


async def test_a_server_that_ignores_streaming_is_understood():
    with NonStreaming() as server:
        server.add({"content": "whole", "tool_calls": [{"name": "submit_result", "arguments": {"tags": []}}],
                    "usage": {"prompt": 4, "completion": 2}})
        reply = await provider(server).chat(request(tools=[submit_tool(SCHEMA)]))
    assert reply.content == "whole"
    assert reply.tool_calls[0].arguments == {"tags": []}
    assert reply.usage.total == 6


class Garbled(FakeOpenAI):
    def respond(self, request, reply):
        return Response(200, {"content-type": "text/event-stream"}, chunks=[b"data: {not json\n\n"])


async def test_a_malformed_stream_fails_as_a_provider_error():
    with Garbled() as server, pytest.raises(ProviderError, match="malformed"):
        await provider(server, max_retries=0).chat(request())
