"""The providers that speak OpenAI's chat completions: our aiohttp client with each one's URL and key.

Mistral, Groq, DeepSeek, OpenRouter, Ollama, xAI, Together, Fireworks and Cerebras differ from OpenAI
only in their base URL, key and prices (runtime/providers/catalog.py). Azure OpenAI differs in its URL
and header: ``azure/<model>`` posts to ``<endpoint>/openai/v1/chat/completions`` with the model in the
body; ``azure-deployment/<name>`` posts to ``<endpoint>/openai/deployments/<name>/chat/completions
?api-version=<AZURE_OPENAI_API_VERSION>``; both send the key as ``api-key``, never as a bearer token.
"""
from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from runtime.providers import catalog
from runtime.providers.http import HttpProvider
from runtime.providers.openai import OpenAIProvider


def from_env(names: tuple[str, ...]) -> str | None:
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    return None


class CompatibleProvider(OpenAIProvider):
    """An OpenAI-compatible provider named in the catalog: its base URL and key from there by default."""

    name = "compatible"

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 **options: Any) -> None:
        spec = catalog.BY_NAME[self.name]
        HttpProvider.__init__(self, base_url=base_url or from_env(spec.url_env) or spec.base_url or "http://invalid",
                              api_key=api_key if api_key is not None else from_env(spec.env),
                              default_model=default_model or "", **options)


class MistralProvider(CompatibleProvider):
    name = "mistral"


class GroqProvider(CompatibleProvider):
    name = "groq"


class DeepSeekProvider(CompatibleProvider):
    name = "deepseek"


class OpenRouterProvider(CompatibleProvider):
    name = "openrouter"


class OllamaProvider(CompatibleProvider):
    name = "ollama"


class XAIProvider(CompatibleProvider):
    name = "xai"


class TogetherProvider(CompatibleProvider):
    name = "together"


class FireworksProvider(CompatibleProvider):
    name = "fireworks"


class CerebrasProvider(CompatibleProvider):
    name = "cerebras"


class AzureProvider(CompatibleProvider):
    """Azure OpenAI by model name, on the v1 API (no api-version)."""

    name = "azure"

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 api_version: str | None = None, **options: Any) -> None:
        super().__init__(base_url=base_url, api_key=api_key, default_model=default_model, **options)
        self.base_url = self.transport.base_url = _endpoint(self.base_url)
        self.api_version = api_version or os.environ.get("AZURE_OPENAI_API_VERSION") or "2024-10-21"

    def chat_path(self, model: str) -> str:
        return "/openai/v1/chat/completions"

    def auth_headers(self) -> dict[str, str]:
        return {"api-key": self.api_key} if self.api_key else {}


class AzureDeploymentProvider(AzureProvider):
    """Azure OpenAI by deployment name: the deployment in the path, the API version as a query."""

    name = "azure-deployment"

    def chat_path(self, model: str) -> str:
        return f"/openai/deployments/{quote(model, safe='')}/chat/completions?api-version={quote(self.api_version)}"


def _endpoint(url: str) -> str:
    """The resource's endpoint however it was given: ``https://x.openai.azure.com``, with or without ``/openai``
    or ``/openai/v1`` after it."""
    url = url.rstrip("/")
    for tail in ("/openai/v1", "/openai"):
        if url.endswith(tail):
            return url[: -len(tail)]
    return url
