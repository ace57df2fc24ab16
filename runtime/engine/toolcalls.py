"""An agent's tool calls: which tools it is offered, and running the calls of one model turn.

The calls of one turn run concurrently (``submit_result`` calls afterwards, in
order, so the first valid one wins). Each call is a ``tool_call`` start/end
event pair; a call to a tool in the run's "ask before" set first waits for a
person (``tool_approval`` events), with the step's deadline held meanwhile.
A tool's failure reaches the model as ``error: ...`` and the conversation
goes on; only the step's ``timeout`` (which kills a running command) or a
stop ends it.
"""
from __future__ import annotations

import asyncio
import errno
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from runtime import tools as registry
from runtime.engine.context import RunContext, StepError, held_deadlines
from runtime.providers import ToolCall
from runtime.tools import ToolError, ToolResult, messaging
from runtime.tools.results import SUBMIT_RESULT
from runtime.tools.session import RunTools, StepCopy
from runtime.tools.workspace import Workspace

log = logging.getLogger(__name__)

WRITERS = frozenset({"write", "edit"})  # refused while the workspace is over its size (bash stays, to delete)
FILLERS = WRITERS | {"bash"}  # what may meet the workspace's quota (its own filesystem refuses the write)
EVENT_OUTPUT_CAP = 64 * 1024  # characters of a tool's output kept in its event (the model gets up to 1 MB)


def offered(ctx: RunContext, agent: dict) -> list[str]:
    """The registered tools this agent may call in this run (none when the run gives no tools)."""
    if ctx.tools is None:
        return []
    known = set(registry.names())
    return [name for name in registry.agent_tool_names(agent) if name in known]


def unknown_tools_message(agents: dict) -> str | None:
    """Why the run cannot start, when an agent lists a tool nobody registered."""
    unknown = registry.unknown_tools(agents)
    if not unknown:
        return None
    parts = [f"agent '{agent}' lists tool '{tool}'" for agent, tool in unknown]
    return (f"{'; '.join(parts)}, which this runtime does not provide "
            f"(it provides {', '.join(registry.names())})")


@asynccontextmanager
async def step_workspace(ctx: RunContext, step_path: str, agent: dict) -> AsyncIterator[Workspace | None]:
    """The workspace one step execution works in; afterwards, what it changed is recorded (and merged back
    from its copy under ``isolation: step``)."""
    run_tools = ctx.tools
    if run_tools is None or not offered(ctx, agent):
        yield None
        return
    try:
        copy = await run_tools.begin(step_path)
    except OSError as exc:
        raise _full(run_tools, exc, f"{step_path}: its copy of the workspace could not be made") from None
    try:
        yield copy.workspace if copy is not None else run_tools.workspace
    except asyncio.CancelledError:
        raise  # a stopped or timed-out step: the run's last snapshot records what it left
    except BaseException:
        await _after_step(ctx, step_path, copy)
        raise
    await _after_step(ctx, step_path, copy)


def _full(run_tools: RunTools, exc: OSError, what: str) -> Exception:
    """The step's failure, in words naming the quota, when the workspace's own filesystem is full; else ``exc``."""
    note = run_tools.full_note(exc.strerror or "") if exc.errno in (errno.ENOSPC, errno.EDQUOT) else None
    return StepError(f"{what}: {note}") if note is not None else exc


async def _after_step(ctx: RunContext, step_path: str, copy: StepCopy | None) -> None:
    run_tools = ctx.tools
    if copy is not None:
        await run_tools.snapshot(step_path, step_id=step_path, copy=copy)
        try:
            conflicts = await run_tools.finish(copy)
        except OSError as exc:
            raise _full(run_tools, exc, f"{step_path}: its changes could not be applied to the workspace") from None
        if conflicts:
            shown = ", ".join(conflicts[:10]) + (f" and {len(conflicts) - 10} more" if len(conflicts) > 10 else "")
            await ctx.warn(f"{step_path}: {len(conflicts)} file(s) changed meanwhile by another step were kept in "
                           f"this step's copy, not applied: {shown}", step=step_path, conflicts=conflicts[:100])
    await run_tools.snapshot(step_path, step_id=step_path)


async def snapshot_iteration(ctx: RunContext, label: str, step_id: str) -> int | None:
    """After a loop iteration: the snapshot of what it changed (taken now, or by its own step), if anything."""
    if ctx.tools is None:
        return None
    if label in ctx.tools.looked:  # a single-step iteration: its step was just recorded under the same label
        return ctx.tools.by_label.get(label)
    record = await ctx.tools.snapshot(label, step_id=step_id)
    return record.number if record is not None else ctx.tools.by_label.get(label)


async def warn_untooled(ctx: RunContext, agents: dict) -> None:
    """A run without a workspace (the engine called without ``tools``) gives no tools: say so per agent."""
    if ctx.tools is not None:
        return
    for name, agent in (agents or {}).items():
        listed = [t for t in (agent.get("tools") or []) if t != SUBMIT_RESULT and t not in messaging.MESSAGING_TOOLS] \
            if isinstance(agent, dict) else []
        if listed:
            await ctx.warn(f"agent '{name}': tools {', '.join(listed)} are not given in this run (it has no "
                           "workspace) and are left out", agent=name, tools=listed)


Submit = Callable[[ToolCall], Awaitable[dict]]


async def run_calls(ctx: RunContext, calls: list[ToolCall], *, allowed: list[str], workspace: Workspace | None,
                    step_path: str, agent_name: str, agent_id: str, submit: Submit) -> list[str]:
    """Run one turn's calls; the tool message content for each call, in the calls' order."""
    async def one(call: ToolCall) -> str:
        if call.name == SUBMIT_RESULT:
            return json.dumps(await submit(call))
        return await _call(ctx, call, allowed=allowed, workspace=workspace, step_path=step_path,
                           agent_name=agent_name, agent_id=agent_id)

    others = [c for c in calls if c.name != SUBMIT_RESULT]
    done: dict[int, str] = {}
    if others:
        results = await asyncio.gather(*(one(c) for c in others))
        done.update({id(c): r for c, r in zip(others, results, strict=True)})
    out = []
    for call in calls:
        if call.name == SUBMIT_RESULT:
            done[id(call)] = await one(call)
        out.append(done[id(call)])
    return out


async def _call(ctx: RunContext, call: ToolCall, *, allowed: list[str], workspace: Workspace | None,
                step_path: str, agent_name: str, agent_id: str) -> str:
    emit = ctx.emitter.emit
    who: dict[str, Any] = {"step_id": step_path, "agent": agent_name, "agentId": agent_id}
    skip = None
    if ctx.debugger is not None:  # a breakpoint on this tool holds here; a skip answers with the text typed
        skip = await ctx.debugger.before_tool(ctx, step_path, call.name, call.id, call.arguments)
    await emit("tool_call", **who, data={"phase": "start", "tool_name": call.name, "tool_call_id": call.id,
                                         "input": call.arguments})
    if skip is not None:
        await emit("tool_call", **who, duration=0.0,
                   data={"phase": "end", "tool_name": call.name, "tool_call_id": call.id, "output": skip.output,
                         "truncated": False, "debugger": "skipped"})
        return str(skip.output)
    started = ctx.clock()
    # Seconds it waited for a person: its duration is the tool's own time, not the time someone took to decide.
    waited = [0.0]
    error: str | None = None
    result = ToolResult("")
    try:
        result = await _carry_out(ctx, call, allowed, workspace, who, waited)
    except ToolError as exc:
        error = str(exc)
    except asyncio.CancelledError:
        await emit("tool_call", **who, duration=ctx.clock() - started - waited[0], error="cancelled",
                   data={"phase": "end", "tool_name": call.name, "tool_call_id": call.id, "output": "", **_waited(waited)})
        raise
    except Exception as exc:  # a tool's bug must not end the run: the model hears of it, the log keeps it
        log.exception("tool %s failed", call.name)
        error = f"the tool failed inside this runtime ({exc.__class__.__name__})"
    text = f"error: {error}" if error is not None else result.output
    shown, cut = (text, False) if len(text) <= EVENT_OUTPUT_CAP else (text[:EVENT_OUTPUT_CAP], True)
    await emit("tool_call", **who, duration=ctx.clock() - started - waited[0], error=error,
               data={"phase": "end", "tool_name": call.name, "tool_call_id": call.id, "output": shown,
                     "truncated": result.truncated or cut, **({"output_chars": len(text)} if cut else {}), **_waited(waited)})
    return text


def _waited(waited: list[float]) -> dict[str, float]:
    """``waited_ms`` for a call's end event when it waited for a person."""
    return {"waited_ms": round(waited[0] * 1000, 3)} if waited[0] else {}


async def _carry_out(ctx: RunContext, call: ToolCall, allowed: list[str], workspace: Workspace | None,
                     who: dict, waited: list[float]) -> ToolResult:
    if call.name in messaging.MESSAGING_TOOLS and call.name in allowed:
        return await _message(ctx, call, who, waited)
    if call.name not in allowed or workspace is None or ctx.tools is None:
        offered_now = ", ".join(allowed) or "none"
        raise ToolError(f"tool {call.name!r} is not available to this agent (its tools: {offered_now})")
    if not isinstance(call.arguments, dict):
        raise ToolError("the arguments are not a JSON object")
    run_tools = ctx.tools
    if not run_tools.used:
        run_tools.used = True
        if run_tools.on_first_use is not None:
            await run_tools.on_first_use()
    full = run_tools.over_quota() if call.name in WRITERS else None
    if full:
        raise ToolError(full)
    await _permitted(ctx, run_tools, call, who, waited, messaging=False)
    try:
        result = await registry.get(call.name).run(call.arguments, workspace, run_tools.settings)
    except ToolError as exc:
        # A write the kernel refused at the workspace's quota (its own filesystem): the model hears which limit.
        note = run_tools.full_note(str(exc)) if call.name in FILLERS else None
        if note is None:
            raise
        raise ToolError(f"{exc} ({note})") from None
    note = run_tools.full_note(result.output) if call.name in FILLERS else None
    if note is not None:
        result.output = f"{result.output.rstrip()}\n[{note}]".lstrip("\n")
    return result


async def _message(ctx: RunContext, call: ToolCall, who: dict, waited: list[float]) -> ToolResult:
    """A messaging tool: no workspace needed, but the same gate as any other tool when the run has one."""
    if not isinstance(call.arguments, dict):
        raise ToolError("the arguments are not a JSON object")
    if ctx.tools is not None:
        await _permitted(ctx, ctx.tools, call, who, waited, messaging=True)
    return ToolResult(await ctx.mail.call(call.name, call.arguments, step_path=who["step_id"], agent=who["agent"]))


async def _permitted(ctx: RunContext, run_tools: RunTools, call: ToolCall, who: dict, waited: list[float], *,
                     messaging: bool) -> None:
    """The run's permission mode decides, here where the call is carried out: refused (the model reads why), asked
    of a person, or run."""
    decision = run_tools.permissions.decide(call.name, messaging=messaging)
    if decision.verdict == "refuse":
        raise ToolError(f"not run: {decision.reason}")
    if decision.verdict == "ask":
        await _ask(ctx, call, who, waited)


async def _ask(ctx: RunContext, call: ToolCall, who: dict, waited: list[float]) -> None:
    """Wait for a person's decision on ``call``; the seconds it waited are added to ``waited``."""
    emit = ctx.emitter.emit
    base = {"tool_name": call.name, "tool_call_id": call.id, "input": call.arguments}
    await emit("tool_approval", **who, message=f"{call.name} waits for approval", data={"phase": "asked", **base})
    asked = ctx.clock()
    try:
        async with held_deadlines():
            decision = await ctx.tools.approvals.wait(call.id, call.name, call.arguments, who["step_id"])
    except asyncio.CancelledError:
        # A stop (or the run's own timeout) cancels the wait: everyone watching sees the call will not run.
        waited[0] += ctx.clock() - asked
        await emit("tool_approval", **who, message=f"{call.name} cancelled",
                   data={"phase": "cancelled", **base, "reason": ctx.halt_reason or "cancelled"})
        raise
    waited[0] += ctx.clock() - asked
    phase = "cancelled" if decision.cancelled else "approved" if decision.approved else "denied"
    by = f" by {decision.actor}" if decision.actor else ""
    await emit("tool_approval", **who, message=f"{call.name} {phase}{by}",
               data={"phase": phase, **base, **({"reason": decision.reason} if decision.reason else {}),
                     **({"actor": decision.actor} if decision.actor else {})})
    if decision.cancelled:
        raise ToolError(f"not run: {decision.reason or 'the run is stopping'}")
    if not decision.approved:
        reason = f": {decision.reason}" if decision.reason else ""
        raise ToolError(f"a person denied this call{reason}")
