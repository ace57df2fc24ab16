"""Importer seeds (tests/fixtures/seeds) and what the importer tests check of their documents: validity, pointers, steps."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from designer.documents import validate_document
from designer.importers import ImportResult, import_loop

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"
RUNSIGHT_SEEDS = sorted((SEEDS / "runsight").glob("*.yaml"))
COQUI_SEEDS = sorted((SEEDS / "coqui").glob("*.json"))
SEED_PARAMETERS = {"investigate.json": {"subject": "caching strategies"}}


def seed_text(kind: str, name: str) -> str:
    return (SEEDS / kind / name).read_text(encoding="utf-8")


def import_seed(kind: str, name: str, **parameters: Any) -> ImportResult:
    params = {**SEED_PARAMETERS.get(name, {}), **parameters}
    return import_loop(kind, seed_text(kind, name), parameters=params or None)


def assert_valid(document: dict) -> None:
    report = validate_document(document)
    problems = [f"{d.code} at {d.path}: {d.message}" for d in report.diagnostics]
    assert report.valid and not report.warnings, problems


def resolve(document: Any, pointer: str) -> Any:
    """The value at a JSON pointer; KeyError/IndexError when it is not there."""
    node = document
    if pointer in ("", "/"):
        return node
    for token in pointer.lstrip("/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def step(document: dict, step_id: str) -> dict:
    for s in document["steps"]:
        if s["id"] == step_id:
            return s
        for inner in (s.get("loop") or {}).get("steps") or []:
            if inner["id"] == step_id:
                return inner
    raise KeyError(step_id)
