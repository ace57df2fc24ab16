"""A fake Anthropic Messages API server (``POST /v1/messages``), streaming or not.

Scripted replies, one per request (the ``default`` once they run out)::

    {"content": "Hello"}
    {"tool_calls": [{"name": "submit_result", "arguments": {"done": True}}]}
    {"content": "...", "usage": {"prompt": 12, "completion": 3}}
    {"status": 529}                          # overloaded; {"status": 429, "retry_after": "0"}
    {"content": "4", "thinking": "2+2..."}   # a signed thinking block first, streamed as thinking_delta

A request asking for ``thinking`` is held to the API's rules for it (a 400 naming the rule otherwise): a budget of
at least 1024 below ``max_tokens``, no ``temperature`` or ``top_p``, no forced tool, and every earlier assistant
turn that used a tool starting with the thinking block it was given, signature unchanged.
"""
from __future__ import annotations

import hashlib
import json

from tests.fakes.server import FakeServer, Request, Response, json_response, split_text


class FakeAnthropic(FakeServer):
    def respond(self, request: Request, reply: dict) -> Response:
        status = reply.get("status", 200)
        if status != 200:
            headers = {"retry-after": str(reply["retry_after"])} if "retry_after" in reply else {}
            kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
            return json_response(status, {"type": "error", "error": {"type": kind,
                                                                     "message": reply.get("message", "scripted error")}},
                                 headers)
        if not request.path.endswith("/v1/messages"):
            return json_response(404, {"type": "error", "error": {"type": "not_found_error", "message": request.path}})
        body = request.json or {}
        refused = _thinking_refusal(body) if body.get("thinking") else None
        if refused:
            return json_response(400, {"type": "error", "error": {"type": "invalid_request_error", "message": refused}})
        model = body.get("model", "fake")
        content = reply.get("content", "")
        calls = reply.get("tool_calls", [])
        usage = reply.get("usage", {"prompt": 10, "completion": 5})
        stop = "tool_use" if calls else "end_turn"
        thought = reply.get("thinking", "")
        blocks = ([{"type": "thinking", "thinking": thought, "signature": _signature(thought)}] if thought else [])
        blocks += ([{"type": "text", "text": content}] if content else []) + [
            {"type": "tool_use", "id": c.get("id", f"toolu_{i}"), "name": c["name"], "input": c.get("arguments", {})}
            for i, c in enumerate(calls)]
        if not body.get("stream"):
            return json_response(200, {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
                                       "content": blocks, "stop_reason": stop,
                                       "usage": {"input_tokens": usage["prompt"], "output_tokens": usage["completion"]}})
        events: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "usage": {"input_tokens": usage["prompt"], "output_tokens": 1}}})]
        for index, block in enumerate(blocks):
            if block["type"] == "thinking":
                events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "thinking", "thinking": ""}}))
                for piece in split_text(block["thinking"]):
                    events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                           "delta": {"type": "thinking_delta", "thinking": piece}}))
                events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                       "delta": {"type": "signature_delta",
                                                                 "signature": block["signature"]}}))
            elif block["type"] == "text":
                events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "text", "text": ""}}))
                for piece in split_text(block["text"]):
                    events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                           "delta": {"type": "text_delta", "text": piece}}))
            else:
                events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "tool_use", "id": block["id"],
                                                                         "name": block["name"], "input": {}}}))
                raw = block["input"] if isinstance(block["input"], str) else json.dumps(block["input"])
                for piece in split_text(raw, 2):
                    events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                           "delta": {"type": "input_json_delta", "partial_json": piece}}))
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": usage["completion"]}}))
        events.append(("message_stop", {"type": "message_stop"}))
        lines = [f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events]
        return Response(200, {"content-type": "text/event-stream"}, chunks=lines,
                        chunk_delay=reply.get("chunk_delay", 0.0))


def _signature(thought: str) -> str:
    return "sig-" + hashlib.sha256(thought.encode()).hexdigest()[:16]


def _thinking_refusal(body: dict) -> str | None:
    """Why the real API would refuse this thinking request, or None."""
    budget = (body.get("thinking") or {}).get("budget_tokens") or 0
    if budget < 1024 or budget >= (body.get("max_tokens") or 0):
        return "thinking.budget_tokens: must be at least 1024 and less than max_tokens"
    if "temperature" in body or "top_p" in body:
        return "temperature and top_p may not be set while thinking is enabled"
    if (body.get("tool_choice") or {}).get("type") in ("any", "tool"):
        return "thinking may not be enabled when tool_choice forces tool use"
    for message in body.get("messages") or []:
        blocks = message.get("content")
        if message.get("role") != "assistant" or not isinstance(blocks, list):
            continue
        if any(b.get("type") == "tool_use" for b in blocks):
            first = blocks[0]
            if first.get("type") != "thinking" or first.get("signature") != _signature(first.get("thinking", "")):
                return "messages: an assistant turn with tool_use must start with its signed thinking block"
    return None
