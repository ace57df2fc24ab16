"""A fake Anthropic Messages API server (``POST /v1/messages``), streaming or not.

Scripted replies, one per request (the ``default`` once they run out)::

    {"content": "Hello"}
    {"tool_calls": [{"name": "submit_result", "arguments": {"done": True}}]}
    {"content": "...", "usage": {"prompt": 12, "completion": 3}}
    {"status": 529}                          # overloaded; {"status": 429, "retry_after": "0"}
"""
from __future__ import annotations

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
        model = body.get("model", "fake")
        content = reply.get("content", "")
        calls = reply.get("tool_calls", [])
        usage = reply.get("usage", {"prompt": 10, "completion": 5})
        stop = "tool_use" if calls else "end_turn"
        blocks = ([{"type": "text", "text": content}] if content else []) + [
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
            if block["type"] == "text":
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
