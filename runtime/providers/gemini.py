"""Google's Gemini API (``google/...``) and Gemini on Vertex AI (``vertex/...``), streamed.

One wire for both: ``POST <base>/models/<model>:streamGenerateContent?alt=sse`` with ``contents`` (roles
``user`` and ``model``; tool results as ``functionResponse`` parts), ``systemInstruction``, tools as
``functionDeclarations`` (their JSON schema as ``parametersJsonSchema``), ``toolConfig`` mode ``ANY`` when a
tool must be called (the submit_result reminder: the structured result), and ``generationConfig``. Each
SSE event is a ``GenerateContentResponse``: text parts (``thought: true`` ones are reasoning),
``functionCall`` parts, ``finishReason`` and ``usageMetadata`` (the last one counts the whole call).

Reasoning levels reach ``generationConfig.thinkingConfig``: ``thinkingBudget`` (Gemini 2.5; ``off`` is 0,
except on Pro models that cannot stop thinking) or ``thinkingLevel`` (Gemini 3), with ``includeThoughts``.
A ``functionCall`` part's ``thoughtSignature`` is kept and sent back with it, as Gemini 3 requires.

Keys: Gemini's ``x-goog-api-key`` header. Vertex takes an API key the same way (express mode, the default
base URL) or an OAuth access token (``ya29.…``) as a bearer token on a project's regional URL
(``VERTEX_BASE_URL``, or GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION).
"""
from __future__ import annotations

import json
import os
from collections.abc import Awaitable
from typing import Any
from urllib.parse import quote

import orjson

from runtime.providers import ChatReply, ChatRequest, DeltaCallback, ToolCall, Usage
from runtime.providers.compatible import from_env
from runtime.providers.http import HttpProvider

# thinkingBudget per level (Gemini 2.5), and thinkingLevel (Gemini 3).
BUDGETS = {"off": 0, "low": 1024, "medium": 8192, "high": 24576}
LEVELS = {"low": "low", "medium": "high", "high": "high"}
SIGNATURE = "gemini_thought_signature"


def thinking_config(model: str, level: str | None) -> dict | None:
    """``generationConfig.thinkingConfig`` for ``level``; None: leave it out (the model's default)."""
    if not level:
        return None
    lowered = model.lower()
    if "gemini-3" in lowered:
        return {"thinkingLevel": LEVELS[level], "includeThoughts": True} if level in LEVELS else None
    if level == "off":
        return None if "pro" in lowered else {"thinkingBudget": 0}
    return {"thinkingBudget": BUDGETS[level], "includeThoughts": True}


def to_gemini(messages: list[dict]) -> tuple[str, list[dict]]:
    """(system text, contents) in Gemini's shape; tool results and what follows them join one user turn."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    contents: list[dict] = []

    def add(role: str, parts: list[dict]) -> None:
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"].extend(parts)
        else:
            contents.append({"role": role, "parts": parts})

    for m in messages:
        role = m["role"]
        if role == "system":
            continue
        if role == "assistant":
            signatures = {b.get("index"): b.get("signature") for b in m.get("reasoning_blocks") or []
                          if b.get("type") == SIGNATURE}
            parts: list[dict] = [{"text": m["content"]}] if m.get("content") else []
            for i, call in enumerate(m.get("tool_calls") or []):
                part: dict[str, Any] = {"functionCall": {
                    "name": call.name, "args": call.arguments if isinstance(call.arguments, dict) else {}}}
                if signatures.get(i):
                    part["thoughtSignature"] = signatures[i]
                parts.append(part)
            add("model", parts or [{"text": "(no text)"}])
        elif role == "tool":
            add("user", [{"functionResponse": {"name": m.get("name") or "tool",
                                               "response": {"content": m["content"]}}}])
        else:
            add("user", [{"text": m["content"]}])
    return system, contents


class GeminiProvider(HttpProvider):
    name = "google"
    default_base_url = "https://generativelanguage.googleapis.com/v1beta"
    key_env: tuple[str, ...] = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    url_env: tuple[str, ...] = ("GEMINI_BASE_URL",)

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 max_tokens: int | None = None, **options: Any) -> None:
        super().__init__(base_url=base_url or from_env(self.url_env) or self.env_base_url() or self.default_base_url,
                         api_key=api_key if api_key is not None else from_env(self.key_env),
                         default_model=default_model or "gemini-2.5-flash", **options)
        self.max_tokens = max_tokens

    def env_base_url(self) -> str | None:
        return None

    def auth_headers(self) -> dict[str, str]:
        if not self.api_key:
            return {}
        if self.api_key.startswith("ya29."):  # an OAuth access token (Vertex on a project's URL)
            return {"authorization": f"Bearer {self.api_key}"}
        return {"x-goog-api-key": self.api_key}

    def body(self, request: ChatRequest, model: str) -> dict:
        system, contents = to_gemini(request.messages)
        body: dict[str, Any] = {"contents": contents}
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        if request.tools:
            body["tools"] = [{"functionDeclarations": [
                {"name": t["name"], "description": t["description"], "parametersJsonSchema": t["parameters"]}
                for t in request.tools]}]
            if request.tool_choice == "required":
                body["toolConfig"] = {"functionCallingConfig": {"mode": "ANY"}}
        config: dict[str, Any] = {}
        if request.temperature is not None:
            config["temperature"] = request.temperature
        if request.top_p is not None:
            config["topP"] = request.top_p
        if self.max_tokens:
            config["maxOutputTokens"] = self.max_tokens
        thinking = thinking_config(model, request.thinking)
        if thinking is not None:
            config["thinkingConfig"] = thinking
        if config:
            body["generationConfig"] = config
        return body

    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        model = request.model or self.default_model
        headers = {"content-type": "application/json", "accept": "text/event-stream", **self.auth_headers()}
        text: list[str] = []
        thought: list[str] = []
        calls: list[dict] = []
        state: dict[str, Any] = {"finish": "stop", "usage": Usage(), "model": model, "error": None}
        plain: list[str] = []

        def on_line(line: str) -> Awaitable[None] | None:
            if not line.startswith("data:"):
                if line.strip() and not line.startswith((":", "event:", "id:", "retry:")):
                    plain.append(line)
                return None
            data = line[5:].strip()
            if not data:
                return None
            said = _take(orjson.loads(data), text, thought, calls, state)
            return on_delta(said) if said and on_delta is not None else None

        path = f"/models/{quote(model, safe='')}:streamGenerateContent?alt=sse"
        await self.stream_lines(path, headers, self.body(request, model), on_line)
        if plain and not text and not calls:  # an answer that is not a stream: one JSON document, or a list of them
            try:
                whole = json.loads("\n".join(plain))
                for event in whole if isinstance(whole, list) else [whole]:
                    _take(event, text, thought, calls, state)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise self._error(f"{self.name} API sent an answer that is neither a stream nor JSON ({exc})") from None
            if text and on_delta is not None:
                await on_delta("".join(text))
        if state["error"]:
            raise self._error(f"{self.name} API error: {state['error']}", retryable=True)
        tool_calls = [ToolCall(id=c["id"] or f"call_{i}", name=c["name"], arguments=c["args"])
                      for i, c in enumerate(calls)]
        blocks = [{"type": SIGNATURE, "index": i, "signature": c["signature"]} for i, c in enumerate(calls)
                  if c["signature"]]
        finish = "tool_calls" if tool_calls and state["finish"] == "stop" else state["finish"]
        return ChatReply(content="".join(text), tool_calls=tool_calls, usage=state["usage"], finish_reason=finish,
                         model=state["model"], reasoning="".join(thought), reasoning_blocks=blocks)


def _take(event: dict, text: list[str], thought: list[str], calls: list[dict], state: dict) -> str:
    """Add one GenerateContentResponse to the accumulators; the text it said."""
    if event.get("error"):
        err = event["error"]
        state["error"] = err.get("message", "stream error") if isinstance(err, dict) else str(err)
        return ""
    said: list[str] = []
    for candidate in event.get("candidates") or []:
        for part in (candidate.get("content") or {}).get("parts") or []:
            if "functionCall" in part:
                fn = part["functionCall"] or {}
                args = fn.get("args")
                calls.append({"id": fn.get("id") or "", "name": fn.get("name") or "",
                              "args": args if args is not None else {}, "signature": part.get("thoughtSignature")})
            elif part.get("thought") and isinstance(part.get("text"), str):
                thought.append(part["text"])
            elif isinstance(part.get("text"), str):
                said.append(part["text"])
        if candidate.get("finishReason"):
            state["finish"] = _FINISH.get(candidate["finishReason"], candidate["finishReason"].lower())
    if event.get("usageMetadata"):
        state["usage"] = _usage(event["usageMetadata"])
    state["model"] = event.get("modelVersion") or state["model"]
    text.extend(said)
    return "".join(said)


_FINISH = {"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter"}


def _usage(u: dict) -> Usage:
    thoughts = u.get("thoughtsTokenCount")
    completion = (u.get("candidatesTokenCount") or 0) + (thoughts or 0)
    return Usage(u.get("promptTokenCount") or 0, completion, thoughts if isinstance(thoughts, int) else None)


class VertexProvider(GeminiProvider):
    name = "vertex"
    default_base_url = "https://aiplatform.googleapis.com/v1/publishers/google"
    key_env = ("VERTEX_API_KEY", "GOOGLE_CLOUD_API_KEY")
    url_env = ("VERTEX_BASE_URL",)

    def env_base_url(self) -> str | None:
        project, location = os.environ.get("GOOGLE_CLOUD_PROJECT"), os.environ.get("GOOGLE_CLOUD_LOCATION")
        if project and location:
            host = "aiplatform.googleapis.com" if location == "global" else f"{location}-aiplatform.googleapis.com"
            return f"https://{host}/v1/projects/{project}/locations/{location}/publishers/google"
        return None
