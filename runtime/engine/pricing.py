"""What a model's tokens cost: prices from genai-prices, overrides from settings.

genai-prices keeps hundreds of providers' and models' prices current (tiers
included), so a run's cost is right for models nobody here typed in. The
administrator can override or add prices (``MODEL_PRICES``: USD per million
prompt and completion tokens, by model name). A model found in neither has no
known price: its cost is left out and the run says so, instead of claiming $0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from genai_prices import Usage as PriceUsage
from genai_prices import calc_price

from runtime.providers import catalog

# Providers whose calls cost nothing. A simulated run is still priced by its models' names when they are
# known (an estimate of what the real run would cost), and never reports an unknown price.
FREE_PROVIDERS = {"simulated"}
# Providers on the user's own machine: their calls cost $0, whatever the model's name.
LOCAL_PROVIDERS = {"ollama"}


@dataclass
class PriceBook:
    overrides: dict[str, tuple[float, float]] = field(default_factory=dict)
    _unknown: set[tuple[str | None, str]] = field(default_factory=set)

    def cost(self, provider: str, model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        """USD for one call, or None when the model's price is not known."""
        prefix, _, rest = model.partition("/")
        name = rest if rest and prefix == provider else model
        for key in (model, name, name.rsplit("/", 1)[-1]):
            if key in self.overrides:
                per_m_prompt, per_m_completion = self.overrides[key]
                return (prompt_tokens * per_m_prompt + completion_tokens * per_m_completion) / 1_000_000
        if provider in LOCAL_PROVIDERS:
            return 0.0
        free = provider in FREE_PROVIDERS
        price = self._look_up(None if free else catalog.prices_id(provider), name.rsplit("/", 1)[-1] if free else name,
                              prompt_tokens, completion_tokens)
        if price is None and free:
            return 0.0
        return price

    def _look_up(self, provider: str | None, name: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        if not name or (provider, name) in self._unknown:  # a failed look-up is not cheap: remember it
            return None
        try:
            found = calc_price(PriceUsage(input_tokens=prompt_tokens, output_tokens=completion_tokens),
                               model_ref=name, provider_id=provider)
        except LookupError:
            self._unknown.add((provider, name))
            return None
        return float(found.total_price)
