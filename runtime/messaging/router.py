"""One run's mailboxes: a bounded one per running step execution, and the coordinator's.

Rules it keeps (upstream zenflow's, see :mod:`runtime.messaging`):

* A mailbox exists while its execution runs: :meth:`MessageRouter.open` when the step's agent starts,
  :meth:`MessageRouter.close` when the step ends. Opening again (a retry, a resumed run) starts a fresh
  mailbox. The coordinator's mailbox is opened the same way, under ``coordinator``.
* :meth:`MessageRouter.send` resolves ``to`` (:mod:`runtime.messaging.addressing`) and either queues the
  message, refuses it (a container: ``rejected``, nothing is dropped because nothing was sent, as
  upstream's ``forward_to_agent`` checks this before sending), or drops it.
* Every message that is sent but never delivered is handed to ``on_drop`` exactly once, with its
  reason: refused at send (``unknown-step``, ``target-terminal``, ``mailbox-full``,
  ``workflow-cancelled``), still pending when its mailbox closes (``target-terminal``, or
  ``workflow-cancelled`` once the run is cancelled), discarded by the engine (:meth:`discard`:
  ``max-wake-cycles``, ``hold-timeout``) or still waiting when the run ends (:meth:`end_run`).
  Draining (:meth:`drain`) hands each queued message out once, oldest first.
* Mailboxes are bounded (:data:`DEFAULT_CAPACITY`, upstream's 10,000): a full mailbox keeps what it
  holds and refuses the newest (``mailbox-full``).
* With no coordinator in the run (it was never opened), a message to it answers ``dropped:
  no-coordinator`` and is not a drop: upstream's ``--quiet`` runs emit no ``message_dropped`` for it.
* :meth:`snapshot` keeps what is still undelivered as plain JSON-able data; :meth:`restore` puts it in
  a fresh router, where each message waits for its mailbox to open again and is then drained once (or
  dropped once at :meth:`end_run` when its step never runs again).

Single-threaded by design: the engine calls it from its event loop, so a send and a close never
interleave (the ``mailbox-closed-by-finalize`` race of upstream's threads cannot happen here).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Literal, TypedDict

from runtime.messaging.addressing import resolve, targetable
from runtime.messaging.messages import COORDINATOR, Drop, DropReason, Message, MessageDict, message_kind

DEFAULT_CAPACITY = 10_000  # messages one mailbox holds, as upstream's default
SNAPSHOT_VERSION = 1
NO_COORDINATOR: Final = "no-coordinator"  # send_message's answer in a run without a coordinator


class RouterSnapshot(TypedDict):
    """What a checkpoint keeps of a router: the messages not yet delivered, by mailbox, oldest first;
    the executions that finished and the containers (so a resumed run answers as the first one would);
    and how many messages were sent (ids go on from there)."""

    version: int
    sent: int
    pending: dict[str, list[MessageDict]]
    finished: list[str]
    containers: list[str]


@dataclass(frozen=True)
class SendResult:
    """What became of one :meth:`MessageRouter.send`. ``to``: the mailbox it went to, or ``to`` as written
    when it resolved to none; ``message``: None when nothing was sent (rejected, no coordinator);
    ``targets``: the ids a refusal offers instead. :attr:`text` is the tool's answer to the model."""

    status: Literal["queued", "dropped", "rejected"]
    to: str
    message: Message | None
    reason: DropReason | Literal["no-coordinator"] | None = None
    targets: tuple[str, ...] = ()
    ambiguous: bool = False

    @property
    def text(self) -> str:
        if self.status == "queued" and self.message is not None:
            return f"queued: {self.message.id}"
        if self.status == "rejected":
            where = (f"forward to a step running inside it ({', '.join(self.targets)}) or narrate the content instead"
                     if self.targets else "nothing runs inside it now; narrate the content instead")
            return f'rejected: "{self.to}" is a loop or include container with no agent of its own to read messages: {where}.'
        text = f"dropped: {self.reason}"
        if self.reason != DropReason.UNKNOWN_STEP:
            return text
        ids = ", ".join(self.targets) if self.targets else "none"
        if self.ambiguous:
            return (f'{text}. "{self.to}" names more than one running step: {ids}. '
                    "Retry with one of these ids, or narrate the content instead.")
        return (f'{text}. No running step has the id "{self.to}". Ids you can target now: {ids}. '
                "Retry with one of them, or narrate the content instead; a step that has not started yet cannot be reached.")


class MessageRouter:
    """The mailboxes of one run. ``on_drop`` receives each undeliverable message once (the engine turns it
    into one ``message_dropped`` event); ``capacity``: messages one mailbox holds."""

    def __init__(self, *, on_drop: Callable[[Drop], None], capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a mailbox's capacity must be at least 1, not {capacity}")
        self._on_drop = on_drop
        self._capacity = capacity
        self._boxes: dict[str, deque[Message]] = {}
        self._finished: dict[str, None] = {}  # closed mailboxes, oldest first (a dict keeps the order)
        self._containers: set[str] = set()
        self._held: dict[str, list[Message]] = {}  # restored messages waiting for their mailbox to open
        self._coordinator_seen = False
        self._sent = 0
        self._ended: DropReason | None = None

    # -- lifecycle -------------------------------------------------------------
    def open(self, step_path: str) -> None:
        """A step execution (or the coordinator) starts: its mailbox opens, holding any restored messages."""
        if self._ended is not None or step_path in self._boxes:
            return
        self._finished.pop(step_path, None)
        box: deque[Message] = deque()
        self._boxes[step_path] = box
        self._coordinator_seen |= step_path == COORDINATOR
        held = self._held.pop(step_path, [])
        for message in held[:self._capacity]:
            box.append(message)
        self._drop(held[self._capacity:], DropReason.MAILBOX_FULL, step_path)

    def close(self, step_path: str) -> None:
        """A step execution ends: what it never drained is dropped (``target-terminal``); later sends to it too."""
        box = self._boxes.pop(step_path, None)
        if box is None:
            return
        self._finished[step_path] = None
        self._drop(box, DropReason.TARGET_TERMINAL, step_path)

    def add_container(self, step_path: str) -> None:
        """Mark a loop or include step: it runs no agent, so messages to it are refused."""
        self._containers.add(step_path)

    def discard(self, step_path: str, reason: DropReason) -> int:
        """Drop what ``step_path``'s mailbox holds with ``reason`` (the coordinator past its wake cycles:
        ``max-wake-cycles``; a hold that timed out: ``hold-timeout``); the mailbox stays open. Returns how many."""
        box = self._boxes.get(step_path)
        if not box:
            return 0
        count = len(box)
        self._drop(box, reason, step_path)
        box.clear()
        return count

    def end_run(self, *, cancelled: bool = False) -> None:
        """The run is over (``cancelled``: it was stopped or halted): every mailbox closes, and what is still
        pending or held is dropped, ``workflow-cancelled`` when cancelled, else ``target-terminal``; later
        sends are dropped with the same reason. Idempotent."""
        if self._ended is not None:
            return
        reason = DropReason.WORKFLOW_CANCELLED if cancelled else DropReason.TARGET_TERMINAL
        self._ended = reason
        for path in list(self._boxes):
            box = self._boxes.pop(path)
            self._finished[path] = None
            self._drop(box, reason, path)
        held, self._held = self._held, {}
        for path, messages in held.items():
            self._drop(messages, reason, path)

    # -- messages --------------------------------------------------------------
    def send(self, sender: str, to: str, content: str, kind: object = "info") -> SendResult:
        """Queue ``content`` from ``sender`` for ``to`` (resolved as :mod:`~runtime.messaging.addressing`
        says); ``kind`` as ``forward_to_agent`` takes it (unknown: ``info``)."""
        if to == COORDINATOR and not self._coordinator_seen and self._ended is None:
            return SendResult("dropped", to, None, NO_COORDINATOR)
        found = resolve(to, self._boxes, list(self._finished), self._containers)
        if found.outcome == "container" and self._ended is None:
            return SendResult("rejected", to, None, targets=found.candidates)
        self._sent += 1
        prefix = "msg-fwd" if sender == COORDINATOR else "msg-send"
        message = Message(f"{prefix}-{self._sent}", sender, found.target, content, message_kind(kind))
        if self._ended is not None:
            return self._refuse(message, self._ended)
        if found.outcome == "terminal":
            return self._refuse(message, DropReason.TARGET_TERMINAL)
        if found.outcome in ("unknown", "ambiguous"):
            return self._refuse(message, DropReason.UNKNOWN_STEP, found.candidates, ambiguous=found.outcome == "ambiguous")
        box = self._boxes[found.target]
        if len(box) >= self._capacity:
            return self._refuse(message, DropReason.MAILBOX_FULL)
        box.append(message)
        return SendResult("queued", found.target, message)

    def drain(self, step_path: str) -> list[Message]:
        """Hand out what ``step_path``'s mailbox holds, oldest first; each message is handed out once."""
        box = self._boxes.get(step_path)
        if not box:
            return []
        messages = list(box)
        box.clear()
        return messages

    def is_open(self, path: str) -> bool:
        """Whether ``path`` has a mailbox now (asked at every model turn: a lookup, not :meth:`targets`'s sort)."""
        return path in self._boxes

    def waiting(self, step_path: str) -> int:
        """How many messages wait for ``step_path``: in its open mailbox, or restored and held until it opens."""
        box = self._boxes.get(step_path)
        return (len(box) if box else 0) + len(self._held.get(step_path, ()))

    def targets(self) -> tuple[str, ...]:
        """The step ids a message can be forwarded to now (for the coordinator's turn prompt)."""
        return targetable(self._boxes)

    # -- checkpoints -------------------------------------------------------------
    def snapshot(self) -> RouterSnapshot:
        """What is undelivered now, as plain JSON-able data (see :class:`RouterSnapshot`)."""
        pending = {path: [m.to_dict() for m in box] for path, box in self._boxes.items() if box}
        for path, messages in self._held.items():
            pending.setdefault(path, []).extend(m.to_dict() for m in messages)
        return {"version": SNAPSHOT_VERSION, "sent": self._sent, "pending": pending, "finished": list(self._finished),
                "containers": sorted(self._containers)}

    def restore(self, snapshot: object) -> None:
        """Take a :meth:`snapshot` into this fresh router: its messages wait for their mailboxes to open.
        A malformed snapshot is a ``ValueError`` naming the field; a router already in use is refused."""
        if self._boxes or self._finished or self._held or self._sent or self._ended is not None:
            raise RuntimeError("restore a snapshot into a fresh router, before any mailbox opens")
        if not isinstance(snapshot, dict):
            raise ValueError(f"a router snapshot must be an object, not {type(snapshot).__name__}")
        if snapshot.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"router snapshot `version` must be {SNAPSHOT_VERSION}, not {snapshot.get('version')!r}")
        sent, pending = snapshot.get("sent"), snapshot.get("pending")
        if not isinstance(sent, int) or isinstance(sent, bool) or sent < 0:
            raise ValueError("router snapshot `sent` must be a count (a whole number, 0 or more)")
        if not isinstance(pending, dict) or not all(isinstance(v, list) for v in pending.values()):
            raise ValueError("router snapshot `pending` must map mailbox ids to lists of messages")
        finished, containers = _ids(snapshot, "finished"), _ids(snapshot, "containers")
        held = {str(path): [Message.from_dict(m) for m in messages] for path, messages in pending.items() if messages}
        self._sent, self._held = sent, held
        self._finished = dict.fromkeys(finished)
        self._containers = set(containers)

    # -- drops -------------------------------------------------------------------
    def _refuse(self, message: Message, reason: DropReason, targets: tuple[str, ...] = (), *,
                ambiguous: bool = False) -> SendResult:
        self._on_drop(Drop(message, reason, message.to))
        return SendResult("dropped", message.to, message, reason, targets, ambiguous)

    def _drop(self, messages: Iterable[Message], reason: DropReason, target: str) -> None:
        for message in list(messages):
            self._on_drop(Drop(message, reason, target))


def _ids(snapshot: dict, name: str) -> list[str]:
    value = snapshot.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"router snapshot `{name}` must be a list of step ids")
    return value
