"""An OTLP/HTTP trace collector on loopback, in a thread: it decodes each ``ExportTraceServiceRequest`` (protobuf,
gzip or not) with ``opentelemetry-proto`` and keeps the spans as plain records for assertions::

    with FakeCollector() as collector:
        tracing = Tracing(collector.url)        # http://127.0.0.1:<port>/v1/traces
        ...
        spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans))

:func:`closed_port_url` is a traces URL where nothing listens (a dead collector).
"""
from __future__ import annotations

import argparse
import gzip
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


@dataclass
class SpanRecord:
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str           # '' for a root
    attributes: dict[str, Any]
    status_code: int              # 0 unset, 1 ok, 2 error
    status_message: str
    events: list[str]
    start_ns: int
    end_ns: int
    resource: dict[str, Any] = field(default_factory=dict)


def _value(v: AnyValue) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _value(kv.value) for kv in v.kvlist_value.values}
    return getattr(v, kind) if kind else None


def decode(body: bytes) -> list[SpanRecord]:
    request = ExportTraceServiceRequest()
    request.ParseFromString(body)
    out = []
    for resource_spans in request.resource_spans:
        resource = {kv.key: _value(kv.value) for kv in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                out.append(SpanRecord(
                    name=span.name, trace_id=span.trace_id.hex(), span_id=span.span_id.hex(),
                    parent_span_id=span.parent_span_id.hex(),
                    attributes={kv.key: _value(kv.value) for kv in span.attributes},
                    status_code=span.status.code, status_message=span.status.message,
                    events=[e.name for e in span.events], start_ns=span.start_time_unix_nano,
                    end_ns=span.end_time_unix_nano, resource=resource))
    return out


class FakeCollector:
    """Receives OTLP/HTTP traces at ``url``; ``spans`` and ``requests`` (their headers) as they arrive."""

    def __init__(self, port: int = 0) -> None:
        self.spans: list[SpanRecord] = []
        self.headers: list[dict[str, str]] = []
        self._changed = threading.Condition()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                if self.path != "/v1/traces":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                spans = decode(body)
                with collector._changed:
                    collector.spans.extend(spans)
                    collector.headers.append(dict(self.headers.items()))
                    collector._changed.notify_all()
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"
        self._thread = threading.Thread(target=self.server.serve_forever, name="fake-otlp", daemon=True)

    def __enter__(self) -> FakeCollector:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, ready: Callable[[list[SpanRecord]], bool], timeout: float = 60.0) -> list[SpanRecord]:
        """The spans received, once ``ready(spans)`` holds (AssertionError past ``timeout``: a generous deadline)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not ready(list(self.spans)):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the collector did not get the spans awaited; it has {[s.name for s in self.spans]}")
                self._changed.wait(min(left, 0.5))
            return list(self.spans)


def closed_port_url() -> str:
    """A traces URL on loopback where nothing listens: a port taken from the system and closed again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1/traces"


def main() -> None:
    """``python -c "from tests.fakes.otlp import main; main()" --port N``: a collector in a process of its own (the
    benchmarks), decoding every request as a real one would, until killed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    FakeCollector(parser.parse_args().port).server.serve_forever()
