"""What a held run shows and lets one change: the inputs of the step (or round) it holds before.

:func:`step_pending` and :func:`round_pending` give the :class:`~runtime.engine.debugger.Pending` of a hold: the
prompt the next agent turn will be sent (assembled as :func:`runtime.engine.agent.assemble` assembles it), the
previous round's output, the item, the tools offered, the CEL scope as values; and how an edit changes them for
this run only. An edited previous output is the round's record itself (later rounds' history shows it too); an
edited item is the iteration's ``item``; edited instructions and an edited context file are the pending execution's
only (the file in the run's folder is left as it is: the text edited goes to that one prompt in its place).
"""
from __future__ import annotations

import json
from typing import Any

from runtime.engine.agent import assemble, tools_offered
from runtime.engine.context import RunContext, Scope, StepError
from runtime.engine.debugger import CONTEXT_FILE, Pending
from runtime.engine.prompting import EDITED_FILES, LoopView, StepOutput

VALUE_LIMIT = 20_000  # characters of one scope value shown


def _shown(value: Any) -> Any:
    """A value as JSON can carry it, cut when long."""
    try:
        text = json.dumps(value, default=str)
    except (TypeError, ValueError):
        return str(value)[:VALUE_LIMIT]
    return value if len(text) <= VALUE_LIMIT else text[:VALUE_LIMIT] + "…"


def _loop_inputs(loop: LoopView | None) -> dict:
    if loop is None:
        return {}
    out: dict[str, Any] = {"loop": loop.loop_id, "iteration": loop.iteration}
    if loop.kind == "repeat-until":
        out["previous_output"] = loop.previous.content if loop.previous is not None else None
        if loop.feedback:
            out["feedback"] = {k: loop.feedback.get(k) for k in ("done", "reason", "content")}
    if loop.has_item:
        out["item"] = _shown(loop.item)
    return out


def _editable(loop: LoopView | None, step: dict | None) -> tuple[str, ...]:
    """``step``: the agent step (or a round's single step) the hold is before; None: a loop or an include."""
    names = []
    if loop is not None and loop.kind == "repeat-until" and loop.previous is not None:
        names.append("previous_output")
    if loop is not None and loop.has_item:
        names.append("item")
    if step is not None:
        names.append("instructions")
        if step.get("contextFiles"):
            names.append(CONTEXT_FILE)
    return tuple(names)


def _context_files(ctx: RunContext, scope: Scope, step: dict) -> list[dict]:
    """The step's context files as its prompt will have them (the edited ones' texts instead of theirs)."""
    shown = []
    for f in ctx.context_files(step.get("contextFiles") or [], scope.base_dir, step.get(EDITED_FILES)):
        text = f.text[:VALUE_LIMIT] if f.text is not None else None
        shown.append({"path": f.path, "text": text, "size": f.size, "media_type": f.media_type,
                      "truncated": f.text is not None and len(f.text) > VALUE_LIMIT, "edited": f.edited})
    return shown


def _edit_file(step: dict, path: str, value: Any) -> dict[str, str]:
    """The step's edited context files, ``path``'s text now ``value``."""
    files = {**(step.get(EDITED_FILES) or {}), path: str(value)}
    step[EDITED_FILES] = files
    return files


def _agent_inputs(ctx: RunContext, scope: Scope, step: dict, path: str, deps: list[StepOutput],
                  earlier: list[StepOutput]) -> dict:
    try:
        agent_name, agent, system, user = assemble(ctx, scope, step, deps, earlier)
        files = _context_files(ctx, scope, step) if step.get("contextFiles") else []
    except StepError as exc:  # a file that cannot be read, say: its text may still be given at this hold
        named = [{"path": p, "text": None} for p in step.get("contextFiles") or []]
        return {"prompt_error": str(exc), **({"context_files": named} if named else {})}
    return {"agent": agent_name, "instructions": step.get("instructions") or "",
            "prompt": {"system": system, "user": user}, "tools": tools_offered(ctx, agent, path),
            "model": ctx.model_of(step.get("model") or agent.get("model") or "") or None,
            **({"context_files": files} if files else {})}


def _apply(loop: LoopView | None, scope: Scope, name: str, value: Any) -> None:
    if name == "previous_output" and loop is not None and loop.previous is not None:
        loop.previous.content = str(value)
    elif name == "item" and loop is not None:
        loop.item = value
        scope.variables["item"] = value


def step_pending(ctx: RunContext, scope: Scope, step: dict, path: str, deps: list[StepOutput],
                 earlier: list[StepOutput], variables: dict) -> Pending:
    """Before the step ``step`` at ``path`` (``variables``: its CEL scope)."""
    agent = not step.get("loop") and not step.get("include")
    current = dict(step)

    def inputs() -> dict:
        out: dict[str, Any] = {"step": path, "kind": "agent" if agent else "loop" if step.get("loop") else "include",
                               **_loop_inputs(scope.loop),
                               "dependencies": [{"id": d.id, "status": d.status, "content": d.content} for d in deps],
                               # messages waiting for it (its mailbox opens as it starts: before that, none)
                               "inbox_waiting": ctx.mail.router.waiting(path) if ctx.mail.is_open(path) else 0,
                               "scope": {k: _shown(v) for k, v in variables.items()}}
        if agent:
            out.update(_agent_inputs(ctx, scope, current, path, deps, earlier))
        return out

    async def apply(name: str, value: Any, file: str) -> dict:
        if name == "instructions":
            current["instructions"] = str(value)
        elif name == CONTEXT_FILE:
            _edit_file(current, file, value)
        else:
            _apply(scope.loop, scope, name, value)
            variables.update({k: v for k, v in scope.variables.items() if k in variables})
        return inputs()

    return Pending(where={"kind": "step", "step": path}, inputs=inputs(),
                   editable=_editable(scope.loop, current if agent else None), skippable=True, apply=apply,
                   files=tuple(step.get("contextFiles") or ()) if agent else ())


def round_pending(ctx: RunContext, loop_step: dict, path: str, number: int, iscope: Scope,
                  deps: list[StepOutput], body: dict | None, debugger: Any) -> Pending:
    """Before round (or item) ``number`` of the loop at ``path``; ``body``: its single step, when it has no inner
    steps (its prompt is shown, and its instructions may be edited)."""
    loop: LoopView = iscope.loop
    body_path = f"{path}[{number}]" if loop.has_item else f"{path}.{number}"
    current = dict(body) if body is not None else None

    def inputs() -> dict:
        out: dict[str, Any] = {"step": body_path if body is not None else path, **_loop_inputs(loop),
                               "dependencies": [{"id": d.id, "status": d.status, "content": d.content} for d in deps],
                               "scope": {k: _shown(v) for k, v in iscope.variables.items()}}
        if current is not None:
            out.update(_agent_inputs(ctx, iscope, current, body_path, deps, []))
        return out

    async def apply(name: str, value: Any, file: str) -> dict:
        if name == "instructions" and current is not None:
            current["instructions"] = str(value)
            debugger.instructions[body_path] = str(value)
        elif name == CONTEXT_FILE and current is not None:
            debugger.context_files[body_path] = _edit_file(current, file, value)
        else:
            _apply(loop, iscope, name, value)
        return inputs()

    where = {"kind": "round", "loop": path, "round": number, **({"item": True} if loop.has_item else {})}
    return Pending(where=where, inputs=inputs(), editable=_editable(loop, current), skippable=True, apply=apply,
                   files=tuple(current.get("contextFiles") or ()) if current is not None else ())
