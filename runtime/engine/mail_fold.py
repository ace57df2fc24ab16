"""A run's messaging at any event, folded from the events it already emits: what a checkpoint keeps of it.

The checkpoint's ``mail`` (plain JSON, each part only when it holds anything):

* ``router``: a :class:`runtime.messaging.router.RouterSnapshot`: every message queued (``message_sent`` to the
  coordinator, ``coordinator_message`` to a step) and not yet read (``agent_inbox_drain``; the coordinator's wake
  below) nor dropped (``message_dropped``), by mailbox, oldest first; the id counter; the step executions whose
  mailbox closed (an agent step that asked its model, then ended) and the containers (loops, includes).
* ``memory``: shared memory, ``agent/key`` -> value, from each ``shared_memory_write`` whose ``tool_call`` ended
  without an error (the value is the start's input, the namespace the event's agent).
* ``coordinator``: once the coordinator has been seen at work: its conversation as its model was sent it
  (``agent_turn`` requests carry what was added since the model's last reply, responses the reply, the coordinator's
  ``tool_call`` starts the arguments of its calls), its wake count, the turns its model answered, whether it
  was warned of its wake cap, its synthesis, and its inbox: the lifecycle notices and messages it has not read.

Rules the fold keeps, so that nothing is delivered twice nor lost:

* A message counts as delivered to a step at its ``agent_inbox_drain``, and to the coordinator only once the
  wake that read it (``coordinator_inbox_message``) has sent its model the news (its first request, which names
  the wake's ``cycle`` and ``through``, the last notice it read). A wake the checkpoint saw begin but not ask
  is undone: what it read waits again.
* A step running at the checkpoint runs again from its start, so what it had not drained by then is held for
  its new mailbox; what it drained after the checkpoint was lost with its conversation and is given again.

The engine's :class:`runtime.engine.registry.RunState`, when its own checkpoints are taken (``on_boundary``), folds
the events it stamps with this same class rather than reading its live router: the router and the inbox hand
messages out before the events that announce them (three drained messages are three events, with awaits between),
and only the events say what a checkpoint may count as delivered.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from runtime.engine.mail import notice_text
from runtime.engine.shapes import JUDGE_STEP
from runtime.messaging import COORDINATOR, LIFECYCLE_EVENTS, SharedMemory
from runtime.messaging.router import SNAPSHOT_VERSION
from runtime.tools.messaging import MEMORY_WRITE

_QUEUED = ("message_sent", "coordinator_message")
NOT_RUN = "error: not run: the run stopped before this call ran; call it again if it is still needed"
# Every event type the fold reads: the engine's state hands it only these.
MAIL_EVENT_TYPES = frozenset({*LIFECYCLE_EVENTS, *_QUEUED, "agent_turn", "tool_call", "agent_inbox_drain",
                              "coordinator_inbox_message", "message_dropped", "max_wake_cycles_warning",
                              "coordinator_synthesis"})


class CoordinatorFold:
    """The coordinator's part of the fold (see the module's docstring)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []  # the conversation up to and with the model's last reply
        self.after: list[dict[str, Any]] = []     # what the latest request added after that reply
        self.calls: list[dict[str, Any]] = []     # the last reply's tool calls, their arguments filled in as they start
        self.answers: dict[str, str] = {}         # their answers as they end, until the next request carries them
        self.cycles = 0
        self.turns = 0
        self.warned = False
        self.synthesis: dict[str, str] | None = None
        self.inbox: list[dict[str, Any]] = []     # {"notice": {event, sender, text, seq}} or {"message": id}
        self.read: set[str] = set()               # message ids a wake read before its request
        self.through = 0

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> CoordinatorFold:
        out = cls()
        out.messages = copy.deepcopy(list(state.get("messages") or []))
        out.cycles, out.turns = int(state.get("cycles") or 0), int(state.get("turns") or 0)
        out.warned = bool(state.get("warned"))
        out.synthesis = copy.deepcopy(state.get("synthesis"))
        out.inbox = copy.deepcopy(list(state.get("inbox") or []))
        out.through = int(state.get("through") or 0)
        return out

    def request(self, data: dict[str, Any]) -> set[str]:
        """A request of its model; returns the ids of the messages its wake read, now read for good."""
        if data.get("turn") == 1 and isinstance(data.get("prompt"), dict):
            self.messages = [{"role": "system", "content": data["prompt"].get("system") or ""}]
        inputs = data.get("input") or []
        calls = self.calls
        self.after = [{"role": "tool", "tool_call_id": calls[i]["id"], "name": calls[i]["name"], "content": text}
                      if i < len(calls) else {"role": "user", "content": text} for i, text in enumerate(inputs)]
        wake = data.get("wake")
        if not isinstance(wake, dict):
            return set()
        # The wake's news reached the model: what it read is read.
        self.cycles = int(wake.get("cycle") or self.cycles)
        self.through = max(self.through, int(wake.get("through") or 0))
        read, through = self.read, self.through
        self.inbox = [e for e in self.inbox if e.get("message") not in read
                      and ("notice" not in e or e["notice"]["seq"] > through)]
        self.read = set()
        return read

    def response(self, data: dict[str, Any]) -> None:
        self.turns = int(data.get("turn") or self.turns + 1)
        self.calls = [{"id": c.get("id"), "name": c.get("name"), "arguments": None} for c in data.get("tool_calls") or []]
        self.answers = {}
        self.messages += self.after
        self.messages.append({"role": "assistant", "content": data.get("content"), "tool_calls": self.calls})
        self.after = []

    def called(self, data: dict[str, Any]) -> None:
        if data.get("phase") == "end":
            self.answers[str(data.get("tool_call_id"))] = str(data.get("output") or "")
            return
        for call in self.calls:
            if call["id"] == data.get("tool_call_id"):
                call["arguments"] = data.get("input")

    def notice(self, event: Mapping[str, Any]) -> None:
        if not self.warned:  # past its cap it reads nothing more
            self.inbox.append({"notice": {"event": event["type"], "sender": event["stepId"], "text": notice_text(event),
                                          "seq": event["seq"]}})

    def forget(self, message_id: str) -> None:
        self.inbox = [e for e in self.inbox if e.get("message") != message_id]
        self.read.discard(message_id)

    def state(self) -> dict[str, Any]:
        after = self.after
        if not after and self.calls:
            # Its last reply's calls, before the request that carries their answers: each is answered as it ended,
            # or, when the checkpoint came before it ran, as not run (every call is answered, as providers require).
            after = [{"role": "tool", "tool_call_id": c["id"], "name": c["name"],
                      "content": self.answers.get(str(c["id"]), NOT_RUN)} for c in self.calls]
        return copy.deepcopy({"messages": self.messages + after, "cycles": self.cycles, "turns": self.turns,
                              "warned": self.warned, "synthesis": self.synthesis, "inbox": self.inbox,
                              "through": self.through})


class MailFold:
    """Feed events in ``seq`` order with :meth:`apply` (only :data:`MAIL_EVENT_TYPES` matter); :meth:`state` is
    the checkpoint's ``mail``."""

    def __init__(self) -> None:
        self.sent = 0
        self.pending: dict[str, dict[str, dict[str, Any]]] = {}  # mailbox -> message id -> message, oldest first
        self.box_of: dict[str, str] = {}                         # message id -> its mailbox, while pending
        self.asked: set[str] = set()                             # agent steps that asked their model (a mailbox)
        self.finished: dict[str, None] = {}                      # closed mailboxes, oldest first
        self.containers: set[str] = set()
        self.memory: dict[str, str] = {}
        self.writing: dict[tuple[str, str], Any] = {}            # (step, tool call id) -> a write's input
        self.coordinator: CoordinatorFold | None = None

    @classmethod
    def starting_from(cls, mail: dict[str, Any] | None) -> MailFold:
        """The fold of a run that started from a checkpoint with this ``mail``."""
        out = cls()
        if not mail:
            return out
        router = mail.get("router") or {}
        out.sent = int(router.get("sent") or 0)
        for box, messages in (router.get("pending") or {}).items():
            for message in messages:
                out._queue(box, copy.deepcopy(message))
        out.finished = dict.fromkeys(router.get("finished") or [])
        out.containers = set(router.get("containers") or [])
        out.memory = dict(mail.get("memory") or {})
        if mail.get("coordinator"):
            out.coordinator = CoordinatorFold.from_state(mail["coordinator"])
        return out

    def apply(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        data = event.get("data") or {}
        path = event.get("stepId") or ""
        coordinator = self.coordinator
        if kind in LIFECYCLE_EVENTS:
            if path:
                if kind == "step_start" and (data.get("loop_type") or data.get("include")):
                    self.containers.add(path)
                elif kind == "step_end" and path in self.asked:
                    self.asked.discard(path)
                    self.finished.pop(path, None)
                    self.finished[path] = None
                if coordinator is not None:
                    coordinator.notice(event)
            return
        if kind == "agent_turn":
            if not path:
                if event.get("agent") == COORDINATOR:
                    coordinator = self._coordinator()
                    if data.get("phase") == "request":
                        for message_id in coordinator.request(data):
                            self._unqueue(message_id)
                    elif data.get("phase") == "response":
                        coordinator.response(data)
            elif data.get("phase") == "request" and data.get("turn") == 1 \
                    and (event.get("where") or {}).get("inner") != JUDGE_STEP:
                self.asked.add(path)  # its mailbox is open (again, after a retry)
                self.finished.pop(path, None)
            return
        if kind == "tool_call":
            self._tool_call(event, data, path)
            return
        if kind in _QUEUED:
            message = {"id": data.get("id"), "sender": data.get("sender"), "to": data.get("to"),
                       "content": data.get("text") or "", "kind": data.get("kind") or "info"}
            self._count(message["id"])
            self._queue(COORDINATOR if kind == "message_sent" else str(message["to"]), message)
            if kind == "message_sent" and self.coordinator is not None:
                self.coordinator.inbox.append({"message": message["id"]})
        elif kind == "agent_inbox_drain":
            self._unqueue(data.get("id"))
        elif kind == "coordinator_inbox_message":
            if data.get("id"):
                self._coordinator().read.add(data["id"])
        elif kind == "message_dropped":
            self._count(data.get("id"))
            self._unqueue(data.get("id"))
            if self.coordinator is not None:
                self.coordinator.forget(data.get("id") or "")
        elif kind == "max_wake_cycles_warning":
            coordinator = self._coordinator()
            coordinator.warned = True
            coordinator.inbox.clear()
            coordinator.read.clear()
        elif kind == "coordinator_synthesis":
            self._coordinator().synthesis = {"summary": data.get("summary") or "", "source": data.get("source") or "finalize"}

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.sent or self.coordinator is not None or self.box_of:
            out["router"] = {"version": SNAPSHOT_VERSION, "sent": self.sent,
                             "pending": {box: copy.deepcopy(list(messages.values()))
                                         for box, messages in self.pending.items() if messages},
                             "finished": list(self.finished), "containers": sorted(self.containers)}
        if self.memory:
            out["memory"] = dict(self.memory)
        if self.coordinator is not None:
            out["coordinator"] = self.coordinator.state()
        return out

    # -- pieces ------------------------------------------------------------------------
    def _coordinator(self) -> CoordinatorFold:
        if self.coordinator is None:
            self.coordinator = CoordinatorFold()
        return self.coordinator

    def _tool_call(self, event: Mapping[str, Any], data: dict[str, Any], path: str) -> None:
        if not path:
            if event.get("agent") == COORDINATOR and self.coordinator is not None:
                self.coordinator.called(data)
            return
        if data.get("tool_name") != MEMORY_WRITE:
            return
        key = (path, str(data.get("tool_call_id")))
        if data.get("phase") == "start":
            self.writing[key] = data.get("input")
            return
        args = self.writing.pop(key, None)
        if event.get("error") is None and isinstance(args, dict) and isinstance(args.get("key"), str) \
                and isinstance(args.get("value"), str):
            self.memory[SharedMemory.qualified(str(event.get("agent") or ""), args["key"])] = args["value"]

    def _queue(self, box: str, message: dict[str, Any]) -> None:
        self.pending.setdefault(box, {})[message["id"]] = message
        self.box_of[message["id"]] = box

    def _unqueue(self, message_id: object) -> None:
        if not isinstance(message_id, str):
            return
        box = self.box_of.pop(message_id, None)
        if box is not None:
            self.pending[box].pop(message_id, None)

    def _count(self, message_id: object) -> None:
        """Ids go on from the highest seen (``msg-send-<n>`` and ``msg-fwd-<n>`` share one counter)."""
        if isinstance(message_id, str):
            number = message_id.rpartition("-")[2]
            if number.isdigit():
                self.sent = max(self.sent, int(number))
