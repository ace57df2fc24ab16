"""What a run costs: prices from genai-prices, the administrator's overrides first, and unknown prices said,
never counted as $0."""
from runtime.engine.pricing import PriceBook
from runtime.providers import get_provider
from tests.fakes import FakeOpenAI
from tests.support.engine_runs import doc, run

ONE_STEP = """
name: one
steps:
  - id: ask
    instructions: "Ask."
"""


def test_a_known_model_is_priced_from_genai_prices():
    # gpt-4o: $2.50 per million prompt tokens, $10 per million completion tokens.
    assert PriceBook().cost("openai", "gpt-4o", 1000, 500) == (1000 * 2.5 + 500 * 10.0) / 1_000_000


def test_an_override_from_settings_wins_over_genai_prices():
    book = PriceBook(overrides={"gpt-4o": (1.0, 2.0)})
    assert book.cost("openai", "openai/gpt-4o", 1_000_000, 1_000_000) == 3.0


def test_an_unknown_model_has_no_price_rather_than_a_free_one():
    assert PriceBook().cost("openai", "my-finetune-7b", 1000, 1000) is None


def test_the_simulated_provider_never_reports_an_unknown_price():
    assert PriceBook().cost("simulated", "simulated", 1000, 1000) == 0.0
    # A simulated run of a known model is priced as an estimate of the real one.
    assert PriceBook().cost("simulated", "openai/gpt-4o", 1000, 500) == (1000 * 2.5 + 500 * 10.0) / 1_000_000


async def test_a_run_on_a_model_without_a_price_says_so_and_counts_only_what_it_knows():
    with FakeOpenAI() as server:
        server.add({"content": "priced", "usage": {"prompt": 1000, "completion": 500}})
        server.add({"content": "unpriced", "usage": {"prompt": 1000, "completion": 500}})
        openai = get_provider("openai", base_url=server.url + "/v1", api_key="k", backoff=0.001)
        d = doc(ONE_STEP)
        d["steps"].append({"id": "local", "dependsOn": ["ask"], "model": "openai/my-finetune-7b", "instructions": "Go."})
        d["steps"][0]["model"] = "openai/gpt-4o"
        try:
            result, sink = await run(d, providers={"openai": openai}, default_provider="openai")
        finally:
            await openai.aclose()
    assert result.status == "completed", result.reason
    assert result.unpriced_models == ["openai/my-finetune-7b"]
    assert result.cost_usd == (1000 * 2.5 + 500 * 10.0) / 1_000_000
    end = sink.of_type("workflow_end")[0]["data"]
    assert end["unpriced_models"] == ["openai/my-finetune-7b"]
