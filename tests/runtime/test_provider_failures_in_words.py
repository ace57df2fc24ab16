"""A provider that fails says so in words with the fix: a refused key, a rate limit, an unknown model,
an unreachable host (never a bare `gaierror`), through the real HTTP client against the fake servers."""
import pytest

from runtime.providers import ChatRequest, ProviderError, get_provider
from tests.fakes import FakeAnthropic, FakeOpenAI

KEY = "sk-test-secret-654321"


def request():
    return ChatRequest(model="gpt-test", messages=[{"role": "user", "content": "hi"}])


@pytest.fixture(params=[("openai", FakeOpenAI, "/v1"), ("anthropic", FakeAnthropic, "")], ids=["openai", "anthropic"])
def served(request):
    name, fake, suffix = request.param
    with fake() as server:
        yield name, server, get_provider(name, base_url=server.url + suffix, api_key=KEY, backoff=0.001, max_retries=0)


async def failure(provider) -> str:
    try:
        with pytest.raises(ProviderError) as err:
            await provider.chat(request())
    finally:
        await provider.aclose()
    text = str(err.value)
    assert KEY not in text
    return text


async def test_a_refused_key_says_to_check_it_on_the_account_page(served):
    _name, server, provider = served
    server.add({"status": 401, "message": "invalid x-api-key"})
    text = await failure(provider)
    assert "refused the API key (401: invalid x-api-key)" in text and "/account/" in text


async def test_a_rate_limit_says_to_wait_or_lower_concurrency(served):
    _name, server, provider = served
    server.add({"status": 429, "message": "slow down"})
    text = await failure(provider)
    assert "rate limiting" in text and "429" in text and "concurrency" in text


async def test_an_unknown_model_says_to_check_the_model_name(served):
    _name, server, provider = served
    server.add({"status": 404, "message": "The model `gpt-nope` does not exist"})
    text = await failure(provider)
    assert "does not know this model" in text and "gpt-nope" in text


async def test_an_unresolvable_host_is_explained_not_named_by_its_exception_class():
    provider = get_provider("openai", base_url="http://no-such-host.invalid/v1", api_key=KEY, backoff=0.001, max_retries=0)
    text = await failure(provider)
    assert text.startswith("Cannot reach OpenAI") and "could not be resolved (DNS)" in text
    assert "gaierror" not in text
