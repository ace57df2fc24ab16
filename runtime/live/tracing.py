"""OpenTelemetry traces of runs, made from their events: off by default, never in a run's way.

With an OTLP endpoint set (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``), every run's
events also become spans, exported over OTLP/HTTP by the official SDK (``opentelemetry-sdk`` and
``opentelemetry-exporter-otlp-proto-http``). Nothing in the engine knows: :class:`TracedSink` sits between the one
emitter and the run's own sink and turns start/end pairs of events into spans, named as upstream zenflow names
them, with the GenAI semantic conventions on model calls::

    zenflow.flow                     workflow_start .. workflow_end (plan_ready: a span event)
      zenflow.step / zenflow.loop / zenflow.include    step_start .. step_end
        zenflow.loop.iteration       iteration_start .. iteration_end (a loop's inner steps nest under it)
          goai.generate              agent_turn request .. response (gen_ai.request.model, gen_ai.usage.*)
            goai.tool                tool_call start .. end (gen_ai.tool.name)
      zenflow.coordinator            one coordinator wake: its model turns and tool calls nest under it

A single-step loop's body is its iteration's span (a forEach item is two spans: iteration and model turn). Noting
a span costs a few microseconds on the event loop; a thread sends the noted spans in batches to an exporter
process of their own, where the SDK makes its spans of them and its ``BatchSpanProcessor`` exports them, with a
bounded queue (:class:`Tracing`). A collector that is slow, refuses or is not there never slows or fails a
run: spans past the queue are dropped and counted (:attr:`Tracing.dropped`), failed exports counted
(:attr:`Tracing.failed`), and nothing here raises into the run (a bug is logged once per run).

A workspace may send its runs' spans to a collector of its own (its settings: accounts/trace_settings.py): such
a run's sink is given a :data:`Destination` (the traces URL, its headers, whether it may reach only public
addresses), and its spans go there rather than to the server's. The exporter process keeps an exporter per
destination, made on first use, at most :data:`MAX_DESTINATIONS` (the least recently used is flushed and shut
down to make room) (:class:`_Exporters`). A workspace's exporter is made without the server's
``OTEL_EXPORTER_OTLP_*`` variables, which the SDK would otherwise add (its headers: the server's collector's
credentials), and connects only to public addresses unless the deployment allows private ones (checked at each
connection, as the provider transport does). Its headers travel to the exporter process on its pipe, never in
its arguments or environment, and are never logged.

One :class:`Tracing` per process (:func:`shared`; :func:`configured` when the server has a collector). A run's
trace id is chosen before it starts (:meth:`Tracing.new_trace_id`) and stored on the run, so that its page links
to the trace and a resumed run goes on in the same trace (a second ``zenflow.flow`` span with ``zenflow.resume``).
"""
from __future__ import annotations

import atexit
import collections
import contextlib
import json
import logging
import os
import pickle
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from django.conf import settings
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event as SpanEvent
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

from common.addresses import is_public
from common.redact import redact
from runtime.events import Sink

log = logging.getLogger(__name__)

COORDINATOR = "coordinator"
TRACER_NAME = "loop-designer.runs"
MAX_DESTINATIONS = 16   # workspaces' collectors an exporter process sends to at once (each has a queue and a thread)

# A workspace's own collector: (traces URL, its headers as sorted pairs, whether only public addresses may be
# reached). A plain tuple: it is the key of its exporter, and pickles to the exporter process as it is. None: the
# server's collector. Never logged: the headers are secrets.
Destination = tuple[str, tuple[tuple[str, str], ...], bool]


def destination(endpoint: str, headers: dict[str, str], *, public_only: bool) -> Destination:
    return (endpoint, tuple(sorted(headers.items())), public_only)


class _CountingExporter(SpanExporter):
    """The OTLP exporter, counting the spans it delivered and those whose export failed."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner = inner
        self.exported = 0
        self.failed = 0

    def export(self, spans: Any) -> SpanExportResult:
        try:
            result = self.inner.export(spans)
        except Exception:  # the SDK's own thread: a broken exporter counts as a failed export, never more
            log.exception("OTLP export failed")
            result = SpanExportResult.FAILURE
        if result is SpanExportResult.SUCCESS:
            self.exported += len(spans)
        else:
            self.failed += len(spans)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)


class _CountingProcessor(BatchSpanProcessor):
    """The SDK's batching processor, counting the spans it drops because its queue is full."""

    def __init__(self, exporter: SpanExporter, max_queue_size: int | None, schedule_delay_millis: float | None) -> None:
        batch_size = min(512, max_queue_size) if max_queue_size else None  # the SDK's default batch, within the queue
        super().__init__(exporter, max_queue_size=max_queue_size, schedule_delay_millis=schedule_delay_millis,
                         max_export_batch_size=batch_size)
        batch = self._batch_processor
        self._queue = batch._queue  # the SDK's bounded deque (pinned SDK version; read only, to count drops)
        self._capacity = batch._max_queue_size
        self.dropped = 0

    def on_end(self, span: ReadableSpan) -> None:
        if len(self._queue) >= self._capacity:
            self.dropped += 1  # the SDK drops the oldest queued span to make room
        super().on_end(span)


class _Sparse(logging.Filter):
    """One message a minute from the SDK's export and queue loggers: a dead collector is said, not repeated per
    batch (or, for a full queue, per span)."""

    def __init__(self, every_s: float = 60.0) -> None:
        super().__init__()
        self.every_s = every_s
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self.last < self.every_s:
            return False
        self.last = now
        return True


_SDK_LOGGERS = ("opentelemetry.exporter.otlp.proto.http.trace_exporter", "opentelemetry.sdk._shared_internal")


def _quiet_sdk_logs() -> None:
    for name in _SDK_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, _Sparse) for f in logger.filters):
            logger.addFilter(_Sparse())


class _Exporting:
    """The SDK's side: spans noted as records made into its ``ReadableSpan`` and handed to its batching processor,
    whose thread encodes them and sends them to the collector. In the exporter process (:func:`export_main`), or
    in this one when that process cannot be had."""

    def __init__(self, endpoint: str | None, headers: dict[str, str] | None, timeout_s: float | None,
                 max_queue_size: int | None, schedule_delay_ms: float | None, service_name: str,
                 session: requests.Session | None = None) -> None:
        _quiet_sdk_logs()
        self.exporter = _CountingExporter(OTLPSpanExporter(endpoint=endpoint, headers=headers, timeout=timeout_s,
                                                           session=session))
        self.processor = _CountingProcessor(self.exporter, max_queue_size, schedule_delay_ms)
        self.resource = Resource.create({"service.name": service_name})
        self.scope = InstrumentationScope(TRACER_NAME)

    def take(self, records: list[tuple]) -> None:
        for record in records:
            self.processor.on_end(self._readable(record))

    def _readable(self, record: tuple) -> ReadableSpan:
        trace_id, span_id, parent_id, name, kind, start, end, attributes, events, error = record
        flags = TraceFlags(TraceFlags.SAMPLED)
        parent = SpanContext(trace_id, parent_id, is_remote=False, trace_flags=flags) if parent_id else None
        # The SDK's own span record, built from what the loop noted (its docs would have a Tracer make it: see
        # Tracing's doc for why not). Pinned SDK version.
        return ReadableSpan(
            name=name, context=SpanContext(trace_id, span_id, is_remote=False, trace_flags=flags), parent=parent,
            resource=self.resource, attributes=attributes, kind=SpanKind(kind), instrumentation_scope=self.scope,
            events=tuple(SpanEvent(n, a, t) for n, a, t in events) if events else (),
            status=Status(StatusCode.ERROR, error) if error else Status(StatusCode.UNSET),
            start_time=start, end_time=end)

    def flush(self) -> bool:
        return self.processor.force_flush()

    def stats(self) -> tuple[int, int, int]:
        return self.exporter.exported, self.exporter.failed, self.processor.dropped

    def shutdown(self) -> None:
        self.processor.shutdown()


# What the SDK reads from the environment for an exporter it is not given everything for: the server's collector's.
_SERVER_ENV_PREFIXES = ("OTEL_EXPORTER_OTLP_", "OTEL_PYTHON_EXPORTER_OTLP_")
_environment = threading.Lock()


@contextlib.contextmanager
def _without_server_collector_env() -> Any:
    """The SDK adds OTEL_EXPORTER_OTLP_HEADERS to the headers an exporter is given, and takes its client
    certificate, CA and compression from the environment: a workspace's exporter is made without them, so that the
    server's collector's credentials never reach a workspace's endpoint. (The environment of the process that
    exports, for the moment the exporter is made: the SDK reads these then only.)"""
    with _environment:
        saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith(_SERVER_ENV_PREFIXES)}
        try:
            yield
        finally:
            os.environ.update(saved)


def _check_peer(connection: HTTPConnection, sock: Any) -> None:
    """A workspace's collector must be at a public address: the address connected to is checked before anything
    is sent (whatever the name resolved to when it was saved, or resolves to now)."""
    try:
        ip = str(sock.getpeername()[0])
    except OSError:
        ip = ""
    if not ip or not is_public(ip):
        sock.close()
        raise NewConnectionError(connection, f"{connection.host} resolves to {ip or 'no address'}, a private or "
                                             "local address (TRACE_URLS_ALLOW_PRIVATE allows it)")


class _PublicHTTPConnection(HTTPConnection):
    def _new_conn(self) -> Any:
        sock = super()._new_conn()
        _check_peer(self, sock)
        return sock


class _PublicHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> Any:
        sock = super()._new_conn()
        _check_peer(self, sock)
        return sock


class _PublicHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PublicHTTPConnection


class _PublicHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PublicHTTPSConnection


class _PublicOnly(HTTPAdapter):
    """Requests' adapter whose connections reach public addresses only (redirects included: each connection is)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _PublicHTTPPool, "https": _PublicHTTPSPool}


def _session(public_only: bool) -> requests.Session:
    """The HTTP session of a workspace's exporter: no proxy, netrc or CA bundle from the server's environment (a
    proxy would connect on its behalf, unchecked), and public addresses only unless the deployment allows others."""
    session = requests.Session()
    session.trust_env = False
    if public_only:
        adapter = _PublicOnly()
        session.mount("http://", adapter)
        session.mount("https://", adapter)
    return session


class _Exporters:
    """The SDK's side for every destination: the server's collector (``None``) and workspaces' own, each with an
    exporter and a batching processor of its own, made when a span first goes there (so that a server without a
    collector never makes one), at most :data:`MAX_DESTINATIONS` at once (the least recently used is flushed and
    shut down in a thread to make room; a run going on there makes it again)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.open: collections.OrderedDict[Destination | None, _Exporting] = collections.OrderedDict()
        self.retired = (0, 0, 0)
        self._lock = threading.Lock()

    def _make(self, where: Destination | None) -> _Exporting:
        if where is None:
            return _Exporting(**self.config)
        endpoint, headers, public_only = where
        with _without_server_collector_env():
            return _Exporting(endpoint=endpoint, headers=dict(headers), timeout_s=self.config.get("timeout_s"),
                              max_queue_size=self.config.get("max_queue_size"),
                              schedule_delay_ms=self.config.get("schedule_delay_ms"),
                              service_name=self.config.get("service_name") or "loop-designer",
                              session=_session(public_only))

    def take(self, where: Destination | None, records: list[tuple]) -> None:
        with self._lock:
            exporting = self.open.get(where)
            if exporting is None:
                exporting = self.open[where] = self._make(where)
                while len(self.open) > MAX_DESTINATIONS:
                    _, oldest = self.open.popitem(last=False)
                    threading.Thread(target=self._retire, args=(oldest,), name="otel-retire", daemon=True).start()
            else:
                self.open.move_to_end(where)
        exporting.take(records)

    def _retire(self, exporting: _Exporting) -> None:
        exporting.flush()
        exporting.shutdown()
        with self._lock:
            self.retired = tuple(a + b for a, b in zip(self.retired, exporting.stats(), strict=True))  # type: ignore[assignment]

    def _all(self) -> list[_Exporting]:
        with self._lock:
            return list(self.open.values())

    def flush(self) -> bool:
        return all([exporting.flush() for exporting in self._all()])

    def stats(self) -> tuple[int, int, int]:
        exported, failed, dropped = self.retired
        for exporting in self._all():
            e, f, d = exporting.stats()
            exported, failed, dropped = exported + e, failed + f, dropped + d
        return exported, failed, dropped

    def shutdown(self) -> None:
        for exporting in self._all():
            exporting.shutdown()


class Tracing:
    """One process's traces: spans noted cheaply on the event loop, sent in batches to an exporter process of
    their own that makes the SDK's spans of them and exports them to an OTLP/HTTP collector.

    ``endpoint``: the full traces URL (``http://host:4318/v1/traces``); None: the SDK's, from the environment
    (``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, or ``OTEL_EXPORTER_OTLP_ENDPOINT`` + ``/v1/traces``), as are the
    headers (``OTEL_EXPORTER_OTLP_HEADERS``), the timeout and the queue (``OTEL_BSP_*``) when not given here.

    A run's sink notes each span as a tuple once it ends (:meth:`_submit`: an append to a bounded deque); the
    ``otel-spans`` thread pickles what is noted to the exporter process (``python -m runtime.live.tracing``,
    :func:`export_main`), where the SDK's ``BatchSpanProcessor`` and OTLP exporter do the rest. Making the SDK's
    spans here instead cost about 40 µs a span on the loop (``tracer.start_span``), and building and encoding them
    in a thread of this process about 36 µs more under the interpreter lock the loop needs too (bench/tracing.py).
    ``out_of_process=False`` (or an exporter process that cannot start or dies) does it in this process's threads.
    """

    def __init__(self, endpoint: str | None = None, *, headers: dict[str, str] | None = None,
                 timeout_s: float | None = None, max_queue_size: int | None = None,
                 schedule_delay_ms: float | None = None, service_name: str = "loop-designer",
                 out_of_process: bool = True) -> None:
        self._config: dict[str, Any] = {"endpoint": endpoint, "headers": headers, "timeout_s": timeout_s,
                        "max_queue_size": max_queue_size, "schedule_delay_ms": schedule_delay_ms,
                        "service_name": service_name}
        self._capacity = max_queue_size or _env_int("OTEL_BSP_MAX_QUEUE_SIZE", 2048)
        self._batch = min(512, self._capacity)
        self._delay_s = (schedule_delay_ms if schedule_delay_ms is not None else 200.0) / 1000
        self._records: collections.deque[tuple[Destination | None, tuple]] = collections.deque()
        self._wake = threading.Event()
        self._draining = threading.Lock()
        self.dropped_before = 0  # records dropped before they left: the deque was full, or the exporter died
        self._remote = (0, 0, 0)  # the exporter process's counts, as its last answer gave them
        self._answers: dict[int, threading.Event] = {}
        self._results: dict[int, bool] = {}
        self._asked = 0
        self._local: _Exporters | None = None
        self._child: subprocess.Popen | None = None
        if out_of_process:
            self._child = self._start_child()
        if self._child is None:
            self._local = _Exporters(self._config)
        self._stopped = False
        self._thread = threading.Thread(target=self._work, name="otel-spans", daemon=True)
        self._thread.start()

    def _start_child(self) -> subprocess.Popen | None:
        try:
            child = subprocess.Popen(  # noqa: S603 - this interpreter, our own module, no shell
                [sys.executable, "-m", "runtime.live.tracing", json.dumps(self._config)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=_ROOT, env={**os.environ, "PYTHONPATH": _pythonpath()})
        except OSError:
            log.exception("traces: the exporter process could not start; spans are exported from this one")
            return None
        threading.Thread(target=self._read_answers, args=(child,), name="otel-answers", daemon=True).start()
        return child

    def _read_answers(self, child: subprocess.Popen) -> None:
        if child.stdout is None:
            return
        try:
            while True:
                token, exported, failed, dropped, ok = pickle.load(child.stdout)  # noqa: S301 - our own child
                self._remote = (exported, failed, dropped)
                self._results[token] = bool(ok)
                event = self._answers.pop(token, None)
                if event is not None:
                    event.set()
        except (EOFError, OSError, pickle.UnpicklingError):
            return

    @property
    def exported(self) -> int:
        return self._remote[0] + (self._local.stats()[0] if self._local else 0)

    @property
    def failed(self) -> int:
        """Spans the collector did not take (refused, unreachable, timed out after the exporter's retries)."""
        return self._remote[1] + (self._local.stats()[1] if self._local else 0)

    @property
    def dropped(self) -> int:
        """Spans never sent: a queue was full (a collector slower than the runs)."""
        return self.dropped_before + self._remote[2] + (self._local.stats()[2] if self._local else 0)

    @staticmethod
    def new_trace_id() -> str:
        """A fresh trace id, 32 hex digits, for a run about to start."""
        return trace.format_trace_id(random.getrandbits(128) or 1)

    def sink(self, inner: Sink, trace_id: str | None = None, where: Destination | None = None) -> TracedSink:
        """``inner`` with this run's events also made spans, in trace ``trace_id`` (None: a fresh one), sent to
        ``where`` (None: the server's collector)."""
        return TracedSink(inner, self, int(trace_id or self.new_trace_id(), 16), where)

    # -- off the event loop ------------------------------------------------------------------------------------

    def _submit(self, record: tuple, where: Destination | None = None) -> None:
        if len(self._records) >= self._capacity:
            self.dropped_before += 1
            return
        self._records.append((where, record))
        if len(self._records) >= self._batch and not self._wake.is_set():
            self._wake.set()

    def _work(self) -> None:
        while not self._stopped:
            self._wake.wait(self._delay_s)
            self._wake.clear()
            if self._stopped:  # shut down: what was noted went out with the last flush
                break
            try:
                self._drain()
            except Exception:  # never let the thread die: traces stop, runs go on
                log.exception("traces: spans could not be handed to the exporter")

    def _drain(self, then: tuple | None = None) -> None:
        """Send what is noted on (and ``then``, a request, after it)."""
        with self._draining:
            if self._stopped:
                return
            batches: dict[Destination | None, list[tuple]] = {}
            while self._records:
                where, record = self._records.popleft()
                batches.setdefault(where, []).append(record)
            if self._local is not None:
                for where, records in batches.items():
                    self._local.take(where, records)
                return
            try:
                pipe = self._child.stdin if self._child is not None else None
                if pipe is None:
                    raise OSError("no exporter process")
                for where, records in batches.items():
                    pickle.dump(("spans", where, records), pipe, protocol=pickle.HIGHEST_PROTOCOL)
                if then is not None:
                    pickle.dump(then, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                pipe.flush()
            except (OSError, ValueError):  # the exporter process is gone: from now on, this process exports
                log.exception("traces: the exporter process died; spans are exported from this one")
                self.dropped_before += sum(len(records) for records in batches.values())
                self._local = _Exporters(self._config)

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Send what is noted and queued, waiting at most ``timeout_s`` (the SDK's flush may wait on a dead
        collector's retries: it runs in a thread of its own, left behind past the timeout). True when all went out."""
        done = threading.Event()
        outcome: list[bool] = []

        def work() -> None:
            try:
                answer = threading.Event()
                if self._local is None:
                    self._asked += 1
                    token = self._asked
                    self._answers[token] = answer
                    self._drain(then=("flush", token))
                if self._local is not None:
                    self._drain()
                    outcome.append(self._local.flush())
                else:
                    answer.wait()
                    outcome.append(self._results.pop(token, False))
            finally:
                done.set()

        threading.Thread(target=work, name="otel-flush", daemon=True).start()
        return done.wait(timeout_s) and bool(outcome and outcome[0])

    def shutdown(self, timeout_s: float = 5.0) -> None:
        """Flush (bounded), then stop: the exporter process ends once its input closes (after its own flush)."""
        self.flush(timeout_s)
        # Not waiting long on a send under way: a child busy flushing to a dead collector stops reading for a while.
        held = self._draining.acquire(timeout=1.0)
        try:
            self._stopped = True
            if self._child is not None and self._child.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._child.stdin.close()
        finally:
            if held:
                self._draining.release()
        self._wake.set()
        if self._child is not None:
            threading.Thread(target=_reap, args=(self._child,), name="otel-reap", daemon=True).start()
        if self._local is not None:
            threading.Thread(target=self._local.shutdown, name="otel-shutdown", daemon=True).start()


def _reap(child: subprocess.Popen, grace_s: float = 30.0) -> None:
    """Wait for the exporter process to end after its last flush (killed past ``grace_s``), so that no process that
    made traces is left holding an unreaped child."""
    try:
        child.wait(grace_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


_ROOT = str(Path(__file__).resolve().parents[2])


def _pythonpath() -> str:
    return os.pathsep.join(p for p in (_ROOT, os.environ.get("PYTHONPATH", "")) if p)


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name) or default)
    except ValueError:
        return default


def export_main(config: dict[str, Any]) -> None:
    """The exporter process: span records from stdin (pickled by :class:`Tracing`) to the SDK, until stdin ends;
    each flush request answered on stdout with the counts."""
    exporting = _Exporters(config)
    asked, answers = sys.stdin.buffer, sys.stdout.buffer
    try:
        while True:
            try:
                message = pickle.load(asked)  # noqa: S301 - our own parent
            except EOFError:
                break
            if message[0] == "spans":
                exporting.take(message[1], message[2])
            elif message[0] == "flush":
                ok = exporting.flush()
                pickle.dump((message[1], *exporting.stats(), ok), answers, protocol=pickle.HIGHEST_PROTOCOL)
                answers.flush()
    finally:
        exporting.flush()
        exporting.shutdown()


_configured: Tracing | None = None
_configured_lock = threading.Lock()


def configured() -> Tracing | None:
    """This process's :class:`Tracing` when the settings turn the server's traces on (an OTLP endpoint is set),
    else None."""
    if not _settings()["enabled"]:
        return None
    return shared()


def shared() -> Tracing:
    """This process's :class:`Tracing`, made on first need: for the server's collector, and for workspaces' own
    whether the server has one or not (an exporter is made only where spans go)."""
    global _configured
    with _configured_lock:
        if _configured is None:
            _configured = Tracing(service_name=_settings()["service_name"])
            # What is queued goes out as the process ends, waiting for the collector 2 s at most.
            atexit.register(_configured.shutdown, 2.0)
        return _configured


def _settings() -> dict[str, Any]:
    return {"enabled": getattr(settings, "OTEL_TRACING", False),
            "service_name": getattr(settings, "OTEL_SERVICE_NAME", "loop-designer")}


def send_test_span(where: Destination, service_name: str = "loop-designer", timeout_s: float = 5.0) -> tuple[str, str | None]:
    """One span (``loop-designer.test``) sent to ``where`` now, in this thread, past any queue: (its trace id, None
    when the collector took it, else why not in words: what it answered, or why it could not be reached; the
    headers' values never in them)."""
    endpoint, headers, public_only = where
    trace_id, now = random.getrandbits(128) or 1, time.time_ns()
    flags = TraceFlags(TraceFlags.SAMPLED)
    span = ReadableSpan(name="loop-designer.test", context=SpanContext(trace_id, random.getrandbits(64) or 1, False, flags),
                        resource=Resource.create({"service.name": service_name}), attributes={"zenflow.test": True},
                        kind=SpanKind.INTERNAL, instrumentation_scope=InstrumentationScope(TRACER_NAME),
                        start_time=now, end_time=now)
    body = encode_spans([span]).SerializeToString()
    secrets = [value for _, value in headers]
    try:
        answer = _session(public_only).post(endpoint, data=body, timeout=timeout_s, allow_redirects=False,
                                            headers={**dict(headers), "Content-Type": "application/x-protobuf"})
    except requests.RequestException as exc:
        # urllib3's "max retries exceeded" wraps the error of the one try: that error says what went wrong.
        reason = getattr(exc.args[0], "reason", None) if exc.args else None
        said = re.sub(r"^\w*Connection\([^)]*\):\s*", "", str(reason or exc))[:400]  # not urllib3's class name
        return trace.format_trace_id(trace_id), redact(f"the collector could not be reached: {said}", secrets)
    if answer.ok:
        return trace.format_trace_id(trace_id), None
    said = " ".join(answer.text.split())[:300]
    return trace.format_trace_id(trace_id), redact(f"the collector answered {answer.status_code} {answer.reason}"
                                                   + (f": {said}" if said else ""), secrets)


def trace_url(trace_id: str, template: str) -> str | None:
    """Where a person sees the trace: ``template`` (``OTEL_TRACE_LINK_TEMPLATE``) with ``{trace_id}`` filled."""
    if not trace_id or not template:
        return None
    return template.replace("{trace_id}", trace_id)


# ---- events to spans -------------------------------------------------------------------------------------------


def _parent_path(path: str) -> str:
    """``refine.0.draft`` -> ``refine.0``; ``batch[3]`` -> ``batch``; a top-level id -> ''."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


class _Span:
    """A span while it is open, as the loop notes it: ids, name, start, attributes; it becomes a record at its end."""

    __slots__ = ("attributes", "error", "events", "kind", "name", "parent_id", "span_id", "start")

    def __init__(self, name: str, parent_id: int, attributes: dict[str, Any],
                 kind: SpanKind = SpanKind.INTERNAL) -> None:
        self.span_id = random.getrandbits(64) or 1
        self.parent_id = parent_id
        self.name = name
        self.kind = kind
        self.start = time.time_ns()
        self.attributes = attributes
        self.events: list[tuple[str, dict[str, Any], int]] | None = None
        self.error: str | None = None

    def add_event(self, name: str, attributes: dict[str, Any]) -> None:
        if self.events is None:
            self.events = []
        self.events.append((name, attributes, time.time_ns()))


class TracedSink:
    """A run's sink, with its events turned into spans on the way (see the module's doc for the tree)."""

    def __init__(self, inner: Sink, tracing: Tracing, trace_id: int, where: Destination | None = None) -> None:
        self.inner = inner
        self.tracing = tracing
        self.trace_id = trace_id
        self.where = where
        self.run_id = ""
        self.root: _Span | None = None
        self.steps: dict[str, _Span] = {}          # by namespaced step id
        self.iterations: dict[str, _Span] = {}     # by the namespace of its inner steps: loop.N, loop[N]
        self.bodies: set[str] = set()               # single-step loops' bodies: their iteration's span stands for them
        self.turns: dict[tuple[str, int], _Span] = {}  # open model turns, by (actor, turn)
        self.last_turn: dict[str, _Span] = {}      # each actor's latest turn: its tool calls nest under it
        self.tools: dict[tuple[str, str], _Span] = {}
        self.coordinator: _Span | None = None
        self.top_total = 0
        self.top_done = 0
        self.broken = False
        self._on: dict[str, Callable[[dict], None]] = {
            "workflow_start": self._workflow_start, "plan_ready": self._plan_ready,
            "workflow_end": self._workflow_end, "step_start": self._step_start, "step_end": self._step_end,
            "step_skipped": self._step_end, "iteration_start": self._iteration_start,
            "iteration_end": self._iteration_end, "agent_turn": self._agent_turn, "tool_call": self._tool_call,
            "error": self._error, "judge_verdict": self._judge_verdict,
        }

    @property
    def trace_id_hex(self) -> str:
        return trace.format_trace_id(self.trace_id)

    async def emit(self, event: dict) -> None:
        handler = self._on.get(event["type"])
        if handler is not None and not self.broken:
            try:
                handler(event)
            except Exception:  # a bug here must never cost the run anything but its trace
                self.broken = True
                log.exception("run %s: its trace stops here (event %s)", self.run_id, event.get("seq"))
        await self.inner.emit(event)

    def close(self) -> None:
        """End whatever is still open (a run stopped or handed back without its ``workflow_end``)."""
        try:
            self._end_all("the run ended without finishing this")
            if self.root is not None:
                self._end(self.root, "the run stopped here (handed back, lost or stopped)")
                self.root = None
        except Exception:
            log.exception("run %s: its trace could not be closed", self.run_id)

    # -- where a span goes -------------------------------------------------------------------------------------

    def _container(self, path: str) -> _Span | None:
        """The innermost open step or iteration that holds ``path`` (the run's span when none)."""
        while path:
            path = _parent_path(path)
            span = self.iterations.get(path) or self.steps.get(path)
            if span is not None:
                return span
        return self.root

    def _start(self, name: str, parent: _Span | None, attributes: dict[str, Any],
               kind: SpanKind = SpanKind.INTERNAL) -> _Span:
        attributes["zenflow.run_id"] = self.run_id
        holder = parent or self.root
        return _Span(name, holder.span_id if holder is not None else 0, attributes, kind)

    def _end(self, span: _Span, error: str | None = None, status: str | None = None) -> None:
        if status is not None:
            span.attributes["zenflow.status"] = status
        if error or status == "failed":
            span.error = error or status
        self.tracing._submit((self.trace_id, span.span_id, span.parent_id, span.name, span.kind, span.start,
                              time.time_ns(), span.attributes, span.events, span.error), self.where)

    def _end_all(self, why: str) -> None:
        for span in [*self.tools.values(), *self.turns.values()]:
            self._end(span, why)
        self.tools.clear()
        self.turns.clear()
        if self.coordinator is not None:
            self._end(self.coordinator)
            self.coordinator = None
        # Innermost first: a nested id is longer than the id of what holds it; a body's span is its iteration's.
        open_spans = [kv for kv in [*self.steps.items(), *self.iterations.items()] if kv[0] not in self.bodies]
        for _key, span in sorted(open_spans, key=lambda kv: -len(kv[0])):
            self._end(span, why, "cancelled")
        self.steps.clear()
        self.iterations.clear()
        self.bodies.clear()

    # -- the run -----------------------------------------------------------------------------------------------

    def _workflow_start(self, event: dict) -> None:
        self.run_id = event.get("runId") or ""
        data = event.get("data") or {}
        self.top_total = int(data.get("total") or 0)
        attributes: dict[str, Any] = {"zenflow.run_id": self.run_id, "zenflow.workflow.name": data.get("name") or "",
                                      "zenflow.provider": data.get("provider") or ""}
        if data.get("from_checkpoint") is not None:
            attributes["zenflow.resume"] = "true"  # upstream's mark of a ResumeFlow: string "true"
            attributes["zenflow.from_checkpoint"] = int(data["from_checkpoint"])
        if data.get("model_override"):
            attributes["zenflow.model_override"] = data["model_override"]
        if data.get("thinking"):
            attributes["zenflow.thinking"] = data["thinking"]
        self.root = _Span("zenflow.flow", 0, attributes)

    def _plan_ready(self, event: dict) -> None:
        if self.root is not None:
            workflow = (event.get("data") or {}).get("workflow") or {}
            self.root.add_event("plan_ready", {"zenflow.plan.steps": [str(s) for s in workflow.get("steps") or []],
                                               "zenflow.plan.edges": [f"{e.get('source')}->{e.get('target')}"
                                                                      for e in workflow.get("edges") or []]})

    def _workflow_end(self, event: dict) -> None:
        self._end_all("the run ended first")
        if self.root is None:
            return
        data = event.get("data") or {}
        tokens = event.get("tokens") or {}
        status = str(data.get("status") or "")
        attributes = self.root.attributes
        attributes["zenflow.usage.input_tokens"] = int(tokens.get("prompt") or 0)
        attributes["zenflow.usage.output_tokens"] = int(tokens.get("completion") or 0)
        attributes["zenflow.cost_usd"] = float(data.get("cost_usd") or 0.0)
        self._end(self.root, str(data.get("reason") or status) if status in ("failed", "partial") else None, status)
        self.root = None

    def _error(self, event: dict) -> None:
        path = event.get("stepId") or ""
        span = self.steps.get(path) or (self._container(path) if path else self.root)
        if span is not None:
            span.add_event("error", {"message": str(event.get("error") or event.get("message") or "")})

    # -- steps, loops, iterations ----------------------------------------------------------------------------

    def _step_start(self, event: dict) -> None:
        path = event.get("stepId") or ""
        data = event.get("data") or {}
        iteration = self.iterations.get(path)
        if iteration is not None and not data.get("loop_type") and not data.get("include"):
            # A single-step loop's body is its iteration: one span, not two (a forEach item costs two spans).
            if event.get("agent"):
                iteration.attributes["zenflow.step.agent"] = event["agent"]
            self.steps[path] = iteration
            self.bodies.add(path)
            return
        attributes: dict[str, Any] = {"zenflow.step.id": path}
        if data.get("loop_type"):
            name = "zenflow.loop"
            attributes["zenflow.loop.type"] = data["loop_type"]
        elif data.get("include"):
            name = "zenflow.include"
            attributes["zenflow.include.ref"] = str(data["include"])
        else:
            name = "zenflow.step"
        if event.get("agent"):
            attributes["zenflow.step.agent"] = event["agent"]
        old = self.steps.pop(path, None)
        if old is not None and path not in self.bodies:  # started again (a retry): the earlier span ends here
            self._end(old, "started again")
        self.steps[path] = self._start(name, iteration or self._container(path), attributes)

    def _step_end(self, event: dict) -> None:
        path = event.get("stepId") or ""
        data = event.get("data") or {}
        if "." not in path and "[" not in path:
            self.top_done += 1
        self.last_turn.pop(path, None)  # its tool calls are over: a big forEach keeps nothing per item
        span = self.steps.pop(path, None)
        if span is None:
            return  # it never started (a failed dependency): no span, as upstream
        failed = data.get("status") == "failed"
        if path in self.bodies:  # its iteration's span ends with the iteration
            self.bodies.discard(path)
            if failed:
                span.error = str(event.get("error") or "failed")
            return
        tokens = event.get("tokens")
        if tokens:
            span.attributes["zenflow.usage.input_tokens"] = int(tokens.get("prompt") or 0)
            span.attributes["zenflow.usage.output_tokens"] = int(tokens.get("completion") or 0)
        self._end(span, (event.get("error") or event.get("message")) if failed else None, str(data.get("status") or ""))

    @staticmethod
    def _iteration_key(event: dict) -> str:
        data = event.get("data") or {}
        path = event.get("stepId") or ""
        return f"{path}.{data['iteration']}" if data.get("iteration") is not None else f"{path}[{data.get('index')}]"

    def _iteration_start(self, event: dict) -> None:
        data = event.get("data") or {}
        path = event.get("stepId") or ""
        number = data["iteration"] if data.get("iteration") is not None else data.get("index")
        attributes: dict[str, Any] = {"zenflow.step.id": path, "zenflow.loop.iteration": int(number or 0)}
        self.iterations[self._iteration_key(event)] = self._start(
            "zenflow.loop.iteration", self.steps.get(path) or self._container(path), attributes)

    def _iteration_end(self, event: dict) -> None:
        key = self._iteration_key(event)
        span = self.iterations.pop(key, None)
        if span is not None:
            if key in self.bodies:  # its body did not say it ended (a cancellation): it ends with it
                self.bodies.discard(key)
                self.steps.pop(key, None)
            data = event.get("data") or {}
            failed = data.get("status") == "failed"
            self._end(span, (data.get("error") or span.error or "failed") if failed else None, str(data.get("status") or ""))

    def _judge_verdict(self, event: dict) -> None:
        data = event.get("data") or {}
        key = f"{event.get('stepId') or ''}.{data.get('iteration')}"
        span = self.iterations.get(key) or self.steps.get(event.get("stepId") or "")
        if span is not None:
            span.add_event("judge_verdict", {"zenflow.judge.done": bool(data.get("done")),
                                             "zenflow.judge.reason": str(data.get("reason") or "")})

    # -- model turns, tool calls, the coordinator ---------------------------------------------------------------

    @staticmethod
    def _actor(event: dict) -> str:
        """Whose turn or tool call: the step's namespaced id, or ``@coordinator`` (its events carry no step)."""
        return event.get("stepId") or "@" + str(event.get("agent") or "")

    def _holder(self, actor: str) -> _Span | None:
        if actor == "@" + COORDINATOR:
            return self.coordinator or self.root
        return self.steps.get(actor) or self.iterations.get(actor) or self._container(actor)

    def _agent_turn(self, event: dict) -> None:
        data = event.get("data") or {}
        actor = self._actor(event)
        turn = int(data.get("turn") or 0)
        if data.get("phase") == "request":
            if actor == "@" + COORDINATOR and data.get("wake"):
                self._wake(data["wake"])
            provider = str(data.get("provider") or "")
            attributes: dict[str, Any] = {
                "gen_ai.operation.name": "chat", "gen_ai.request.model": str(data.get("model") or ""),
                "gen_ai.system": provider, "gen_ai.provider.name": provider, "zenflow.agent.turn": turn}
            if event.get("agent"):
                attributes["gen_ai.agent.name"] = str(event["agent"])
            if event.get("stepId"):
                attributes["zenflow.step.id"] = event["stepId"]
            old = self.turns.pop((actor, turn), None)
            if old is not None:
                self._end(old, "asked again")
            opened = self._start("goai.generate", self._holder(actor), attributes, SpanKind.CLIENT)
            self.turns[(actor, turn)] = opened
            self.last_turn[actor] = opened
            return
        span = self.turns.pop((actor, turn), None)
        if span is None:
            return
        tokens = event.get("tokens") or {}
        attributes = span.attributes
        if data.get("model"):
            attributes["gen_ai.response.model"] = str(data["model"])
        attributes["gen_ai.usage.input_tokens"] = int(tokens.get("prompt") or 0)
        attributes["gen_ai.usage.output_tokens"] = int(tokens.get("completion") or 0)
        if data.get("finish_reason"):
            attributes["gen_ai.response.finish_reasons"] = [str(data["finish_reason"])]
        if data.get("reasoning_tokens") is not None:
            attributes["gen_ai.usage.reasoning_tokens"] = int(data["reasoning_tokens"])
        if data.get("cost_usd") is not None:
            attributes["zenflow.cost_usd"] = float(data["cost_usd"])
        self._end(span, event.get("error"))
        if actor == "@" + COORDINATOR and not data.get("tool_calls") and self.coordinator is not None:
            self._end(self.coordinator)  # a reply that calls no tool ends the wake
            self.coordinator = None

    def _wake(self, wake: dict) -> None:
        if self.coordinator is not None:
            self._end(self.coordinator)
        phase = "synthesis" if self.top_total and self.top_done >= self.top_total else "wake"
        self.coordinator = self._start("zenflow.coordinator", self.root, {
            "zenflow.coordinator.phase": phase, "zenflow.coordinator.cycle": int(wake.get("cycle") or 0)})

    def _tool_call(self, event: dict) -> None:
        data = event.get("data") or {}
        actor = self._actor(event)
        key = (actor, str(data.get("tool_call_id") or ""))
        if data.get("phase") == "start":
            attributes: dict[str, Any] = {"gen_ai.operation.name": "execute_tool",
                                          "gen_ai.tool.name": str(data.get("tool_name") or ""),
                                          "gen_ai.tool.call.id": key[1]}
            if event.get("stepId"):
                attributes["zenflow.step.id"] = event["stepId"]
            self.tools[key] = self._start("goai.tool", self.last_turn.get(actor) or self._holder(actor), attributes)
            return
        span = self.tools.pop(key, None)
        if span is not None:
            if data.get("truncated"):
                span.attributes["zenflow.tool.truncated"] = True
            self._end(span, event.get("error"))


if __name__ == "__main__":
    export_main(json.loads(sys.argv[1]))
