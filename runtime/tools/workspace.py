"""A run's workspace: the one directory its agents' tools may touch.

Every path a tool is given is resolved here, symlinks included, and refused
when it lands outside the root: ``..``, absolute paths and a symlink inside
the workspace that points out all fail the same way, with words the model can
act on. The directory is made on first use, so a run whose agents never touch
files costs nothing.
"""
from __future__ import annotations

import os
from pathlib import Path


class OutsideWorkspace(Exception):
    """A path that resolves outside the workspace (the message is for the model)."""


class Workspace:
    def __init__(self, root: Path | str):
        self.root = Path(root).absolute()
        self._real: Path | None = None

    def ensure(self) -> Path:
        """The root, made if missing; its real path (the root itself may sit behind a symlink)."""
        if self._real is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._real = self.root.resolve()
        return self._real

    def resolve(self, path: str, *, what: str = "path") -> Path:
        """The real path of ``path`` (relative to the root, or absolute inside it); refuse anything outside."""
        if not isinstance(path, str) or not path.strip():
            raise OutsideWorkspace(f"{what} is empty")
        if "\x00" in path:
            raise OutsideWorkspace(f"{what} contains a NUL byte")
        real_root = self.ensure()
        given = Path(path)
        candidate = given if given.is_absolute() else real_root / given
        # strict=False: a file about to be written need not exist; every existing prefix is still resolved.
        resolved = Path(os.path.realpath(candidate))
        if resolved != real_root and real_root not in resolved.parents:
            raise OutsideWorkspace(f"{what} {path!r} is outside the workspace; use a path relative to the workspace")
        return resolved

    def relative(self, path: Path) -> str:
        """``path`` as the model should see it: relative to the root, with forward slashes."""
        return path.relative_to(self.ensure()).as_posix() or "."
