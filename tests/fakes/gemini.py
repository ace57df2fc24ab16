"""A fake Gemini API (``POST /v1beta/models/<model>:streamGenerateContent?alt=sse`` and ``:generateContent``).

Scripted replies as the OpenAI fake's (``content``, ``tool_calls``, ``usage`` with ``reasoning``,
``reasoning``, ``status`` / ``message``, ``latency``), answered in Gemini's own shapes: SSE events of
``GenerateContentResponse`` (text parts, ``thought: true`` parts, ``functionCall`` parts with a
``thoughtSignature``, ``finishReason``, ``usageMetadata``) and errors as ``{"error": {"code", "message",
"status"}}``. With ``key`` set, a request without that ``x-goog-api-key`` (or ``Bearer`` token) is answered
400 "API key not valid", as Google does.

Run it alone with ``python -m tests.fakes.gemini --port 8766 --latency 0.05``.
"""
from __future__ import annotations

import argparse
import json
import re

from tests.fakes.server import FakeServer, Request, Response, json_response, split_text

_ROUTE = re.compile(r"^(?P<base>.*)/models/(?P<model>[^/:]+):(?P<method>streamGenerateContent|generateContent)"
                    r"(?:\?(?P<query>.*))?$")
_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED",
           500: "INTERNAL", 503: "UNAVAILABLE"}


def gemini_error(status: int, message: str, headers: dict | None = None) -> Response:
    return json_response(status, {"error": {"code": status, "message": message,
                                            "status": _STATUS.get(status, "UNKNOWN")}}, headers)


class FakeGemini(FakeServer):
    def __init__(self, *args, key: str | None = None, **kw) -> None:
        super().__init__(*args, **kw)
        self.key = key
        self._cache: dict[tuple, Response] = {}

    def respond(self, request: Request, reply: dict) -> Response:
        if reply is self.default and self.key is None:
            key = (request.path,)
            if key not in self._cache:
                self._cache[key] = self._respond(request, reply)
            return self._cache[key]
        return self._respond(request, reply)

    def _respond(self, request: Request, reply: dict) -> Response:
        route = _ROUTE.match(request.path)
        if route is None:
            return gemini_error(404, f"no route {request.path}")
        if self.key is not None:
            given = request.headers.get("x-goog-api-key") or request.headers.get("authorization", "")[7:]
            if given != self.key:
                return gemini_error(400, "API key not valid. Please pass a valid API key.")
        if reply.get("status", 200) != 200:
            headers = {"retry-after": str(reply["retry_after"])} if "retry_after" in reply else {}
            return gemini_error(reply["status"], reply.get("message", "scripted error"), headers)
        model = route["model"]
        content = reply.get("content", "")
        calls = reply.get("tool_calls", [])
        usage = reply.get("usage", {"prompt": 10, "completion": 5})
        meta = {"promptTokenCount": usage["prompt"],
                "candidatesTokenCount": usage["completion"] - usage.get("reasoning", 0),
                "totalTokenCount": usage["prompt"] + usage["completion"]}
        if "reasoning" in usage:
            meta["thoughtsTokenCount"] = usage["reasoning"]
        events: list[dict] = []

        def event(parts: list[dict], finish: str | None = None, with_usage: bool = False) -> None:
            candidate: dict = {"content": {"role": "model", "parts": parts}, "index": 0}
            if finish:
                candidate["finishReason"] = finish
            out: dict = {"candidates": [candidate], "modelVersion": model}
            if with_usage:
                out["usageMetadata"] = meta
            events.append(out)

        for piece in split_text(reply.get("reasoning", "")):
            event([{"text": piece, "thought": True}])
        for piece in split_text(content):
            event([{"text": piece}])
        if calls:
            event([{"functionCall": {"name": c["name"], "args": c.get("arguments", {})},
                    "thoughtSignature": f"sig-{i}"} for i, c in enumerate(calls)])
        event([], "STOP", with_usage=True)
        if route["method"] == "generateContent":
            merged = [p for e in events for p in e["candidates"][0]["content"]["parts"]]
            return json_response(200, {"candidates": [{"content": {"role": "model", "parts": merged},
                                                       "finishReason": "STOP"}],
                                       "usageMetadata": meta, "modelVersion": model})
        lines = [f"data: {json.dumps(e)}\r\n\r\n".encode() for e in events]
        return Response(200, {"content-type": "text/event-stream"}, chunks=lines,
                        chunk_delay=reply.get("chunk_delay", 0.0))


def main() -> None:
    parser = argparse.ArgumentParser(description="Fake Gemini API on loopback")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    FakeGemini(latency=args.latency, port=args.port).serve_forever()


if __name__ == "__main__":
    main()
