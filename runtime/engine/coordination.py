"""The coordinator inside a run: started beside the steps, finished after them.

:func:`start` gives the run's mail a coordinator inbox and starts :class:`runtime.coordinator.Coordinator`
as a companion task (a halt cancels it with the steps). Its model is reached through :class:`_Hooks`, the
same way a step agent's is: it waits out a pause (``ctx.until_resumed``), asks the run's permit
(``ctx.check_permit``), is framed by ``agent_turn`` request and response events (``agent`` and
``agentId`` ``coordinator``, no ``stepId``) and its tokens and cost are counted by ``ctx.account``, so
they are in the run's totals, its budgets and its checkpoints. :func:`finish` asks for the synthesis once
the steps have ended (not after a halt: nothing more may be spent then). A run started from a checkpoint gives
its coordinator the conversation, wake count and inbox it had there (``ctx.mail.restored_coordinator``).
"""
from __future__ import annotations

import asyncio
from typing import Any

from runtime.coordinator import Coordinator, CoordinatorSettings, Synthesis, first_agent_model
from runtime.engine.context import RunContext
from runtime.messaging import COORDINATOR, DropReason, SendResult
from runtime.providers import ChatReply, ChatRequest

WHO: dict[str, Any] = {"agent": COORDINATOR, "agentId": COORDINATOR}


class _Hooks:
    """What the coordinator may do in this run (runtime.coordinator.runner.Hooks)."""

    def __init__(self, ctx: RunContext, model: str) -> None:
        self.ctx = ctx
        self.model = model
        self.provider, self.model_name, self.provider_name = ctx.provider_for(model)
        self.turn = 0

    async def ask(self, messages: list[dict], tools: list[dict], wake: dict | None = None) -> ChatReply:
        ctx, emit = self.ctx, self.ctx.emitter.emit
        await ctx.until_resumed()
        self.turn += 1
        since = next((i for i in range(len(messages) - 1, -1, -1) if messages[i]["role"] == "assistant"), 0)
        data: dict = {"phase": "request", "model": self.model or self.model_name or self.provider_name,
                      "provider": self.provider_name, "turn": self.turn,
                      "input": [m["content"] for m in messages[since + 1:]]}
        if self.turn == 1:
            data["prompt"] = {"system": messages[0]["content"]}
            data["tools"] = [t["name"] for t in tools]
        if wake is not None:  # which wake this is and what it read: the checkpoint's fold needs both
            data["wake"] = wake
        await emit("agent_turn", **WHO, data=data)
        request = ChatRequest(model=self.model_name, messages=list(messages), tools=tools, step_path=COORDINATOR,
                              step_id=COORDINATOR, agent=COORDINATOR)
        await ctx.check_permit(self.provider_name)
        started = ctx.clock()
        reply = await self.provider.chat(request, None)
        usage = reply.usage
        billed = self.model or reply.model or self.model_name
        cost = ctx.account(usage, billed, self.provider_name)  # counted right before the event that carries it
        await emit("agent_turn", **WHO, duration=ctx.clock() - started,
                   tokens={"prompt": usage.prompt, "completion": usage.completion, "total": usage.total},
                   data={"phase": "response", "model": reply.model or self.model_name, "turn": self.turn,
                         "content": reply.content, "finish_reason": reply.finish_reason,
                         "tool_calls": [{"id": c.id, "name": c.name} for c in reply.tool_calls],
                         "cost_usd": cost, **({"unpriced_model": billed} if cost is None else {})})
        return reply

    async def forward(self, to: str, text: str, kind: object) -> SendResult:
        return await self.ctx.mail.forward(to, text, kind)

    async def discard(self, reason: DropReason) -> int:
        inbox = self.ctx.mail.inbox
        dropped = inbox.discard(reason) if inbox is not None else 0
        await self.ctx.mail.flush()
        return dropped

    def targets(self) -> tuple[str, ...]:
        return self.ctx.mail.router.targets()

    async def warn(self, text: str) -> None:
        await self.ctx.warn(text)


def start(ctx: RunContext, settings: CoordinatorSettings | None) -> Coordinator | None:
    """The run's coordinator, started (None when the run has none)."""
    if settings is None or not settings.on:
        return None
    inbox = ctx.mail.with_coordinator()
    hooks = _Hooks(ctx, settings.model or ctx.model_of(first_agent_model(ctx.document)))
    coordinator = Coordinator(settings, inbox, hooks, ctx.emitter.emit, name=str(ctx.document.get("name") or ""),
                              goal=ctx.goal)
    restored = ctx.mail.restored_coordinator
    if restored:  # a resumed run or a fork: it goes on where it was at the checkpoint
        coordinator.restore(restored)
        hooks.turn = int(restored.get("turns") or 0)
    task = coordinator.start()
    ctx.companions.add(task)
    return coordinator


async def finish(ctx: RunContext, coordinator: Coordinator | None, status: str) -> Synthesis | None:
    """The steps have ended: the coordinator's last wake, for the synthesis (none after a halt)."""
    if coordinator is None:
        return None
    # A companion task, so that a budget crossed by this very call cancels it like any other model call.
    task = asyncio.create_task(coordinator.finish(status, ask=not ctx.halted))
    ctx.companions.add(task)
    await asyncio.gather(task, return_exceptions=True)
    ctx.companions.discard(task)
    return coordinator.synthesis
