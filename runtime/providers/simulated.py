"""The simulated provider: deterministic replies, no network (the default).

With a script (see :mod:`runtime.providers.script`) it replies exactly as scripted: the
content streams as ``output`` deltas, a scripted ``result`` becomes a
``submit_result`` call, scripted ``tool_calls`` are made (the next reply
answers after the tools ran), an ``error`` fails the attempt. Without a reply for
the asking step it echoes its task and, when the agent has a
``resultSchema``, submits :func:`runtime.tools.results.minimal_instance` of it (so a
judge's ``done`` is false and loops run to ``maxIterations``).

Token usage is the script's when given, otherwise about a token per four
characters.
"""
from __future__ import annotations

import asyncio
import itertools

from runtime.providers import ChatReply, ChatRequest, DeltaCallback, Provider, ProviderError, ToolCall, Usage
from runtime.providers.script import Script, parse_script
from runtime.tools.results import SUBMIT_RESULT, minimal_instance

_ids = itertools.count(1)
CHUNKS = 3  # deltas per reply: enough to show tokens arriving, cheap for big runs


def _task_of(messages: list[dict]) -> str:
    user = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    if "## Task\n" in user:
        user = user.split("## Task\n", 1)[1].split("\n## ", 1)[0]
    return " ".join(user.split())[:200]


def _chunks(text: str, n: int = CHUNKS) -> list[str]:
    if len(text) <= 16:
        return [text] if text else []
    size = -(-len(text) // n)
    return [text[i:i + size] for i in range(0, len(text), size)]


COORDINATOR = "coordinator"  # the run's coordinator asks as step, step id and agent "coordinator"
UNSCRIPTED_COORDINATOR = ("[simulated coordinator] The script has no `coordinator` replies, so nothing was narrated "
                          "or forwarded; add some to see it.")


def script_keys(step_path: str | None, step_id: str | None, agent: str | None) -> list[str]:
    """The script keys a call looks up, most specific first (see runtime.providers.script); the coordinator
    only its own, so that a catch-all ``*`` for the step agents never answers it."""
    if step_path == step_id == agent == COORDINATOR:
        return [COORDINATOR]
    return [k for k in (step_path, step_id, agent) if k] + ["*"]


def _said(messages: list[dict]) -> str:
    return next((m["content"] for m in reversed(messages) if m["role"] == "user"), "") or ""


class SimulatedProvider(Provider):
    name = "simulated"

    def __init__(self, script: Script | dict | None = None, latency: float | None = None, **_ignored: object) -> None:
        self.script = parse_script(script) if script is not None else Script()
        self.latency = self.script.latency if latency is None else latency

    async def chat(self, request: ChatRequest, on_delta: DeltaCallback | None = None) -> ChatReply:
        keys = script_keys(request.step_path, request.step_id, request.agent)
        reply = self.script.next_reply(keys, _said(request.messages))
        latency = reply.latency if reply and reply.latency is not None else self.latency
        await asyncio.sleep(latency or 0)  # always yield, so other tasks (stop, pause) get their turn
        if reply and reply.error:
            raise ProviderError(reply.error, retryable=True)
        offers_submit = any(t["name"] == SUBMIT_RESULT for t in request.tools)
        if reply is not None:
            content = reply.content
            result_given, result = reply.has_result, reply.result
        elif keys == [COORDINATOR]:
            # Echoing its wake's news back would make that the run's summary: say instead what the script lacks.
            content = UNSCRIPTED_COORDINATOR
            result_given, result = False, None
        else:
            content = f"[simulated {request.agent or 'agent'}] {_task_of(request.messages)}"
            result_given = request.result_schema is not None
            result = minimal_instance(request.result_schema) if result_given else None
        tool_calls = [ToolCall(id=c.get("id") or f"sim_{next(_ids)}", name=c["name"], arguments=c["arguments"])
                      for c in (reply.tool_calls if reply is not None else [])]
        if offers_submit and result_given:
            args = result
            params = next(t["parameters"] for t in request.tools if t["name"] == SUBMIT_RESULT)
            if request.result_schema is not None and request.result_schema.get("type") != "object" \
                    and params is not request.result_schema:
                args = {"value": result}
            tool_calls.append(ToolCall(id=f"sim_{next(_ids)}", name=SUBMIT_RESULT, arguments=args))
        if on_delta is not None:
            for chunk in _chunks(content):
                await on_delta(chunk)
        tokens = (reply.tokens if reply and reply.tokens else None) or self.script.tokens
        if tokens:
            usage = Usage(tokens.get("prompt", 0), tokens.get("completion", 0))
        else:
            prompt_chars = sum(len(m.get("content") or "") for m in request.messages)
            usage = Usage(prompt_chars // 4, len(content) // 4 + (8 if tool_calls else 0))
        return ChatReply(content=content, tool_calls=tool_calls, usage=usage,
                         finish_reason="tool_calls" if tool_calls else "stop", model=request.model or "simulated")
