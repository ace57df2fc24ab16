"""What an agent sees: the one place its prompt is assembled.

System text: who the agent is (name and ``description``), its ``prompt``, and,
when it has a ``resultSchema``, how to submit the result.

User text, in this order, each part a ``## `` section and left out when empty:

1. ``Goal`` - the workflow's ``description`` (or its name).
2. ``Task`` - the step's ``instructions``.
3. ``Output of step `id` `` - one per dependency: status, content, result JSON.
4. ``forEach Item (index: N)`` - the item as JSON (the spec's injection format).
5. ``Loop`` - iteration N of M; earlier inner steps of this iteration that are
   not dependencies; the previous iteration's content and result; one-line
   outcomes of the (at most 10) iterations before it; the judge's last reason
   and feedback.
6. ``Context file: path`` - text files inlined; binary files named only.

Control characters other than tab and newline (C0 with the carriage return,
DEL and C1, as zenflow's parser strips them) never reach a prompt: every text
built here goes out without them, whatever part they came from.

The judge of a repeat-until loop gets :func:`judge_prompt` instead: the loop's
task and the history of every iteration so far, with earlier verdicts.

Long texts are cut to :data:`SECTION_LIMIT` characters with a visible marker,
except a dependency whose output is kept whole (``StepOutput.preserve``: a
cumulative repeat-until, as upstream exempts it from its per-dependency cut).
The engine records the result in the ``agent_turn`` request event.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

SECTION_LIMIT = 16_000
HISTORY_LIMIT = 4_000


@dataclass
class StepOutput:
    id: str
    status: str
    content: str = ""
    result: Any = None
    preserve: bool = False  # reaches the prompt uncut (a cumulative loop's whole history)


@dataclass
class IterationRecord:
    number: int            # zero-based iteration, or forEach index
    status: str
    content: str = ""
    result: Any = None
    verdict: dict | None = None  # judge's {done, reason, content, failed_open}


@dataclass
class LoopView:
    loop_id: str
    kind: str                      # "forEach" or "repeat-until"
    iteration: int = 0             # zero-based
    max_iterations: int | None = None
    item: Any = None
    has_item: bool = False
    earlier_steps: list[StepOutput] = field(default_factory=list)
    previous: IterationRecord | None = None
    history: list[IterationRecord] = field(default_factory=list)  # before ``previous``
    feedback: dict | None = None   # the judge's last verdict
    hidden: int = 0                # earlier iterations left out of ``history``


@dataclass
class ContextFile:
    path: str
    text: str | None     # None for binary files
    size: int = 0
    media_type: str = ""
    edited: bool = False  # its text was typed at a breakpoint, not read from the folder


# A step's context files as edited at a breakpoint (path as named -> text), carried on the step of that one
# execution (runtime.engine.debugger): the documents' schema refuses unknown step fields, so no document has it.
EDITED_FILES = "contextFilesEdited"


def cut(text: str, limit: int = SECTION_LIMIT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters cut]"


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def without_controls(text: str) -> str:
    """``text`` without control characters; tab and newline are kept."""
    return _CONTROLS.sub("", text)


# One encoder, made once: json.dumps with any option builds a new encoder per call, and every
# forEach item's prompt goes through here.
_ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)


def _json(value: Any) -> str:
    return _ENCODER.encode(value)


def system_prompt(agent_name: str, agent: dict, prompt_text: str | None, has_schema: bool) -> str:
    parts = [f"You are the agent '{agent_name}': {agent.get('description', '').strip()}"]
    if prompt_text:
        parts.append(prompt_text.strip())
    if has_schema:
        parts.append("When you have finished, call the submit_result tool once with your structured "
                     "result; its parameters are the required result schema. If it reports errors, "
                     "fix them and call it again.")
    return without_controls("\n\n".join(parts))


def _output_section(title: str, out: StepOutput, limit: int = SECTION_LIMIT) -> str:
    lines = [f"## {title} ({out.status})"]
    if out.preserve:
        limit = sys.maxsize  # a cumulative loop's whole history: never cut
    if out.content:
        lines.append(cut(out.content, limit))
    if out.result is not None:
        lines.append("Result: " + cut(_json(out.result), limit))
    if len(lines) == 1:
        lines.append("(no output)")
    return "\n".join(lines)


def _one_line(rec: IterationRecord) -> str:
    text = " ".join((rec.content or "").split())
    text = text if len(text) <= 160 else text[:159] + "…"
    # Counted from 1, as the loop's own line ("This is iteration 3 of at most 3") counts: the model reads both.
    line = f"- iteration {rec.number + 1}: {rec.status}" + (f": {text}" if text else "")
    if rec.verdict and rec.verdict.get("reason"):
        line += f" (judge: {rec.verdict['reason']})"
    return line


def _loop_section(loop: LoopView) -> str:
    if loop.kind == "forEach":
        return ""
    head = f"## Loop\nThis is iteration {loop.iteration + 1} of at most {loop.max_iterations} of `{loop.loop_id}`."
    parts = [head]
    for out in loop.earlier_steps:
        parts.append(_output_section(f"Earlier in this iteration: step `{out.id}`", out).replace("## ", "### ", 1))
    if loop.history:
        lines = [_one_line(r) for r in loop.history]
        if loop.hidden:
            lines.insert(0, f"- ({loop.hidden} earlier iterations not shown)")
        parts.append("### Earlier iterations\n" + "\n".join(lines))
    if loop.previous is not None:
        prev = loop.previous
        parts.append(_output_section(f"Previous iteration ({prev.number + 1})",
                                     StepOutput("", prev.status, prev.content, prev.result)).replace("## ", "### ", 1))
    if loop.feedback:
        fb = loop.feedback
        lines = ["### Judge's feedback on the previous iteration"]
        if fb.get("reason"):
            lines.append(f"Reason: {fb['reason']}")
        if fb.get("content"):
            lines.append(cut(fb["content"], HISTORY_LIMIT))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def user_prompt(*, goal: str, task: str, dependencies: list[StepOutput], loop: LoopView | None,
                context_files: list[ContextFile]) -> str:
    parts = []
    if goal:
        parts.append(f"## Goal\n{goal.strip()}")
    parts.append(f"## Task\n{task.strip()}")
    for dep in dependencies:
        parts.append(_output_section(f"Output of step `{dep.id}`", dep))
    if loop is not None:
        if loop.has_item:
            parts.append(f"## forEach Item (index: {loop.iteration})\n{_json(loop.item)}")
            for out in loop.earlier_steps:
                parts.append(_output_section(f"Earlier in this iteration: step `{out.id}`", out))
        else:
            parts.append(_loop_section(loop))
    for f in context_files:
        if f.text is None:
            parts.append(f"## Context file: {f.path}\n[{f.media_type or 'binary'} file, {f.size} bytes, not inlined]")
        else:
            parts.append(f"## Context file: {f.path}\n{cut(f.text)}")
    return without_controls("\n\n".join(parts))


def judge_prompt(*, goal: str, loop_id: str, loop_task: str, iteration: int, max_iterations: int,
                 history: list[IterationRecord]) -> str:
    parts = []
    if goal:
        parts.append(f"## Goal\n{goal.strip()}")
    parts.append(
        "## Task\n"
        f"You judge the repeat-until loop `{loop_id}`. Iteration {iteration + 1} of at most {max_iterations} "
        "has just finished. Decide whether the loop is done: submit done=true to stop it, or done=false "
        "with a reason that tells the next iteration what to improve."
        + (f"\n\nThe loop's own task: {loop_task.strip()}" if loop_task else ""))
    lines = ["## Iterations so far"]
    for rec in history:
        block = [f"### Iteration {rec.number + 1} ({rec.status})", cut(rec.content or "(no content)", HISTORY_LIMIT)]
        if rec.result is not None:
            block.append("Result: " + cut(_json(rec.result), HISTORY_LIMIT))
        if rec.verdict is not None:
            block.append(f"Your verdict then: done={_json(rec.verdict.get('done'))}"
                         + (f", reason: {rec.verdict['reason']}" if rec.verdict.get("reason") else ""))
        lines.append("\n".join(block))
    parts.append("\n\n".join(lines))
    return without_controls("\n\n".join(parts))
