"""Gemini (``google/...``) and Vertex (``vertex/...``) through the real client to a fake speaking Gemini's wire on
loopback: text streams as deltas, a tool call and its result go back as functionCall / functionResponse parts (with
the call's thoughtSignature), submit_result is the structured result (mode ANY when it must be called), usage with
thought tokens, reasoning levels as thinkingConfig, and each error kind in words with its fix."""
import pytest

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import ProviderError, ToolCall, get_provider
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes.gemini import FakeGemini
from tests.support.engine_runs import doc
from tests.support.provider_clients import READ_NOTES, SUBMIT_ANSWER, chat_request, opened, solver_flow

KEY = "AIza-test-secret-4242"
pytestmark = pytest.mark.usefixtures("close_opened")
FLOW = solver_flow("gemini-over-http", "google/gemini-2.5-flash")
READ, SUBMIT = READ_NOTES, SUBMIT_ANSWER


def provider(server, name="google", **kw):
    made = get_provider(name, base_url=server.url + "/v1beta", api_key=kw.pop("api_key", KEY), backoff=0.001,
                        max_retries=kw.pop("max_retries", 1), **kw)
    return opened(made)


def request(**kw):
    return chat_request("gemini-2.5-flash", **kw)


async def test_text_streams_in_as_deltas_with_usage_and_thought_tokens():
    with FakeGemini([{"content": "Hello from the fake Gemini", "reasoning": "greet them",
                      "usage": {"prompt": 20, "completion": 9, "reasoning": 4}}], key=KEY) as server:
        deltas: list[str] = []

        async def on_delta(text):
            deltas.append(text)

        reply = await provider(server).chat(request(thinking="low"), on_delta)
        sent = server.requests[0]
    assert reply.content == "Hello from the fake Gemini" and len(deltas) > 1
    assert reply.reasoning == "greet them"
    assert (reply.usage.prompt, reply.usage.completion, reply.usage.reasoning) == (20, 9, 4)
    assert sent.path == "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    assert sent.headers["x-goog-api-key"] == KEY and "authorization" not in sent.headers
    assert sent.json["systemInstruction"] == {"parts": [{"text": "be brief"}]}
    assert sent.json["contents"] == [{"role": "user", "parts": [{"text": "say hi"}]}]
    assert sent.json["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 1024, "includeThoughts": True}


async def test_a_tool_call_and_its_result_go_back_as_gemini_parts_with_the_signature():
    tool = {"name": "read", "description": "read a file",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}
    with FakeGemini([{"tool_calls": [READ]}, {"content": "done"}]) as server:
        client = provider(server)
        first = await client.chat(request(tools=[tool], tool_choice="required"))
        assert [(c.name, c.arguments) for c in first.tool_calls] == [("read", {"path": "notes.txt"})]
        messages = [
            *request().messages,
            {"role": "assistant", "content": "", "tool_calls": first.tool_calls,
             "reasoning_blocks": first.reasoning_blocks},
            {"role": "tool", "tool_call_id": first.tool_calls[0].id, "name": "read", "content": "two and two"}]
        await client.chat(request(messages=messages, tools=[tool]))
        sent = [r.json for r in server.requests]
    assert sent[0]["tools"] == [{"functionDeclarations": [{"name": "read", "description": "read a file",
                                                            "parametersJsonSchema": tool["parameters"]}]}]
    assert sent[0]["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}
    model_turn, tool_turn = sent[1]["contents"][1:]
    assert model_turn == {"role": "model", "parts": [{"functionCall": {"name": "read", "args": {"path": "notes.txt"}},
                                                      "thoughtSignature": "sig-0"}]}
    assert tool_turn == {"role": "user", "parts": [{"functionResponse": {
        "name": "read", "response": {"content": "two and two"}}}]}
    assert "toolConfig" not in sent[1]


async def test_a_run_reads_a_file_and_submits_a_structured_result_priced_by_genai_prices(tmp_path):
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("two and two")
    sink = ListSink()
    with FakeGemini([{"tool_calls": [READ]}, {"tool_calls": [SUBMIT], "usage": {"prompt": 1000, "completion": 10}}],
                    key=KEY) as server:
        result = await run_workflow(doc(FLOW), RunOptions(
            run_id="r", sink=sink, providers={"google": provider(server), "openai": provider(server, "openai")},
            default_provider="openai", tools=RunTools(tmp_path / "ws", store=MemoryStore()), thinking="high"))
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert result.steps["solve"].result == {"answer": "4"}
    assert all(s["generationConfig"]["thinkingConfig"]["thinkingBudget"] == 24576 for s in sent)
    responses = [e["data"] for e in sink.of_type("agent_turn") if e["data"]["phase"] == "response"]
    assert responses[-1]["cost_usd"] > 0 and result.cost_usd > 0


@pytest.mark.parametrize(("model", "level", "config"), [
    ("gemini-2.5-flash", "off", {"thinkingBudget": 0}),
    ("gemini-2.5-pro", "off", None),
    ("gemini-2.5-pro", "medium", {"thinkingBudget": 8192, "includeThoughts": True}),
    ("gemini-3-pro-preview", "low", {"thinkingLevel": "low", "includeThoughts": True}),
    ("gemini-2.5-flash", None, None),
])
async def test_reasoning_levels_are_gemini_thinking_config(model, level, config):
    with FakeGemini() as server:
        await provider(server).chat(request(model=model, thinking=level))
        sent = server.requests[0].json
    assert (sent.get("generationConfig") or {}).get("thinkingConfig") == config


@pytest.mark.parametrize(("reply", "key", "words"), [
    ({}, "AIza-wrong-key-0000", "refused the API key"),
    ({"status": 404, "message": "models/gemini-nope is not found"}, KEY, "does not know this model"),
    ({"status": 429, "message": "Resource has been exhausted"}, KEY, "is rate limiting"),
])
async def test_errors_are_in_words_with_the_fix_and_never_show_the_key(reply, key, words):
    with FakeGemini([reply, reply], key=KEY) as server, pytest.raises(ProviderError) as caught:
        await provider(server, api_key=key).chat(request())
    assert words in str(caught.value) and "Google Gemini" in str(caught.value)
    assert key not in str(caught.value)


async def test_an_unreachable_server_names_the_setting_to_check():
    with FakeGemini() as server:
        url = server.url
    client = get_provider("google", base_url=url + "/v1beta", api_key=KEY, backoff=0.001, max_retries=0)
    opened(client)
    with pytest.raises(ProviderError, match=r"Cannot reach Google Gemini: .*GEMINI_BASE_URL"):
        await client.chat(request())


async def test_vertex_speaks_the_same_wire_with_a_bearer_token_for_an_access_token():
    with FakeGemini(key="ya29.token-abc") as server:
        reply = await provider(server, "vertex", api_key="ya29.token-abc").chat(request(
            messages=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "",
                                                          "tool_calls": [ToolCall("c", "read", {})]}]))
        sent = server.requests[0]
    assert reply.content == "ok"
    assert sent.headers["authorization"] == "Bearer ya29.token-abc" and "x-goog-api-key" not in sent.headers
