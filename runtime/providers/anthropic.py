"""The Anthropic Messages API with tool use, streamed.

Configuration (keyword arguments, else the environment): ``base_url``
(``ANTHROPIC_BASE_URL``, default ``https://api.anthropic.com``), ``api_key``
(``ANTHROPIC_API_KEY``), ``default_model`` (``ANTHROPIC_MODEL``, default
``claude-sonnet-4-6``), ``max_tokens`` per reply (default 4096).
"""
from __future__ import annotations

import os
from collections.abc import Awaitable
from typing import Any

import orjson

from runtime.providers import ChatReply, ChatRequest, DeltaCallback, ToolCall, Usage
from runtime.providers.http import HttpProvider, parse_arguments
from runtime.providers.thinking import anthropic_budget

API_VERSION = "2023-06-01"


def to_anthropic(messages: list[dict]) -> tuple[str, list[dict]]:
    """(system text, messages) in the Messages API shape; tool results become user turns."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    out: list[dict] = []
    for m in messages:
        role = m["role"]
        if role == "system":
            continue
        if role == "assistant":
            # Signed thinking blocks go back first and unchanged: the API refuses a tool_use turn of a thinking
            # conversation without them.
            blocks = list(m.get("reasoning_blocks") or [])
            blocks += [{"type": "text", "text": m["content"]}] if m.get("content") else []
            blocks += [{"type": "tool_use", "id": c.id, "name": c.name,
                        "input": c.arguments if isinstance(c.arguments, dict) else {}} for c in m.get("tool_calls") or []]
            out.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "(no text)"}]})
        elif role == "tool":
            block = {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": m["content"]}
            if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list) \
                    and out[-1]["content"] and out[-1]["content"][0].get("type") == "tool_result":
                out[-1]["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
        elif out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
            # A user message right after tool results (the submit_result reminder once maxTurns ran out)
            # joins their turn: the roles must alternate.
            out[-1]["content"].append({"type": "text", "text": m["content"]})
        else:
            out.append({"role": "user", "content": m["content"]})
    return system, out


class AnthropicProvider(HttpProvider):
    name = "anthropic"

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 max_tokens: int = 4096, **options: Any) -> None:
        super().__init__(base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com",
                         api_key=api_key if api_key is not None else os.environ.get("ANTHROPIC_API_KEY"),
                         default_model=default_model or os.environ.get("ANTHROPIC_MODEL") or "claude-sonnet-4-6",
                         **options)
        self.max_tokens = max_tokens

    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        model = request.model or self.default_model
        system, messages = to_anthropic(request.messages)
        budget = anthropic_budget(request.thinking)
        body: dict = {"model": model, "max_tokens": self.max_tokens, "messages": messages, "stream": True}
        if budget:  # "off" and no level send nothing: Anthropic thinks only when asked
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
            body["max_tokens"] = budget + self.max_tokens  # the budget is part of max_tokens and must stay below it
        if system:
            body["system"] = system
        if request.tools:
            body["tools"] = [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
                             for t in request.tools]
            if request.tool_choice == "required":
                # A tool must be called (the submit_result reminder); with thinking the API takes only "auto",
                # and the reminder offers submit_result alone.
                body["tool_choice"] = {"type": "auto" if budget else "any"}
        # Thinking refuses a changed temperature or top_p: the agent's own are dropped while it thinks.
        if request.temperature is not None and not budget:
            body["temperature"] = min(request.temperature, 1.0)  # the Messages API takes 0..1
        if request.top_p is not None and not budget:
            body["top_p"] = request.top_p
        headers = {"content-type": "application/json", "anthropic-version": API_VERSION,
                   "accept": "text/event-stream"}
        if self.api_key:
            headers["x-api-key"] = self.api_key

        text: list[str] = []
        thought: list[str] = []
        blocks: dict[int, dict] = {}
        state: dict[str, Any] = {"finish": "end_turn", "prompt": 0, "completion": 0, "model": model, "error": None}

        def on_line(line: str) -> Awaitable[None] | None:
            if not line.startswith("data:"):
                return None
            event = orjson.loads(line[5:].strip() or "null") or {}
            kind = event.get("type")
            if kind == "message_start":
                message = event.get("message") or {}
                usage = message.get("usage") or {}
                state["prompt"] = usage.get("input_tokens") or 0
                state["completion"] = usage.get("output_tokens") or 0
                state["model"] = message.get("model") or model
            elif kind == "content_block_start":
                block = event.get("content_block") or {}
                blocks[event.get("index", 0)] = {"type": block.get("type"), "id": block.get("id", ""),
                                                 "name": block.get("name", ""), "json": "",
                                                 "thinking": block.get("thinking") or "",
                                                 "signature": block.get("signature") or "", "data": block.get("data")}
            elif kind == "content_block_delta":
                delta = event.get("delta") or {}
                if delta.get("type") == "text_delta":
                    text.append(delta.get("text", ""))
                    if on_delta is not None and delta.get("text"):
                        return on_delta(delta["text"])
                elif delta.get("type") == "thinking_delta":
                    thought.append(delta.get("thinking", ""))
                    blocks.setdefault(event.get("index", 0), _thinking_block())["thinking"] += delta.get("thinking", "")
                elif delta.get("type") == "signature_delta":
                    blocks.setdefault(event.get("index", 0), _thinking_block())["signature"] += delta.get("signature", "")
                elif delta.get("type") == "input_json_delta":
                    blocks.setdefault(event.get("index", 0), {"type": "tool_use", "id": "", "name": "", "json": ""})
                    blocks[event.get("index", 0)]["json"] += delta.get("partial_json", "")
            elif kind == "message_delta":
                state["finish"] = (event.get("delta") or {}).get("stop_reason") or state["finish"]
                usage = event.get("usage") or {}
                if usage.get("output_tokens") is not None:
                    state["completion"] = usage["output_tokens"]
            elif kind == "error":
                state["error"] = (event.get("error") or {}).get("message", "stream error")
            return None

        await self.stream_lines("/v1/messages", headers, body, on_line)
        if state["error"]:
            raise self._error(f"anthropic API error: {state['error']}", retryable=True)
        tool_calls = [ToolCall(id=b["id"] or f"toolu_{i}", name=b["name"], arguments=parse_arguments(b["json"]))
                      for i, b in sorted(blocks.items()) if b["type"] == "tool_use"]
        return ChatReply(content="".join(text), tool_calls=tool_calls,
                         usage=Usage(state["prompt"], state["completion"]), finish_reason=state["finish"],
                         model=state["model"], reasoning="".join(thought), reasoning_blocks=_kept(blocks))


def _thinking_block() -> dict:
    return {"type": "thinking", "id": "", "name": "", "json": "", "thinking": "", "signature": "", "data": None}


def _kept(blocks: dict[int, dict]) -> list[dict]:
    """The reply's thinking blocks as the API wants them back in the next request of the conversation."""
    kept: list[dict] = []
    for _, b in sorted(blocks.items()):
        if b["type"] == "thinking":
            kept.append({"type": "thinking", "thinking": b["thinking"], "signature": b["signature"]})
        elif b["type"] == "redacted_thinking":
            kept.append({"type": "redacted_thinking", "data": b["data"] or ""})
    return kept
