"""Any OpenAI-compatible chat completions endpoint: OpenAI, Ollama, vLLM, llama.cpp, OpenRouter.

Configuration (keyword arguments, else the environment): ``base_url``
(``OPENAI_BASE_URL``, default ``https://api.openai.com/v1``), ``api_key``
(``OPENAI_API_KEY``; optional for local servers), ``default_model``
(``OPENAI_MODEL``, default ``gpt-4o-mini``). Replies stream (text arrives as
deltas); ``submit_result`` is offered as a function tool (with ``tool_choice:
"required"`` when a request must call a tool: the submit_result reminder); usage
comes from the final chunk (``stream_options.include_usage``).
"""
from __future__ import annotations

import json
import os
from collections.abc import Awaitable
from typing import Any

import orjson

from runtime.providers import ChatReply, ChatRequest, DeltaCallback, ToolCall, Usage
from runtime.providers.http import HttpProvider, parse_arguments
from runtime.providers.thinking import openai_effort


def to_openai_messages(messages: list[dict]) -> list[dict]:
    out = []
    for m in messages:
        if m["role"] == "assistant":
            msg = {"role": "assistant", "content": m.get("content") or None}
            if m.get("tool_calls"):
                msg["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                    "name": c.name, "arguments": c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments)}}
                    for c in m["tool_calls"]]
            out.append(msg)
        elif m["role"] == "tool":
            out.append({"role": "tool", "tool_call_id": m["tool_call_id"], "content": m["content"]})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


class OpenAIProvider(HttpProvider):
    name = "openai"

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 **options: Any) -> None:
        super().__init__(base_url=base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1",
                         api_key=api_key if api_key is not None else os.environ.get("OPENAI_API_KEY"),
                         default_model=default_model or os.environ.get("OPENAI_MODEL") or "gpt-4o-mini", **options)

    def chat_path(self, model: str) -> str:
        """Where a chat completion is posted, under the base URL (Azure's deployments differ)."""
        return "/chat/completions"

    def auth_headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        model = request.model or self.default_model
        body: dict = {"model": model, "messages": to_openai_messages(request.messages), "stream": True,
                      "stream_options": {"include_usage": True}}
        if request.tools:
            body["tools"] = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                                               "parameters": t["parameters"]}} for t in request.tools]
            if request.tool_choice == "required":
                body["tool_choice"] = "required"
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.top_p is not None:
            body["top_p"] = request.top_p
        effort = openai_effort(request.thinking)
        if effort:  # "off" sends nothing: not every compatible server takes "minimal" (runtime.providers.thinking)
            body["reasoning_effort"] = effort
        headers = {"content-type": "application/json", "accept": "text/event-stream", **self.auth_headers()}

        text: list[str] = []
        thought: list[str] = []
        calls: dict[int, dict] = {}
        state: dict[str, Any] = {"finish": "stop", "usage": Usage(), "model": model}

        plain: list[str] = []  # a server that ignored "stream" answers with one JSON document

        def on_line(line: str) -> Awaitable[None] | None:
            if not line.startswith("data:"):
                if line.strip() and not line.startswith((":", "event:", "id:", "retry:")):
                    plain.append(line)
                return None
            data = line[5:].strip()
            if not data or data == "[DONE]":
                return None
            chunk = orjson.loads(data)
            if chunk.get("usage"):
                state["usage"] = _usage(chunk["usage"])
            state["model"] = chunk.get("model") or state["model"]
            said: list[str] = []
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    said.append(delta["content"])
                # DeepSeek, vLLM and others stream their reasoning beside the answer; OpenRouter calls it "reasoning".
                reasoning = delta.get("reasoning_content") or delta.get("reasoning")
                if isinstance(reasoning, str):
                    thought.append(reasoning)
                for tc in delta.get("tool_calls") or []:
                    slot = calls.setdefault(tc.get("index", 0), {"id": "", "name": "", "arguments": ""})
                    slot["id"] = tc.get("id") or slot["id"]
                    fn = tc.get("function") or {}
                    slot["name"] = fn.get("name") or slot["name"]
                    slot["arguments"] += fn.get("arguments") or ""
                if choice.get("finish_reason"):
                    state["finish"] = choice["finish_reason"]
            if not said:
                return None
            text.extend(said)
            return on_delta("".join(said)) if on_delta is not None else None

        await self.stream_lines(self.chat_path(model), headers, body, on_line)
        if plain and not text and not calls:
            try:
                _whole_answer(json.loads("\n".join(plain)), text, calls, state, thought)
            except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                raise self._error("openai API sent an answer that is neither a stream nor JSON") from None
            if text and on_delta is not None:
                await on_delta("".join(text))
        tool_calls = [ToolCall(id=c["id"] or f"call_{i}", name=c["name"], arguments=parse_arguments(c["arguments"]))
                      for i, c in sorted(calls.items())]
        return ChatReply(content="".join(text), tool_calls=tool_calls, usage=state["usage"],
                         finish_reason=state["finish"], model=state["model"], reasoning="".join(thought))


def _usage(u: dict) -> Usage:
    details = u.get("completion_tokens_details") or {}
    reasoning = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return Usage(u.get("prompt_tokens") or 0, u.get("completion_tokens") or 0,
                 reasoning if isinstance(reasoning, int) else None)


def _whole_answer(data: dict, text: list[str], calls: dict[int, dict], state: dict, thought: list[str]) -> None:
    """Fill the stream accumulators from a non-streamed ``chat.completion``."""
    choice = data["choices"][0]
    message = choice.get("message") or {}
    if message.get("content"):
        text.append(message["content"])
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(reasoning, str):
        thought.append(reasoning)
    for i, tc in enumerate(message.get("tool_calls") or []):
        fn = tc.get("function") or {}
        calls[i] = {"id": tc.get("id", ""), "name": fn.get("name", ""), "arguments": fn.get("arguments") or ""}
    state["finish"] = choice.get("finish_reason") or state["finish"]
    state["usage"] = _usage(data.get("usage") or {})
    state["model"] = data.get("model") or state["model"]
