"""One agent conversation: the turn loop with ``submit_result``.

:func:`converse` sends the assembled prompt to the agent's provider and goes
on turn by turn (at most ``maxTurns``): text streams out as ``output`` events;
a ``submit_result`` call is checked against the ``resultSchema`` and either
ends the conversation (first valid call wins) or goes back to the agent as
``{"status": "error", "message": ...}`` with JSON paths; a reply without tool
calls ends it. :func:`run_agent_step` builds a step's prompt and turns the
conversation into the step's outcome; :func:`run_judge` does the same for an
``untilAgent`` judge, which fails open.

An agent with a ``resultSchema`` whose conversation ends without a valid
``submit_result`` (it answered with text only, or ran out of ``maxTurns``) is
reminded once, as zenflow's runner does: one more user message naming
``submit_result``, and on that turn only ``submit_result`` is offered, with the
provider told a tool call is required. The answer to it counts; an invalid
submission on that turn gets one more turn to fix it (:data:`REMINDER_TURNS`).
Invalid submissions count against ``maxRetries`` wherever they happen, the
reminder's included. When the reminder fails too, the error quotes the agent's
last text. The reminder is an ordinary request turn in the events: its
``input`` is the reminder and its ``tools`` say what was offered.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from runtime import tools as registry
from runtime.engine.context import DEFAULT_AGENT, DEFAULT_MAX_TURNS, RunContext, Scope, StepError
from runtime.engine.prompting import (
    EDITED_FILES,
    IterationRecord,
    LoopView,
    StepOutput,
    cut,
    judge_prompt,
    system_prompt,
    user_prompt,
)
from runtime.engine.state import COMPLETED, FAILED, Outcome
from runtime.engine.toolcalls import offered, run_calls, step_workspace
from runtime.providers import ChatReply, ChatRequest, ProviderError, ToolCall
from runtime.tools import messaging
from runtime.tools.results import check_result, submit_tool, unwrap
from runtime.tools.workspace import Workspace

NO_SUBMIT = "resultSchema defined but submit_result never called"
REMINDER = ("Your answer did not call submit_result, and this task's result can only be given through it. "
            "Call the submit_result tool now with your final result (its parameters are the result schema); "
            "a plain-text answer cannot be accepted.")
# Requests the reminder may take: its answer, and one more when that answer was an invalid submission.
REMINDER_TURNS = 2
LAST_TEXT_LIMIT = 500  # characters of the agent's last text quoted in the error


@dataclass
class Conversation:
    content: str = ""
    result: Any = None
    submitted: bool = False
    tokens: dict = field(default_factory=lambda: {"prompt": 0, "completion": 0, "total": 0})
    cost_usd: float | None = None  # None while no reply had a price
    error: str | None = None
    rejected: int = 0  # submit_result calls that did not match the schema


def agent_of(ctx: RunContext, step: dict) -> tuple[str, dict]:
    name = step.get("agent") or "default"
    agent = ctx.agents.get(name) if step.get("agent") else None
    if step.get("agent") and agent is None:
        raise StepError(f"agent {name!r} is not defined")
    return name, agent or DEFAULT_AGENT


DELTA_WINDOW = 0.05  # seconds


async def converse(ctx: RunContext, *, step_path: str, step_id: str, agent_name: str, agent: dict, model: str,
                   system: str, user: str, max_invalid: int | None = None,
                   workspace: Workspace | None = None, counted: bool = True) -> Conversation:
    """Run the turn loop; raises ProviderError / StepError on failure.

    ``counted``: the conversation is an agent step, counted against ``max_steps`` right before
    its first request (a judge's is not)."""
    emit = ctx.emitter.emit
    schema = agent.get("resultSchema")
    model = ctx.model_of(model)
    provider, model_name, provider_name = ctx.provider_for(model)
    await ctx.flush_warnings()
    allowed = offered(ctx, agent)
    # A step agent (its mailbox is open; a judge has none) also gets upstream's messaging tools.
    talking = ctx.mail.is_open(step_path)
    talk = messaging.offered_to(agent, allowed, shared_memory=ctx.mail.memory is not None) if talking else []
    tools = ([registry.get(name).spec() for name in allowed] + [messaging.spec(name) for name in talk]
             + ([submit_tool(schema)] if schema else []))
    allowed = allowed + talk
    pin = ctx.pins.get(step_path)
    if pin is not None:
        return await _pinned(ctx, pin, step_path=step_path, agent_name=agent_name, model=model or model_name or provider_name,
                             provider_name=provider_name, system=system, user=user, tools=tools, counted=counted)
    messages: list[dict] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    max_turns = agent.get("maxTurns") or DEFAULT_MAX_TURNS
    conv = Conversation()
    parts: list[str] = []
    invalid = 0
    agent_id = f"{agent_name}@{step_path}"
    streamed = False
    last_calls: list[ToolCall] = []

    # Streamed text is coalesced: a burst of chunks that arrives within DELTA_WINDOW
    # becomes one `output` event (the deltas still concatenate to the content).
    pending: list[str] = []
    last_sent = [float("-inf")]

    async def flush_deltas() -> None:
        if pending:
            text = "".join(pending)
            pending.clear()
            last_sent[0] = ctx.clock()
            await emit("output", step_id=step_path, agent=agent_name, agentId=agent_id, delta=text)

    async def on_delta(text: str) -> None:
        nonlocal streamed
        streamed = True
        pending.append(text)
        if ctx.clock() - last_sent[0] >= DELTA_WINDOW:
            await flush_deltas()

    offer, offer_names, tool_choice = tools, allowed, None
    reminder_turns = 0   # > 0 while the reminder is under way: the requests it may still take
    last_text = ""
    ran_out = False
    turn = 0
    while True:
        turn += 1
        await ctx.until_resumed()  # a pause holds between an agent's turns too (tool results, the reminder)
        # What the coordinator forwarded since the last turn joins the conversation before the request.
        inbox = await ctx.mail.drain(step_path, agent=agent_name, agent_id=agent_id, turn=turn) if talking else []
        messages.extend(inbox)
        data: dict[str, Any] = {"phase": "request", "model": model or model_name or provider_name,
                                "provider": provider_name, "turn": turn}
        if turn == 1:
            data["prompt"] = {"system": system, "user": user, **({"inbox": [m["content"] for m in inbox]} if inbox else {})}
            if tools:
                data["tools"] = [t["name"] for t in tools]
        else:
            answers = messages[:len(messages) - len(inbox)]
            data["input"] = [m["content"] for m in answers[-len(last_calls):]] if last_calls else []
            if reminder_turns:
                data["tools"] = [t["name"] for t in offer]
                if not last_calls:
                    data["input"] = [messages[-1 - len(inbox)]["content"]]
            if inbox:
                data["input"] = [*data["input"], *(m["content"] for m in inbox)]
        if turn == 1 and counted:
            await ctx.count_step()  # no await between the count and its event: checkpoints see both or neither
        await emit("agent_turn", step_id=step_path, agent=agent_name, agentId=agent_id, data=data)
        request = ChatRequest(model=model_name, messages=messages, tools=offer, temperature=agent.get("temperature"),
                              top_p=agent.get("topP"), step_path=step_path, step_id=step_id, agent=agent_name,
                              result_schema=schema, tool_choice=tool_choice, thinking=ctx.thinking)
        await ctx.check_permit(provider_name)  # the key or the right to run may be gone since the last call
        started = ctx.clock()
        streamed = False
        reply = await provider.chat(request, on_delta)
        await flush_deltas()
        if streamed:
            await emit("output", step_id=step_path, agent=agent_name, agentId=agent_id, done=True)
        usage = reply.usage
        conv.tokens["prompt"] += usage.prompt
        conv.tokens["completion"] += usage.completion
        conv.tokens["total"] += usage.total
        billed = model or reply.model or model_name
        cost = ctx.account(usage, billed, provider_name)  # counted right before the event that carries it
        if cost is not None:
            conv.cost_usd = (conv.cost_usd or 0.0) + cost
        await emit("agent_turn", step_id=step_path, agent=agent_name, agentId=agent_id,
                   duration=ctx.clock() - started,
                   tokens={"prompt": usage.prompt, "completion": usage.completion, "total": usage.total},
                   data={"phase": "response", "model": reply.model or model_name, "turn": turn,
                         "content": reply.content, "finish_reason": reply.finish_reason,
                         "tool_calls": [{"id": c.id, "name": c.name} for c in reply.tool_calls],
                         "cost_usd": cost, **({"unpriced_model": billed} if cost is None else {}),
                         **_reasoning(reply)})
        if reply.content:
            parts.append(reply.content)
            last_text = reply.content
        messages.append({"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls,
                         **({"reasoning_blocks": reply.reasoning_blocks} if reply.reasoning_blocks else {})})
        last_calls = reply.tool_calls
        if reply.tool_calls:
            rejected_before = conv.rejected
            contents = await run_calls(ctx, reply.tool_calls, allowed=offer_names, workspace=workspace,
                                       step_path=step_path, agent_name=agent_name, agent_id=agent_id,
                                       submit=lambda call: _submit(ctx, conv, call, schema, step_path, agent_name,
                                                                   agent_id))
            for call, content in zip(reply.tool_calls, contents, strict=True):
                messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": content})
            if conv.submitted:
                break
            invalid += conv.rejected - rejected_before
            if max_invalid is not None and invalid > max_invalid:
                conv.error = f"submit_result was rejected {invalid} times (maxRetries {max_invalid})"
                break
        if reminder_turns:
            reminder_turns -= 1
            if reminder_turns and reply.tool_calls:
                continue  # the reminder's answer was refused: one more turn to fix it
            conv.error = _not_submitted(last_text, max_turns if ran_out else None)
            break
        if reply.tool_calls and turn < max_turns:
            continue
        if not schema:
            break
        # The conversation ended without a result: remind the agent once, offering submit_result alone.
        ran_out = bool(reply.tool_calls)
        reminder_turns = REMINDER_TURNS
        offer, offer_names, tool_choice = [submit_tool(schema)], [], "required"
        messages.append({"role": "user", "content": REMINDER})
        last_calls = []
    conv.content = "\n\n".join(parts)
    return conv


async def _pinned(ctx: RunContext, pin: dict, *, step_path: str, agent_name: str, model: str, provider_name: str,
                  system: str, user: str, tools: list[dict], counted: bool) -> Conversation:
    """A pinned execution: its request is told as usual (the prompt it would have sent), its reply is the pin's
    content and result, and no provider is called. Both turns carry ``pinned: true`` and count no tokens and no cost."""
    emit = ctx.emitter.emit
    agent_id = f"{agent_name}@{step_path}"
    if counted:
        await ctx.count_step()  # a pinned step is still a step of the run (max_steps), spending nothing
    await emit("agent_turn", step_id=step_path, agent=agent_name, agentId=agent_id,
               data={"phase": "request", "model": model, "provider": provider_name, "turn": 1, "pinned": True,
                     "prompt": {"system": system, "user": user}, **({"tools": [t["name"] for t in tools]} if tools else {})})
    content = str(pin.get("content") or "")
    if content:
        await emit("output", step_id=step_path, agent=agent_name, agentId=agent_id, delta=content)
        await emit("output", step_id=step_path, agent=agent_name, agentId=agent_id, done=True)
    await emit("agent_turn", step_id=step_path, agent=agent_name, agentId=agent_id, duration=0.0,
               tokens={"prompt": 0, "completion": 0, "total": 0},
               data={"phase": "response", "model": model, "turn": 1, "content": content, "finish_reason": "pinned",
                     "tool_calls": [], "cost_usd": 0.0, "pinned": True})
    return Conversation(content=content, result=pin.get("result"), submitted="result" in pin, cost_usd=0.0)


def _not_submitted(last_text: str, max_turns: int | None) -> str:
    """Why a step with a resultSchema has no result after the reminder, quoting the agent's last text."""
    where = f" within maxTurns ({max_turns})" if max_turns is not None else ""
    text = " ".join(last_text.split())
    if not text:
        return f"{NO_SUBMIT}{where}, not even after a reminder; the agent wrote no text"
    if len(text) > LAST_TEXT_LIMIT:
        text = text[:LAST_TEXT_LIMIT] + "…"
    return f"{NO_SUBMIT}{where}, not even after a reminder; its last message: {json.dumps(text, ensure_ascii=False)}"


async def _submit(ctx: RunContext, conv: Conversation, call: ToolCall, schema: dict | None,
                  step_path: str, agent_name: str, agent_id: str) -> dict:
    """A ``submit_result`` call: checked against the schema; the first valid one ends the conversation."""
    emit = ctx.emitter.emit
    started = ctx.clock()
    await emit("tool_call", step_id=step_path, agent=agent_name, agentId=agent_id,
               data={"phase": "start", "tool_name": call.name, "tool_call_id": call.id, "input": call.arguments})
    error = None
    if not schema:
        error = "submit_result is not available: this agent has no resultSchema"
        output = {"status": "error", "message": error}
    elif conv.submitted:
        output = {"status": "ok", "message": "A result was already accepted; this one is ignored."}
    else:
        if not isinstance(call.arguments, dict):
            problems = ["$: the arguments are not a JSON object"]
        else:
            value = unwrap(schema, call.arguments)
            problems = check_result(schema, value)
        if problems:
            error = "; ".join(problems)
            conv.rejected += 1
            output = {"status": "error", "message": "The result does not match the schema: " + error}
        else:
            conv.result, conv.submitted = value, True
            output = {"status": "ok", "message": "Result accepted."}
    await emit("tool_call", step_id=step_path, agent=agent_name, agentId=agent_id,
               duration=ctx.clock() - started, error=error,
               data={"phase": "end", "tool_name": call.name, "tool_call_id": call.id, "output": output})
    return output


def _max_invalid(ctx: RunContext, step: dict) -> int | None:
    value = step.get("maxRetries")
    if value is None:
        value = ctx.options.get("maxRetries")
    return value


def assemble(ctx: RunContext, scope: Scope, step: dict, deps: list[StepOutput],
             earlier: list[StepOutput]) -> tuple[str, dict, str, str]:
    """A step's agent (name and definition) and its prompt as sent: the system and the user message."""
    agent_name, agent = agent_of(ctx, step)
    system = system_prompt(agent_name, agent, ctx.read_text_ref(agent.get("prompt"), scope.base_dir, "prompt"),
                           bool(agent.get("resultSchema")))
    task = ctx.read_text_ref(step.get("instructions"), scope.base_dir, "instructions") \
        or f"Carry out the step '{step['id']}'."
    loop = scope.loop
    if loop is not None and earlier:
        loop = LoopView(**{**loop.__dict__, "earlier_steps": earlier})
    user = user_prompt(goal=ctx.goal, task=task, dependencies=deps, loop=loop,
                       context_files=ctx.context_files(step.get("contextFiles") or [], scope.base_dir,
                                                       step.get(EDITED_FILES)))
    return agent_name, agent, system, user


def tools_offered(ctx: RunContext, agent: dict, step_path: str) -> list[str]:
    """The tools a step's agent will be offered, by name (messaging tools while its mailbox would be open)."""
    allowed = offered(ctx, agent)
    talk = messaging.offered_to(agent, allowed, shared_memory=ctx.mail.memory is not None)
    return allowed + talk + (["submit_result"] if agent.get("resultSchema") else [])


async def run_agent_step(ctx: RunContext, scope: Scope, step: dict, step_path: str,
                         deps: list[StepOutput], earlier: list[StepOutput]) -> tuple[Outcome, dict]:
    """Run one agent step (or one single-step loop iteration); return its outcome and what it spent
    (``{"tokens": ..., "cost_usd": ...}``, the cost None when no reply had a price)."""
    agent_name, agent, system, user = assemble(ctx, scope, step, deps, earlier)
    schema = agent.get("resultSchema")
    model = step.get("model") or agent.get("model") or ""
    await ctx.mail.open(step_path)  # its mailbox lives while its agent does (a retry opens a fresh one)
    try:
        async with step_workspace(ctx, step_path, agent) as workspace:
            conv = await converse(ctx, step_path=step_path, step_id=step["id"], agent_name=agent_name, agent=agent,
                                  model=model, system=system, user=user, max_invalid=_max_invalid(ctx, step),
                                  workspace=workspace)
    finally:
        await ctx.mail.close(step_path)  # what it never read is dropped: target-terminal
    spent = {"tokens": conv.tokens, "cost_usd": conv.cost_usd}
    if conv.error:
        return Outcome(FAILED, conv.content, None, conv.error), spent
    if schema and not conv.submitted:
        return Outcome(FAILED, conv.content, None, NO_SUBMIT), spent
    return Outcome(COMPLETED, conv.content, conv.result if schema else None), spent


async def run_judge(ctx: RunContext, scope: Scope, loop_step: dict, loop_path: str, iteration: int,
                    max_iterations: int, history: list[IterationRecord]) -> dict:
    """Ask the ``untilAgent`` judge; return ``{done, reason, content, failed_open}``.

    The judge fails open: no valid ``submit_result`` (or a provider error)
    gives ``done: None, failed_open: True`` and the loop goes on with its text.
    """
    name = loop_step["loop"]["untilAgent"]
    agent = ctx.agents.get(name) or DEFAULT_AGENT
    schema = agent.get("resultSchema")
    system = system_prompt(name, agent, ctx.read_text_ref(agent.get("prompt"), scope.base_dir, "prompt"),
                           bool(schema))
    loop_task = ctx.read_text_ref(loop_step.get("instructions"), scope.base_dir, "instructions") or ""
    user = judge_prompt(goal=ctx.goal, loop_id=loop_path, loop_task=loop_task, iteration=iteration,
                        max_iterations=max_iterations, history=history)
    path = f"{loop_path}.{iteration}.untilAgent"
    try:
        async with step_workspace(ctx, path, agent) as workspace:
            conv = await converse(ctx, step_path=path, step_id="untilAgent", agent_name=name, agent=agent,
                                  model=agent.get("model") or "", system=system, user=user, workspace=workspace,
                                  counted=False)
    except (ProviderError, StepError) as exc:
        return {"done": None, "reason": None, "content": "", "failed_open": True, "error": str(exc)}
    except TimeoutError:
        return {"done": None, "reason": None, "content": "", "failed_open": True, "error": "judge timed out"}
    if not conv.submitted or not isinstance(conv.result, dict):
        return {"done": None, "reason": None, "content": conv.content, "failed_open": True,
                "error": conv.error or NO_SUBMIT}
    done = conv.result.get("done")
    reason = conv.result.get("reason")
    return {"done": done if isinstance(done, bool) else None, "reason": reason if isinstance(reason, str) else None,
            "content": conv.content, "failed_open": False, "result": conv.result}


def _reasoning(reply: ChatReply) -> dict[str, Any]:
    """The agent_turn response's reasoning fields, present only when the provider gave them."""
    out: dict[str, Any] = {}
    if reply.usage.reasoning is not None:
        out["reasoning_tokens"] = reply.usage.reasoning
    if reply.reasoning:
        out["reasoning"] = cut(reply.reasoning)
    return out
