"""Rules the schema cannot express, checked scope by scope.

Runs on any JSON-like value, including structurally broken documents: it
looks only at the parts that have the right shape, so one mistake does not
hide the others.
"""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from designer import tool_specs
from designer.diagnostics import Diagnostic, pointer
from designer.graph import find_cycles
from designer.schema import ID_PATTERN

_ID = re.compile(ID_PATTERN)
INCLUDE_FORBIDDEN = ["agent", "instructions", "loop", "condition", "contextFiles", "model"]
# The coordinator's inbox key (upstream zenflow's): a step of that id could never be told apart from it, at any depth,
# because a bare id reaches the one running execution of that id.
RESERVED_STEP_ID = "coordinator"
FOREACH_FORBIDDEN = [("until", "foreach_with_until"), ("untilAgent", "foreach_with_untilagent"),
                     ("maxIterations", "foreach_with_max_iterations"), ("delay", "foreach_with_delay")]


def semantic_diagnostics(document: Any) -> list[Diagnostic]:
    if not isinstance(document, dict):
        return []
    out: list[Diagnostic] = []
    out += _version(document)
    agents = document.get("agents")
    if not isinstance(agents, dict):
        agents = {}
    includes = document.get("includes")
    if not isinstance(includes, dict):
        includes = {}
    for name, agent in agents.items():
        out += _result_schema(agent, pointer("agents", name, "resultSchema"), name)
        out += _tools(agent, name)
    steps = document.get("steps")
    if isinstance(steps, list):
        out += _scope(steps, ["steps"], agents, includes, inside_loop=False)
    return out


def _version(document: dict) -> list[Diagnostic]:
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > 1:
        return [Diagnostic(code="unknown_version", cls="unknown_version", path="/version",
                           message=f"version {version} is unknown; this designer reads zenflow v1", hint="use `version: 1` or leave it out")]
    return []


def _steps_with_paths(steps: list, base: list) -> Iterator[tuple[dict, list]]:
    for i, step in enumerate(steps):
        if isinstance(step, dict):
            yield step, [*base, i]


def _scope(steps: list, base: list, agents: dict, includes: dict, *, inside_loop: bool) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    ids: dict[str, list] = {}
    for step, path in _steps_with_paths(steps, base):
        step_id = step.get("id")
        if isinstance(step_id, str):
            if step_id in ids:
                out.append(Diagnostic(code="duplicate_step", cls="duplicate_step", path=pointer(*path, "id"),
                                      message=f'step id "{step_id}" is used twice in this scope', hint="ids must be unique among sibling steps"))
            else:
                ids[step_id] = path
            if step_id == RESERVED_STEP_ID:
                out.append(Diagnostic(code="reserved_step_id", cls="validation", path=pointer(*path, "id"),
                                      message=f'step id "{RESERVED_STEP_ID}" is reserved: it addresses the run\'s coordinator '
                                              "(send_message goes there), so no step can be reached by it",
                                      hint="rename the step, for example to \"coordinate\" or \"lead\""))
    for step, path in _steps_with_paths(steps, base):
        out += _step(step, path, ids, agents, includes, inside_loop=inside_loop)
    for cycle in find_cycles(steps):
        first = ids.get(cycle[0], base)
        out.append(Diagnostic(code="cycle", cls="cycle", path=pointer(*first, "dependsOn"), message="dependency cycle: " + " -> ".join(cycle),
                              hint="remove one of these dependsOn links"))
    return out


def _label(step: dict) -> str:
    return f'step "{step["id"]}"' if isinstance(step.get("id"), str) else "a step"


def _step(step: dict, path: list, ids: dict, agents: dict, includes: dict, *, inside_loop: bool) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    label = _label(step)
    step_id = step.get("id")

    deps = step.get("dependsOn")
    if isinstance(deps, list):
        for j, dep in enumerate(deps):
            if not isinstance(dep, str):
                continue
            if dep == step_id:
                out.append(Diagnostic(code="cycle", cls="cycle", path=pointer(*path, "dependsOn", j), message=f"{label} depends on itself"))
            elif dep not in ids:
                hint = "dependsOn names steps of the same scope; a loop's inner steps and the outer steps cannot see each other" if inside_loop else None
                out.append(Diagnostic(code="missing_dep", cls="missing_dep", path=pointer(*path, "dependsOn", j),
                                      message=f'{label} depends on "{dep}", which is not a step in this scope', hint=hint or _suggest(dep, ids)))

    agent = step.get("agent")
    if isinstance(agent, str) and agent not in agents:
        out.append(Diagnostic(code="missing_agent", cls="missing_agent", path=pointer(*path, "agent"),
                              message=f'{label} uses agent "{agent}", which is not defined in `agents`',
                              hint=_suggest(agent, agents) or "add it under `agents:` with a description"))

    if "include" in step:
        for field in INCLUDE_FORBIDDEN:
            if field in step:
                code = f"include_has_{field.lower()}"
                out.append(Diagnostic(code=code, cls=code, path=pointer(*path, field), message=f"{label} is an include step and cannot also have `{field}`",
                                      hint="an include step may carry only id, dependsOn, timeout, retries and maxRetries"))
        target = step.get("include")
        if isinstance(target, str):
            if not target.strip():
                out.append(Diagnostic(code="missing_include", path=pointer(*path, "include"), message=f"{label} has an empty `include`"))
            elif target not in includes and not _looks_like_path(target):
                out.append(Diagnostic(code="missing_include", path=pointer(*path, "include"),
                                      message=f'{label} includes "{target}", which is neither a name under `includes` nor a file path',
                                      hint=_suggest(target, includes) or "add it under `includes:` or give a path such as workflows/deploy.yaml"))

    loop = step.get("loop")
    if isinstance(loop, dict):
        if inside_loop:
            out.append(Diagnostic(code="nested_loop_prohibited", cls="nested_loop_prohibited", path=pointer(*path, "loop"),
                                  message=f"{label} is inside a loop and cannot have its own `loop` (no nested loops in v1)",
                                  hint="move this step out of the loop, or split the work into two loop steps"))
        out += _loop(loop, step, [*path, "loop"], agents, includes)
    return out


def _loop(loop: dict, step: dict, path: list, agents: dict, includes: dict) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    label = _label(step)
    if "forEach" in loop:
        for field, code in FOREACH_FORBIDDEN:
            if field in loop:
                out.append(Diagnostic(code=code, cls="loop_validation", path=pointer(*path, field),
                                      message=f"{label}: a forEach loop cannot have `{field}` (that is for repeat-until loops)",
                                      hint=f"remove `{field}`, or remove `forEach` to make this a repeat-until loop"))
        items = loop.get("forEach")
        if isinstance(items, list) and not items:
            out.append(Diagnostic(code="foreach_empty_array", cls="loop_validation", path=pointer(*path, "forEach"),
                                  message=f"{label}: `forEach` is an empty list, so the loop would never run",
                                  hint="list the items, or use a CEL expression that produces them"))
        elif isinstance(items, str) and not items.strip():
            out.append(Diagnostic(code="empty_expression", cls="loop_validation", path=pointer(*path, "forEach"), message=f"{label}: `forEach` is empty"))
    else:
        if "maxIterations" not in loop:
            out.append(Diagnostic(code="loop_missing_max_iterations", cls="loop_validation", path=pointer(*path),
                                  message=f"{label}: a repeat-until loop needs `maxIterations` so it is sure to end", hint="add `maxIterations: 5`, say"))
        judge = loop.get("untilAgent")
        if isinstance(judge, str):
            if judge not in agents:
                out.append(Diagnostic(code="untilagent_bad_ref", cls="loop_validation", path=pointer(*path, "untilAgent"),
                                      message=f'{label}: judge "{judge}" is not defined in `agents`',
                                      hint=_suggest(judge, agents) or "define the judge agent with a resultSchema that requires a boolean `done`"))
            else:
                out += _judge_contract(agents[judge], judge, pointer(*path, "untilAgent"))
        if "maxConcurrency" in loop:
            out.append(Diagnostic(code="loop_field_ignored", severity="warning", path=pointer(*path, "maxConcurrency"),
                                  message=f"{label}: `maxConcurrency` only applies to forEach loops; repeat-until iterations run one after another"))
    inner = loop.get("steps")
    if isinstance(inner, list):
        out += _scope(inner, [*path, "steps"], agents, includes, inside_loop=True)
    return out


def _judge_contract(agent: Any, name: str, at: str) -> list[Diagnostic]:
    def broken(code: str, message: str, hint: str) -> list[Diagnostic]:
        return [Diagnostic(code=code, cls="validation", path=at, message=f'judge "{name}": {message}', hint=hint)]

    fix = "give the judge `resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}`"
    if not isinstance(agent, dict):
        return []
    schema = agent.get("resultSchema")
    if not isinstance(schema, dict):
        return broken("judge_missing_result_schema", "a judge needs a `resultSchema` with a required boolean `done`", fix)
    props = schema.get("properties")
    done = props.get("done") if isinstance(props, dict) else None
    if not isinstance(done, dict):
        return broken("judge_missing_done", "its resultSchema has no `done` property", fix)
    if done.get("type") != "boolean":
        return broken("judge_done_not_boolean", f"`done` must be `type: boolean`, not {done.get('type')!r}", "set `done: {type: boolean}`")
    required = schema.get("required")
    if not (isinstance(required, list) and "done" in required):
        return broken("judge_done_not_required", "`done` must be listed in the resultSchema's `required`", "add `required: [done]`")
    return []


def _result_schema(agent: Any, at: str, name: str) -> list[Diagnostic]:
    if not isinstance(agent, dict) or not isinstance(agent.get("resultSchema"), dict):
        return []
    try:
        key = json.dumps(agent["resultSchema"], sort_keys=True)
    except (TypeError, ValueError):
        return [Diagnostic(code="invalid_result_schema", path=at, message=f'agent "{name}": resultSchema is not plain JSON')]
    problem = _schema_problem(key)
    if problem is None:
        return []
    where, message = problem
    return [Diagnostic(code="invalid_result_schema", path=at + (("/" + where) if where else ""), message=f'agent "{name}": {message}')]


@lru_cache(maxsize=512)
def _schema_problem(key: str) -> tuple[str, str] | None:
    """Checking a schema against the metaschema is slow; the same schema is checked once."""
    try:
        Draft202012Validator.check_schema(json.loads(key))
    except SchemaError as exc:
        return "/".join(str(p) for p in exc.absolute_path), f"resultSchema is not a valid JSON Schema: {exc.message}"
    except Exception as exc:  # a pathological schema must not crash validation
        return "", f"resultSchema could not be checked: {type(exc).__name__}"
    return None


def _tools(agent: Any, name: str) -> list[Diagnostic]:
    """A tool name this runtime does not provide: the format allows it (other runners register other tools),
    but a run here would refuse to start. A tool only this runtime provides (``edit``) runs here but not in
    zenflow's runner: warned without blocking, since a user exporting it would otherwise learn it there."""
    if not isinstance(agent, dict) or not isinstance(agent.get("tools"), list):
        return []
    known = tool_specs.known_names()
    out = []
    for i, tool in enumerate(agent["tools"]):
        if isinstance(tool, str) and tool not in known and tool != "submit_result":
            out.append(Diagnostic(
                code="unknown_tool", severity="warning", blocks_run=True, path=pointer("agents", name, "tools", i),
                message=f'agent "{name}": tool "{tool}" is not provided by this runtime, so it cannot run here',
                hint=_suggest(tool, known) or f"this runtime provides {', '.join(known)}"))
        elif isinstance(tool, str) and tool in tool_specs.OURS:
            out.append(Diagnostic(
                code="tool_only_here", severity="warning", path=pointer("agents", name, "tools", i),
                message=f'agent "{name}": tool "{tool}" is this server\'s own; zenflow\'s runner refuses a workflow that lists it',
                hint="it runs here; for a workflow that must also run in zenflow's runner, use `write` instead"))
    return out


def _looks_like_path(target: str) -> bool:
    return "/" in target or target.endswith((".yaml", ".yml", ".json"))


def _suggest(name: str, known: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
