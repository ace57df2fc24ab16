"""Bedrock (``bedrock/<model id>``) through the real client to a fake speaking ConverseStream (AWS's binary
event-stream framing, frames cut across chunks) and Converse on loopback:
SigV4 (checked against AWS's published test vector, and by the fake signing the request again) or a Bedrock API
key, a turn's text, a tool call and its result as toolUse / toolResult blocks, submit_result as the structured
result (toolChoice any), usage, reasoning levels as additionalModelRequestFields, and each error kind in words."""
from datetime import UTC, datetime

import pytest

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import ProviderError, get_provider
from runtime.providers.eventstream import Decoder, EventStreamError
from runtime.providers.sigv4 import sign
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes.bedrock import FakeBedrock, event
from tests.support.engine_runs import doc
from tests.support.provider_clients import READ_NOTES, SUBMIT_ANSWER, chat_request, opened, solver_flow

ACCESS, SECRET = "AKIDTESTACCESS0001", "test-secret-access-key-77777"
CREDS = f"{ACCESS}:{SECRET}"
MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
pytestmark = pytest.mark.usefixtures("close_opened")
FLOW = solver_flow("bedrock-over-http", f"bedrock/{MODEL}")
READ, SUBMIT = READ_NOTES, SUBMIT_ANSWER


def provider(server, key=CREDS, **kw):
    made = get_provider("bedrock", base_url=server.url, api_key=key, region="us-west-2", backoff=0.001,
                        max_retries=kw.pop("max_retries", 1), **kw)
    return opened(made)


def request(**kw):
    return chat_request(MODEL, "hi", **kw)


def test_sigv4_matches_aws_published_test_vector():
    signed = sign("GET", "https://example.amazonaws.com/", {}, b"", access_key="AKIDEXAMPLE",
                  secret_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region="us-east-1", service="service",
                  now=datetime(2015, 8, 30, 12, 36, tzinfo=UTC))
    assert signed["authorization"].endswith(
        "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")


async def test_a_signed_converse_stream_call_streams_text_in_deltas_with_usage():
    with FakeBedrock([{"content": "Hello from the fake Bedrock", "usage": {"prompt": 20, "completion": 9},
                       "chunk_delay": 0.005}], credentials={ACCESS: SECRET}, region="us-west-2") as server:
        deltas: list[str] = []

        async def on_delta(text):
            deltas.append(text)

        reply = await provider(server).chat(request(temperature=0.2), on_delta)
        sent = server.requests[0]
    assert reply.content == "Hello from the fake Bedrock" and len(deltas) > 1 and "".join(deltas) == reply.content
    assert (reply.usage.prompt, reply.usage.completion) == (20, 9)
    assert sent.path == "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"
    assert sent.headers["accept"] == "application/vnd.amazon.eventstream"
    assert sent.json["system"] == [{"text": "be brief"}]
    assert sent.json["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]
    assert sent.json["inferenceConfig"]["temperature"] == 0.2


async def test_without_streaming_converse_answers_in_one_document():
    with FakeBedrock([{"tool_calls": [READ], "usage": {"prompt": 7, "completion": 3}}],
                     credentials={ACCESS: SECRET}, region="us-west-2") as server:
        reply = await provider(server, stream=False).chat(request())
        sent = server.requests[0]
    assert sent.path.endswith("/converse")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("read", {"path": "notes.txt"})]
    assert (reply.usage.prompt, reply.usage.completion, reply.finish_reason) == (7, 3, "tool_calls")


async def test_an_exception_in_the_stream_fails_the_call_in_words():
    with FakeBedrock([{"stream_exception": "throttlingException", "message": "Too many tokens, please wait."}]) \
            as server, pytest.raises(ProviderError, match=r"Amazon Bedrock is rate limiting this key \(429: Too many"):
        await provider(server).chat(request())


def test_a_frame_with_a_bad_crc_is_refused():
    good = event("messageStop", {"stopReason": "end_turn"})
    assert Decoder().feed(good[:10]) == [] and Decoder().feed(good)[0][0][":event-type"] == "messageStop"
    with pytest.raises(EventStreamError, match="CRC"):
        Decoder().feed(good[:-1] + bytes([good[-1] ^ 1]))


async def test_a_bedrock_api_key_is_a_bearer_token():
    with FakeBedrock(api_key="ABSKbedrockkey123") as server:
        reply = await provider(server, key="ABSKbedrockkey123").chat(request())
        assert server.requests[0].headers["authorization"] == "Bearer ABSKbedrockkey123"
    assert reply.content == "ok"


async def test_a_run_calls_a_tool_then_submits_a_structured_result_priced_as_aws(tmp_path):
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("two and two")
    sink = ListSink()
    replies = [{"tool_calls": [READ], "reasoning": "read it first"},
               {"tool_calls": [SUBMIT], "usage": {"prompt": 1000, "completion": 10}}]
    with FakeBedrock(replies, credentials={ACCESS: SECRET}, region="us-west-2") as server:
        result = await run_workflow(doc(FLOW), RunOptions(
            run_id="r", sink=sink, providers={"bedrock": provider(server)}, default_provider="bedrock",
            tools=RunTools(tmp_path / "ws", store=MemoryStore()), thinking="medium"))
        sent = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    assert result.steps["solve"].result == {"answer": "4"}
    assert sent[0]["additionalModelRequestFields"] == {"thinking": {"type": "enabled", "budget_tokens": 4096}}
    assert {"read", "submit_result"} <= {t["toolSpec"]["name"] for t in sent[0]["toolConfig"]["tools"]}
    assistant, results = sent[1]["messages"][1:3]
    assert assistant["content"][0] == {"reasoningContent": {"reasoningText": {"text": "read it first",
                                                                              "signature": "sig-bedrock"}}}
    assert assistant["content"][1]["toolUse"]["name"] == "read"
    assert results["content"][0]["toolResult"]["content"] == [{"text": "two and two"}]
    responses = [e["data"] for e in sink.of_type("agent_turn") if e["data"]["phase"] == "response"]
    assert responses[0]["reasoning"] == "read it first"
    assert responses[-1]["cost_usd"] > 0


async def test_the_submit_result_reminder_asks_for_any_tool():
    tool = {"name": "submit_result", "description": "submit", "parameters": {"type": "object"}}
    with FakeBedrock() as server:
        await provider(server).chat(request(tools=[tool], tool_choice="required"))
        sent = server.requests[0].json
    assert sent["toolConfig"]["toolChoice"] == {"any": {}}


@pytest.mark.parametrize(("model", "level", "fields"), [
    (MODEL, "high", {"thinking": {"type": "enabled", "budget_tokens": 16384}}),
    ("openai.gpt-oss-120b-1:0", "low", {"reasoning_effort": "low"}),
    ("amazon.nova-2-lite-v1:0", "medium", {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "medium"}}),
    (MODEL, "off", None),
    (MODEL, None, None),
])
async def test_reasoning_levels_are_the_models_own_fields(model, level, fields):
    with FakeBedrock() as server:
        await provider(server).chat(request(model=model, thinking=level))
        sent = server.requests[0].json
    assert sent.get("additionalModelRequestFields") == fields


@pytest.mark.parametrize(("reply", "key", "model", "words"), [
    ({}, f"{ACCESS}:wrong-secret-123", MODEL, "refused the API key"),
    ({}, "AKIDUNKNOWN000:whatever-secret", MODEL, "refused the API key"),
    ({}, CREDS, "unknown.model-v1", "does not know this model"),
    ({"status": 429, "message": "Too many requests, please wait before trying again."}, CREDS, MODEL,
     "is rate limiting"),
])
async def test_errors_are_in_words_with_the_fix_and_never_show_the_secret(reply, key, model, words):
    with FakeBedrock([reply, reply], credentials={ACCESS: SECRET}, region="us-west-2") as server, \
            pytest.raises(ProviderError) as caught:
        await provider(server, key=key).chat(request(model=model))
    assert words in str(caught.value) and "Amazon Bedrock" in str(caught.value)
    assert key.split(":")[1] not in str(caught.value)


async def test_an_unreachable_server_names_the_setting_to_check():
    with FakeBedrock() as server:
        url = server.url
    client = get_provider("bedrock", base_url=url, api_key=CREDS, backoff=0.001, max_retries=0)
    opened(client)
    with pytest.raises(ProviderError, match=r"Cannot reach Amazon Bedrock: .*BEDROCK_BASE_URL"):
        await client.chat(request())
