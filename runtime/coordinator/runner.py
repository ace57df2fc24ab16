"""The coordinator's loop: woken by its inbox, one model conversation for the whole run.

:meth:`Coordinator.run` is a task beside the run's steps. Every arrival in the inbox (a lifecycle notice,
a ``send_message``) sets :attr:`CoordinatorInbox.woken`; the loop then takes everything pending (a
``coordinator_inbox_message`` per message; a lifecycle notice repeats an event the run already has), tells
the model in one user message (with the ids it can target now), and runs its tool calls, turn after turn, until a reply calls none (at most
:data:`TURNS_PER_WAKE`). News that arrives during a wake waits for the next one, so a busy run is
batched, never queued up one model call per event.

Wakes are counted: past ``max_wake_cycles`` the model is not asked again; what is pending is dropped with
``max-wake-cycles`` (one ``message_dropped`` per message) and a single ``max_wake_cycles_warning`` says so.

:meth:`Coordinator.finish` is called once the steps have ended: the loop stops and one last wake asks
for the synthesis. ``finalize``'s summary (the last call's) is the run's summary; without any, the last
wake's own text stands in. The model is reached only through :class:`Hooks` (the engine's: pause,
permits, events, tokens and cost), so this package knows nothing of the engine.

A coordinator restored from a checkpoint (:meth:`Coordinator.restore`) goes on with the conversation, wake count,
warning and synthesis it had there: nothing it narrated is narrated again, and its wakes are numbered on.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from runtime.coordinator import prompt
from runtime.coordinator.modes import CoordinatorSettings
from runtime.coordinator.tools import FINALIZE, NARRATE, names_for, specs_for
from runtime.messaging import COORDINATOR, CoordinatorInbox, DropReason, InboxItem, SendResult, message_kind
from runtime.providers import ChatReply, ProviderError, ToolCall

log = logging.getLogger(__name__)

TURNS_PER_WAKE = 8  # model requests one wake may take while the model keeps calling tools


class Hooks(Protocol):
    """What the engine gives the coordinator."""

    async def ask(self, messages: list[dict], tools: list[dict], wake: dict | None = None) -> ChatReply:
        """One model request (waits out a pause, asks the permit, emits ``agent_turn``, counts the spend). ``wake``:
        on a wake's first request, its cycle and the last notice it read (``through``), for the request's event."""

    async def forward(self, to: str, text: str, kind: object) -> SendResult:
        """``forward_to_agent`` through the run's router."""

    async def discard(self, reason: DropReason) -> int:
        """Drop what the inbox holds with ``reason``; how many messages."""

    def targets(self) -> tuple[str, ...]:
        """The step ids a message can be forwarded to now."""

    async def warn(self, text: str) -> None:
        """Say something went wrong, without ending the run."""


Emit = Callable[..., Awaitable[dict]]


@dataclass
class Synthesis:
    summary: str
    source: str  # "finalize" or "reply"


class Coordinator:
    """One run's coordinator (see the module's docstring)."""

    def __init__(self, settings: CoordinatorSettings, inbox: CoordinatorInbox, hooks: Hooks, emit: Emit, *,
                 name: str, goal: str) -> None:
        self.settings = settings
        self.inbox = inbox
        self.hooks = hooks
        self._emit = emit
        self.messages: list[dict[str, Any]] = [{"role": "system",
                                                 "content": prompt.system_prompt(settings.mode, name, goal)}]
        self.cycles = 0
        self.synthesis: Synthesis | None = None
        self.warned = False
        self._lock = asyncio.Lock()
        self._loop: asyncio.Task | None = None

    def restore(self, state: Mapping[str, Any]) -> None:
        """Go on from a checkpoint's coordinator (:mod:`runtime.engine.mail_fold` folds it from the events): its
        conversation, wake count, warning and synthesis, and what waited in its inbox. Before :meth:`start`."""
        messages = state.get("messages") or []
        if messages:  # none when the checkpoint came before its first request: its own system prompt stands
            self.messages = [_message(m) for m in messages]
        self.cycles = int(state.get("cycles") or 0)
        self.warned = bool(state.get("warned"))
        synthesis = state.get("synthesis")
        if isinstance(synthesis, dict):
            self.synthesis = Synthesis(str(synthesis.get("summary") or ""), str(synthesis.get("source") or "finalize"))
        entries: list[InboxItem | str] = []
        for entry in state.get("inbox") or []:
            if "message" in entry:
                entries.append(str(entry["message"]))
            else:
                notice = entry["notice"]
                entries.append(InboxItem("lifecycle", notice["sender"], notice["text"], event=notice["event"],
                                         seq=notice["seq"]))
        self.inbox.restore(entries, int(state.get("through") or 0))

    # -- the loop ----------------------------------------------------------------
    def start(self) -> asyncio.Task:
        self._loop = asyncio.create_task(self.run())
        return self._loop

    async def run(self) -> None:
        while True:
            await self.inbox.woken.wait()
            async with self._lock:
                try:
                    await self.wake()
                except Exception as exc:  # a bug here must not end the run: its steps go on without narration
                    log.exception("coordinator wake %s failed", self.cycles)
                    await self.hooks.warn(f"coordinator: wake {self.cycles} failed inside this runtime "
                                          f"({exc.__class__.__name__})")

    async def finish(self, status: str, *, ask: bool = True) -> Synthesis | None:
        """The steps have ended: stop the loop, then (``ask``) one last wake for the synthesis."""
        async with self._lock:  # a wake under way ends first; the loop then waits, and is stopped there
            if self._loop is not None:
                self._loop.cancel()
                await asyncio.gather(self._loop, return_exceptions=True)
            if ask:
                await self.wake(final=status)
        return self.synthesis

    # -- one wake ----------------------------------------------------------------
    async def wake(self, final: str | None = None) -> None:
        if self.cycles >= self.settings.max_wake_cycles:
            await self._capped()
            return
        items = self.inbox.take()
        if not items and final is None:
            return
        self.cycles += 1
        wake = {"cycle": self.cycles, "through": self.inbox.through}
        for item in items:
            if item.source == "message":  # lifecycle notices repeat events the run already has: not said twice
                await self._emit("coordinator_inbox_message", step_id=item.sender, agent=COORDINATOR,
                                 message=f"coordinator read: {item.text}", data=_item_data(item, self.cycles))
        text = prompt.final_prompt(self.cycles, items, final) if final is not None else \
            prompt.wake_prompt(self.cycles, items, self.hooks.targets())
        self.messages.append({"role": "user", "content": text})
        try:
            last = await self._converse(wake)
        except ProviderError as exc:
            await self.hooks.warn(f"coordinator: wake {self.cycles} failed: {exc}")
            return
        if final is not None and self.synthesis is None and last.strip():
            await self._synthesise(last.strip(), "reply")

    async def _converse(self, wake: dict) -> str:
        """Model turns until a reply calls no tool; the last reply's text."""
        tools = specs_for(self.settings.mode)
        text = ""
        for turn in range(TURNS_PER_WAKE):
            reply = await self.hooks.ask(self.messages, tools, wake if turn == 0 else None)
            text = reply.content or ""
            self.messages.append({"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls})
            if not reply.tool_calls:
                break
            for call in reply.tool_calls:
                answer = await self._call(call)
                self.messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": answer})
        return text

    async def _call(self, call: ToolCall) -> str:
        args = call.arguments if isinstance(call.arguments, dict) else {}
        if call.name not in names_for(self.settings.mode):
            return f"error: tool {call.name!r} is not available (your tools: {', '.join(names_for(self.settings.mode))})"
        await self._emit("tool_call", agent=COORDINATOR, agentId=COORDINATOR,
                         data={"phase": "start", "tool_name": call.name, "tool_call_id": call.id, "input": call.arguments})
        started = time.monotonic()
        answer = await self._carry_out(call.name, args)
        # Timed as a step agent's calls are: upstream's consumers read `duration` on every tool_call end.
        await self._emit("tool_call", agent=COORDINATOR, agentId=COORDINATOR, duration=time.monotonic() - started,
                         error=answer[len("error: "):] if answer.startswith("error: ") else None,
                         data={"phase": "end", "tool_name": call.name, "tool_call_id": call.id, "output": answer})
        return answer

    async def _carry_out(self, name: str, args: dict) -> str:
        if name == NARRATE:
            text = args.get("text")
            if not isinstance(text, str) or not text.strip():
                return "error: `text` is required and must be a non-empty string"
            await self._narrate(text.strip())
            return "narrated"
        if name == FINALIZE:
            summary = args.get("summary")
            await self._synthesise(summary.strip() if isinstance(summary, str) else "", "finalize")
            return "finalized"
        target, text = args.get("target_step_id"), args.get("text")
        if not isinstance(target, str) or not target.strip():
            return "error: `target_step_id` is required and must be a step id"
        if not isinstance(text, str) or not text.strip():
            return "error: `text` is required and must be a non-empty string"
        sent = await self.hooks.forward(target.strip(), text, message_kind(args.get("kind")))
        if sent.status == "rejected" and self.settings.mode == "narrate":
            await self._narrate(text, rejected=target.strip())  # upstream keeps the content as a narration
        return sent.text

    async def _narrate(self, text: str, rejected: str | None = None) -> None:
        await self._emit("coordinator_narration", agent=COORDINATOR, message=text,
                         data={"text": text, "cycle": self.cycles, **({"rejected_target": rejected} if rejected else {})})

    async def _synthesise(self, summary: str, source: str) -> None:
        self.synthesis = Synthesis(summary, source)  # the last call wins
        await self._emit("coordinator_synthesis", agent=COORDINATOR, message=summary or None,
                         data={"summary": summary, "source": source})

    async def _capped(self) -> None:
        dropped = await self.hooks.discard(DropReason.MAX_WAKE_CYCLES)
        if not self.warned:
            self.warned = True
            limit = self.settings.max_wake_cycles
            await self._emit("max_wake_cycles_warning", agent=COORDINATOR,
                             message=f"the coordinator reached its {limit} wake cycles: it reads nothing more in this "
                                     "run, and messages sent to it are dropped",
                             data={"limit": limit, "dropped": dropped})


def _message(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A conversation message as a checkpoint keeps it (tool calls as plain objects), as the providers take it."""
    message = dict(stored)
    if message.get("role") == "assistant":
        message["tool_calls"] = [ToolCall(str(c["id"]), str(c["name"]), c.get("arguments"))
                                 for c in message.get("tool_calls") or []]
    return message


def _item_data(item: InboxItem, cycle: int) -> dict:
    return {"source": item.source, "sender": item.sender, "text": item.text, "cycle": cycle,
            **({"id": item.id, "kind": item.kind} if item.id else {}), **({"event": item.event} if item.event else {})}
