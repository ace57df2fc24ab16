"""One agent turn on its own (issue #33, "try one step alone"): a step execution of a finished run, run again with
its assembled prompt (as recorded, or edited) and its agent's settings (as they were, or changed), outside any run.

It goes through :func:`runtime.engine.agent.converse`, the very loop a run uses (the turn loop, ``submit_result``
and its reminder, tool calls when ``tools`` are given), in a context of its own: its events go to ``sink`` only, it
counts no agent step, and nothing of the parent run (its events, its spend, its workspace) is read or written. The
prompt is not assembled again: the caller gives the text the execution was sent (runtime.engine.prompting built it
then), so what is tried is exactly what the model saw, with only the edits asked for.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from runtime.engine.agent import Conversation, converse
from runtime.engine.context import RunContext
from runtime.engine.pricing import PriceBook
from runtime.engine.shapes import WorkflowDoc
from runtime.engine.state import Budgets, RunControl
from runtime.engine.toolcalls import step_workspace
from runtime.events import Emitter, Sink
from runtime.providers import Provider
from runtime.tools.session import RunTools


@dataclass(kw_only=True)
class Turn:
    """What to try: the execution's place and agent, and the texts and settings it is sent with."""

    step_path: str
    step_id: str
    agent_name: str
    agent: dict      # the agent's definition as it is tried (model, temperature, resultSchema, tools ...)
    model: str       # the model asked for ("" : the provider's default), before any run-wide override
    system: str
    user: str


async def try_turn(document: WorkflowDoc, turn: Turn, *, providers: dict[str, Provider], default_provider: str, sink: Sink,
                   run_id: str = "playground", prices: PriceBook | None = None, thinking: str | None = None,
                   tools: RunTools | None = None) -> Conversation:
    """Run ``turn``'s conversation once; its events go to ``sink``. Raises ProviderError / StepError as a step would."""
    emitter = Emitter(run_id, sink)
    ctx = RunContext(document=document, run_id=run_id, emitter=emitter, providers=providers,
                     default_provider=default_provider, budgets=Budgets(), control=RunControl(), resolver=None,
                     base_dir=None, prices=prices or PriceBook(), clock=time.monotonic)
    ctx.thinking = thinking
    if tools is not None:
        ctx.tools = tools
    async with step_workspace(ctx, turn.step_path, turn.agent) as workspace:
        return await converse(ctx, step_path=turn.step_path, step_id=turn.step_id, agent_name=turn.agent_name,
                              agent=turn.agent, model=turn.model, system=turn.system, user=turn.user,
                              workspace=workspace, counted=False)
