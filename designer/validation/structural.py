"""Structural checks: the project's JSON Schema, with errors a person can act on.

jsonschema reports keyword failures; this module turns each into a
diagnostic with the precise tag the conformance cases use (``missing_name``,
``empty_steps``, ``negative_value`` ...) and its class.
"""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from jsonschema.exceptions import ValidationError

from designer import schema as schema_module
from designer.diagnostics import Diagnostic, pointer

_KNOWN_FIELDS = {
    "document": schema_module.DOCUMENT_FIELDS,
    "step": schema_module.STEP_FIELDS,
    "loop": schema_module.LOOP_FIELDS,
    "agent": schema_module.AGENT_FIELDS,
    "options": schema_module.OPTION_FIELDS,
}

_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "array": "a list", "object": "a mapping", "boolean": "true or false"}


def structural_diagnostics(document: Any) -> list[Diagnostic]:
    """Schema errors of the whole document.

    Top-level steps are checked one by one against the step schema and the
    outcome is remembered by the step's content: live validation in the editor
    re-checks a document after each keystroke, and all but one step are
    unchanged. The rest of the document is checked with steps as opaque items.
    """
    out = []
    steps = document.get("steps") if isinstance(document, dict) else None
    if not isinstance(steps, list):
        for error in schema_module.validator().iter_errors(document):
            out.extend(_translate(error, document, list(error.absolute_path)))
        return _unique(out)
    for error in schema_module.shell_validator().iter_errors(document):
        out.extend(_translate(error, document, list(error.absolute_path)))
    for i, step in enumerate(steps):
        for error in _step_errors(step):
            out.extend(_translate(error, document, ["steps", i, *error.absolute_path]))
    return _unique(out)


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One keyword failure can restate another (a duration fails pattern and minLength): say it once."""
    seen: set[tuple] = set()
    out = []
    for d in diagnostics:
        key = (d.code, d.path, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _step_errors(step: Any) -> tuple:
    try:
        key = json.dumps(step, sort_keys=True)
    except (TypeError, ValueError):
        return tuple(schema_module.step_validator().iter_errors(step))
    return _cached_step_errors(key)


@lru_cache(maxsize=4096)
def _cached_step_errors(key: str) -> tuple:
    return tuple(schema_module.step_validator().iter_errors(json.loads(key)))


def _where(path: list) -> str:
    """The kind of object at ``path``: document, step, loop, agent, options."""
    if not path:
        return "document"
    if path[-1] == "options" and len(path) == 1:
        return "options"
    if len(path) == 2 and path[0] == "agents":
        return "agent"
    if path[-1] == "loop":
        return "loop"
    if isinstance(path[-1], int) and len(path) >= 2 and path[-2] == "steps":
        return "step"
    return "object"


def _name(path: list) -> str:
    """A readable name for the node at ``path``: `steps[2].loop.maxIterations`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "the document"


def _step_label(document: Any, path: list) -> str:
    """`step "review"` for a path inside a step, to help find it."""
    node = document
    label = ""
    try:
        for i, part in enumerate(path):
            node = node[part]
            if isinstance(part, int) and i > 0 and path[i - 1] == "steps" and isinstance(node, dict) and isinstance(node.get("id"), str):
                label = f'step "{node["id"]}"'
    except (KeyError, IndexError, TypeError):
        pass
    return label


def _translate(error: ValidationError, document: Any, path: list) -> list[Diagnostic]:
    where = _where(path)
    ptr = pointer(*path)
    keyword = error.validator
    in_loop = "loop" in path
    label = _step_label(document, path)
    prefix = f"{label}: " if label else ""

    def diag(code: str, message: str, cls: str = "validation", hint: str | None = None, at: str | None = None) -> Diagnostic:
        return Diagnostic(code=code, cls=cls, message=prefix + message, hint=hint, path=at if at is not None else ptr)

    if keyword == "required":
        # jsonschema reports one error per missing property; its message names it.
        named = re.match(r"^'(.+)' is a required property$", error.message)
        missing = [named.group(1)] if named else [n for n in error.validator_value if not (isinstance(error.instance, dict) and n in error.instance)]
        out = []
        for name in missing:
            if where == "document" and name == "name":
                out.append(diag("missing_name", "the workflow needs a `name`", cls="missing_name", hint="add `name: my-workflow` at the top"))
            elif where == "document" and name == "steps":
                out.append(diag("missing_steps", "the workflow needs `steps`, a list of at least one step", cls="missing_steps"))
            elif where == "agent" and name == "description":
                out.append(diag("agent_missing_description", f'agent "{path[1]}" needs a `description`', cls="agent_missing_description",
                                hint="say in a sentence what this agent does"))
            elif where == "step" and name == "id":
                out.append(diag("missing_step_id", f"{_name(path)} needs an `id`", hint="ids are lowercase: letters, digits, `_` and `-`"))
            else:
                out.append(diag("missing_field", f"{_name(path)} needs `{name}`"))
        return out

    if keyword == "additionalProperties":
        known = _KNOWN_FIELDS.get(where, [])
        extras = [k for k in (error.instance or {}) if k not in (error.schema.get("properties") or {})]
        out = []
        for key in extras:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = f"did you mean `{close[0]}`?" if close else (f"allowed here: {', '.join(known)}" if known else None)
            out.append(diag("unknown_field", f"unknown field `{key}` in {where if where != 'object' else _name(path)}", hint=hint, at=pointer(*path, key)))
        return out

    if keyword == "propertyNames":
        return [diag("invalid_agent_name", f'agent name "{error.instance}" is not allowed',
                     hint="names are lowercase: a letter, then letters, digits, `_` or `-` (at most 64)", at=pointer(*path, error.instance))]

    if keyword == "minItems":
        if path == ["steps"]:
            return [diag("empty_steps", "the workflow needs at least one step", cls="empty_steps")]
        if in_loop and path[-1] == "steps":
            return [diag("loop_empty_steps", "`loop.steps` must hold at least one step; remove it to loop the step itself", cls="loop_validation")]
        return [diag("too_few_items", f"{_name(path)} must not be empty")]

    if keyword == "maxItems":
        return [diag("too_many_steps", f"a workflow has at most {error.validator_value} top-level steps; this one has {len(error.instance)}",
                     hint="move a group of steps into an included sub-workflow")]

    if keyword == "minProperties":
        return [diag("empty_loop", "an empty `loop:` block is not allowed", cls="loop_validation",
                     hint="set `forEach`, or `maxIterations` for a repeat-until loop")]

    if keyword == "pattern":
        field = path[-1] if path else ""
        if field == "id":
            return [diag("invalid_step_id", f'step id "{error.instance}" is not allowed', cls="invalid_step_id",
                         hint="ids are lowercase: a letter, then letters, digits, `_` or `-` (at most 64); dots and brackets are reserved")]
        if field in ("timeout", "stepTimeout", "delay"):
            return [_duration(diag, error.instance)]
        return [diag("invalid_format", f"{_name(path)} does not match {error.validator_value}")]

    if keyword == "minLength":
        field = path[-1] if path else ""
        if field in ("timeout", "stepTimeout", "delay"):
            return [_duration(diag, error.instance)]
        if field == "name":
            return [diag("missing_name", "the workflow `name` must not be empty", cls="missing_name")]
        if field in ("condition", "until"):
            return [diag("empty_expression", f"`{field}` must not be empty", hint="write a CEL expression, or remove the field")]
        return [diag("too_short", f"{_name(path)} must not be empty")]

    if keyword == "maxLength":
        return [diag("too_long", f"{_name(path)} is {len(error.instance)} characters; the limit is {error.validator_value}",
                     hint="move long text to a file and reference it with `@path`" if path and path[-1] == "instructions" else None)]

    if keyword == "minimum":
        field = path[-1] if path else ""
        if field == "version":
            if error.instance == 0 and path == ["version"]:
                return [_version_zero()]
            return [diag("invalid_version", f"`version` must be 1, not {error.instance}", hint="use `version: 1` or leave it out")]
        return [diag("negative_value", f"{_name(path)} must be at least {error.validator_value}, not {error.instance}", hint=_minimum_hint(str(field)))]

    if keyword == "maximum":
        return [diag("out_of_range", f"{_name(path)} must be at most {error.validator_value}, not {error.instance}")]

    if keyword == "enum":
        allowed = ", ".join(repr(v) if v == "" else str(v) for v in error.validator_value)
        cls = "loop_validation" if in_loop else "validation"
        return [diag("invalid_enum", f"{_name(path)} is {error.instance!r}; allowed: {allowed}", cls=cls)]

    if keyword == "type":
        expected = error.validator_value
        words = _TYPE_WORDS.get(expected, expected) if isinstance(expected, str) else " or ".join(_TYPE_WORDS.get(t, t) for t in expected)
        return [diag("wrong_type", f"{_name(path)} must be {words}, not {_describe(error.instance)}")]

    if keyword == "oneOf" and path and path[-1] == "forEach":
        return [diag("wrong_type", f"`forEach` must be a CEL expression (string) or a list, not {_describe(error.instance)}", cls="loop_validation")]

    return [diag("validation", f"{_name(path)}: {error.message}")]


def _version_zero() -> Diagnostic:
    """``version: 0``: zenflow's parser reads it as version 1, as if it were left out (a Go zero value), and
    runs the workflow (parse_yaml_edge_cases_test.go, TestEdge_Version0AppliesDefault), so we accept it too;
    but the schema's minimum is 1 and schema-based validators refuse it, so the author is told."""
    return Diagnostic(code="version_zero", severity="warning", path="/version",
                      message="`version: 0` is read as version 1, as zenflow's runner reads it; the format's schema "
                              "asks for at least 1, so validators that check the schema refuse this file",
                      hint="write `version: 1` or leave it out")


def _duration(diag: Callable[..., Diagnostic], value: Any) -> Diagnostic:
    return diag("invalid_duration", f"{value!r} is not a duration", hint="use hours, minutes and seconds such as `30s`, `10m`, `1h30m` (no fractions, no ms)")


def _minimum_hint(field: str) -> str | None:
    return {
        "maxIterations": "a repeat-until loop runs at least once: use 1 or more",
        "maxConcurrency": "use 0 (the default) or a positive number",
    }.get(field)


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
