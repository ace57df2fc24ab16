"""The big-run view holds a run's messages as counts and the last few, however many there are: sent, forwarded,
read and dropped (by reason) counted, the last 10 messages with where each got to, the coordinator's last 5
narrations and its synthesis; a watcher's patched copy equals the view rebuilt from the stored events, and the
coordinator, which has no step, is never a step of the view."""
from __future__ import annotations

import json
from collections import Counter

from runtime.coordinator import CoordinatorSettings
from runtime.live.view.mail import KEEP_MESSAGES, KEEP_NARRATION, TEXT_LIMIT
from runtime.live.view.state import RunView
from tests.support.engine_runs import doc, run

ITEMS = 30
FLOW = doc(f"""
    name: many-messages
    agents:
      worker: {{description: works}}
    steps:
      - id: each
        agent: worker
        instructions: Work.
        loop: {{forEach: {list(range(ITEMS))}, maxConcurrency: 1}}
    """)


def script() -> dict:
    each = []
    for i in range(ITEMS):
        text = f"item {i} done " + ("x" * 400 if i == ITEMS - 1 else "")
        each += [{"tool_calls": [{"name": "send_message", "arguments": {"text": text}}]}, f"done {i}"]
    narrations = []
    for i in range(8):
        narrations += [{"tool_calls": [{"name": "narrate", "arguments": {"text": f"note {i}"}}]}, "ok"]
    final = {"when": "have all ended", "tool_calls": [
        {"name": "forward_to_agent", "arguments": {"target_step_id": "nowhere", "text": "anyone?"}},
        {"name": "finalize", "arguments": {"summary": "Thirty items reported."}}]}
    return {"replies": {"each": each, "coordinator": [final, *narrations, "quiet"]}}


async def test_messages_are_coalesced_and_the_coordinator_is_no_step():
    result, sink = await run(FLOW, script(), coordinator=CoordinatorSettings())
    assert result.status == "completed", result.reason
    events = sink.events
    sent = [e for e in events if e["type"] == "message_sent"]
    assert len(sent) == ITEMS

    view = RunView.of(events)
    mail = view.snapshot()["mail"]
    drops = Counter(e["data"]["reason"] for e in events if e["type"] == "message_dropped")
    read = [e for e in events if e["type"] == "agent_inbox_drain"
            or (e["type"] == "coordinator_inbox_message" and e["data"]["source"] == "message")]
    assert mail["counts"] == {"sent": ITEMS, "forwarded": len([e for e in events if e["type"] == "coordinator_message"]),
                              "drained": len(read), "dropped": sum(drops.values())}
    assert mail["dropped"] == dict(drops) and drops["unknown-step"] == 1

    # The last 10 messages, in order: the last items' reports, then the forward to an id no step has.
    listed = [e["data"]["id"] for e in events if e["type"] in ("message_sent", "coordinator_message")
              or (e["type"] == "message_dropped" and e["data"]["reason"] == "unknown-step")]
    assert [m["id"] for m in mail["recent"]] == listed[-KEEP_MESSAGES:]
    last_report = next(m for m in mail["recent"] if m["sender"] == f"each[{ITEMS - 1}]")
    assert last_report["state"] == "drained" and last_report["to"] == "coordinator"
    assert len(last_report["text"]) == TEXT_LIMIT + 1 and last_report["text"].endswith("…")
    unsent = mail["recent"][-1]
    assert (unsent["to"], unsent["state"], unsent["reason"]) == ("nowhere", "dropped", "unknown-step")

    narrated = [e["data"]["text"] for e in events if e["type"] == "coordinator_narration"]
    assert narrated, "the script narrates at every wake"
    assert [n["text"] for n in mail["narration"]] == narrated[-KEEP_NARRATION:]
    assert mail["synthesis"] == "Thirty items reported."

    assert "coordinator" not in view.steps and "" not in view.steps
    assert set(view.steps) == {"each"}
    assert len(json.dumps(mail)) < 10_000  # its size follows the kept few, not the messages sent


async def test_a_watchers_patched_mail_equals_the_rebuilt_view():
    _, sink = await run(FLOW, script(), coordinator=CoordinatorSettings())
    live = RunView()
    client = live.snapshot()
    for i, event in enumerate(sink.events):
        live.apply(event)
        if i % 7 == 0 and (patch := live.patch()):
            RunView.merge(client, patch)
    if patch := live.patch():
        RunView.merge(client, patch)
    assert client["mail"] == RunView.of(sink.events).snapshot()["mail"]
    assert client["mail"]["counts"]["sent"] == ITEMS
