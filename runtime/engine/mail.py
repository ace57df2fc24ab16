"""A run's messaging as the engine drives it: one router, one shared memory, the coordinator's inbox, and
the events they cause.

:class:`RunMail` is ``ctx.mail``. What happens where:

* a step execution's mailbox opens when its agent starts and closes when it ends
  (:func:`runtime.engine.agent.run_agent_step` calls :meth:`RunMail.open` / :meth:`RunMail.close`, under
  the step's namespaced runtime id: ``worker``, ``loop.N.worker``, ``loop[N].worker``, ``include.worker``);
* loops and includes are marked containers, and lifecycle notices reach the coordinator's inbox, as their
  events are stamped (:meth:`RunMail.observe`, called by the run's observed sink, so no event site is
  missed);
* an agent drains its inbox at the start of every model turn (:meth:`RunMail.drain`: one
  ``agent_inbox_drain`` per message);
* ``send_message`` and the shared-memory tools (:meth:`RunMail.call`) and the coordinator's
  ``forward_to_agent`` (:meth:`RunMail.forward`) send through the router: ``message_sent`` /
  ``coordinator_message`` when queued;
* every message the router gives up on becomes exactly one ``message_dropped`` (the router reports each
  drop once; :meth:`RunMail.flush` emits them after each operation, because the router's callback is
  synchronous and the emitter is not);
* a run started from a checkpoint starts from its messaging (:meth:`RunMail.restore`), which
  :mod:`runtime.engine.mail_fold` folds from these very events.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from runtime.engine.shapes import WorkflowDoc
from runtime.messaging import (
    COORDINATOR,
    DEFAULT_CAPACITY,
    LIFECYCLE_EVENTS,
    CoordinatorInbox,
    Drop,
    DropReason,
    Message,
    MessageRouter,
    SendResult,
    SharedMemory,
)
from runtime.tools import ToolError
from runtime.tools import messaging as tools

Emit = Callable[..., Awaitable[dict]]
NOTICE_TEXT_LIMIT = 500  # characters of a step's output or error quoted in a lifecycle notice


class RunMail:
    """The router, shared memory (None when off) and coordinator inbox (None without a coordinator) of one run."""

    def __init__(self, emit: Emit, *, shared_memory: bool = False, capacity: int = DEFAULT_CAPACITY) -> None:
        self._emit = emit
        self._drops: list[Drop] = []
        self.router = MessageRouter(on_drop=self._drops.append, capacity=capacity)
        self.memory = SharedMemory() if shared_memory else None
        self.inbox: CoordinatorInbox | None = None
        self.restored_coordinator: Mapping[str, Any] | None = None  # the checkpoint's, for the coordinator to go on from

    def restore(self, mail: Mapping[str, Any]) -> None:
        """Start from a checkpoint's messaging (:mod:`runtime.engine.mail_fold`): undelivered messages wait for their
        mailboxes to open again, shared memory holds what was written (when this run has it on), and the
        coordinator's state waits for :func:`runtime.engine.coordination.start`. Before any mailbox opens."""
        if mail.get("router"):
            self.router.restore(mail["router"])
        if mail.get("memory") and self.memory is not None:
            self.memory.restore(mail["memory"])
        self.restored_coordinator = mail.get("coordinator") or None

    def with_coordinator(self) -> CoordinatorInbox:
        """Give the run a coordinator: its mailbox opens, and lifecycle notices start reaching it."""
        self.router.open(COORDINATOR)
        self.inbox = CoordinatorInbox(self.router)
        return self.inbox

    # -- the steps' side ---------------------------------------------------------
    def is_open(self, step_path: str) -> bool:
        return self.router.is_open(step_path)

    async def open(self, step_path: str) -> None:
        self.router.open(step_path)
        await self.flush()  # restored messages over the mailbox's capacity

    async def close(self, step_path: str) -> None:
        self.router.close(step_path)
        await self.flush()

    async def drain(self, step_path: str, *, agent: str, agent_id: str, turn: int) -> list[dict]:
        """What ``step_path``'s mailbox holds, as user messages for its conversation, one event each."""
        out = []
        for message in self.router.drain(step_path):
            await self._emit("agent_inbox_drain", step_id=step_path, agent=agent, agentId=agent_id,
                             message=f"received from {message.sender}", data={**_about(message), "turn": turn})
            out.append({"role": "user", "content": inbox_text(message)})
        return out

    async def call(self, name: str, args: dict, *, step_path: str, agent: str) -> str:
        """Run one messaging tool call for the agent ``agent`` of ``step_path``; its answer to the model."""
        if name == tools.SEND_MESSAGE:
            sent = tools.send(self.router, step_path, args)
            if sent.status == "queued" and sent.message is not None:
                if self.inbox is not None:
                    self.inbox.message_queued(sent.message.id)
                await self._emit("message_sent", step_id=step_path, agent=agent,
                                 message=f"sent to {COORDINATOR}", data=_about(sent.message))
            await self.flush()
            return sent.text
        if name == tools.MEMORY_WRITE:
            return tools.write(self.memory, agent, args)
        if name == tools.MEMORY_READ:
            return tools.read(self.memory, args)
        raise ToolError(f"{name!r} is not a messaging tool")

    # -- the coordinator's side ------------------------------------------------
    async def forward(self, to: str, text: str, kind: object) -> SendResult:
        """``forward_to_agent``: from the coordinator to a running step, by bare or namespaced id."""
        sent = self.router.send(COORDINATOR, to, text, kind)
        if sent.status == "queued" and sent.message is not None:
            await self._emit("coordinator_message", step_id=sent.to, agent=COORDINATOR,
                             message=f"forwarded to {sent.to}", data=_about(sent.message))
        await self.flush()
        return sent

    def observe(self, event: dict[str, Any]) -> None:
        """Called as each event is stamped: containers are marked, lifecycle notices reach the coordinator."""
        kind, step = event["type"], event.get("stepId")
        if not step:
            return
        data = event.get("data") or {}
        if kind == "step_start" and (data.get("loop_type") or data.get("include")):
            self.router.add_container(step)
        if self.inbox is not None and kind in LIFECYCLE_EVENTS:
            self.inbox.notice(kind, step, notice_text(event), event["seq"])

    # -- the end -----------------------------------------------------------------
    async def end_run(self, *, cancelled: bool) -> None:
        self.router.end_run(cancelled=cancelled)
        await self.flush()

    async def flush(self) -> None:
        """One ``message_dropped`` per drop the router reported since the last flush, in order."""
        while self._drops:
            drop = self._drops.pop(0)
            message = drop.message
            # The event sits on the step it was meant for when that step exists, else on its sender's.
            known = drop.target != COORDINATOR and drop.reason != DropReason.UNKNOWN_STEP
            step = drop.target if known else message.sender
            await self._emit("message_dropped", step_id=step if step != COORDINATOR else None,
                             message=f"{message.id} to {drop.target} dropped: {drop.reason.value}",
                             data={**_about(message), "to": drop.target, "reason": drop.reason.value})


def lists_memory_tools(document: WorkflowDoc) -> bool:
    """An agent of the document names a shared-memory tool: the run has shared memory on."""
    return any(isinstance(agent, dict) and any(t in (tools.MEMORY_WRITE, tools.MEMORY_READ) for t in agent.get("tools") or [])
               for agent in (document.get("agents") or {}).values())


def _about(message: Message) -> dict:
    return {"id": message.id, "sender": message.sender, "to": message.to, "kind": message.kind,
            "text": message.content}


def inbox_text(message: Message) -> str:
    """A drained message as the agent reads it: a header naming the sender (and the kind), then the text."""
    kind = "" if message.kind == "info" else f", {message.kind}"
    return f"[Message from {message.sender}{kind} ({message.id})]\n{message.content}"


def notice_text(event: Mapping[str, Any]) -> str:
    """A lifecycle event in a line the coordinator reads."""
    kind, step, data = event["type"], event["stepId"], event.get("data") or {}
    if kind == "step_start":
        what = f" ({data['loop_type']} loop)" if data.get("loop_type") else \
            f" (include {data['include']})" if data.get("include") else ""
        return f"{step} started{what}"
    if kind == "step_skipped":
        return f"{step} skipped: {event.get('message') or data.get('reason') or ''}".rstrip(": ")
    if kind == "error":
        return f"{step} error: {_cut(event.get('error') or '')}"
    status = data.get("status", "ended")
    detail = event.get("error") if status == "failed" else data.get("content")
    return f"{step} {status}" + (f": {_cut(str(detail))}" if detail else "")


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NOTICE_TEXT_LIMIT else text[:NOTICE_TEXT_LIMIT] + "…"
