"""What travels through the router: a message, its kind, and why one may be dropped.

The names are upstream zenflow's, because they reach events and tool results: the kinds ``info``,
``context_update`` and ``cancel`` (``forward_to_agent``'s ``kind``; anything else is ``info``), the
coordinator's inbox key ``coordinator``, and the drop reasons' wire strings (``message_dropped``'s
``data.reason``). A :class:`Message` turns into a plain JSON-able dict and back, for checkpoints.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypedDict, cast

COORDINATOR = "coordinator"  # the coordinator's inbox key, as upstream names it

MessageKind = Literal["info", "context_update", "cancel"]
_KINDS: dict[str, MessageKind] = {"info": "info", "context_update": "context_update", "context-update": "context_update",
                                  "cancel": "cancel"}


def message_kind(value: object) -> MessageKind:
    """A ``kind`` argument as upstream reads it: ``context_update`` or ``cancel``, anything else ``info``
    (a model that invents a kind still gets its message through)."""
    return _KINDS.get(value.strip().lower(), "info") if isinstance(value, str) else "info"


class DropReason(StrEnum):
    """Why a message never reached its target's conversation (upstream's wire strings)."""

    WORKFLOW_CANCELLED = "workflow-cancelled"  # the run was cancelled before delivery
    TARGET_TERMINAL = "target-terminal"  # the target's mailbox is closed: it finished (or the run ended)
    UNKNOWN_STEP = "unknown-step"  # no running execution has that id (or a bare id names several)
    MAILBOX_CLOSED_BY_FINALIZE = "mailbox-closed-by-finalize"  # a close raced a send (threads upstream)
    MAX_WAKE_CYCLES = "max-wake-cycles"  # the coordinator ran out of wake cycles with messages pending
    HOLD_TIMEOUT = "hold-timeout"  # a step held open for messages timed out with some still pending
    MAILBOX_FULL = "mailbox-full"  # the target's mailbox holds its capacity: the newest is refused
    NO_TRANSCRIPT = "no-transcript"  # resuming a finished step for a message: no saved transcript
    TRANSCRIPT_TOO_LARGE = "transcript-too-large"  # resuming a finished step: its transcript is over the cap
    RESUME_SHUTDOWN = "resume-shutdown"  # resuming a finished step: the run shut down meanwhile
    RESOLVER_ERROR = "resolver-error"  # resuming a finished step: its model could not be resolved


class MessageDict(TypedDict):
    """A :class:`Message` as a checkpoint stores it."""

    id: str
    sender: str
    to: str
    content: str
    kind: MessageKind


@dataclass(frozen=True)
class Message:
    """One message: ``id`` is ``msg-send-<n>`` (a step to the coordinator) or ``msg-fwd-<n>`` (the
    coordinator to a step), one counter per run; ``to`` is the resolved mailbox (a namespaced step id or
    ``coordinator``)."""

    id: str
    sender: str
    to: str
    content: str
    kind: MessageKind = "info"

    def to_dict(self) -> MessageDict:
        return {"id": self.id, "sender": self.sender, "to": self.to, "content": self.content, "kind": self.kind}

    @classmethod
    def from_dict(cls, data: object) -> Message:
        """Read a stored message back; a field missing or of the wrong type is a ``ValueError`` naming it."""
        if not isinstance(data, dict):
            raise ValueError(f"a stored message must be an object, not {type(data).__name__}")
        for name in ("id", "sender", "to", "content"):
            if not isinstance(data.get(name), str):
                raise ValueError(f"a stored message needs `{name}` as a string")
        kind = data.get("kind", "info")
        if kind not in ("info", "context_update", "cancel"):
            raise ValueError(f"a stored message's `kind` must be info, context_update or cancel, not {kind!r}")
        return cls(id=data["id"], sender=data["sender"], to=data["to"], content=data["content"], kind=cast(MessageKind, kind))


@dataclass(frozen=True)
class Drop:
    """A message that will never be delivered, and why: what ``on_drop`` receives, once per message.
    ``target`` is the mailbox it was meant for, or the ``to`` as written when that resolved to none."""

    message: Message
    reason: DropReason
    target: str
