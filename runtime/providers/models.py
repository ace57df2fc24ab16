"""The models the editor's picker offers: those of the providers a workspace can use now, with their prices.

The list comes from genai-prices (the same prices a run's cost uses), per provider under its own id
(runtime.providers.catalog), each model named as an agent's ``model`` field takes it (``google/gemini-2.5-flash``).
Only chat models that are not deprecated are offered: embeddings, speech and images have no output price or
say what they are in their names. A provider whose key the workspace lacks is left out, as the run dialog
leaves it out; the picker still takes any name typed in.
"""
from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from genai_prices import data

from accounts.models import Workspace
from runtime.providers import catalog, keys

NOT_CHAT = ("embed", "tts", "whisper", "dall-e", "image", "audio", "sonic", "moderation", "rerank", "realtime",
            "transcribe", "search")


def _usd(price: Any) -> float | None:
    """A per-million price as a number; a tiered price by its base tier."""
    if isinstance(price, (Decimal, int, float)):
        return float(price)
    base = getattr(price, "base", None)
    return float(base) if isinstance(base, (Decimal, int, float)) else None


@lru_cache(maxsize=64)
def provider_models(name: str) -> tuple[dict, ...]:
    """Every chat model genai-prices knows for provider ``name``, with its prices (USD per million tokens)."""
    spec = catalog.spec(name)
    if spec is None:
        return ()
    found = next((p for p in data.providers if p.id == catalog.prices_id(name)), None)
    if found is None:
        return ()
    now = datetime.now(UTC)
    out = []
    for model in found.models:
        lowered = model.id.lower()
        if model.deprecated or any(word in lowered for word in NOT_CHAT):
            continue
        if spec.wire == "gemini" and not lowered.startswith(("gemini-", "gemma-")):
            continue  # Vertex's price list has partners' models too; our Vertex path speaks Gemini's wire
        prices = model.get_prices(now)
        output = _usd(prices.output_mtok)
        if output is None:
            continue
        out.append({"model": f"{name}/{model.id}", "provider": name, "label": model.name or model.id,
                    "input_usd_per_mtok": _usd(prices.input_mtok), "output_usd_per_mtok": output,
                    "context_window": model.context_window})
    return tuple(sorted(out, key=lambda m: m["model"]))


def offered(workspace: Workspace) -> list[dict]:
    """The models of every provider a run in ``workspace`` can use now (its key or a granted server key)."""
    ready = [p["name"] for p in keys.availability(workspace) if p["ready"] and p["name"] != "simulated"]
    return [dict(m) for name in ready for m in provider_models(name)]
