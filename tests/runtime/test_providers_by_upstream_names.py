"""Models named ``provider/model`` with upstream's prefixes reach that provider's wire: the OpenAI-compatible ones
through our chat completions client at their own base URLs with a bearer key, Azure with its URL (v1 by model,
deployments with an api-version) and its ``api-key`` header; a bare name goes to the default provider unless its
family's provider has a key for the run; and each is priced by genai-prices under its own provider id."""
import pytest

from accounts.provider_keys import PROVIDERS_WITH_KEYS
from runtime.engine import RunOptions, run_workflow
from runtime.engine.pricing import PriceBook
from runtime.events import ListSink
from runtime.providers import ChatRequest, ProviderError, catalog, configured_providers, get_provider, names
from tests.fakes import FakeAzure, FakeGemini, FakeOpenAI
from tests.support.engine_runs import doc
from tests.support.provider_clients import opened

UPSTREAM = ("openai", "anthropic", "google", "vertex", "bedrock", "azure", "azure-deployment", "mistral", "groq",
            "deepseek", "openrouter", "ollama", "xai", "together", "fireworks", "cerebras")
COMPATIBLE = ("mistral", "groq", "deepseek", "openrouter", "ollama", "xai", "together", "fireworks", "cerebras")
KEY = "sk-test-compatible-5555"
pytestmark = pytest.mark.usefixtures("close_opened")


def request(model: str) -> ChatRequest:
    return ChatRequest(model=model, messages=[{"role": "user", "content": "hi"}])


def test_every_upstream_prefix_is_a_provider_with_a_label_and_a_wire():
    assert set(UPSTREAM) <= set(names())
    assert [s.name for s in catalog.SPECS] == list(UPSTREAM)
    assert all(catalog.label(n) != n for n in UPSTREAM)


def test_accounts_store_keys_for_the_catalogs_key_holders():
    assert PROVIDERS_WITH_KEYS == catalog.KEY_HOLDERS
    assert "azure-deployment" not in PROVIDERS_WITH_KEYS and catalog.key_holder("azure-deployment") == "azure"


@pytest.mark.parametrize("name", COMPATIBLE)
async def test_each_compatible_provider_speaks_chat_completions_at_its_base_url_with_a_bearer_key(name):
    with FakeOpenAI([{"content": "hello", "usage": {"prompt": 3, "completion": 2}}]) as server:
        client = opened(get_provider(name, base_url=server.url + "/v1", api_key=KEY))
        reply = await client.chat(request("some-model"))
        sent = server.requests[0]
    assert reply.content == "hello" and (reply.usage.prompt, reply.usage.completion) == (3, 2)
    assert sent.path == "/v1/chat/completions" and sent.json["model"] == "some-model"
    assert sent.headers["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("name", COMPATIBLE)
def test_each_compatible_provider_has_its_own_default_base_url(name):
    client = get_provider(name, api_key="k")
    assert client.base_url == catalog.BY_NAME[name].base_url


async def test_a_compatible_providers_errors_name_it():
    with FakeOpenAI([{"status": 401, "message": "Invalid API Key"}]) as server:
        client = opened(get_provider("groq", base_url=server.url + "/v1", api_key=KEY, max_retries=0))
        with pytest.raises(ProviderError, match=r"^Groq refused the API key \(401: Invalid API Key\)"):
            await client.chat(request("llama-3.3-70b-versatile"))


async def test_azure_by_model_posts_to_the_v1_api_with_the_api_key_header():
    with FakeAzure([{"content": "from azure"}], key=KEY) as server:
        client = opened(get_provider("azure", base_url=server.url + "/openai", api_key=KEY))
        reply = await client.chat(request("gpt-5"))
        sent = server.requests[0]
    assert reply.content == "from azure"
    assert sent.path == "/openai/v1/chat/completions" and sent.json["model"] == "gpt-5"
    assert sent.headers["api-key"] == KEY and "authorization" not in sent.headers


async def test_azure_deployment_posts_to_the_deployment_with_an_api_version():
    with FakeAzure([{"tool_calls": [{"name": "submit_result", "arguments": {"ok": True}}]}], key=KEY) as server:
        client = opened(get_provider("azure-deployment", base_url=server.url, api_key=KEY, api_version="2024-10-21"))
        reply = await client.chat(request("my-gpt"))
        sent = server.requests[0]
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("submit_result", {"ok": True})]
    assert sent.path == "/openai/deployments/my-gpt/chat/completions?api-version=2024-10-21"


@pytest.mark.parametrize(("name", "model", "key", "words"), [
    ("azure", "gpt-5", "wrong-key-0000", "Azure OpenAI refused the API key"),
    ("azure-deployment", "nobody", KEY, "does not know this model"),
])
async def test_azure_errors_are_in_words(name, model, key, words):
    with FakeAzure(key=KEY) as server:
        client = opened(get_provider(name, base_url=server.url, api_key=key, max_retries=0))
        with pytest.raises(ProviderError, match=words) as caught:
            await client.chat(request(model))
    assert key not in str(caught.value)


FLOW = """
    name: by-upstream-names
    agents:
      a: {description: first, model: "%s"}
    steps:
      - {id: one, agent: a, instructions: "Say hi."}
"""


async def run(model: str, providers: dict, default: str = "openai"):
    sink = ListSink()
    result = await run_workflow(doc(FLOW % model), RunOptions(run_id="r", sink=sink, providers=providers,
                                                              default_provider=default))
    return result, sink


async def test_a_prefixed_model_reaches_its_provider_with_the_bare_name():
    with FakeOpenAI() as openai, FakeOpenAI([{"content": "bonjour"}]) as mistral:
        providers = {"openai": opened(get_provider("openai", base_url=openai.url, api_key=KEY)),
                     "mistral": opened(get_provider("mistral", base_url=mistral.url, api_key=KEY))}
        result, _ = await run("mistral/mistral-large-latest", providers)
        assert result.status == "completed", result.reason
        assert [r.json["model"] for r in mistral.requests] == ["mistral-large-latest"] and not openai.requests


async def test_a_bare_name_of_another_family_goes_to_its_provider_when_that_one_has_a_key():
    with FakeOpenAI() as openai, FakeGemini() as gemini:
        providers = {"openai": opened(get_provider("openai", base_url=openai.url, api_key=KEY)),
                     "google": opened(get_provider("google", base_url=gemini.url + "/v1beta", api_key=KEY)),
                     "vertex": opened(get_provider("vertex", base_url=gemini.url + "/v1beta", api_key=""))}
        result, _ = await run("gemini-2.5-flash", providers)
        assert result.status == "completed", result.reason
        assert [r.path.split(":")[0] for r in gemini.requests] == ["/v1beta/models/gemini-2.5-flash"]
        assert not openai.requests


async def test_a_bare_name_stays_with_the_default_provider_when_its_family_has_no_key():
    with FakeOpenAI() as openai:
        providers = {"openai": opened(get_provider("openai", base_url=openai.url, api_key=KEY)),
                     "google": opened(get_provider("google", base_url=openai.url, api_key=""))}
        result, _ = await run("gemini-2.5-flash", providers)
        assert result.status == "completed", result.reason
        assert [r.json["model"] for r in openai.requests] == ["gemini-2.5-flash"]


def test_a_real_default_provider_configures_every_provider_of_the_catalog_from_settings():
    class Settings:
        GOOGLE_API_KEY = "g-key-1234"
        BEDROCK_BASE_URL = "https://bedrock-runtime.eu-west-1.amazonaws.com"
        AZURE_BASE_URL = "https://res.openai.azure.com"

    providers = configured_providers("openai", settings=Settings())
    assert set(UPSTREAM) | {"simulated"} == set(providers)
    assert providers["google"].api_key == "g-key-1234"
    assert providers["bedrock"].region == "eu-west-1"
    assert providers["azure-deployment"].base_url == "https://res.openai.azure.com"


@pytest.mark.parametrize(("provider", "model"), [
    ("google", "gemini-2.5-flash"), ("vertex", "gemini-2.5-flash"), ("bedrock", "anthropic.claude-sonnet-4-6"),
    ("azure", "gpt-4o"), ("azure-deployment", "gpt-4o"), ("mistral", "mistral-large-latest"),
    ("groq", "llama-3.3-70b-versatile"), ("deepseek", "deepseek-chat"), ("xai", "grok-4"),
    ("cerebras", "llama3.1-8b"), ("openai", "gpt-4o"), ("anthropic", "claude-sonnet-4-5"),
])
def test_each_provider_is_priced_by_genai_prices_under_its_own_id(provider, model):
    assert (PriceBook().cost(provider, model, 1_000_000, 0) or 0) > 0


def test_ollama_is_free_whatever_the_model():
    assert PriceBook().cost("ollama", "gpt-4o", 1_000_000, 1_000_000) == 0.0
