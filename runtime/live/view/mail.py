"""A big run's messages, coalesced as its other events are: counts, the last few messages and narrations, the
synthesis; never an entry per message.

A run whose every forEach item sends a message has as many messages as items; the big-run page shows how many
were sent, forwarded, read and dropped (by reason), the last :data:`KEEP_MESSAGES` of them with where each got
to, the coordinator's last :data:`KEEP_NARRATION` narrations and its synthesis. Texts are cut to
:data:`TEXT_LIMIT` characters: the whole of each is in its event (the Events panel pages them).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, TypedDict

from runtime.engine.shapes import StoredEvent

KEEP_MESSAGES = 10
KEEP_NARRATION = 5
TEXT_LIMIT = 300

# The events this fold reads (runtime.live.view.state folds these too).
MAIL_TYPES = ("message_sent", "coordinator_message", "agent_inbox_drain", "coordinator_inbox_message",
              "message_dropped", "coordinator_narration", "coordinator_synthesis", "max_wake_cycles_warning")


class MessageSummary(TypedDict):
    id: str
    sender: str
    to: str
    kind: str
    text: str
    state: str                 # "queued", "drained" or "dropped"
    reason: str | None         # why it was dropped
    at: str | None             # when it was sent or forwarded


class NarrationSummary(TypedDict):
    text: str
    at: str | None


class MailSummary(TypedDict):
    counts: dict[str, int]     # sent (to the coordinator), forwarded (by it), drained (read), dropped
    dropped: dict[str, int]    # by reason
    recent: list[MessageSummary]
    narration: list[NarrationSummary]
    synthesis: str | None
    warning: str | None        # the wake-cycle cap was reached


def _cut(value: object) -> str:
    text = value if isinstance(value, str) else ""
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "…"


@dataclass
class MailView:
    counts: dict[str, int] = field(default_factory=lambda: {"sent": 0, "forwarded": 0, "drained": 0, "dropped": 0})
    dropped: dict[str, int] = field(default_factory=dict)
    recent: deque[MessageSummary] = field(default_factory=lambda: deque(maxlen=KEEP_MESSAGES))
    narration: deque[NarrationSummary] = field(default_factory=lambda: deque(maxlen=KEEP_NARRATION))
    synthesis: str | None = None
    warning: str | None = None

    def as_dict(self) -> MailSummary:
        return {"counts": dict(self.counts), "dropped": dict(self.dropped), "recent": [m.copy() for m in self.recent],
                "narration": list(self.narration), "synthesis": self.synthesis, "warning": self.warning}

    def apply(self, event: StoredEvent, data: dict[str, Any]) -> bool:
        """Fold one event of :data:`MAIL_TYPES`; whether anything changed."""
        kind = event.get("type")
        if kind in ("message_sent", "coordinator_message"):
            self.counts["sent" if kind == "message_sent" else "forwarded"] += 1
            self.recent.append(self._message(event, data, "queued"))
        elif kind == "agent_inbox_drain" or (kind == "coordinator_inbox_message" and data.get("source") == "message"):
            self.counts["drained"] += 1
            self._mark(data.get("id"), "drained", None)
        elif kind == "message_dropped":
            reason = str(data.get("reason") or "")
            self.counts["dropped"] += 1
            self.dropped[reason] = self.dropped.get(reason, 0) + 1
            if not self._mark(data.get("id"), "dropped", reason):  # never queued (an unknown step): listed as dropped
                self.recent.append(self._message(event, data, "dropped", reason))
        elif kind == "coordinator_narration":
            self.narration.append({"text": _cut(data.get("text")), "at": event.get("timestamp")})
        elif kind == "coordinator_synthesis":
            self.synthesis = data.get("summary") if isinstance(data.get("summary"), str) else ""
        elif kind == "max_wake_cycles_warning":
            self.warning = event.get("message") or f"the coordinator reached its {data.get('limit')} wake cycles"
        else:
            return False
        return True

    def _mark(self, message_id: object, state: str, reason: str | None) -> bool:
        for message in self.recent:
            if message["id"] == message_id:
                message["state"], message["reason"] = state, reason
                return True
        return False

    @staticmethod
    def _message(event: StoredEvent, data: dict[str, Any], state: str, reason: str | None = None) -> MessageSummary:
        return {"id": str(data.get("id") or ""), "sender": str(data.get("sender") or ""), "to": str(data.get("to") or ""),
                "kind": str(data.get("kind") or "info"), "text": _cut(data.get("text")), "state": state, "reason": reason,
                "at": event.get("timestamp")}
