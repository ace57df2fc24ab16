"""A run's shared memory as the run page shows it: every key its step agents wrote, by namespace, with the step
that wrote it last.

The engine keeps shared memory in the run's checkpoint, not in a table; what the page needs is in the stored
``tool_call`` events already: a ``shared_memory_write`` start carries the key and value it was asked to write,
its end the qualified key it was written under (``written: <agent>/<key>``) or the error that refused it. So the
table is folded from those two, paired by ``tool_call_id``, the last write of a key winning (as in the engine).
Events of an attempt that lost its worker (superseded) are left out: their writes were undone with it.
"""
from __future__ import annotations

import json
from typing import Any, TypedDict

from runtime.models import Run, RunEvent

WRITE_TOOL = "shared_memory_write"
WRITTEN = "written: "


class SharedMemoryEntry(TypedDict):
    key: str            # fully qualified: <namespace>/<name>
    namespace: str      # the writing agent's (a "/" in its name made "_")
    name: str           # the key as the agent gave it
    value: str
    step_id: str        # the namespaced id of the step execution that wrote it last
    agent: str
    seq: int            # the event that finished the write
    written_at: str


def entries(run: Run) -> list[SharedMemoryEntry]:
    """The run's shared memory now, sorted by namespace and key."""
    texts = (RunEvent.objects.filter(run=run, type="tool_call", superseded=False, event_json__contains=f'"{WRITE_TOOL}"')
             .order_by("seq").values_list("event_json", flat=True))
    asked: dict[str, dict[str, Any]] = {}
    found: dict[str, SharedMemoryEntry] = {}
    for event in (json.loads(t) for t in texts):
        data = event.get("data") or {}
        if data.get("tool_name") != WRITE_TOOL:
            continue
        call = str(data.get("tool_call_id") or "")
        if data.get("phase") == "start":
            given = data.get("input")
            asked[call] = given if isinstance(given, dict) else {}
            continue
        output = data.get("output")
        if event.get("error") or not isinstance(output, str) or not output.startswith(WRITTEN):
            continue  # refused (shared memory off, a missing key): nothing was written
        key = output[len(WRITTEN):].strip()
        namespace, _, name = key.partition("/")
        value = asked.pop(call, {}).get("value")
        found[key] = {"key": key, "namespace": namespace, "name": name, "value": value if isinstance(value, str) else "",
                      "step_id": event.get("stepId") or "", "agent": event.get("agent") or "",
                      "seq": int(event.get("seq") or 0), "written_at": event.get("timestamp") or ""}
    return sorted(found.values(), key=lambda e: (e["namespace"], e["name"]))
