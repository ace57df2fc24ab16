"""The web app's event sink: persist in batches, then broadcast what was persisted.

The engine calls ``emit`` for every event; events collect in a buffer that a
background task flushes every ``interval`` seconds (or at once past
``max_batch``). A flush writes the events and the iteration rows derived from
them in one transaction, then sends them to the run's group. Broadcasting only
what is stored means a websocket client that sees a gap in ``seq`` can always
refill it from the database. Events are typed by :mod:`runtime.engine.shapes`; the iteration rows derived
from them by :class:`IterationRow`.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeAlias, TypedDict, cast
from uuid import UUID

from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, Q
from django.utils.dateparse import parse_datetime

from common.orm import off_loop
from common.storage_errors import StorageFailure, storage_failure
from runtime.engine.shapes import IterationEndData, IterationStartData, JudgeVerdictData, RawEvent, StoredEvent, Tokens
from runtime.live import broadcast
from runtime.models import Run, RunEvent, RunIteration, RunStatus

log = logging.getLogger(__name__)

# A run's primary key as the recorder is given it: the UUID, or its text.
RunId: TypeAlias = UUID | str
# An iteration row's key: (loop step id, iteration, index); one of the last two is None.
IterationKey: TypeAlias = tuple[str, int | None, int | None]


class RowVerdict(TypedDict):
    """``RunIteration.verdict``: what the iteration's ``judge_verdict`` said."""

    done: bool | None
    reason: str | None
    failed_open: bool | None


class IterationRow(TypedDict):
    """A ``RunIteration`` as its values read (``RunIteration.objects.values(...)``: runtime.runs.compare)."""

    step_id: str
    iteration: int | None
    index: int | None
    item: Any
    status: str
    content: str
    result: Any
    verdict: RowVerdict | None
    duration_ms: float | None


def event_json(event: StoredEvent | RawEvent) -> str:
    return json.dumps(event, separators=(",", ":"), default=str)


def event_frame(event_text: str) -> str:
    """One websocket message for one event, from the event's JSON text."""
    return '{"kind":"event","event":' + event_text + "}"


def events_frame(event_texts: list[str]) -> str:
    """One websocket message carrying several events (clients that ask with ?batch=1)."""
    return '{"kind":"events","events":[' + ",".join(event_texts) + "]}"


class Superseded(Exception):
    """The run is no longer this attempt's: it was found lost and resumed (or failed) while this attempt still
    executed. Nothing more of this attempt is stored."""


class Recorder:
    # How long ``close`` goes on retrying a write that fails before it gives the unstored events up.
    close_timeout_s = 60.0

    def __init__(self, run_id: RunId, *, interval: float = 0.01, max_batch: int = 500,
                 on_storage_failure: Callable[[StorageFailure], None] | None = None, attempt: int | None = None,
                 on_superseded: Callable[[], None] | None = None) -> None:
        """``on_storage_failure`` is called once, on the loop, when a write is first refused because the disk is
        full or the database read-only (common.storage_errors); ``storage_failure`` keeps it. With ``attempt`` (the
        run's ``resumes`` when this attempt claimed it) a batch is stored only while the run is still this attempt's,
        active, with as many resumes; else it is dropped, nothing more is stored and ``on_superseded`` is called."""
        self.run_id = run_id
        self.attempt = attempt
        self.superseded = False
        self._on_superseded = on_superseded
        self.interval = interval
        self.max_batch = max_batch
        self._buffer: list[StoredEvent] = []
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._closed = False
        self._task = asyncio.create_task(self._flusher())
        # The seq of the last event the run emitted (stored or about to be): where a hand-back draws its line.
        self.last_seq = 0
        self._stop_after: int | None = None
        self.storage_failure: StorageFailure | None = None
        self._on_storage_failure = on_storage_failure

    def stop_after(self, seq: int) -> None:
        """Keep no event after ``seq``: a run handed back stops here, and what its stopping emits (cancelled
        steps, an end) is not its story; the next attempt goes on from ``seq``."""
        self._stop_after = seq

    async def emit(self, event: RawEvent) -> None:
        # A sink (runtime.events.Sink) is handed the emitter's plain dict; it is stamped, so it is a StoredEvent.
        stored = cast(StoredEvent, event)
        if self.superseded:
            return
        if self._stop_after is not None and stored.get("seq", 0) > self._stop_after:
            return
        self.last_seq = stored.get("seq", self.last_seq)
        self._buffer.append(stored)
        if len(self._buffer) >= self.max_batch:
            await self.flush()
        else:
            self._wake.set()

    async def _flusher(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._closed:
                await asyncio.sleep(self.interval)
            try:
                await self.flush()
            except Superseded:
                self._buffer.clear()
                self.superseded = True
                log.warning("run %s was resumed elsewhere while this attempt still executed: it stores nothing more",
                            self.run_id)
                if self._on_superseded is not None:
                    self._on_superseded()
                return
            except Exception as exc:
                self._failed(exc)
                await asyncio.sleep(0.5)
                self._wake.set()
                continue
            if self._closed and not self._buffer:
                return

    def _failed(self, exc: Exception) -> None:
        failure = storage_failure(exc)
        if failure is None or not failure.unsaved:
            # A bug, or a database out of reach for a moment (a restart, a failover): retried, the run goes on.
            log.error("could not persist events of run %s; will retry", self.run_id, exc_info=exc)
            return
        if self.storage_failure is not None:  # logged once: the retries every half second would flood the log
            return
        self.storage_failure = failure
        log.error("could not persist events of run %s (%s); will retry", self.run_id, failure.cause, exc_info=exc)
        if self._on_storage_failure is not None:
            self._on_storage_failure(failure)

    async def flush(self) -> None:
        async with self._lock:
            if not self._buffer:
                return
            batch, self._buffer = self._buffer, []
            # Shielded: once a write is under way it finishes, even if this task is cancelled,
            # so a batch is never both written and kept for another attempt.
            texts = [event_json(e) for e in batch]
            write = asyncio.ensure_future(off_loop(persist_events)(self.run_id, batch, texts, attempt=self.attempt))
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                await asyncio.wait([write])
                if write.cancelled() or write.exception() is not None:
                    self._buffer[:0] = batch
                raise
            except Exception:
                self._buffer[:0] = batch  # kept, in order, for the next attempt
                raise
            await broadcast.send_events(self.run_id, batch[0]["seq"], batch[-1]["seq"], texts)

    async def close(self) -> None:
        """Flush everything; the flusher ends once the buffer is empty (retrying failed writes)."""
        self._closed = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout=self.close_timeout_s)
        except TimeoutError:
            log.error("run %s: %d events could not be persisted", self.run_id, len(self._buffer))
            self._task.cancel()


@transaction.atomic
def persist_events(run_id: RunId, batch: Sequence[StoredEvent] | Sequence[RawEvent], texts: list[str] | None = None, *,
                   attempt: int | None = None) -> None:
    """Store a batch. With ``attempt``, only while the run is active with that many resumes (checked under the run's
    row lock, which a resume takes too): else :class:`Superseded`, and nothing of the batch is stored."""
    batch = cast("Sequence[StoredEvent]", batch)  # where plain dicts enter (a fork's copies): read as events
    texts = texts or [event_json(e) for e in batch]
    if attempt is not None and not Run.objects.select_for_update(no_key=True).filter(
            pk=run_id, resumes=attempt, status__in=(RunStatus.RUNNING, RunStatus.PAUSED)).exists():
        raise Superseded(str(run_id))
    connection = connections[router.db_for_write(RunEvent)]
    run = Run._meta.pk.get_db_prep_value(run_id, connection)
    _execute_many(RunEvent, ["run", "seq", "type", "step_id", "event_json"],
                  [(run, e["seq"], e.get("type", ""), (e.get("stepId") or "")[:300], t) for e, t in zip(batch, texts, strict=True)])
    _derive_iterations(run_id, batch)
    Run.objects.filter(pk=run_id).update(last_seq=batch[-1]["seq"])


def _iteration_of(event: StoredEvent) -> IterationKey | None:
    """(loop step id, iteration, index) of an event inside a loop iteration (its ``where``)."""
    where = event.get("where")
    if not where or not (loop := where.get("loop")):
        return None
    return (loop, where.get("iteration"), where.get("item"))


def _key(event: StoredEvent) -> IterationKey | None:
    if event.get("type") == "agent_turn":
        return _iteration_of(event)
    return _step_key(event)


def _step_key(event: StoredEvent) -> IterationKey:
    """(step id, iteration, index) of an iteration or verdict event (anything but an agent turn)."""
    data: Any = event.get("data") or {}  # its shape is its type's: each branch names it
    if event.get("type") == "judge_verdict":
        verdict: JudgeVerdictData = data
        return ((event.get("stepId") or "")[:300], verdict.get("iteration"), None)
    iteration: IterationStartData | IterationEndData = data
    return ((event.get("stepId") or "")[:300], iteration.get("iteration"), iteration.get("index"))


def _derive_iterations(run_id: RunId, batch: Sequence[StoredEvent]) -> None:
    """Iteration rows from this batch's iteration and verdict events, in few queries.

    Rows started in this batch are built in memory and inserted together; rows
    started in an earlier batch are read once and updated.
    """
    relevant = [e for e in batch if e.get("type") in ("iteration_start", "iteration_end", "judge_verdict")
                or (e.get("type") == "agent_turn" and e.get("tokens") and _iteration_of(e))]
    if not relevant:
        return
    fresh: dict[IterationKey, RunIteration] = {}
    for event in relevant:
        if event["type"] == "iteration_start":
            step_id, iteration, index = _step_key(event)
            found: Any = event.get("data") or {}
            data: IterationStartData = found
            fresh[(step_id, iteration, index)] = RunIteration(
                run_id=run_id, step_id=step_id, iteration=iteration, index=index, item=data.get("item"),
                started_seq=event.get("seq", 0), started_at=_timestamp(event),
            )
    older_keys = {key for e in relevant if e["type"] != "iteration_start" and (key := _key(e)) is not None} - set(fresh)
    older = _rows_for(run_id, older_keys)
    for event in relevant:
        if event["type"] == "iteration_start":
            continue
        key = _key(event)
        if key is None:
            continue
        row = fresh.get(key) or older[key]
        _apply(row, event)
    connection = connections[router.db_for_write(RunIteration)]
    new = [row for row in fresh.values()] + [row for row in older.values() if row.pk is None]
    changed = [row for row in older.values() if row.pk is not None]
    _execute_many(RunIteration, _ITERATION_FIELDS, [_values(row, _ITERATION_FIELDS, connection) for row in new])
    _execute_many(RunIteration, _DERIVED_FIELDS, [[*_values(row, _DERIVED_FIELDS, connection), row.pk] for row in changed],
                  update=True)


_ITERATION_FIELDS = [f.name for f in RunIteration._meta.concrete_fields if not f.primary_key]
_DERIVED_FIELDS = ["status", "content", "result", "duration_ms", "tokens", "verdict"]


def _values(row: RunIteration, names: list[str], connection: BaseDatabaseWrapper) -> list[Any]:
    meta: Any = type(row)._meta  # Options: get_field of a concrete field's name is a Field (not a relation)
    return [meta.get_field(name).get_db_prep_save(getattr(row, meta.get_field(name).attname), connection) for name in names]


def _execute_many(model: type[Model], names: list[str], rows: list[list[Any]] | list[tuple[Any, ...]], *,
                  update: bool = False) -> None:
    """INSERT rows (or UPDATE them by primary key, the key last in each row) with one executemany.

    The ORM's bulk_create / bulk_update compile an expression per value (bulk_update a CASE
    per field and row); on a fast run that compiling was most of a flush's time.
    """
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    meta: Any = model._meta  # Options: get_field of a concrete field's name is a Field (not a relation)
    columns = [quote(meta.get_field(name).column) for name in names]
    table = quote(meta.db_table)
    # Only quoted names of the model's table and columns go into the text; every value is a parameter.
    if update:
        sql = f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in columns)} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608
    else:
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _rows_for(run_id: RunId, keys: set[IterationKey]) -> dict[IterationKey, RunIteration]:
    """The stored rows for these (step, iteration, index) keys in one query; new rows for the rest."""
    rows: dict[IterationKey, RunIteration] = {}
    if keys:
        iterations = {k[1] for k in keys if k[1] is not None}
        indexes = {k[2] for k in keys if k[2] is not None}
        near = Q(iteration__isnull=True, index__isnull=True)
        if iterations:
            near |= Q(iteration__in=iterations)
        if indexes:
            near |= Q(index__in=indexes)
        query = RunIteration.objects.filter(near, run_id=run_id, step_id__in={k[0] for k in keys}).order_by("pk")
        for row in query:
            key = (row.step_id, row.iteration, row.index)
            if key in keys:
                rows.setdefault(key, row)
    for step_id, iteration, index in keys - set(rows):
        rows[(step_id, iteration, index)] = RunIteration(run_id=run_id, step_id=step_id, iteration=iteration, index=index)
    return rows


def _apply(row: RunIteration, event: StoredEvent) -> None:
    data: Any = event.get("data") or {}  # its shape is its type's: each branch names it
    if event["type"] == "agent_turn":
        tokens: Tokens | dict[str, int] = event.get("tokens") or {}
        row.tokens += int(tokens.get("total") or 0) if isinstance(tokens, dict) else 0
    elif event["type"] == "iteration_end":
        finished: IterationEndData = data
        row.status = finished.get("status") or "completed"
        row.content = finished.get("content") or ""
        row.result = finished.get("result")
        given = event.get("durationMs")
        row.duration_ms = float(given) if isinstance(given, (int, float)) else None
        ended = _timestamp(event)
        if row.duration_ms is None and ended and row.started_at:
            row.duration_ms = (ended - row.started_at).total_seconds() * 1000
    elif event["type"] == "judge_verdict":
        verdict: JudgeVerdictData = data
        kept: RowVerdict = {"done": verdict.get("done"), "reason": verdict.get("reason"),
                            "failed_open": verdict.get("failed_open")}
        row.verdict = kept


def _timestamp(event: StoredEvent) -> datetime | None:
    try:
        return parse_datetime(event.get("timestamp") or "")
    except (TypeError, ValueError):
        return None
