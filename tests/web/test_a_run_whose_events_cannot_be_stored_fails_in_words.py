"""A run whose events cannot be stored (the disk filled while it ran) stops and ends failed saying so, never
"internal error: OperationalError"; the events stored before the failure are kept.

The database is full for the recorder's writes only (its persist_events raises what Django raises for SQLite's
SQLITE_FULL), so the run's end can still be recorded and read back.
"""
from __future__ import annotations

import concurrent.futures
import sqlite3
import threading

import django.db
import pytest

from runtime.execution import dispatch, worker
from runtime.live import recorder
from runtime.models import Run, RunEvent
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """
version: 1
name: slow
agents:
  writer: {description: Writes.}
steps:
  - id: plan
    agent: writer
    instructions: Plan.
  - id: write
    agent: writer
    dependsOn: [plan]
    instructions: Write.
"""


def disk_full() -> django.db.OperationalError:
    try:
        raise sqlite3.OperationalError("database or disk is full")
    except sqlite3.OperationalError as exc:
        try:
            raise django.db.OperationalError(*exc.args) from exc
        except django.db.OperationalError as wrapped:
            return wrapped


@pytest.fixture
def full_after_the_first_batch(monkeypatch):
    """The recorder's first write goes through; every later one finds the disk full."""
    real = recorder.persist_events
    calls = []
    lock = threading.Lock()

    def persist(*args, **kwargs):
        with lock:
            calls.append(1)
            first = len(calls) == 1
        if not first:
            raise disk_full()
        return real(*args, **kwargs)

    monkeypatch.setattr(recorder, "persist_events", persist)
    monkeypatch.setattr(recorder.Recorder, "close_timeout_s", 2.0)  # the unstorable events are given up sooner
    return calls


def test_a_run_stops_and_fails_with_the_reason_when_its_events_cannot_be_stored(owner_client, full_after_the_first_batch, caplog):
    flow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    # The plan's events are written after the first batch (the run's start), and find the disk full; the second
    # reply takes 30 s: the run ends long before unless it is stopped.
    script = {"replies": {"plan": [{"content": "planned", "latency": 0.5}], "write": [{"content": "done", "latency": 30}]}}
    created = post(owner_client, "/api/v1/runs", {"workflow_id": flow, "provider": "simulated", "script": script})
    assert created.status_code == 201, created.content
    run = wait_for(owner_client, created.json()["id"], timeout=25)

    assert run["status"] == "failed"
    assert run["reason"] == ("the run could not store its progress (the server's disk is full); what it stored before is "
                             "kept; ask the administrator to free space")
    assert Run.objects.get(pk=run["id"]).finished_at is not None
    stored = list(RunEvent.objects.filter(run_id=run["id"]).values_list("type", flat=True))
    assert stored and stored[0] == "workflow_start"  # the batch stored before the disk filled is kept
    assert len(full_after_the_first_batch) >= 2
    logged = [r for r in caplog.records if r.name == "runtime.live.recorder" and "could not persist" in r.getMessage()]
    assert len(logged) == 1  # once, not at every retry


def read_only() -> django.db.OperationalError:
    try:
        raise sqlite3.OperationalError("attempt to write a readonly database")
    except sqlite3.OperationalError as exc:
        try:
            raise django.db.OperationalError(*exc.args) from exc
        except django.db.OperationalError as wrapped:
            return wrapped


def test_a_run_whose_end_cannot_be_stored_is_logged_and_the_server_goes_on(owner_client, monkeypatch, caplog):
    # The database turned read-only before the run's end was written: nothing more can be recorded. The run's
    # coroutine ends without raising (the server's run loop goes on) and the log says what was lost.
    def finish(run_id, result, *_attempt):
        raise read_only()

    monkeypatch.setattr(worker, "_finish", finish)
    flow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": flow, "provider": "simulated",
                                                  "script": {"replies": {"plan": ["planned"], "write": ["done"]}}})
    assert created.status_code == 201, created.content
    done, pending = concurrent.futures.wait(dispatch.local_futures(), timeout=25)
    assert done and not pending
    assert [future.exception() for future in done] == [None]
    logged = [r.getMessage() for r in caplog.records if r.name == "runtime.execution.worker"]
    assert logged == [f"run {created.json()['id']}: its end (completed: no reason) could not be stored (the database is read-only)"]
    assert Run.objects.get(pk=created.json()["id"]).status == "running"  # until the reaper finds it lost
