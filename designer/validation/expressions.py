"""Warnings for CEL that will break at run time.

Each expression is checked against the variables its scope provides:

| where | variables |
| --- | --- |
| a step's `condition` | `steps.<dependency, direct or transitive>` (bare `content` is always "") |
| a forEach expression | `steps.<dependency of the loop step>` |
| `until`, single-step loop | `iteration`, `content`, `result`, `status` |
| `until`, multi-step loop | `iteration`, `steps.<inner step>` |
| an inner step's `condition` | `steps.<inner dependency>`, plus `item`/`index` (forEach) or `iteration` (repeat-until) |

Parsing is the costly part (up to about 0.1 s for a 4,000-character
expression), so it happens in a CEL worker process under a per-expression
bound, and all the expressions of one document share one budget
(:class:`designer.cel.CheckBudget`); what does not fit is reported, by path,
as not checked, and blocks a run like a syntax error would.
"""
from __future__ import annotations

from typing import Any

from designer import cel
from designer.diagnostics import Diagnostic, pointer
from designer.graph import topo_order

STEP_FIELDS = {"content", "result", "status"}


def expression_diagnostics(document: Any) -> list[Diagnostic]:
    if not isinstance(document, dict) or not isinstance(document.get("steps"), list):
        return []
    return _scope(document["steps"], ["steps"], loop_kind=None, budget=cel.CheckBudget())


def _scope(steps: list, base: list, *, loop_kind: str | None, budget: cel.CheckBudget) -> list[Diagnostic]:
    ancestors = ancestor_map(steps)
    out: list[Diagnostic] = []
    for i, step in enumerate(steps):
        if isinstance(step, dict):
            step_id = step.get("id")
            visible = ancestors.get(step_id, set()) if isinstance(step_id, str) else set()
            out += _step(step, [*base, i], visible, loop_kind=loop_kind, budget=budget)
    return out


def _direct_deps(step: dict) -> set[str]:
    deps = step.get("dependsOn")
    return {d for d in deps if isinstance(d, str)} if isinstance(deps, list) else set()


def ancestor_map(steps: list) -> dict[str, set[str]]:
    """Every step's transitive dependencies within its scope (what it may read).

    Built in topological order, so each step unions its dependencies' sets
    once; steps on a cycle (reported elsewhere) fall back to a plain walk.
    """
    direct = {s["id"]: _direct_deps(s) for s in steps if isinstance(s, dict) and isinstance(s.get("id"), str)}
    out: dict[str, set[str]] = {}
    for step_id in topo_order(steps):
        found = {d for d in direct[step_id] if d in direct}
        for dep in list(found):
            found |= out.get(dep, set())
        out[step_id] = found
    for step_id in direct:
        if step_id not in out:
            seen: set[str] = set()
            stack = list(direct[step_id])
            while stack:
                dep = stack.pop()
                if dep in seen or dep not in direct:
                    continue
                seen.add(dep)
                stack.extend(direct[dep])
            out[step_id] = seen
    return out


def _step(step: dict, path: list, visible: set[str], *, loop_kind: str | None, budget: cel.CheckBudget) -> list[Diagnostic]:
    out: list[Diagnostic] = _blank(step.get("condition"), [*path, "condition"])
    condition = step.get("condition")
    if isinstance(condition, str) and condition.strip():
        allowed = {"steps"} | ({"item", "index"} if loop_kind == "forEach" else set()) | ({"iteration"} if loop_kind == "repeat" else set())
        out += _check(condition, [*path, "condition"], allowed, visible, budget,
                      bare_content_note="in a `condition`, bare `content` is always empty")
    loop = step.get("loop")
    if not isinstance(loop, dict) or loop_kind is not None:
        return out
    inner = loop.get("steps") if isinstance(loop.get("steps"), list) else None
    inner_ids = {s["id"] for s in inner or [] if isinstance(s, dict) and isinstance(s.get("id"), str)}
    out += _blank(loop.get("until"), [*path, "loop", "until"]) + _blank(loop.get("forEach"), [*path, "loop", "forEach"])
    if "forEach" in loop:
        items = loop["forEach"]
        if isinstance(items, str) and items.strip():
            out += _check(items, [*path, "loop", "forEach"], {"steps"}, visible, budget)
        kind = "forEach"
    else:
        until = loop.get("until")
        if isinstance(until, str) and until.strip():
            if inner is None:
                out += _check(until, [*path, "loop", "until"], {"iteration", "content", "result", "status", "steps"}, visible,
                              budget)
            else:
                out += _check(until, [*path, "loop", "until"], {"iteration", "steps"}, inner_ids | visible, budget,
                              bare_content_note="bare `content` only exists in single-step loops; use steps.<inner-id>.content")
        kind = "repeat"
    if inner:
        out += _scope(inner, [*path, "loop", "steps"], loop_kind=kind, budget=budget)
    return out


def _blank(value: Any, path: list) -> list[Diagnostic]:
    """Spaces only: the schema's non-empty rule lets it through, yet no runner can evaluate it."""
    if isinstance(value, str) and value and not value.strip():
        return [Diagnostic(code="cel_blank", severity="warning", blocks_run=True, path=pointer(*path),
                           message=f"`{path[-1]}` holds only white space",
                           hint="this blocks Run: write an expression, or remove the field (the format's schema lets "
                                "white space through, so the file still exports)")]
    return []


def _check(expression: str, path: list, allowed: set[str], steps_visible: set[str], budget: cel.CheckBudget,
           bare_content_note: str | None = None) -> list[Diagnostic]:
    at = pointer(*path)
    field = path[-1]
    try:
        found = cel.inspect(expression, budget=budget)
    except (cel.CelBudgetExhausted, cel.CelUnavailable) as exc:
        hint = ("shorten or simplify the expressions of this workflow" if isinstance(exc, cel.CelBudgetExhausted)
                else "validate again in a moment")
        return [Diagnostic(code="cel_not_checked", severity="warning", blocks_run=True, path=at,
                           message=f"`{field}` was not checked: {exc}", hint=f"this blocks Run: {hint}")]
    except cel.CelCostExceeded as exc:
        return [Diagnostic(code="cel_too_costly", severity="warning", blocks_run=True, path=at,
                           message=f"`{field}`: {exc}",
                           hint="this blocks Run: the step would fail the same way when it runs; shorten or simplify it")]
    except cel.CelError as exc:
        # zenflow's schema takes any string here, but no runner can evaluate it: the step would fail
        # when it runs, so it blocks a run here rather than fail minutes into one.
        return [Diagnostic(code="cel_syntax", severity="warning", blocks_run=True, path=at,
                           message=f"`{field}` is not valid CEL: {exc}",
                           hint="this blocks Run: the step would fail when it runs, in any runner. The format itself "
                                "accepts any string here, so the file still exports")]
    out = []
    for ref in found.hyphen_dot_refs:
        out.append(Diagnostic(code="cel_hyphen_dot", severity="warning", path=at, message=f"`steps.{ref}` parses as a subtraction in CEL",
                              hint=f"write steps['{ref}'] (this designer's runtime reads the dot form as meant, other runners may not)"))
    for name in sorted(found.variables - allowed):
        if name in STEP_FIELDS and bare_content_note:
            message = bare_content_note
        elif name in STEP_FIELDS:
            message = f"bare `{name}` is only available in a single-step repeat-until loop"
        elif name in ("item", "index"):
            message = f"`{name}` is only available inside a forEach loop"
        elif name == "iteration":
            message = "`iteration` is only available inside a repeat-until loop"
        else:
            message = f"unknown variable `{name}`"
        out.append(Diagnostic(code="cel_unknown_variable", severity="warning", path=at, message=f"`{field}`: {message}"))
    if "steps" in found.variables or found.step_refs:
        for ref in sorted(found.step_refs - steps_visible):
            visible = ", ".join(sorted(steps_visible)) or "none"
            out.append(Diagnostic(code="cel_unavailable_step", severity="warning", path=at,
                                  message=f"`{field}` reads steps.{ref}, which this expression cannot see (visible: {visible})",
                                  hint=f"add `{ref}` to dependsOn" if field == "condition" else None))
    return out
