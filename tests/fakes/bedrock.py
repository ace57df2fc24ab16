"""A fake Amazon Bedrock runtime speaking the Converse API (``POST /model/<model id>/converse``) and
ConverseStream (``/converse-stream``: the same answer as events in AWS's binary event-stream framing, each
frame cut in two across chunks; ``{"stream_exception": "throttlingException", "message": ...}`` sends an
exception message instead, after a first text delta).

Scripted replies as the OpenAI fake's (``content``, ``tool_calls``, ``usage``, ``reasoning`` with a
signature, ``status`` / ``message``, ``latency``), answered in Converse's shape: ``output.message.content``
blocks (``text``, ``toolUse``, ``reasoningContent``), ``stopReason``, ``usage``; errors as AWS sends them
(``{"message": ...}`` with ``x-amzn-ErrorType``). With ``credentials`` (access key id -> secret) or
``api_key`` set, a request must carry a valid SigV4 signature for service ``bedrock`` in ``region`` (checked
by signing the same request again) or that Bearer key, else 403 as AWS answers. A model id starting with
``unknown.`` is answered 400 "The provided model identifier is invalid.".

Run it alone with ``python -m tests.fakes.bedrock --port 8767 --latency 0.05``.
"""
from __future__ import annotations

import argparse
import json
import re
import struct
import zlib
from datetime import UTC, datetime
from urllib.parse import unquote

from runtime.providers.sigv4 import sign
from tests.fakes.server import FakeServer, Request, Response, json_response, split_text

_ROUTE = re.compile(r"^/model/(?P<model>[^/]+)/(?P<method>converse|converse-stream)$")
_AUTH = re.compile(r"AWS4-HMAC-SHA256 Credential=(?P<key>[^/]+)/(?P<day>\d{8})/(?P<region>[^/]+)/(?P<service>[^/]+)"
                   r"/aws4_request, SignedHeaders=(?P<signed>[^,]+), Signature=(?P<sig>[0-9a-f]{64})$")
_TYPES = {400: "ValidationException", 403: "UnrecognizedClientException", 404: "ResourceNotFoundException",
          429: "ThrottlingException", 500: "InternalServerException", 503: "ServiceUnavailableException"}


def aws_error(status: int, message: str, headers: dict | None = None) -> Response:
    return json_response(status, {"message": message},
                         {"x-amzn-errortype": _TYPES.get(status, "UnknownException"), **(headers or {})})


class FakeBedrock(FakeServer):
    def __init__(self, *args, credentials: dict[str, str] | None = None, api_key: str | None = None,
                 region: str = "us-east-1", **kw) -> None:
        super().__init__(*args, **kw)
        self.credentials = credentials
        self.api_key = api_key
        self.region = region
        self._cache: dict[str, Response] = {}

    def refused(self, request: Request) -> str | None:
        """Why the request's credentials are refused (None: accepted, or none asked for)."""
        if self.credentials is None and self.api_key is None:
            return None
        given = request.headers.get("authorization", "")
        if given.startswith("Bearer "):
            return None if given[7:] == self.api_key else "Invalid API Key format: Must start with pre-defined prefix"
        auth = _AUTH.match(given)
        if auth is None or auth["key"] not in (self.credentials or {}):
            return "The security token included in the request is invalid."
        if (auth["region"], auth["service"]) != (self.region, "bedrock"):
            return f"Credential should be scoped to a valid region and service bedrock, not {auth['region']}"
        names = [n for n in auth["signed"].split(";") if n not in ("host", "x-amz-date", "x-amz-security-token")]
        token = request.headers.get("x-amz-security-token")
        when = datetime.strptime(request.headers.get("x-amz-date", ""), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        again = sign(request.method, f"http://{request.headers.get('host', '')}{request.path}",
                     {n: request.headers.get(n, "") for n in names}, request.body, access_key=auth["key"],
                     secret_key=self.credentials[auth["key"]], region=self.region, service="bedrock",
                     session_token=token, now=when)
        if again["authorization"] != given:
            return ("The request signature we calculated does not match the signature you provided. "
                    "Check your AWS Secret Access Key and signing method.")
        return None

    def respond(self, request: Request, reply: dict) -> Response:
        if reply is self.default and self.credentials is None and self.api_key is None:
            if request.path not in self._cache:
                self._cache[request.path] = self._respond(request, reply)
            return self._cache[request.path]
        return self._respond(request, reply)

    def _respond(self, request: Request, reply: dict) -> Response:
        route = _ROUTE.match(request.path)
        if route is None:
            return aws_error(404, f"no route {request.path}")
        why = self.refused(request)
        if why:
            return aws_error(403, why)
        model = unquote(route["model"])
        if model.startswith("unknown."):
            return aws_error(400, "The provided model identifier is invalid.")
        if reply.get("status", 200) != 200:
            headers = {"retry-after": str(reply["retry_after"])} if "retry_after" in reply else {}
            return aws_error(reply["status"], reply.get("message", "scripted error"), headers)
        blocks: list[dict] = []
        if reply.get("reasoning"):
            blocks.append({"reasoningContent": {"reasoningText": {"text": reply["reasoning"],
                                                                  "signature": "sig-bedrock"}}})
        if reply.get("content"):
            blocks.append({"text": reply["content"]})
        calls = reply.get("tool_calls", [])
        blocks += [{"toolUse": {"toolUseId": c.get("id", f"tooluse_{i}"), "name": c["name"],
                                "input": c.get("arguments", {})}} for i, c in enumerate(calls)]
        usage = reply.get("usage", {"prompt": 10, "completion": 5})
        if route["method"] == "converse-stream":
            return self._stream(reply, calls, usage)
        return json_response(200, {
            "output": {"message": {"role": "assistant", "content": blocks}},
            "stopReason": "tool_use" if calls else "end_turn",
            "usage": {"inputTokens": usage["prompt"], "outputTokens": usage["completion"],
                      "totalTokens": usage["prompt"] + usage["completion"]},
            "metrics": {"latencyMs": int(reply.get("latency", self.latency) * 1000)}})


    def _stream(self, reply: dict, calls: list[dict], usage: dict) -> Response:
        frames = [event("messageStart", {"role": "assistant"})]
        index = 0
        if reply.get("reasoning"):
            for piece in split_text(reply["reasoning"]):
                frames.append(event("contentBlockDelta", {"contentBlockIndex": index,
                                                          "delta": {"reasoningContent": {"text": piece}}}))
            frames.append(event("contentBlockDelta", {"contentBlockIndex": index,
                                                      "delta": {"reasoningContent": {"signature": "sig-bedrock"}}}))
            frames.append(event("contentBlockStop", {"contentBlockIndex": index}))
            index += 1
        if reply.get("content") or reply.get("stream_exception"):
            for piece in split_text(reply.get("content") or "partial"):
                frames.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}}))
                if reply.get("stream_exception"):
                    frames.append(frame({":message-type": "exception", ":exception-type": reply["stream_exception"],
                                         ":content-type": "application/json"},
                                        json.dumps({"message": reply.get("message", "scripted")}).encode()))
                    return _chunked(frames, reply.get("chunk_delay", 0.0))
            frames.append(event("contentBlockStop", {"contentBlockIndex": index}))
            index += 1
        for i, call in enumerate(calls):
            frames.append(event("contentBlockStart", {"contentBlockIndex": index, "start": {"toolUse": {
                "toolUseId": call.get("id", f"tooluse_{i}"), "name": call["name"]}}}))
            arguments = json.dumps(call.get("arguments", {}))
            for piece in split_text(arguments, 2):
                frames.append(event("contentBlockDelta", {"contentBlockIndex": index,
                                                          "delta": {"toolUse": {"input": piece}}}))
            frames.append(event("contentBlockStop", {"contentBlockIndex": index}))
            index += 1
        frames.append(event("messageStop", {"stopReason": "tool_use" if calls else "end_turn"}))
        frames.append(event("metadata", {"usage": {"inputTokens": usage["prompt"], "outputTokens": usage["completion"],
                                                   "totalTokens": usage["prompt"] + usage["completion"]},
                                         "metrics": {"latencyMs": 1}}))
        return _chunked(frames, reply.get("chunk_delay", 0.0))


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message: prelude (lengths, CRC), string headers, payload, message CRC."""
    head = b"".join(bytes([len(k)]) + k.encode() + b"\x07" + struct.pack(">H", len(v.encode())) + v.encode()
                    for k, v in headers.items())
    prelude = struct.pack(">II", 12 + len(head) + len(payload) + 4, len(head))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + head + payload
    return message + struct.pack(">I", zlib.crc32(message))


def event(kind: str, payload: dict) -> bytes:
    return frame({":event-type": kind, ":content-type": "application/json", ":message-type": "event"},
                  json.dumps(payload).encode())


def _chunked(frames: list[bytes], delay: float = 0.0) -> Response:
    """The frames cut in two each, so a reader must join a message that spans chunks."""
    chunks = [piece for f in frames for piece in (f[: len(f) // 2], f[len(f) // 2:])]
    return Response(200, {"content-type": "application/vnd.amazon.eventstream"}, chunks=chunks, chunk_delay=delay)


def main() -> None:
    parser = argparse.ArgumentParser(description="Fake Bedrock Converse API on loopback")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    FakeBedrock(latency=args.latency, port=args.port).serve_forever()


if __name__ == "__main__":
    main()
