"""The providers' HTTP transport (aiohttp): proxies from the environment, long streamed lines."""
import pytest

from common.addresses import AddressRefused
from runtime.providers import ChatRequest, get_provider
from runtime.providers.transport import Transport
from tests.fakes import FakeOpenAI


def test_the_proxy_comes_from_the_environment_and_no_proxy_is_honoured(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example")
    assert Transport("https://api.openai.com/v1", max_connections=1, timeout=5, public_only=False).proxy == "http://proxy.example:3128"
    assert Transport("https://internal.example/v1", max_connections=1, timeout=5, public_only=False).proxy is None


def test_without_proxy_variables_there_is_no_proxy(monkeypatch):
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    assert Transport("https://api.openai.com/v1", max_connections=1, timeout=5, public_only=False).proxy is None


async def test_a_tool_call_whose_streamed_line_is_larger_than_aiohttps_default_buffer_arrives_whole():
    big = "x" * 300_000  # one SSE line well over aiohttp's 64 KiB default
    with FakeOpenAI() as server:
        server.add({"content": "", "tool_calls": [{"name": "submit_result", "arguments": {"text": big}}]})
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="k", backoff=0.001)
        try:
            reply = await provider.chat(ChatRequest(model="m", messages=[{"role": "user", "content": "go"}]))
        finally:
            await provider.aclose()
    assert reply.tool_calls[0].arguments == {"text": big}


async def test_connections_are_kept_alive_between_calls():
    with FakeOpenAI() as server:
        for text in ("one", "two", "three"):
            server.add({"content": text})
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="k", backoff=0.001)
        try:
            for _ in range(3):
                await provider.chat(ChatRequest(model="m", messages=[{"role": "user", "content": "go"}]))
        finally:
            await provider.aclose()
    assert len(server.requests) == 3 and server.connections == 1


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/v1", "http://[::1]:9/v1", "http://169.254.169.254/v1"])
async def test_a_public_only_transport_refuses_address_literals_before_connecting(url):
    transport = Transport(url, max_connections=1, timeout=5, public_only=True)
    try:
        with pytest.raises(AddressRefused):
            async with transport.post("/chat/completions", {}, b"{}"):
                pass
    finally:
        await transport.aclose()
