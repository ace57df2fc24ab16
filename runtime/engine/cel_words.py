"""A CEL expression that failed while a run evaluated it, told in a sentence.

The evaluator reports a failed evaluation as its own exception dump
(``evaluation failed: ("no such member in mapping: 'nope'", <class 'KeyError'>,
None)``); when the missing value was indexed further, it does not even name the
field (``found no matching overload for _[_] applied to '(<class
'celpy.evaluation.CELEvalError'>, ...)'``). A step's ``condition``, a loop's
``until`` and a ``forEach`` expression fail their step with this module's words
instead: the expression, and the first reference in it that the run's
variables do not hold, found by walking them (``steps.proc.result`` has no field
``nope``; it has: iterations). When no reference is missing, the evaluator's
own reason is kept, without its Python type names.

Errors that are not a failed evaluation (a syntax error, a used-up budget, a
result of the wrong type) pass through unchanged.

:func:`missing_key` tells a step's ``condition`` that read a map key the run does
not hold (yet) from one that is wrong: upstream's runner skips the step in the
first case ("no such key") and fails it in the second.
"""
from __future__ import annotations

import re
from typing import Any

_FAILED = "evaluation failed: "
# A reference: a name, then any of `.field`, `[number]`, `['key']` / `["key"]`.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_REFERENCE = re.compile(rf"(?<![\w.\]'\"]){_NAME}(?:\s*(?:\.\s*{_NAME}\b(?!\s*\()|\[\s*(?:-?\d+|'[^']*'|\"[^\"]*\")\s*\]))*")
_SEGMENT = re.compile(rf"\.\s*({_NAME})|\[\s*(-?\d+|'[^']*'|\"[^\"]*\")\s*\]")
_STRINGS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_TYPE_NAMES = re.compile(r"<class '(?:[\w.]+\.)?(\w+?)(?:Type)?'>")
SHOWN_KEYS = 8


def describe(what: str, expression: str, variables: dict[str, Any], message: str) -> str:
    """``what: message`` unless ``message`` is a failed evaluation; then a sentence naming ``expression``."""
    if not message.startswith(_FAILED):
        return f"{what}: {message}"
    missing = _first_missing(expression, variables)
    reason = missing[0] if missing is not None else _reason(message[len(_FAILED):])
    return f"{what}: `{expression}` could not be evaluated: {reason}"


def missing_key(expression: str, variables: dict[str, Any], message: str) -> str | None:
    """Words for the map key ``expression`` read and ``variables`` lack, when that failed it (None: another reason).

    An index past a list's end or a field of a string or null is a type of
    mistake, not missing data, as in upstream's evaluator.
    """
    if not message.startswith(_FAILED):
        return None
    missing = _first_missing(expression, variables)
    return missing[0] if missing is not None and missing[1] else None


def _first_missing(expression: str, variables: dict[str, Any]) -> tuple[str, bool] | None:
    """The first reference in ``expression`` that ``variables`` do not hold, said in words, and whether it is a
    map's key (None: all are held)."""
    literals = [m.span() for m in _STRINGS.finditer(expression)]
    for found in _REFERENCE.finditer(expression):
        if any(start <= found.start() < end for start, end in literals):
            continue  # words inside a string literal are not references
        text = found.group()
        head = re.match(_NAME, text)
        if head is None:  # _REFERENCE starts with _NAME
            raise RuntimeError(f"CEL reference {text!r} does not start with a name")
        name = head.group()
        if name not in variables:
            continue  # a function, a macro's variable, a literal (true, null): not one of the run's values
        value, shown = variables[name], name
        for segment in _SEGMENT.finditer(text, head.end()):
            key: Any = segment.group(1)
            if key is None:
                raw = segment.group(2)
                key = int(raw) if raw.lstrip("-").isdigit() else raw[1:-1]
            problem = _step_into(value, key, shown)
            if problem is not None:
                return problem, isinstance(value, dict)
            value = value[key]
            shown += f".{key}" if segment.group(1) is not None else f"[{segment.group(2)}]"
    return None


def _step_into(value: Any, key: Any, shown: str) -> str | None:
    """Why ``value[key]`` does not exist (None: it does)."""
    if isinstance(value, dict):
        if isinstance(key, str) and key in value:
            return None
        if shown == "steps":
            known = ", ".join(sorted(value)[:SHOWN_KEYS]) or "none"
            return f"`steps` has no step `{key}` (the steps it can read here: {known})"
        keys = sorted(str(k) for k in value)
        listed = ", ".join(keys[:SHOWN_KEYS]) + (", ..." if len(keys) > SHOWN_KEYS else "")
        return f"`{shown}` has no field `{key}`" + (f" (it has: {listed})" if keys else " (it is an empty map)")
    if isinstance(value, list):
        if isinstance(key, int) and 0 <= key < len(value):
            return None
        if isinstance(key, int):
            count = f"{len(value)} item{'s' if len(value) != 1 else ''}"
            return f"`{shown}` has {count}, so there is no [{key}]"
        return f"`{shown}` is a list, so it has no field `{key}`"
    kind = "null" if value is None else {bool: "a bool", str: "a string", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)
    return f"`{shown}` is {kind}, so it has no field `{key}`" if isinstance(key, str) else \
        f"`{shown}` is {kind}, so it cannot be indexed with [{key}]"


def _reason(raw: str) -> str:
    """The evaluator's reason from its dump ``(message, <class ...>, (detail,))``, without Python's type names."""
    text = _TYPE_NAMES.sub(lambda m: m.group(1).lower(), raw)
    found = re.match(r"""\(\s*(['"])(.*?)\1\s*,\s*\w+\s*,\s*(.*)\)\s*$""", text, re.S)
    if found is None:
        return text
    reason = found.group(2)
    detail = re.match(r"""\(\s*(['"])(.*?)\1""", found.group(3), re.S)
    if detail is not None and detail.group(2) and detail.group(2) not in reason:
        reason += f" ({detail.group(2)})"
    if reason.startswith("found no matching overload for"):
        return "an operator or function was given values of types it does not take: " + reason
    return reason
