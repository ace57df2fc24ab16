"""The providers by upstream's names: which wire each one speaks, where it lives, which key it takes.

A ``model`` is ``provider/model`` with one of upstream's prefixes (``google/gemini-2.5-flash``,
``bedrock/anthropic.claude-sonnet-4-6``, ``azure-deployment/my-gpt``) or a bare name. A bare name goes to
the run's default provider, unless the name belongs to another family (``claude-*``, ``gemini-*``,
``gpt-*``, ...) whose provider has a key for the run: then to the first of those (as upstream detects the
provider from the environment).

Five wires carry them all (the README's table says why each takes its path):

- ``openai``: our aiohttp chat-completions client. OpenAI itself and every server that speaks its API
  (Mistral, Groq, DeepSeek, OpenRouter, Ollama, xAI, Together, Fireworks, Cerebras), each with its base URL.
- ``azure``: the same client with Azure's URL (``/openai/v1`` by model, or
  ``/openai/deployments/<name>?api-version=`` for ``azure-deployment/``) and its ``api-key`` header.
- ``anthropic``: the Messages API client.
- ``gemini``: Google's generateContent / streamGenerateContent (``google``; ``vertex`` on Vertex AI's URL).
- ``bedrock``: Bedrock's ConverseStream API, signed with SigV4 (or a Bedrock API key).

Each provider's server key is the setting ``<NAME>_API_KEY`` and its base URL ``<NAME>_BASE_URL``
(``config/settings.py`` fills them from the environment variables named here); ``azure-deployment``
shares ``azure``'s key and URL.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Spec:
    name: str
    label: str
    wire: str                 # openai | azure | anthropic | gemini | bedrock
    base_url: str             # the default base URL ("" when the user must give one)
    env: tuple[str, ...]      # the environment variables the server's key comes from, in order
    url_env: tuple[str, ...] = ()
    prices: str | None = None  # genai-prices' provider id (None: our own name)
    needs_key: bool = True
    shares_key_of: str | None = None  # azure-deployment: azure's key
    families: tuple[str, ...] = ()    # bare model names this provider serves (prefixes)


SPECS: tuple[Spec, ...] = (
    Spec("openai", "OpenAI", "openai", "https://api.openai.com/v1", ("OPENAI_API_KEY",), ("OPENAI_BASE_URL",),
         families=("gpt-", "o1", "o3", "o4", "chatgpt-", "codex-")),
    Spec("anthropic", "Anthropic", "anthropic", "https://api.anthropic.com", ("ANTHROPIC_API_KEY",),
         ("ANTHROPIC_BASE_URL",), families=("claude-",)),
    Spec("google", "Google Gemini", "gemini", "https://generativelanguage.googleapis.com/v1beta",
         ("GEMINI_API_KEY", "GOOGLE_API_KEY"), ("GEMINI_BASE_URL",), families=("gemini-", "gemma-")),
    Spec("vertex", "Google Vertex AI", "gemini", "https://aiplatform.googleapis.com/v1/publishers/google",
         ("VERTEX_API_KEY", "GOOGLE_CLOUD_API_KEY"), ("VERTEX_BASE_URL",), prices="google",
         families=("gemini-",)),
    Spec("bedrock", "Amazon Bedrock", "bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com",
         ("AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID"), ("BEDROCK_BASE_URL",), prices="aws",
         families=("anthropic.", "amazon.", "meta.", "us.", "eu.", "apac.", "global.")),
    Spec("azure", "Azure OpenAI", "azure", "", ("AZURE_OPENAI_API_KEY",), ("AZURE_OPENAI_ENDPOINT",),
         families=("gpt-", "o1", "o3", "o4")),
    Spec("azure-deployment", "Azure OpenAI (deployment)", "azure", "", ("AZURE_OPENAI_API_KEY",),
         ("AZURE_OPENAI_ENDPOINT",), prices="azure", shares_key_of="azure"),
    Spec("mistral", "Mistral", "openai", "https://api.mistral.ai/v1", ("MISTRAL_API_KEY",), ("MISTRAL_BASE_URL",),
         families=("mistral-", "codestral-", "magistral-", "devstral-", "ministral-", "pixtral-")),
    Spec("groq", "Groq", "openai", "https://api.groq.com/openai/v1", ("GROQ_API_KEY",), ("GROQ_BASE_URL",)),
    Spec("deepseek", "DeepSeek", "openai", "https://api.deepseek.com/v1", ("DEEPSEEK_API_KEY",),
         ("DEEPSEEK_BASE_URL",), families=("deepseek-",)),
    Spec("openrouter", "OpenRouter", "openai", "https://openrouter.ai/api/v1", ("OPENROUTER_API_KEY",),
         ("OPENROUTER_BASE_URL",)),
    Spec("ollama", "Ollama", "openai", "http://localhost:11434/v1", ("OLLAMA_API_KEY",),
         ("OLLAMA_BASE_URL", "OLLAMA_HOST"), needs_key=False),
    Spec("xai", "xAI", "openai", "https://api.x.ai/v1", ("XAI_API_KEY",), ("XAI_BASE_URL",), prices="x-ai",
         families=("grok-",)),
    Spec("together", "Together AI", "openai", "https://api.together.xyz/v1", ("TOGETHER_API_KEY",),
         ("TOGETHER_BASE_URL",)),
    Spec("fireworks", "Fireworks AI", "openai", "https://api.fireworks.ai/inference/v1", ("FIREWORKS_API_KEY",),
         ("FIREWORKS_BASE_URL",)),
    Spec("cerebras", "Cerebras", "openai", "https://api.cerebras.ai/v1", ("CEREBRAS_API_KEY",),
         ("CEREBRAS_BASE_URL",)),
)

BY_NAME = {spec.name: spec for spec in SPECS}

# The providers that hold a key of their own (azure-deployment uses azure's): what a workspace stores.
KEY_HOLDERS = tuple(spec.name for spec in SPECS if spec.shares_key_of is None)


def spec(name: str) -> Spec | None:
    return BY_NAME.get(name)


def key_holder(name: str) -> str:
    """Whose key a call to ``name`` spends: its own, or the one it shares (azure-deployment -> azure)."""
    found = BY_NAME.get(name)
    return (found.shares_key_of or found.name) if found else name


def setting_prefix(name: str) -> str:
    """``azure-deployment`` -> ``AZURE_DEPLOYMENT``: the settings ``<prefix>_API_KEY`` / ``<prefix>_BASE_URL``."""
    return key_holder(name).upper().replace("-", "_")


def label(name: str) -> str:
    found = BY_NAME.get(name)
    return found.label if found else name


def prices_id(name: str) -> str:
    found = BY_NAME.get(name)
    return (found.prices or found.name) if found else name


def url_settings(name: str) -> str:
    """The environment variables that set ``name``'s base URL, for an error's fix."""
    found = BY_NAME.get(key_holder(name))
    return " / ".join(found.url_env) if found and found.url_env else f"{setting_prefix(name)}_BASE_URL"


def key_settings(name: str) -> str:
    """The environment variables that give the server ``name``'s key, for an error's fix."""
    found = BY_NAME.get(key_holder(name))
    if found is None:
        return f"{setting_prefix(name)}_API_KEY"
    if found.name == "bedrock":
        return "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_REGION), or AWS_BEARER_TOKEN_BEDROCK"
    return " or ".join(found.env)


@lru_cache(maxsize=1024)  # asked on every agent turn of a bare model name: 30 % of a turn's engine time uncached
def candidates(model: str) -> tuple[str, ...]:
    """The providers a bare model name may belong to, most likely first (empty: no family known)."""
    lowered = model.lower()
    return tuple(s.name for s in SPECS if any(lowered.startswith(f) for f in s.families))
