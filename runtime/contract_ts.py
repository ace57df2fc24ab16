"""TypeScript types for the front end, generated from :mod:`runtime.contract`.

Run ``make contract`` (``manage.py event_types --write``) after changing the
contract; a test fails while ``frontend/src/api/events.gen.ts`` is out of date.
Written here rather than with a JSON-Schema-to-TypeScript package: the contract
is a dozen flat models, and this keeps the build free of another Node tool.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from runtime.contract import ACTIVE_RUN_STATUSES, EVENT_DATA, FINAL_RUN_STATUSES, RUN_STATUSES, Event, Status, Tokens, Where

TARGET = Path(__file__).resolve().parents[1] / "frontend" / "src" / "api" / "events.gen.ts"
HEADER = "// Generated from runtime/contract.py by `make contract`. Do not edit: change the contract and regenerate.\n"


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
        return f"Record<string, {_type(extra) if isinstance(extra, dict) else 'unknown'}>"
    return "unknown"


def _interface(model: type[BaseModel]) -> str:
    schema = model.model_json_schema(ref_template="#/{model}")
    required = set(schema.get("required", []))
    lines = [f"export interface {model.__name__} {{"]
    for name, field in schema.get("properties", {}).items():
        optional = "" if name in required else "?"
        lines.append(f"  {name}{optional}: {_type(field)};")
    if model.model_config.get("extra") == "allow":
        lines.append("  [key: string]: unknown;")
    lines.append("}")
    return "\n".join(lines)


def render() -> str:
    parts = [HEADER]
    parts.append("/** Every status a run, a step, an iteration or a judge call can have. */")
    parts.append("export type Status = " + " | ".join(json.dumps(s.value) for s in Status) + ";")
    parts.append("export type RunStatus = " + " | ".join(json.dumps(s.value) for s in RUN_STATUSES) + ";")
    parts.append(f"export const RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in RUN_STATUSES])};")
    parts.append(f"export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in ACTIVE_RUN_STATUSES])};")
    parts.append(f"export const FINAL_RUN_STATUSES: readonly RunStatus[] = {json.dumps([s.value for s in FINAL_RUN_STATUSES])};")
    parts.append("export type EventType = " + " | ".join(json.dumps(t) for t in EVENT_DATA) + ";")
    parts.append("")
    models: list[type[BaseModel]] = [Where, Tokens, Event, *dict.fromkeys(EVENT_DATA.values())]
    for model in models:
        parts.append(_interface(model))
        parts.append("")
    parts.append("/** The `data` each event type carries. */")
    parts.append("export interface EventData {")
    for name, model in EVENT_DATA.items():
        parts.append(f"  {name}: {model.__name__};")
    parts.append("}")
    return "\n".join(parts) + "\n"
