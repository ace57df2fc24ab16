"""A provider's redirect is never followed: a user's base URL cannot be bounced to a private address.

The provider here is a real server on 127.0.0.2 that answers every call with a redirect to another real
server on 127.0.0.1 (the "internal service"). 127.0.0.2 stands in for a public address: the one rule every
check goes through (``common.addresses.is_public``) is patched to call it public; 127.0.0.1 stays private.
"""
import aiohttp
import pytest

import common.addresses
from common.addresses import AddressRefused
from runtime.providers import ChatRequest, ProviderError, get_provider
from runtime.providers.transport import PublicConnector
from tests.fakes import FakeServer, Request, Response

KEY = "sk-test-secret-778899"
SECRET = "SECRET-FROM-THE-INTERNAL-SERVICE"
STAND_IN = "127.0.0.2"


class Internal(FakeServer):
    """A loopback service that must never be reached: it would answer with its secret."""

    def respond(self, request: Request, reply: dict) -> Response:
        return Response(status=500, body=SECRET.encode())


class Redirecting(FakeServer):
    """A provider that sends every request on to ``location``."""

    def __init__(self, location: str, status: int):
        super().__init__(host=STAND_IN)
        self.location, self.status = location, status

    def respond(self, request: Request, reply: dict) -> Response:
        return Response(status=self.status, headers={"location": self.location}, body=b"moved")


@pytest.fixture
def stand_in_is_public(monkeypatch):
    real = common.addresses.is_public
    monkeypatch.setattr(common.addresses, "is_public", lambda ip: ip == STAND_IN or real(ip))


@pytest.fixture
def internal():
    with Internal() as server:
        yield server


async def failure(provider) -> ProviderError:
    try:
        with pytest.raises(ProviderError) as err:
            await provider.chat(ChatRequest(model="m", messages=[{"role": "user", "content": "hi"}]))
    finally:
        await provider.aclose()
    return err.value


@pytest.mark.parametrize("name, suffix", [("openai", "/v1"), ("anthropic", "")])
@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_public_only_providers_redirect_to_loopback_reaches_nothing_and_is_named_in_the_error(
        stand_in_is_public, internal, name, suffix, status):
    target = f"{internal.url}/internal-only"
    with Redirecting(target, status) as provider_server:
        error = await failure(get_provider(name, base_url=provider_server.url + suffix, api_key=KEY,
                                           public_only=True, backoff=0.001))
    text = str(error)
    assert internal.requests == [] and internal.connections == 0
    assert f"answered with a redirect ({status}) to {target}" in text
    assert "give its final address as the base URL" in text
    assert SECRET not in text and "moved" not in text and KEY not in text
    assert error.retryable is False and error.status == status
    assert len(provider_server.requests) == 1  # not retried either


async def test_a_redirect_to_the_metadata_address_is_named_without_its_query_and_not_followed(stand_in_is_public):
    with Redirecting("http://169.254.169.254/latest/meta-data/?token=abc#x", 307) as provider_server:
        text = str(await failure(get_provider("openai", base_url=provider_server.url + "/v1", api_key=KEY,
                                              public_only=True)))
    assert "redirect (307) to http://169.254.169.254/latest/meta-data/;" in text and "token=abc" not in text


async def test_a_relative_redirect_is_named_on_the_providers_own_host(stand_in_is_public):
    with Redirecting("/v2/chat/completions", 308) as provider_server:
        text = str(await failure(get_provider("openai", base_url=provider_server.url + "/v1", api_key=KEY,
                                              public_only=True)))
    assert f"redirect (308) to {provider_server.url}/v2/chat/completions;" in text


async def test_an_administrators_provider_does_not_follow_redirects_either(internal):
    with Redirecting(f"{internal.url}/internal-only", 307) as provider_server:
        text = str(await failure(get_provider("openai", base_url=provider_server.url + "/v1", api_key=KEY)))
    assert internal.requests == [] and "answered with a redirect (307)" in text and SECRET not in text


@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]", "169.254.169.254", "[::ffff:127.0.0.1]", "0.0.0.0"])
async def test_the_public_only_connector_itself_refuses_an_address_literal(internal, host):
    """The connector, not only a check before the request: no request path reaches a literal unchecked."""
    async with aiohttp.ClientSession(connector=PublicConnector(limit=1, limit_per_host=1)) as session:
        with pytest.raises(AddressRefused, match="a private or local address"):
            async with session.get(f"http://{host}:{internal.port}/internal-only", allow_redirects=False):
                pass
    assert internal.connections == 0


@pytest.mark.parametrize("host", ["2130706433", "127.1", "0x7f000001"])
async def test_legacy_numeric_forms_of_loopback_never_connect(internal, host):
    provider = get_provider("openai", base_url=f"http://{host}:{internal.port}/v1", api_key=KEY, public_only=True,
                            max_retries=0)
    await failure(provider)
    assert internal.connections == 0


async def test_the_stand_in_is_reached_so_the_refusals_above_are_the_rules_doing(stand_in_is_public):
    """A control: the same connector connects to an address the rule calls public."""
    with Internal(host=STAND_IN) as server:
        async with aiohttp.ClientSession(connector=PublicConnector(limit=1, limit_per_host=1)) as session, session.get(f"{server.url}/x") as answer:
            assert answer.status == 500
    assert server.connections == 1
