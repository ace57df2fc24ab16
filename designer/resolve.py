"""Open what a document points at: includes, `@` files and contextFiles, in a workflow's folder.

Used by `validate --resolve` (files on disk), by the web app's validation of a stored folder, and by the
bundle importer to learn which files each workflow needs. Paths are relative to the including file (upstream's
rule); includes nest at most 5 deep; a missing, oversize or cyclic reference is a diagnostic at the field that
names it, and a problem inside an included file says through which includes it was reached, and at which line.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from designer.diagnostics import Diagnostic, pointer
from designer.documents import MAX_DOCUMENT_BYTES, load_source
from designer.folders import MAX_FILE_BYTES, Folder, PathRefused, joined

MAX_ATTACHMENT_BYTES = MAX_FILE_BYTES
MAX_INCLUDE_DEPTH = 5


@dataclass
class Resolution:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Every file reached, relative to the folder, in the order met (includes' own references included).
    files: list[str] = field(default_factory=list)


def include_path(document: dict, target: str) -> str:
    """The file an include step names: a key of `includes`, or a path itself."""
    includes = document.get("includes")
    if not isinstance(includes, dict):
        includes = {}
    value = includes.get(target, target)
    return value if isinstance(value, str) else target


@dataclass
class _Walk:
    folder: Folder
    out: Resolution
    # The include files that led here (main first), for cycle checks and messages.
    chain: tuple[str, ...] = ()
    depth: int = 0

    def seen(self, path: str) -> None:
        if path not in self.out.files:
            self.out.files.append(path)


def resolve_references(document: Any, folder: Folder, main_path: str = "") -> Resolution:
    """Diagnostics for the references of ``document``, which sits at ``main_path`` in ``folder``."""
    out = Resolution()
    _document(_Walk(folder, out, (main_path,) if main_path else ()), document, posixpath.dirname(main_path))
    return out


def _document(walk: _Walk, document: Any, base: str) -> None:
    if not isinstance(document, dict):
        return
    agents = document.get("agents")
    for name, agent in (agents if isinstance(agents, dict) else {}).items():
        if isinstance(agent, dict) and isinstance(agent.get("prompt"), str) and agent["prompt"].startswith("@"):
            _attachment(walk, base, agent["prompt"][1:], pointer("agents", name, "prompt"))
    steps = document.get("steps")
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        _step(walk, document, step, ["steps", i], base)


def _step(walk: _Walk, document: dict, step: Any, path: list, base: str) -> None:
    if not isinstance(step, dict):
        return
    instructions = step.get("instructions")
    if isinstance(instructions, str) and instructions.startswith("@"):
        _attachment(walk, base, instructions[1:], pointer(*path, "instructions"))
    files = step.get("contextFiles")
    if isinstance(files, list):
        for j, name in enumerate(files):
            if isinstance(name, str):
                _attachment(walk, base, name, pointer(*path, "contextFiles", j))
    loop = step.get("loop")
    if isinstance(loop, dict) and isinstance(loop.get("steps"), list):
        for j, inner in enumerate(loop["steps"]):
            _step(walk, document, inner, [*path, "loop", "steps", j], base)
    target = step.get("include")
    if isinstance(target, str) and target:
        _include(walk, base, include_path(document, target), pointer(*path, "include"))


def _located(walk: _Walk, base: str, ref: str, at: str, code: str) -> str | None:
    try:
        return joined(base, ref)
    except PathRefused as exc:
        walk.out.diagnostics.append(Diagnostic(code=code, path=at, message=str(exc)))
        return None


def _attachment(walk: _Walk, base: str, name: str, at: str) -> None:
    path = _located(walk, base, name, at, "file_not_found")
    if path is None:
        return
    size = walk.folder.size(path)
    if size is None:
        walk.out.diagnostics.append(Diagnostic(code="file_not_found", path=at, message=f"file {name!r} not found (looked for {path})"))
    elif size > MAX_ATTACHMENT_BYTES:
        walk.out.diagnostics.append(Diagnostic(code="file_too_large", path=at, message=f"file {name!r} is {size:,} bytes; the limit is 10 MiB"))
    else:
        walk.seen(path)


def _through(chain: tuple[str, ...]) -> str:
    return " -> ".join(chain)


def _include(walk: _Walk, base: str, ref: str, at: str) -> None:
    path = _located(walk, base, ref, at, "include_not_found")
    if path is None:
        return
    diagnostics = walk.out.diagnostics
    if path in walk.chain:
        diagnostics.append(Diagnostic(code="include_cycle", path=at,
                                      message=f"{path} includes itself: {_through((*walk.chain, path))}"))
        return
    if walk.depth + 1 > MAX_INCLUDE_DEPTH:
        diagnostics.append(Diagnostic(code="include_depth", path=at,
                                      message=f"includes nest deeper than {MAX_INCLUDE_DEPTH} levels: {_through((*walk.chain, path))}"))
        return
    size = walk.folder.size(path)
    if size is None:
        diagnostics.append(Diagnostic(code="include_not_found", path=at, message=f"included workflow {path!r} not found"))
        return
    if size > MAX_DOCUMENT_BYTES:
        diagnostics.append(Diagnostic(code="too_large", path=at, message=f"included workflow {path} is larger than 1 MiB"))
        return
    walk.seen(path)
    loaded = load_source(walk.folder.read(path) or b"")
    where = f"in included {path}" + (f" (through {_through(walk.chain)})" if len(walk.chain) > 1 else "")
    for diagnostic in loaded.report.diagnostics:
        diagnostic.message = f"{where}: {diagnostic.message}" + (f" (line {diagnostic.line})" if diagnostic.line else "")
        diagnostic.path = at
        diagnostic.line = diagnostic.column = None
        diagnostics.append(diagnostic)
    if loaded.parsed:
        nested = _Walk(walk.folder, Resolution(), (*walk.chain, path), walk.depth + 1)
        _document(nested, loaded.document, posixpath.dirname(path))
        for diagnostic in nested.out.diagnostics:
            if not diagnostic.message.startswith("in included "):
                diagnostic.message = f"{where}: {diagnostic.message}"
            diagnostic.path = at
        diagnostics.extend(nested.out.diagnostics)
        for f in nested.out.files:
            walk.seen(f)
