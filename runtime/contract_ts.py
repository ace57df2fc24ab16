"""TypeScript types for the front end, generated from :mod:`runtime.contract`.

Run ``make contract`` (``manage.py event_types --write``) after changing the
contract; a test fails while ``frontend/src/api/events.gen.ts`` is out of date.
Written here rather than with a JSON-Schema-to-TypeScript package: the contract
is a dozen flat models, and this keeps the build free of another Node tool.

Besides an interface per model, it writes one event interface per type
(``StepEndRunEvent``: the envelope, ``type: "step_end"`` and ``data:
StepEndData``) and ``RunEvent``, their union: a discriminated union, so that
testing ``type`` narrows ``data`` and every fold in the front end reads the
contract's fields instead of casting.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from runtime.contract import (
    ACTIVE_RUN_STATUSES,
    EVENT_DATA,
    FINAL_RUN_STATUSES,
    RUN_STATUSES,
    BreakpointData,
    Event,
    PlanEdge,
    PlanWorkflow,
    Status,
    Tokens,
    Where,
)

TARGET = Path(__file__).resolve().parents[1] / "frontend" / "src" / "api" / "events.gen.ts"
HEADER = "// Generated from runtime/contract.py by `make contract`. Do not edit: change the contract and regenerate.\n"
#: What a field the contract leaves open (``Any``) holds on the wire: JSON, whatever it is.
JSON_VALUE = "JsonValue"
#: The envelope's fields that each event type narrows.
NARROWED = ("type", "data")


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(dict.fromkeys(_type(s) for s in schema["anyOf"]))
    kind = schema.get("type")
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        inner = _type(schema.get("items", {}))
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        return f"Record<string, {_type(extra) if isinstance(extra, dict) else JSON_VALUE}>"
    return JSON_VALUE


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema(ref_template="#/{model}")


def _fields(schema: dict[str, Any], skip: tuple[str, ...] = ()) -> list[str]:
    required = set(schema.get("required", []))
    lines = []
    for name, field in schema.get("properties", {}).items():
        if name not in skip:
            optional = "" if name in required else "?"
            lines.append(f"  {name}{optional}: {_type(field)};")
    return lines


def _interface(model: type[BaseModel]) -> str:
    lines = [f"export interface {model.__name__} {{", *_fields(_schema(model))]
    if model.model_config.get("extra") == "allow":
        lines.append(f"  [key: string]: {JSON_VALUE} | undefined;")
    lines.append("}")
    return "\n".join(lines)


def event_interface_name(event_type: str) -> str:
    """``step_end`` -> ``StepEndRunEvent`` (a suffix of its own: ``ErrorEvent`` and ``MessageEvent`` are the DOM's)."""
    return "".join(part.capitalize() for part in event_type.split("_")) + "RunEvent"


def _events() -> list[str]:
    """The envelope, the loose :class:`Event`, one interface per event type, and their union."""
    schema = _schema(Event)
    data = schema["properties"]["data"]
    # The envelope's ``data`` is optional (an older event, an ``error`` or an ``output`` may have none):
    # each type's keeps that, and names its own model instead of an open object.
    data_field = "data" + ("" if "data" in schema.get("required", []) else "?")
    data_null = " | null" if any(s.get("type") == "null" for s in data.get("anyOf", [])) else ""
    parts = [
        "/** The envelope every event has, but `type` and `data`, which each event type narrows. */",
        "export interface EventEnvelope {", *_fields(schema, skip=NARROWED), "}", "",
        "/** Any event, its `data` unchecked (the envelope the server checks before the data by type). */",
        f"export interface {Event.__name__} extends EventEnvelope {{",
        "  type: EventType;",
        f"  {data_field}: {_type(data)};",
        "}", "",
    ]
    for name, model in EVENT_DATA.items():
        parts += [
            f"export interface {event_interface_name(name)} extends EventEnvelope {{",
            f"  type: {json.dumps(name)};",
            f"  {data_field}: {model.__name__}{data_null};",
            "}", "",
        ]
    parts.append("/** A run event: testing `type` narrows `data` to what that type carries. */")
    parts.append("export type RunEvent =")
    parts += [f"  | {event_interface_name(name)}" for name in EVENT_DATA]
    parts[-1] += ";"
    parts.append("")
    parts.append("/** The event of one type (`RunEventOf<'step_end'>`). */")
    parts.append("export type RunEventOf<T extends EventType> = Extract<RunEvent, { type: T }>;")
    return parts


def render() -> str:
    parts = [HEADER]
    parts.append("/** Every status a run, a step, an iteration or a judge call can have. */")
    parts.append("export type Status = " + " | ".join(json.dumps(s.value) for s in Status) + ";")
    parts.append("export type RunStatus = " + " | ".join(json.dumps(s.value) for s in RUN_STATUSES) + ";")
    parts.append(f"export const RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in RUN_STATUSES])};")
    parts.append(f"export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in ACTIVE_RUN_STATUSES])};")
    parts.append(f"export const FINAL_RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in FINAL_RUN_STATUSES])};")
    parts.append("export type EventType = " + " | ".join(json.dumps(t) for t in EVENT_DATA) + ";")
    parts.append("/** What a field the contract leaves open holds: whatever JSON the server sent. */")
    parts.append(
        f"export type {JSON_VALUE} = null | boolean | number | string | {JSON_VALUE}[] | {{ [key: string]: {JSON_VALUE} | undefined }};"
    )
    parts.append("")
    models: list[type[BaseModel]] = [Where, Tokens, BreakpointData, PlanEdge, PlanWorkflow, *dict.fromkeys(EVENT_DATA.values())]
    for model in models:
        parts.append(_interface(model))
        parts.append("")
    parts.append("/** The `data` each event type carries. */")
    parts.append("export interface EventData {")
    for name, model in EVENT_DATA.items():
        parts.append(f"  {name}: {model.__name__};")
    parts.append("}")
    parts.append("")
    parts += _events()
    return "\n".join(parts) + "\n"
