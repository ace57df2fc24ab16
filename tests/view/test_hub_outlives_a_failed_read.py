"""A run's view hub reads the channel layer in one task. A read that fails (Redis restarting, or redis-py giving up
on a read) must not end that task: the hub would stay alive with its sockets attached and never pass on a status
again, so a live page would sit at "running" after its run ended."""
from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from runtime.live import broadcast
from runtime.live.view import hub as hubs
from runtime.models import Run
from tests.support.api_calls import post, wait_for
from tests.support.documents import JUDGE_LOOP_SCRIPT, judge_loop

pytestmark = pytest.mark.django_db(transaction=True)


def statuses(sent: list[dict]) -> list[dict]:
    return [m["run"] for m in sent if m["kind"] == "run"]


async def until(condition, what: str, deadline: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not condition():
        assert loop.time() < end, f"never: {what}"
        await asyncio.sleep(0.02)


async def test_a_failed_read_is_followed_by_the_status_and_later_messages_still_arrive(owner_client, monkeypatch):
    flow = (await sync_to_async(post)(owner_client, "/api/v1/workflows", {"source": judge_loop("flaky-layer", 2)})).json()["id"]
    created = await sync_to_async(post)(owner_client, "/api/v1/runs", {"workflow_id": flow, "script": JUDGE_LOOP_SCRIPT})
    run = await sync_to_async(wait_for)(owner_client, created.json()["id"])
    workspace = (await sync_to_async(Run.objects.get)(pk=run["id"])).workspace_id

    layer = get_channel_layer()
    real_receive = layer.receive
    failures = ["Timeout reading from 127.0.0.1:6379"]

    async def flaky_receive(channel: str) -> dict:
        if failures:
            raise TimeoutError(failures.pop())
        return await real_receive(channel)

    monkeypatch.setattr(layer, "receive", flaky_receive)
    monkeypatch.setattr(hubs, "READ_RETRY_S", 0.05)
    hub = hubs.ViewHub(run["id"])
    sent: list[dict] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    await hub.start()
    try:
        await hub.attach(1, send)
        await until(lambda: statuses(sent), "the run's status after the failed read")
        first = statuses(sent)[0]
        assert not failures and first["status"] == "completed" and first["id"] == run["id"]

        await broadcast.send_run_status(run["id"], workspace, {**first, "name": "sent after the failure"})
        await until(lambda: any(r.get("name") == "sent after the failure" for r in statuses(sent)), "a status sent after it")
    finally:
        await hub.stop()
