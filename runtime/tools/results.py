"""Structured results: the ``submit_result`` tool an agent with ``resultSchema`` gets.

* :func:`submit_tool` builds the tool whose parameters are the schema.
* :func:`check_result` validates a call; its errors name JSON paths such as
  ``tags[2].name`` so the agent can fix them and call again.
* :func:`minimal_instance` makes the smallest value valid against a schema
  (the simulated provider's default reply).
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema.protocols import Validator

SUBMIT_RESULT = "submit_result"


def submit_tool(schema: dict) -> dict:
    params = schema if schema.get("type") == "object" else {
        "type": "object", "properties": {"value": schema}, "required": ["value"]}
    return {
        "name": SUBMIT_RESULT,
        "description": "Submit the structured result of this task. Call it once, when done; "
                       "the first valid call ends the task.",
        "parameters": params,
    }


def json_path(parts: Iterable[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "$"


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Validator:
    schema = json.loads(schema_json)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema)


def check_result(schema: dict, value: Any) -> list[str]:
    """Problems with ``value`` against ``schema``, each prefixed by its JSON path; [] when valid."""
    try:
        validator = _validator(json.dumps(schema, sort_keys=True))
    except Exception as exc:  # an invalid schema should have been caught by the validator
        return [f"$: the resultSchema itself is invalid ({exc})"]
    errors = sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{json_path(e.absolute_path)}: {e.message}" for e in errors[:20]]


def unwrap(schema: dict, arguments: Any) -> Any:
    """The result from a submit_result call (non-object schemas are wrapped in ``value``)."""
    if schema.get("type") != "object" and isinstance(arguments, dict) and "value" in arguments:
        return arguments["value"]
    return arguments


def minimal_instance(schema: Any, _depth: int = 0) -> Any:  # one branch per keyword
    """The smallest value valid against common JSON Schemas (a best effort for exotic ones).

    Booleans are false (so a judge's ``done`` is false), numbers their minimum or
    0, strings their minimum length of ``x`` or an enum's first value, arrays
    ``minItems`` items (at least one when allowed, so a forEach over the result
    has something to run), objects their required properties.
    """
    if not isinstance(schema, dict) or _depth > 20:
        return None
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("oneOf", "anyOf", "allOf"):
        if schema.get(key):
            return minimal_instance(schema[key][0], _depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if kind is None:
        kind = "object" if "properties" in schema else "string"
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        value = 0 if low is None else low
        if "exclusiveMinimum" in schema and value == schema["exclusiveMinimum"]:
            value = value + 1
        return int(value) if kind == "integer" else value
    if kind == "string":
        return "x" * max(int(schema.get("minLength", 0)), 1 if schema.get("maxLength", 1) >= 1 else 0)
    if kind == "array":
        count = int(schema.get("minItems", 0))
        if count == 0 and schema.get("maxItems", 1) >= 1:
            count = 1
        return [minimal_instance(schema.get("items", {}), _depth + 1) for _ in range(count)]
    if kind == "null":
        return None
    props = schema.get("properties", {})
    return {name: minimal_instance(props.get(name, {}), _depth + 1) for name in schema.get("required", [])}
