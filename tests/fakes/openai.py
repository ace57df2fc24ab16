"""A fake OpenAI-compatible chat completions server (``POST /v1/chat/completions``).

Scripted replies, one per request (the ``default`` once they run out)::

    {"content": "Hello"}                                   # streamed text
    {"tool_calls": [{"name": "submit_result", "arguments": {"done": True}}]}
    {"content": "...", "usage": {"prompt": 12, "completion": 3}}
    {"status": 429, "retry_after": "0"}                    # an error answer
    {"latency": 0.2}                                       # this reply only
    {"content": "4", "reasoning": "2+2...", "usage": {"prompt": 9, "completion": 30, "reasoning": 26}}
                               # reasoning_content deltas (as DeepSeek's), completion_tokens_details.reasoning_tokens

Run it alone with ``python -m tests.fakes.openai --port 8765 --latency 0.05``.
"""
from __future__ import annotations

import argparse
import json

from tests.fakes.server import FakeServer, Request, Response, json_response, split_text


class FakeOpenAI(FakeServer):
    def respond(self, request: Request, reply: dict) -> Response:
        body = request.json or {}
        if reply is self.default and body.get("stream"):  # the same answer every time: build it once
            key = (body.get("model"), bool((body.get("stream_options") or {}).get("include_usage")))
            cache = self.__dict__.setdefault("_cache", {})
            if key not in cache:
                cache[key] = self._respond(request, reply)
            return cache[key]
        return self._respond(request, reply)

    def _respond(self, request: Request, reply: dict) -> Response:
        if reply.get("status", 200) != 200:
            headers = {"retry-after": str(reply["retry_after"])} if "retry_after" in reply else {}
            return json_response(reply["status"], {"error": {"message": reply.get("message", "scripted error"),
                                                             "type": "fake_error"}}, headers)
        if not request.path.partition("?")[0].endswith("/chat/completions"):
            return json_response(404, {"error": {"message": f"no route {request.path}"}})
        body = request.json or {}
        model = body.get("model", "fake")
        content = reply.get("content", "")
        calls = reply.get("tool_calls", [])
        usage = reply.get("usage", {"prompt": 10, "completion": 5})
        usage_json = {"prompt_tokens": usage["prompt"], "completion_tokens": usage["completion"],
                      "total_tokens": usage["prompt"] + usage["completion"]}
        if "reasoning" in usage:
            usage_json["completion_tokens_details"] = {"reasoning_tokens": usage["reasoning"]}
        reasoning = reply.get("reasoning", "")
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message = {"role": "assistant", "content": content or None}
            if reasoning:
                message["reasoning_content"] = reasoning
            if calls:
                message["tool_calls"] = [
                    {"id": c.get("id", f"call_{i}"), "type": "function",
                     "function": {"name": c["name"], "arguments": _args(c)}} for i, c in enumerate(calls)]
            return json_response(200, {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
                                       "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                                       "usage": usage_json})
        events = []

        def chunk(delta: dict, finish_reason=None) -> None:
            events.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model,
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]})

        chunk({"role": "assistant", "content": ""})
        for piece in split_text(reasoning):
            chunk({"content": None, "reasoning_content": piece})
        for piece in split_text(content):
            chunk({"content": piece})
        for i, call in enumerate(calls):
            chunk({"tool_calls": [{"index": i, "id": call.get("id", f"call_{i}"), "type": "function",
                                   "function": {"name": call["name"], "arguments": ""}}]})
            for piece in split_text(_args(call), 2):
                chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
        chunk({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            events.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model,
                           "choices": [], "usage": usage_json})
        lines = [f"data: {json.dumps(e)}\n\n".encode() for e in events] + [b"data: [DONE]\n\n"]
        return Response(200, {"content-type": "text/event-stream"}, chunks=lines,
                        chunk_delay=reply.get("chunk_delay", 0.0))


class FakeToolAgent(FakeOpenAI):
    """Answers like an agent that uses tools: ``calls`` on its first turn, then ``final`` once it has
    read the results (any request whose last message is a tool result). Call ids only need to be unique
    within one conversation, so both answers are the same every time and are built once."""

    def __init__(self, calls: list[dict], final: str = "done", **kw):
        super().__init__(**kw)
        self.calls_reply = {"tool_calls": [{**call, "id": f"call_{i}"} for i, call in enumerate(calls)]}
        self.final_reply = {"content": final}
        self._built: dict[tuple, Response] = {}

    def reply_for(self, request: Request) -> dict:
        messages = (request.json or {}).get("messages") or []
        return self.final_reply if messages and messages[-1].get("role") == "tool" else self.calls_reply

    def respond(self, request: Request, reply: dict) -> Response:
        body = request.json or {}
        key = (id(reply), body.get("model"), bool(body.get("stream")),
               bool((body.get("stream_options") or {}).get("include_usage")))
        if key not in self._built:
            self._built[key] = self._respond(request, reply)
        return self._built[key]


class FakeAzure(FakeOpenAI):
    """Azure OpenAI's rules on top of the chat completions fake: the key only in the ``api-key`` header (401 as
    Azure words it otherwise), ``/openai/v1/chat/completions`` by model, or
    ``/openai/deployments/<name>/chat/completions?api-version=...`` for the deployments in ``deployments``
    (404 DeploymentNotFound for another; 404 without an api-version)."""

    def __init__(self, *args, key: str, deployments: tuple[str, ...] = ("my-gpt",), **kw):
        super().__init__(*args, **kw)
        self.key = key
        self.deployments = deployments

    def respond(self, request: Request, reply: dict) -> Response:
        path, _, query = request.path.partition("?")
        if request.headers.get("api-key") != self.key or "authorization" in request.headers:
            return json_response(401, {"error": {"code": "401", "message": "Access denied due to invalid "
                                                 "subscription key or wrong API endpoint."}})
        if path.startswith("/openai/deployments/"):
            name = path.split("/")[3]
            if "api-version=" not in query:
                return json_response(404, {"error": {"code": "404", "message": "Resource not found"}})
            if name not in self.deployments:
                return json_response(404, {"error": {"code": "DeploymentNotFound", "message": "The API deployment "
                                                     "for this resource does not exist."}})
        elif path != "/openai/v1/chat/completions":
            return json_response(404, {"error": {"code": "404", "message": "Resource not found"}})
        return self._respond(request, reply)


def _args(call: dict) -> str:
    args = call.get("arguments", {})
    return args if isinstance(args, str) else json.dumps(args)


def main() -> None:
    parser = argparse.ArgumentParser(description="Fake OpenAI-compatible server on loopback")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--tool-calls", help="JSON list of calls every agent makes on its first turn, "
                                             "e.g. '[{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}]'")
    args = parser.parse_args()
    server: FakeOpenAI = FakeToolAgent(json.loads(args.tool_calls), latency=args.latency, port=args.port) \
        if args.tool_calls else FakeOpenAI(latency=args.latency, port=args.port)
    server.serve_forever()


if __name__ == "__main__":
    main()
