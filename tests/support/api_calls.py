"""Calls to the REST API through Django's test client: a signed-in client, a JSON post, the wait for a run to finish."""
from __future__ import annotations

import json
import time

from django.test import Client

from runtime.contract import FINAL_RUN_STATUSES

ENDED = tuple(s.value for s in FINAL_RUN_STATUSES)


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def wait_for(client, run_id, statuses=ENDED, timeout=60):
    """The run once its status is one of ``statuses``. It polls: a busy machine only makes it wait longer."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/v1/runs/{run_id}").json()
        if body["status"] in statuses:
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} still {body['status']} after {timeout} s, expected one of {statuses}")
        time.sleep(0.05)


def wait_for_events(client, run_id, type_, *, step_id=None, timeout=120) -> list[dict]:
    """The run's events of ``type_`` (and of ``step_id``), once there is one. Events are stored a moment after they
    happen, and a busy machine makes that moment longer: it polls until the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        found = [e for e in client.get(f"/api/v1/runs/{run_id}/events").json()
                 if e["type"] == type_ and (step_id is None or e.get("stepId") == step_id)]
        if found:
            return found
        if time.monotonic() > deadline:
            status = client.get(f"/api/v1/runs/{run_id}").json()["status"]
            raise AssertionError(f"run {run_id} ({status}) has no {type_} event{f' of {step_id}' if step_id else ''} after {timeout} s")
        time.sleep(0.05)


def client_for(user) -> Client:
    """A test client signed in as ``user`` (a browser session)."""
    client = Client()
    client.force_login(user)
    return client
