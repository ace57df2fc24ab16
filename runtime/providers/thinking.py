"""Reasoning levels (upstream's ``--thinking off|low|medium|high``) and what each provider is sent for them.

A run without a level sends nothing: the provider's default. ``off`` sends nothing either: OpenAI's
``reasoning_effort`` has no "none" on every model (``minimal`` is not accepted by all compatible servers),
and Anthropic thinks only when asked.
"""
from __future__ import annotations

LEVELS = ("off", "low", "medium", "high")

# Anthropic's ``thinking.budget_tokens`` per level (its minimum is 1024).
ANTHROPIC_BUDGETS = {"low": 1024, "medium": 4096, "high": 16384}


def check_level(value: object, field: str = "thinking") -> str | None:
    """The level named by ``value`` (None or "" for the provider's default); ValueError naming ``field``."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value.strip().lower() not in LEVELS:
        raise ValueError(f"{field}: {value!r} is not a reasoning level (choose one of: {', '.join(LEVELS)})")
    return value.strip().lower()


def openai_effort(level: str | None) -> str | None:
    """``reasoning_effort`` for an OpenAI-compatible request; None: leave the field out."""
    return level if level in ("low", "medium", "high") else None


def anthropic_budget(level: str | None) -> int | None:
    """``thinking.budget_tokens`` for an Anthropic request; None: no ``thinking`` field."""
    return ANTHROPIC_BUDGETS.get(level or "")
