"""Amazon Bedrock's ConverseStream API (``bedrock/<model id>``), signed with SigV4 or a Bedrock API key.

``POST <base>/model/<model id>/converse-stream`` with ``messages`` (content blocks: ``text``, ``toolUse``,
``toolResult``, ``reasoningContent``), ``system``, ``toolConfig`` (``toolSpec`` with ``inputSchema.json``;
``toolChoice: {"any": {}}`` when a tool must be called: the submit_result reminder, the structured result)
and ``inferenceConfig``. The answer streams in AWS's binary event-stream framing
(runtime/providers/eventstream.py): ``contentBlockStart`` (a tool use's id and name), ``contentBlockDelta``
(``text``, a tool use's ``input`` JSON in pieces, ``reasoningContent`` text and signature), ``messageStop``
(``stopReason``), ``metadata`` (``usage``: ``inputTokens`` / ``outputTokens``); an ``exception`` message
(``throttlingException``, ``validationException``...) fails the call as its HTTP status would. With
``stream=False`` the non-streamed ``/converse`` is used (one document: the text as one delta at the end).

Reasoning levels reach ``additionalModelRequestFields`` as the model's own field: Claude's
``thinking.budget_tokens`` (as Anthropic's API), OpenAI's open-weight models' ``reasoning_effort``, and
Amazon Nova's ``reasoningConfig``. Claude's signed reasoning blocks go back unchanged before its tool use.

The key is a Bedrock API key (sent as a bearer token) or ``ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]``
(SigV4, service ``bedrock``, the region read from the base URL ``https://bedrock-runtime.<region>.amazonaws.com``
or AWS_REGION).
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Awaitable
from typing import Any
from urllib.parse import quote

import orjson

from runtime.providers import ChatReply, ChatRequest, DeltaCallback, ProviderError, ToolCall, Usage, redact
from runtime.providers.eventstream import Decoder, EventStreamError
from runtime.providers.failures import api_error
from runtime.providers.http import RETRY_STATUSES, HttpProvider, parse_arguments
from runtime.providers.sigv4 import sign
from runtime.providers.thinking import ANTHROPIC_BUDGETS

REASONING = "bedrock_reasoning"
_REGION = re.compile(r"bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com")


def additional_fields(model: str, level: str | None) -> dict | None:
    """``additionalModelRequestFields`` for a reasoning level (None: nothing sent)."""
    if not level or level == "off":
        return None
    lowered = model.lower()
    if "anthropic." in lowered or "claude" in lowered:
        return {"thinking": {"type": "enabled", "budget_tokens": ANTHROPIC_BUDGETS[level]}}
    if "openai." in lowered:
        return {"reasoning_effort": level}
    return {"reasoningConfig": {"type": "enabled", "maxReasoningEffort": level}}


def to_converse(messages: list[dict]) -> tuple[list[dict], list[dict]]:
    """(system blocks, messages) in Converse's shape: roles alternate, tool results are user content."""
    system = [{"text": m["content"]} for m in messages if m["role"] == "system" and m["content"]]
    out: list[dict] = []

    def add(role: str, blocks: list[dict]) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})

    for m in messages:
        role = m["role"]
        if role == "system":
            continue
        if role == "assistant":
            blocks = [{"reasoningContent": b["content"]} for b in m.get("reasoning_blocks") or []
                      if b.get("type") == REASONING]
            blocks += [{"text": m["content"]}] if m.get("content") else []
            blocks += [{"toolUse": {"toolUseId": c.id, "name": c.name,
                                    "input": c.arguments if isinstance(c.arguments, dict) else {}}}
                       for c in m.get("tool_calls") or []]
            add("assistant", blocks or [{"text": "(no text)"}])
        elif role == "tool":
            add("user", [{"toolResult": {"toolUseId": m["tool_call_id"], "content": [{"text": m["content"]}]}}])
        else:
            add("user", [{"text": m["content"]}])
    return system, out


class BedrockProvider(HttpProvider):
    name = "bedrock"

    def __init__(self, base_url: str | None = None, api_key: str | None = None, default_model: str | None = None,
                 region: str | None = None, max_tokens: int = 4096, stream: bool = True, **options: Any) -> None:
        region = region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        base_url = base_url or os.environ.get("BEDROCK_BASE_URL") or \
            f"https://bedrock-runtime.{region or 'us-east-1'}.amazonaws.com"
        if api_key is None:
            api_key = os.environ.get("AWS_BEARER_TOKEN_BEDROCK") or (
                f"{os.environ['AWS_ACCESS_KEY_ID']}:{os.environ['AWS_SECRET_ACCESS_KEY']}"
                + (f":{os.environ['AWS_SESSION_TOKEN']}" if os.environ.get("AWS_SESSION_TOKEN") else "")
                if os.environ.get("AWS_ACCESS_KEY_ID") and os.environ.get("AWS_SECRET_ACCESS_KEY") else None)
        super().__init__(base_url=base_url, api_key=api_key,
                         default_model=default_model or "anthropic.claude-sonnet-4-6", **options)
        found = _REGION.search(self.base_url)
        self.region = found.group(1) if found else (region or "us-east-1")
        self.max_tokens = max_tokens
        self.stream = stream

    def _error(self, text: str, **kw: Any) -> ProviderError:
        return ProviderError(redact(text, self.api_key, *_parts(self.api_key)), **kw)

    def _auth(self, path: str, headers: dict[str, str], body: bytes) -> dict[str, str]:
        if not self.api_key:
            return {}
        access, sep, rest = self.api_key.partition(":")
        if not sep:  # a Bedrock API key
            return {"authorization": f"Bearer {self.api_key}"}
        secret, _, token = rest.partition(":")
        return sign("POST", self.base_url + path, headers, body, access_key=access, secret_key=secret,
                    session_token=token or None, region=self.region, service="bedrock")

    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        model = request.model or self.default_model
        system, messages = to_converse(request.messages)
        body: dict[str, Any] = {"messages": messages}
        if system:
            body["system"] = system
        extra = additional_fields(model, request.thinking)
        thinking = bool(extra and "thinking" in extra)
        config: dict[str, Any] = {"maxTokens": self.max_tokens + (extra["thinking"]["budget_tokens"] if thinking
                                                                   and extra else 0)}
        if request.temperature is not None and not thinking:
            config["temperature"] = request.temperature
        if request.top_p is not None and not thinking:
            config["topP"] = request.top_p
        body["inferenceConfig"] = config
        if extra:
            body["additionalModelRequestFields"] = extra
        if request.tools:
            body["toolConfig"] = {"tools": [{"toolSpec": {"name": t["name"], "description": t["description"],
                                                          "inputSchema": {"json": t["parameters"]}}}
                                            for t in request.tools]}
            if request.tool_choice == "required":
                # As on Anthropic's API, a thinking Claude takes only "auto".
                body["toolConfig"]["toolChoice"] = {"auto": {}} if thinking else {"any": {}}
        encoded = orjson.dumps(body)
        if not self.stream:
            return await self._whole(model, encoded, on_delta)
        path = f"/model/{quote(model, safe='')}/converse-stream"
        headers = {"content-type": "application/json", "accept": "application/vnd.amazon.eventstream"}
        headers.update(self._auth(path, headers, encoded))
        decoder = Decoder()
        turn = _Turn(model)

        def on_bytes(chunk: bytes) -> Awaitable[None] | None:
            said = []
            for event_headers, payload in decoder.feed(chunk):
                said.append(turn.take(event_headers, orjson.loads(payload or b"{}")))
            text = "".join(said)
            return on_delta(text) if text and on_delta is not None else None

        try:
            await self.stream_bytes(path, headers, encoded, on_bytes)
        except EventStreamError as exc:
            raise self._error(f"{self.name} API sent a malformed stream: {exc}", retryable=True) from None
        if turn.error:
            status, message = turn.error
            raise self._error(api_error(self.name, status, message), status=status, retryable=status in RETRY_STATUSES)
        return turn.reply()

    async def _whole(self, model: str, encoded: bytes, on_delta: DeltaCallback | None) -> ChatReply:
        """Converse, not streamed: the turn's text arrives as one delta at its end."""
        path = f"/model/{quote(model, safe='')}/converse"
        headers = {"content-type": "application/json", "accept": "application/json"}
        headers.update(self._auth(path, headers, encoded))
        lines: list[str] = []
        await self.stream_lines(path, headers, encoded, lines.append)
        try:
            answer = json.loads("\n".join(lines))
            reply = _reply(answer, model)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self._error(f"{self.name} API sent a malformed answer: {exc.__class__.__name__}: {exc}",
                              retryable=True) from None
        if reply.content and on_delta is not None:
            await on_delta(reply.content)
        return reply


# ConverseStream's exceptions (``:exception-type``) as the HTTP status they would have had.
_EXCEPTIONS = {"throttlingException": 429, "validationException": 400, "modelStreamErrorException": 500,
               "internalServerException": 500, "serviceUnavailableException": 503, "accessDeniedException": 403,
               "resourceNotFoundException": 404, "modelTimeoutException": 408}


class _Turn:
    """One ConverseStream answer put together from its events."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.text: list[str] = []
        self.thought: list[str] = []
        self.blocks: dict[int, dict] = {}
        self.stop = "end_turn"
        self.usage = Usage()
        self.error: tuple[int, str] | None = None

    def block(self, index: int, kind: str) -> dict:
        return self.blocks.setdefault(index, {"type": kind, "id": "", "name": "", "json": "", "text": "",
                                              "signature": "", "redacted": None})

    def take(self, headers: dict, event: dict) -> str:
        """Add one event; the text it said."""
        if headers.get(":message-type") == "exception":
            failure = str(headers.get(":exception-type") or "")
            self.error = (_EXCEPTIONS.get(failure, 500), str(event.get("message") or event.get("Message") or failure))
            return ""
        kind = headers.get(":event-type")
        index = event.get("contentBlockIndex", 0)
        if kind == "contentBlockStart":
            use = (event.get("start") or {}).get("toolUse")
            if use:
                block = self.block(index, "tool")
                block["id"], block["name"] = use.get("toolUseId") or "", use.get("name") or ""
        elif kind == "contentBlockDelta":
            delta = event.get("delta") or {}
            if isinstance(delta.get("text"), str):
                self.text.append(delta["text"])
                return delta["text"]
            if "toolUse" in delta:
                self.block(index, "tool")["json"] += (delta["toolUse"] or {}).get("input") or ""
            elif "reasoningContent" in delta:
                reasoning = delta["reasoningContent"] or {}
                block = self.block(index, "reasoning")
                if isinstance(reasoning.get("text"), str):
                    block["text"] += reasoning["text"]
                    self.thought.append(reasoning["text"])
                block["signature"] += reasoning.get("signature") or ""
                if reasoning.get("redactedContent"):
                    block["redacted"] = reasoning["redactedContent"]
        elif kind == "messageStop":
            self.stop = event.get("stopReason") or self.stop
        elif kind == "metadata":
            usage = event.get("usage") or {}
            self.usage = Usage(usage.get("inputTokens") or 0, usage.get("outputTokens") or 0)
        return ""

    def reply(self) -> ChatReply:
        calls, kept = [], []
        for i, b in sorted(self.blocks.items()):
            if b["type"] == "tool":
                calls.append(ToolCall(id=b["id"] or f"tooluse_{i}", name=b["name"], arguments=parse_arguments(b["json"])))
            elif b["redacted"] is not None:
                kept.append({"type": REASONING, "content": {"redactedContent": b["redacted"]}})
            else:
                kept.append({"type": REASONING, "content": {"reasoningText": {"text": b["text"],
                                                                              "signature": b["signature"]}}})
        return ChatReply(content="".join(self.text), tool_calls=calls, usage=self.usage,
                         finish_reason=_FINISH.get(self.stop, self.stop), model=self.model,
                         reasoning="".join(self.thought), reasoning_blocks=kept)


_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}


def _reply(answer: dict, model: str) -> ChatReply:
    content = ((answer.get("output") or {}).get("message") or {}).get("content") or []
    text: list[str] = []
    thought: list[str] = []
    calls: list[ToolCall] = []
    kept: list[dict] = []
    for i, block in enumerate(content):
        if "text" in block:
            text.append(block["text"])
        elif "toolUse" in block:
            use = block["toolUse"]
            calls.append(ToolCall(id=use.get("toolUseId") or f"tooluse_{i}", name=use.get("name", ""),
                                  arguments=use.get("input") if use.get("input") is not None else {}))
        elif "reasoningContent" in block:
            reasoning = block["reasoningContent"]
            said = (reasoning.get("reasoningText") or {}).get("text")
            if isinstance(said, str):
                thought.append(said)
            kept.append({"type": REASONING, "content": reasoning})
    usage = answer.get("usage") or {}
    stop = answer.get("stopReason") or "end_turn"
    return ChatReply(content="".join(text), tool_calls=calls,
                     usage=Usage(usage.get("inputTokens") or 0, usage.get("outputTokens") or 0),
                     finish_reason=_FINISH.get(stop, stop), model=model, reasoning="".join(thought),
                     reasoning_blocks=kept)


def _parts(key: str | None) -> list[str]:
    return [part for part in (key or "").split(":") if len(part) >= 4]
