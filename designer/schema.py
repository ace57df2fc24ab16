"""The project's JSON Schema (draft 2020-12) for zenflow v1 documents.

Written from the format's facts (SPEC-DIGEST and the loop page). It is the
structural layer only; every rule a schema cannot express lives in
``designer.validation.semantic``. Step ids use the parser's strict pattern
(lowercase, at most 64 characters), a subset of what upstream's schema allows,
so everything this schema accepts the upstream one accepts too.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator

ID_PATTERN = r"^[a-z][a-z0-9_-]{0,63}$"
DURATION_PATTERN = r"^(\d+h)?(\d+m)?(\d+s)?$"
MAX_STEPS = 100
MAX_TEXT = 2000

STEP_FIELDS = ["id", "agent", "instructions", "dependsOn", "contextFiles", "model", "timeout", "retries", "maxRetries", "condition", "include", "loop"]
LOOP_FIELDS = ["forEach", "maxConcurrency", "maxIterations", "until", "untilAgent", "delay", "outputMode", "steps"]
AGENT_FIELDS = ["description", "prompt", "model", "tools", "disallowedTools", "maxTurns", "temperature", "topP", "resultSchema"]
OPTION_FIELDS = ["maxConcurrency", "onStepFailure", "timeout", "stepTimeout", "isolation", "scheduler", "maxRetries"]
DOCUMENT_FIELDS = ["name", "description", "version", "agents", "includes", "steps", "options"]

OUTPUT_MODES = ["", "last", "cumulative"]
ON_STEP_FAILURE = ["cascade", "skip-dependents", "abort"]
SCHEDULERS = ["dependency-first", "round-robin", "least-busy"]


def _strings() -> dict:
    return {"type": "array", "items": {"type": "string"}}


def _count(minimum: int = 0) -> dict:
    return {"type": "integer", "minimum": minimum}


def _closed(properties: dict, required: list[str] | None = None, **extra: Any) -> dict:
    out = {"type": "object", "additionalProperties": False, "properties": properties}
    if required:
        out["required"] = required
    out.update(extra)
    return out


def _step_schema(loop: dict) -> dict:
    duration = {"type": "string", "pattern": DURATION_PATTERN, "minLength": 2}
    return _closed(
        {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "agent": {"type": "string"},
            "instructions": {"type": "string", "maxLength": MAX_TEXT},
            "dependsOn": _strings(),
            "contextFiles": _strings(),
            "model": {"type": "string"},
            "timeout": duration,
            "retries": _count(),
            "maxRetries": _count(),
            "condition": {"type": "string", "minLength": 1},
            "include": {"type": "string"},
            "loop": loop,
        },
        required=["id"],
    )


def build_schema() -> dict:
    """The schema, with no $ref: resolving references dominated validation time.

    Steps inside a loop accept any object as their own `loop`; nesting is
    refused by the semantic validator (nested_loop_prohibited) with a better message.
    """
    duration = {"type": "string", "pattern": DURATION_PATTERN, "minLength": 2}
    loop = _closed(
        {
            "forEach": {"oneOf": [{"type": "string"}, {"type": "array"}]},
            "maxConcurrency": _count(),
            "maxIterations": _count(1),
            "until": {"type": "string", "minLength": 1},
            "untilAgent": {"type": "string"},
            "delay": duration,
            "outputMode": {"type": "string", "enum": OUTPUT_MODES},
            "steps": {"type": "array", "minItems": 1, "items": _step_schema({"type": "object"})},
        },
        minProperties=1,
    )
    step = _step_schema(loop)
    agent = _closed(
        {
            "description": {"type": "string"},
            "prompt": {"type": "string"},
            "model": {"type": "string"},
            "tools": _strings(),
            "disallowedTools": _strings(),
            "maxTurns": _count(),
            "temperature": {"type": "number", "minimum": 0, "maximum": 2},
            "topP": {"type": "number", "minimum": 0, "maximum": 1},
            "resultSchema": {"type": "object"},
        },
        required=["description"],
    )
    options = _closed(
        {
            "maxConcurrency": _count(),
            "onStepFailure": {"type": "string", "enum": ON_STEP_FAILURE},
            "timeout": duration,
            "stepTimeout": duration,
            "isolation": {"type": "string"},
            "scheduler": {"type": "string", "enum": SCHEDULERS},
            "maxRetries": _count(),
        }
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:loop-designer:zenflow-v1",
        "title": "zenflow v1 workflow (Loop Designer)",
        **_closed(
            {
                "name": {"type": "string", "minLength": 1},
                "description": {"type": "string", "maxLength": MAX_TEXT},
                "version": {"type": "integer", "minimum": 1},
                "agents": {
                    "type": "object",
                    "propertyNames": {"pattern": ID_PATTERN},
                    "additionalProperties": agent,
                },
                "includes": {"type": "object", "additionalProperties": {"type": "string"}},
                "steps": {"type": "array", "minItems": 1, "maxItems": MAX_STEPS, "items": step},
                "options": options,
            },
            required=["name", "steps"],
        ),
    }


@lru_cache(maxsize=1)
def schema() -> dict:
    return build_schema()


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    Draft202012Validator.check_schema(schema())
    return Draft202012Validator(schema())


def schema_json() -> str:
    return json.dumps(schema(), indent=2)


@lru_cache(maxsize=1)
def step_validator() -> Draft202012Validator:
    """One top-level step (used to check steps one at a time)."""
    return Draft202012Validator(schema()["properties"]["steps"]["items"])


@lru_cache(maxsize=1)
def shell_validator() -> Draft202012Validator:
    """The document with its steps' contents left to step_validator."""
    shell = json.loads(json.dumps(schema()))
    shell["properties"]["steps"]["items"] = {}
    return Draft202012Validator(shell)
