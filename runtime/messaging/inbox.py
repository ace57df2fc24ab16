"""The coordinator's inbox: what wakes it, in the order it happened.

Upstream's coordinator is woken by two kinds of news: every ``send_message`` a step agent makes (a
:class:`~runtime.messaging.messages.Message` queued in the router's ``coordinator`` mailbox) and the
run's lifecycle (a step started, ended, was skipped, failed). Lifecycle notices are not messages: they
take no ``msg-send-<n>`` id and are never dropped one by one, so they are kept here rather than in the
router, beside the ids of the queued messages, so that one :meth:`CoordinatorInbox.take` hands out both
in arrival order. The messages themselves stay in the router until taken, so its snapshot and its drop
rules (``max-wake-cycles``, the run's end) keep covering them.

:attr:`CoordinatorInbox.woken` is set by every arrival and cleared by :meth:`~CoordinatorInbox.take`:
the coordinator's loop waits on it.

For checkpoints a notice carries the ``seq`` of the event it repeats, and :attr:`CoordinatorInbox.through` is the
last such ``seq`` a :meth:`~CoordinatorInbox.take` handed out: a fold of the run's events then knows which notices a
wake read and which still wait (:mod:`runtime.engine.mail_fold`). :meth:`~CoordinatorInbox.restore` puts back
what waited at a checkpoint.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from runtime.messaging.messages import COORDINATOR, DropReason, MessageKind
from runtime.messaging.router import MessageRouter

LIFECYCLE_EVENTS = ("step_start", "step_end", "step_skipped", "error")


@dataclass(frozen=True)
class InboxItem:
    """One thing the coordinator reads on a wake: a step's message, or a lifecycle notice about a step."""

    source: Literal["message", "lifecycle"]
    sender: str  # the step execution the item is from (a message) or about (a notice)
    text: str
    id: str | None = None  # a message's id (msg-send-<n>)
    event: str | None = None  # a notice's event type (one of LIFECYCLE_EVENTS)
    kind: MessageKind = "info"
    seq: int | None = None  # a notice's: the seq of the event it repeats


class CoordinatorInbox:
    """Lifecycle notices and queued messages for the coordinator, in arrival order."""

    def __init__(self, router: MessageRouter) -> None:
        self._router = router
        self._order: list[InboxItem | str] = []  # a notice, or the id of a message waiting in the router
        self.woken = asyncio.Event()
        self.through = 0  # the seq of the last notice handed out by take()

    def message_queued(self, message_id: str) -> None:
        """A ``send_message`` was queued in the router's ``coordinator`` mailbox."""
        self._order.append(message_id)
        self.woken.set()

    def notice(self, event: str, step_path: str, text: str, seq: int | None = None) -> None:
        """A lifecycle notice: ``event`` (``step_start`` ...) about ``step_path``, described by ``text``; ``seq``:
        the event's."""
        self._order.append(InboxItem("lifecycle", step_path, text, event=event, seq=seq))
        self.woken.set()

    def restore(self, entries: list[InboxItem | str], through: int) -> None:
        """What waited at a checkpoint, oldest first: notices, and the ids of messages the router holds (restored
        there). Wakes the coordinator when anything waits, restored messages the entries do not name included."""
        self._order = list(entries) + self._order
        self.through = max(self.through, through)
        if self._order or self._router.waiting(COORDINATOR):
            self.woken.set()

    @property
    def pending(self) -> bool:
        return bool(self._order)

    def take(self) -> list[InboxItem]:
        """Everything pending, oldest first; each message is drained from the router exactly once."""
        messages = {m.id: m for m in self._router.drain(COORDINATOR)}
        items: list[InboxItem] = []
        for entry in self._order:
            if isinstance(entry, InboxItem):
                items.append(entry)
                if entry.seq is not None:
                    self.through = max(self.through, entry.seq)
                continue
            message = messages.pop(entry, None)
            if message is not None:  # else it was dropped meanwhile (and reported then)
                items.append(InboxItem("message", message.sender, message.content, id=message.id, kind=message.kind))
        # Messages restored from a checkpoint were queued by an earlier life of the run, unannounced here.
        items += [InboxItem("message", m.sender, m.content, id=m.id, kind=m.kind) for m in messages.values()]
        self._order.clear()
        self.woken.clear()
        return items

    def discard(self, reason: DropReason) -> int:
        """Drop every pending message with ``reason`` (each reported once by the router) and forget the
        notices; returns how many messages were dropped."""
        dropped = self._router.discard(COORDINATOR, reason)
        self._order.clear()
        self.woken.clear()
        return dropped
