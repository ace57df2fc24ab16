"""Open what a document points at: includes, `@` files and contextFiles.

Used by `validate --resolve` and by the runtime's file-based include
resolver. Paths are relative to the including file; a missing or oversize
file is a diagnostic at the field that names it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from designer.diagnostics import Diagnostic, pointer
from designer.documents import MAX_DOCUMENT_BYTES, load_source

MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
MAX_INCLUDE_DEPTH = 5


@dataclass
class Resolution:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)


def include_path(document: dict, target: str) -> str:
    """The file an include step names: a key of `includes`, or a path itself."""
    includes = document.get("includes")
    if not isinstance(includes, dict):
        includes = {}
    value = includes.get(target, target)
    return value if isinstance(value, str) else target


def resolve_references(document: Any, base_dir: Path, *, _depth: int = 0, _chain: tuple = ()) -> Resolution:
    out = Resolution()
    if not isinstance(document, dict):
        return out
    agents = document.get("agents")
    if not isinstance(agents, dict):
        agents = {}
    for name, agent in agents.items():
        if isinstance(agent, dict) and isinstance(agent.get("prompt"), str) and agent["prompt"].startswith("@"):
            _attachment(out, base_dir, agent["prompt"][1:], pointer("agents", name, "prompt"))
    steps = document.get("steps")
    if not isinstance(steps, list):
        steps = []
    for i, step in enumerate(steps):
        _step(out, document, step, ["steps", i], base_dir, _depth, _chain)
    return out


def _step(out: Resolution, document: dict, step: Any, path: list, base_dir: Path, depth: int, chain: tuple) -> None:
    if not isinstance(step, dict):
        return
    instructions = step.get("instructions")
    if isinstance(instructions, str) and instructions.startswith("@"):
        _attachment(out, base_dir, instructions[1:], pointer(*path, "instructions"))
    files = step.get("contextFiles")
    if isinstance(files, list):
        for j, name in enumerate(files):
            if isinstance(name, str):
                _attachment(out, base_dir, name, pointer(*path, "contextFiles", j))
    loop = step.get("loop")
    if isinstance(loop, dict) and isinstance(loop.get("steps"), list):
        for j, inner in enumerate(loop["steps"]):
            _step(out, document, inner, path + ["loop", "steps", j], base_dir, depth, chain)
    target = step.get("include")
    if isinstance(target, str) and target:
        _include(out, base_dir / include_path(document, target), pointer(*path, "include"), depth, chain)


def _attachment(out: Resolution, base_dir: Path, name: str, at: str) -> None:
    path = base_dir / name
    if not path.is_file():
        out.diagnostics.append(Diagnostic(code="file_not_found", path=at, message=f"file {name!r} not found (looked in {base_dir})"))
        return
    size = path.stat().st_size
    if size > MAX_ATTACHMENT_BYTES:
        out.diagnostics.append(Diagnostic(code="file_too_large", path=at, message=f"file {name!r} is {size:,} bytes; the limit is 10 MiB"))
        return
    out.files.append(path)


def _include(out: Resolution, path: Path, at: str, depth: int, chain: tuple) -> None:
    resolved = path.resolve()
    if resolved in chain:
        out.diagnostics.append(Diagnostic(code="include_cycle", path=at, message=f"{path.name} includes itself (through {' -> '.join(p.name for p in chain)})"))
        return
    if depth + 1 > MAX_INCLUDE_DEPTH:
        out.diagnostics.append(Diagnostic(code="include_depth", path=at, message=f"includes nest deeper than {MAX_INCLUDE_DEPTH} levels"))
        return
    if not path.is_file():
        out.diagnostics.append(Diagnostic(code="include_not_found", path=at, message=f"included workflow {str(path)!r} not found"))
        return
    if path.stat().st_size > MAX_DOCUMENT_BYTES:
        out.diagnostics.append(Diagnostic(code="too_large", path=at, message=f"included workflow {path.name} is larger than 1 MiB"))
        return
    out.files.append(path)
    loaded = load_source(path.read_bytes())
    for diagnostic in loaded.report.diagnostics:
        diagnostic.message = f"in included {path.name}: {diagnostic.message}" + (f" (line {diagnostic.line})" if diagnostic.line else "")
        diagnostic.path = at
        diagnostic.line = diagnostic.column = None
        out.diagnostics.append(diagnostic)
    if loaded.parsed:
        nested = resolve_references(loaded.document, path.parent, _depth=depth + 1, _chain=chain + (resolved,))
        for diagnostic in nested.diagnostics:
            diagnostic.message = f"in included {path.name}: {diagnostic.message}"
            diagnostic.path = at
        out.diagnostics.extend(nested.diagnostics)
        out.files.extend(nested.files)
