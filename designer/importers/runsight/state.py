"""What the Runsight importer knows while it translates: the file's vocabulary, the steps and agents built so far,
and which block runs in which loop. Its parts (blocks, conditions, transitions) read and write this one state."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from designer.importers.common import (
    ImportFailed,
    Names,
)
from designer.importers.report import Reporter

BLOCK_TYPES = ("linear", "gate", "code", "loop", "synthesize")
STRING_OPS = {
    "equals", "not_equals", "contains", "not_contains", "starts_with",
    "ends_with", "is_empty", "not_empty", "regex",
}
NUMERIC_OPS = {"eq": "==", "neq": "!=", "gt": ">", "lt": "<", "gte": ">=", "lte": "<="}
UNIVERSAL_OPS = {"exists", "not_exists"}
ALL_OPS = STRING_OPS | set(NUMERIC_OPS) | UNIVERSAL_OPS
DEFAULT_MAX_ROUNDS = 5
GATE_INSTRUCTIONS = (
    "Evaluate the output of step '{target}' and decide if it meets quality standards.\n"
    "Respond with EXACTLY one of:\n"
    "PASS - if the content meets quality standards\n"
    "FAIL: <detailed reason> - if the content needs improvement"
)
CODE_AGENT = "code-runner"
TOP_LEVEL_KEYS = {"version", "enabled", "config", "tools", "souls", "blocks", "workflow", "description"}
COMMON_BLOCK_KEYS = {
    "type", "depends", "stateful", "output_conditions", "inputs", "outputs",
    "retry_config", "exits", "assertions", "timeout_seconds", "stall_thresholds",
}
TYPE_KEYS = {
    "linear": {"soul_ref"},
    "gate": {"soul_ref", "eval_key", "extract_field", "pass", "fail"},
    "code": {"code", "timeout_seconds", "allowed_imports"},
    "synthesize": {"soul_ref", "input_block_ids"},
    "loop": {"inner_block_refs", "max_rounds", "break_condition", "carry_context", "break_on_exit", "retry_on_exit"},
}


@dataclass
class _Step:
    block_id: str
    step: dict[str, Any]
    loop_id: str | None = None  # the enclosing loop block, for inner steps


@dataclass
class _State:
    agents: dict[str, dict[str, Any]] = field(default_factory=dict)
    agent_users: dict[str, list[str]] = field(default_factory=dict)  # agent -> block ids
    soul_agent: dict[str, str] = field(default_factory=dict)
    steps: dict[str, _Step] = field(default_factory=dict)  # block id -> step


class _Base:
    # Set by the importer's run() once the file's top is checked; every part reads them.
    blocks: dict[str, Any]
    deferred: list[tuple[str, str, str, str | None, str | None]]  # dependencies wired once every block is built

    def __init__(self, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise ImportFailed("a Runsight workflow must be a YAML mapping with 'blocks' and 'workflow'", path="/")
        self.raw = raw
        self.rep = Reporter()
        self.st = _State()
        self.agent_names = Names()
        self.step_names = Names()
        self.step_id: dict[str, str] = {}
        self.loop_of: dict[str, str] = {}  # inner block -> loop block that runs it
        self.inner: dict[str, list[str]] = {}  # loop block -> flattened inner refs
        self.schema_needs: dict[str, dict[str, str]] = {}  # block -> {dotted key: json type}
        self.souls: dict[str, Any] = {}
        self.judged: set[str] = set()  # gates that became untilAgent judges
        self.building = True


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    raise ImportFailed(f"depends must be a block id or a list of them, not {value!r}")
