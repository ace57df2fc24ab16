"""Agent providers as a registry: a name maps to a class in its own module.

A provider turns one :class:`ChatRequest` (the conversation so far, the tools
offered, sampling settings) into one :class:`ChatReply` (text, tool calls,
token usage), calling ``on_delta`` with text as it streams in. The engine owns
the turn loop (``submit_result`` checking, ``maxTurns``); providers only talk.

Conversation messages use one neutral shape that each provider converts::

    {"role": "system" | "user", "content": str}
    {"role": "assistant", "content": str, "tool_calls": [ToolCall, ...], "reasoning_blocks"?: [dict, ...]}
    {"role": "tool", "tool_call_id": str, "name": str, "content": str}

API keys stay inside providers: :func:`redact` scrubs them from any text that
may reach an event, an error or a log.
"""
from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from runtime.providers import catalog

DeltaCallback = Callable[[str], Awaitable[None]]


class ProviderError(Exception):
    """A call that failed; ``retryable`` when the engine's step retries may help."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: Any  # parsed JSON (dict), or the raw string when it did not parse


@dataclass
class Usage:
    prompt: int = 0
    completion: int = 0
    # Of ``completion``, the tokens spent reasoning, when the provider reports them (priced as completion).
    reasoning: int | None = None

    @property
    def total(self) -> int:
        return self.prompt + self.completion


@dataclass
class ChatRequest:
    model: str
    messages: list[dict]
    tools: list[dict] = field(default_factory=list)
    temperature: float | None = None
    top_p: float | None = None
    # Who is asking, for scripted replies and logs: namespaced id, step id, agent.
    step_path: str = ""
    step_id: str = ""
    agent: str = ""
    result_schema: dict | None = None
    # "required": the reply must call one of ``tools`` (the submit_result reminder); None: the model chooses.
    tool_choice: str | None = None
    # The run's reasoning level (runtime.providers.thinking.LEVELS); None: the provider's default, nothing sent.
    thinking: str | None = None


@dataclass
class ChatReply:
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = "stop"
    model: str = ""
    # What the model said while reasoning, when the provider returns it: shown, never sent back as content.
    reasoning: str = ""
    # The provider's own reasoning blocks a later request of the same conversation must carry back unchanged
    # (Anthropic's signed ``thinking`` blocks before a ``tool_use``); kept on the assistant message.
    reasoning_blocks: list[dict] = field(default_factory=list)


class Provider(ABC):
    name = "base"

    @abstractmethod
    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        """One model turn: the reply, with ``on_delta`` called as text streams in."""

    async def aclose(self) -> None:
        return None


_REGISTRY: dict[str, str | type[Provider]] = {
    "simulated": "runtime.providers.simulated:SimulatedProvider",
    "openai": "runtime.providers.openai:OpenAIProvider",
    "anthropic": "runtime.providers.anthropic:AnthropicProvider",
    "google": "runtime.providers.gemini:GeminiProvider",
    "vertex": "runtime.providers.gemini:VertexProvider",
    "bedrock": "runtime.providers.bedrock:BedrockProvider",
    "azure": "runtime.providers.compatible:AzureProvider",
    "azure-deployment": "runtime.providers.compatible:AzureDeploymentProvider",
    "mistral": "runtime.providers.compatible:MistralProvider",
    "groq": "runtime.providers.compatible:GroqProvider",
    "deepseek": "runtime.providers.compatible:DeepSeekProvider",
    "openrouter": "runtime.providers.compatible:OpenRouterProvider",
    "ollama": "runtime.providers.compatible:OllamaProvider",
    "xai": "runtime.providers.compatible:XAIProvider",
    "together": "runtime.providers.compatible:TogetherProvider",
    "fireworks": "runtime.providers.compatible:FireworksProvider",
    "cerebras": "runtime.providers.compatible:CerebrasProvider",
}


def register(name: str, provider: str | type[Provider]) -> None:
    """Register a provider class (or ``"module:Class"``) under ``name``."""
    _REGISTRY[name] = provider


def names() -> list[str]:
    return sorted(_REGISTRY)


def provider_class(name: str) -> type[Provider]:
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown provider {name!r} (known: {', '.join(names())})") from None
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
        _REGISTRY[name] = target
    return target


def get_provider(name: str, **config: Any) -> Provider:
    """A configured provider instance: ``get_provider("openai", base_url=..., api_key=...)``."""
    return provider_class(name)(**config)


def split_model(model: str | None, known: set[str] | None = None) -> tuple[str | None, str]:
    """``"openai/gpt-4o"`` -> ``("openai", "gpt-4o")``; a bare or unknown-prefix model -> ``(None, model)``."""
    if not model:
        return None, ""
    prefix, sep, rest = model.partition("/")
    if sep and prefix in (known if known is not None else set(_REGISTRY)):
        return prefix, rest
    return None, model


def redact(text: str, *secrets: str | None) -> str:
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    return text


def configured_providers(default_provider: str = "simulated", *, settings: Any = None, script: Any = None,
                         **overrides: dict) -> dict[str, Provider]:
    """Providers for one run, configured from a settings object (Django's or any with attributes).

    ``simulated`` is always there (with ``script`` when given). With a real
    default provider, every provider of the catalog (runtime.providers.catalog) is
    created (no network until used), each with the settings ``<NAME>_API_KEY`` and
    ``<NAME>_BASE_URL``, so ``google/...`` or ``bedrock/...`` models reach theirs;
    with the simulated default every agent is simulated (a dry run).
    """
    def setting(name: str) -> Any:
        return getattr(settings, name, None) if settings is not None else None

    providers: dict[str, Provider] = {"simulated": get_provider("simulated", script=script)}
    if default_provider != "simulated":
        for spec in catalog.SPECS:
            prefix = catalog.setting_prefix(spec.name)
            config: dict[str, Any] = {"base_url": setting(f"{prefix}_BASE_URL") or None,
                                      "api_key": setting(f"{prefix}_API_KEY"),
                                      **overrides.get(catalog.key_holder(spec.name), {}),
                                      **overrides.get(spec.name, {})}
            providers[spec.name] = get_provider(spec.name, **config)
        if default_provider not in providers:
            providers[default_provider] = get_provider(default_provider, **overrides.get(default_provider, {}))
    return providers


async def close_all(providers: dict[str, Provider]) -> None:
    for provider in providers.values():
        await provider.aclose()
