"""Behind the administrator's proxy (HTTP_PROXY / HTTPS_PROXY), a user's provider URL still reaches only the
address that was checked: the name is resolved and checked here before each request, and the request the
proxy gets names that address (the host stays in the Host header), so the proxy's own lookup decides nothing.

The "proxy" is the fake OpenAI server on loopback (it answers an absolute-form request like any other and
records its target). ``provider.test`` is resolved by a stand-in for DNS (``socket.getaddrinfo`` patched in
this process); 127.0.0.2 stands in for a public address (``common.addresses.is_public`` patched).
"""
import re
import socket

import pytest

import common.addresses
from runtime.providers import ChatRequest, ProviderError, get_provider
from tests.fakes import FakeOpenAI

STAND_IN = "127.0.0.2"
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy",
                   "NO_PROXY", "no_proxy")


@pytest.fixture
def proxy(monkeypatch):
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    real = common.addresses.is_public
    monkeypatch.setattr(common.addresses, "is_public", lambda ip: ip == STAND_IN or real(ip))
    with FakeOpenAI() as server:
        monkeypatch.setenv("HTTP_PROXY", server.url)
        yield server


@pytest.fixture
def dns(monkeypatch):
    """``provider.test`` resolves to the next of ``answers`` at each lookup (the last one from then on)."""
    answers: list[str] = []
    real = socket.getaddrinfo

    def lookup(host, port, *args, **kwargs):
        if host in ("provider.test", b"provider.test"):
            ip = answers.pop(0) if len(answers) > 1 else answers[0]
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    return answers


def request():
    return ChatRequest(model="m", messages=[{"role": "user", "content": "hi"}])


async def test_the_proxy_is_asked_for_the_checked_address_with_the_host_named_in_the_header(proxy, dns):
    dns.append(STAND_IN)
    provider = get_provider("openai", base_url="http://provider.test:8123/v1", api_key="k", public_only=True)
    try:
        reply = await provider.chat(request())
    finally:
        await provider.aclose()
    assert reply.content == "ok"
    [sent] = proxy.requests
    assert sent.path == f"http://{STAND_IN}:8123/v1/chat/completions"
    assert sent.headers["host"] == "provider.test:8123"


async def test_a_name_that_resolves_to_loopback_is_refused_before_the_proxy_is_asked(proxy, dns):
    dns.append("127.0.0.1")
    provider = get_provider("openai", base_url="http://provider.test:8123/v1", api_key="k", public_only=True)
    try:
        with pytest.raises(ProviderError, match=re.escape("provider.test resolves to 127.0.0.1, a private or local address")):
            await provider.chat(request())
    finally:
        await provider.aclose()
    assert proxy.requests == [] and proxy.connections == 0


async def test_a_name_that_turns_to_loopback_between_requests_is_refused_at_the_next_one(proxy, dns):
    dns.extend([STAND_IN, "127.0.0.1"])
    provider = get_provider("openai", base_url="http://provider.test:8123/v1", api_key="k", public_only=True)
    try:
        await provider.chat(request())
        with pytest.raises(ProviderError, match=re.escape("resolves to 127.0.0.1")):
            await provider.chat(request())
    finally:
        await provider.aclose()
    assert [r.path for r in proxy.requests] == [f"http://{STAND_IN}:8123/v1/chat/completions"]


async def test_an_administrators_url_goes_to_the_proxy_by_name(proxy):
    provider = get_provider("openai", base_url="http://provider.test:8123/v1", api_key="k")
    try:
        await provider.chat(request())
    finally:
        await provider.aclose()
    assert proxy.requests[0].path == "http://provider.test:8123/v1/chat/completions"


async def test_an_https_url_is_tunnelled_to_the_checked_address(proxy, dns, monkeypatch):
    """CONNECT names the address; TLS, inside the tunnel, would verify the host's name (the fake proxy refuses
    the tunnel, so only what it was asked is looked at)."""
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    dns.append(STAND_IN)
    provider = get_provider("openai", base_url="https://provider.test:8443/v1", api_key="k", public_only=True,
                            max_retries=0)
    try:
        with pytest.raises(ProviderError):
            await provider.chat(request())
    finally:
        await provider.aclose()
    [sent] = proxy.requests
    assert (sent.method, sent.path) == ("CONNECT", f"{STAND_IN}:8443")
