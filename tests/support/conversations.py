"""Runs that talk while they work, to cut short or fork and go on with: a listener beside a four-round loop whose
workers report to the coordinator, which narrates and forwards into the listener; a step that writes shared memory
and messages the coordinator before the next starts; what became of each message."""
from __future__ import annotations

from collections import Counter

TALKING = """
name: talking through a crash
agents:
  judge:
    description: "Decides whether the stages are done."
    resultSchema: {type: object, required: [done], properties: {done: {type: boolean}}}
steps:
  - id: listener
    instructions: "Listen for what the coordinator tells you."
  - id: stages
    instructions: "Work in stages."
    loop:
      maxIterations: 4
      untilAgent: judge
      steps:
        - id: worker
          instructions: "Do your stage and report it."
"""
ROUNDS = 4
NOTES = 200  # more narrations than any run here wakes the coordinator for: the last reply never repeats


def talking_script(*, listening: float, stage: float, coordinator: float) -> dict:
    """Replies keyed by namespaced id (a round run again gets its own). ``listening``: the listener's first turn,
    so what is forwarded to it waits that long in its mailbox; ``stage``: each worker turn; ``coordinator``: each
    of its replies (slower than a round, so messages wait in its inbox too). Every coordinator reply that is not
    the forward narrates ``note <n>`` then says ``ok``: each narration is told apart."""
    replies: dict = {
        "listener": [{"latency": listening, "tool_calls": [{"name": "send_message", "arguments": {"text": "listening"}}]},
                     "heard it all"],
        "coordinator": [{"when": "from stages.0.worker", "latency": coordinator,
                         "tool_calls": [{"name": "forward_to_agent", "arguments": {
                             "target_step_id": "listener", "kind": "context_update", "text": "stage 0 is in"}}]}],
    }
    for n in range(1, NOTES + 1):
        replies["coordinator"] += [{"latency": coordinator, "tool_calls": [{"name": "narrate", "arguments": {"text": f"note {n}"}}]},
                                   {"latency": coordinator, "content": "ok"}]
    for i in range(ROUNDS):
        replies[f"stages.{i}.worker"] = [
            {"latency": stage, "tool_calls": [{"name": "send_message", "arguments": {"text": f"STAGE_{i} reported"}}]},
            {"latency": stage, "content": f"stage {i} done"}]
        replies[f"stages.{i}.untilAgent"] = [{"latency": 0.05, "content": "judged", "result": {"done": i == ROUNDS - 1}}]
    return {"replies": replies}


def queued(events: list[dict]) -> list[str]:
    """The ids of the messages queued in a stream, in order."""
    return [e["data"]["id"] for e in events if e["type"] in ("message_sent", "coordinator_message")]


def delivered(events: list[dict]) -> Counter:
    """How often each message id was read: by a step (``agent_inbox_drain``) or by the coordinator."""
    return Counter(e["data"]["id"] for e in events if e["type"] == "agent_inbox_drain"
                   or (e["type"] == "coordinator_inbox_message" and e["data"].get("id")))


def dropped(events: list[dict]) -> Counter:
    return Counter(e["data"]["id"] for e in events if e["type"] == "message_dropped")


def narrations(events: list[dict]) -> list[str]:
    return [e["data"]["text"] for e in events if e["type"] == "coordinator_narration"]


def wake_cycles(events: list[dict]) -> list[int]:
    """The wake each coordinator request was the first of, in order."""
    return [e["data"]["wake"]["cycle"] for e in events if e["type"] == "agent_turn" and e.get("agent") == "coordinator"
            and not e.get("stepId") and "wake" in e["data"]]


HAND_OVER = """
name: hand over
steps:
  - id: note
    instructions: "Write down what you found and tell the coordinator."
  - id: use
    dependsOn: [note]
    instructions: "Use what was found."
"""
# The coordinator is slow (each reply 0.5 s): it is still in its first wake when `note` sends its message, so the
# message waits in its inbox when `use` starts, the fork point.
HAND_OVER_SCRIPT = {"replies": {
    "note": [{"latency": 0.6, "tool_calls": [{"name": "shared_memory_write", "arguments": {"key": "found", "value": "42 widgets"}}]},
             {"latency": 0.05, "tool_calls": [{"name": "send_message", "arguments": {"text": "found 42 widgets"}}]},
             {"latency": 0.05, "content": "noted"}],
    "use": [{"tool_calls": [{"name": "shared_memory_read", "arguments": {"key": "default/found"}}]}, "used it"],
    "coordinator": [{"latency": 0.5, "tool_calls": [{"name": "narrate", "arguments": {"text": "note 1"}}]},
                    {"latency": 0.5, "content": "ok"},
                    {"latency": 0.05, "tool_calls": [{"name": "narrate", "arguments": {"text": "note 2"}}]},
                    {"latency": 0.05, "content": "ok"}],
}}


def tool_output(events: list[dict], step: str, tool: str) -> str:
    """What ``step``'s first call of ``tool`` answered."""
    return next(e["data"]["output"] for e in events if e["type"] == "tool_call" and e.get("stepId") == step
                and e["data"]["phase"] == "end" and e["data"]["tool_name"] == tool)
