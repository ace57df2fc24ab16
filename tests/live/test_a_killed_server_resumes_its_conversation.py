"""A server SIGKILLed while its run talks (a forward waits in a running step's mailbox, reports wait in the
coordinator's inbox) resumes the run when it starts again: in the stream watchers see, every message is read
exactly once, the ones that waited at the resume point after it; the coordinator goes on with its conversation, its
wake count and its script, so no narration is said twice."""
from __future__ import annotations

import time

from runtime.engine.checkpoints import boundaries, fold
from tests.support.conversations import TALKING, delivered, dropped, narrations, queued, talking_script, wake_cycles
from tests.support.live_runs import LIVENESS, wait_status
from tests.support.servers import base_env, kill_hard, running_server, server_process

SCRIPT = talking_script(listening=8.0, stage=0.5, coordinator=1.0)


def events_of(client, run_id: str) -> list[dict]:
    return client.get(f"/runs/{run_id}/events").json()


def waiting_at(events: list[dict], seq: int) -> dict[str, list[str]]:
    """The messages waiting, by mailbox, at event ``seq`` (the checkpoint a resume from there starts with)."""
    pending = (fold(events, upto=seq).mail.get("router") or {}).get("pending") or {}
    return {box: [m["id"] for m in messages] for box, messages in pending.items() if messages}


def talking_at_a_boundary(client, run_id: str, timeout: float = 90) -> None:
    """Wait until, at the run's last stored boundary, a message waits for the listener and one for the coordinator."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events = events_of(client, run_id)
        found = boundaries(events)
        if found:
            waiting = waiting_at(events, found[-1].seq)
            if waiting.get("listener") and waiting.get("coordinator"):
                return
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} never had messages waiting at a boundary")


def test_a_killed_server_resumes_mid_conversation_with_each_message_read_once():
    env = base_env(**LIVENESS)
    with running_server(env, users=("owner",)) as first:
        with first.client("owner") as client:
            workflow = client.post("/workflows", json={"source": TALKING})
            assert workflow.status_code == 201, workflow.text
            created = client.post("/runs", json={"workflow_id": workflow.json()["id"], "script": SCRIPT, "coordinator": "narrate"})
            assert created.status_code == 201, created.text
            run_id = created.json()["id"]
            talking_at_a_boundary(client, run_id)
        kill_hard(first.process)
    with server_process(env, first.tokens) as second, second.client("owner") as client:
        final = wait_status(client, run_id, ("completed",), timeout=120)
        events = events_of(client, run_id)
    assert final["status"] == "completed", final

    [resumed] = [e["data"]["resumed"] for e in events if e["type"] == "message" and "resumed" in (e.get("data") or {})]
    cut = resumed["from_seq"]
    # The stream watchers keep: up to the resume point, then the attempt that went on (the killed attempt's events
    # after the point are superseded: its steps run again from the point).
    again = next(e["seq"] for e in events if e["type"] == "workflow_start" and "from_checkpoint" in e["data"])
    stream = [e for e in events if e["seq"] <= cut or e["seq"] >= again]
    after = [e for e in stream if e["seq"] >= again]

    waited = waiting_at(events, cut)
    assert waited.get("listener") and waited.get("coordinator"), waited  # killed mid-conversation
    reads = delivered(stream)
    assert queued(stream) and all(reads[i] == 1 for i in queued(stream)), (queued(stream), reads)
    assert sum(dropped(stream).values()) == 0
    for message_id in (i for ids in waited.values() for i in ids):
        assert delivered(after)[message_id] == 1, message_id
    forwarded = next(e for e in after if e["type"] == "agent_inbox_drain" and e["stepId"] == "listener")
    assert forwarded["data"]["text"] == "stage 0 is in"

    said = narrations(stream)
    assert said and said == [f"note {n}" for n in range(1, len(said) + 1)]  # each once, none from the start again
    cycles = wake_cycles(stream)
    assert cycles == list(range(1, len(cycles) + 1)) and wake_cycles(after)[0] > 1
