"""A run's workspace: the one directory its agents' tools may touch.

The tools never resolve a path and then open it by name: the workspace's ``bash`` can make any name a symlink to
the server's own files between the two. :meth:`Workspace.open` hands the path to the kernel relative to a
descriptor of the root (:mod:`common.beneath`: ``openat2`` with ``RESOLVE_BENEATH``), so a symlink is followed
only while it stays inside; ``..`` above the root, absolute paths elsewhere and links that lead out are refused,
with words the model can act on. The directory is made on first use, so a run whose agents never touch files
costs nothing.
"""
from __future__ import annotations

import errno
import os
from collections.abc import Generator
from pathlib import Path

from common.beneath import Refused, lexical, mkdirs_beneath, open_beneath, walk_beneath


class OutsideWorkspace(Exception):
    """A path that resolves outside the workspace (the message is for the model)."""


class Workspace:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).absolute()
        self._real: Path | None = None

    def ensure(self) -> Path:
        """The root, made if missing; its real path (the root itself may sit behind a symlink)."""
        if self._real is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._real = self.root.resolve()
        return self._real

    def within(self, path: str, *, what: str = "path") -> str:
        """``path`` (relative to the root, or absolute inside it) relative to the root, ``"."`` for the root itself.

        Only the words: nothing is resolved, so a link on the way is the opener's business (:meth:`open`)."""
        if not isinstance(path, str) or not path.strip():
            raise OutsideWorkspace(f"{what} is empty")
        if "\x00" in path:
            raise OutsideWorkspace(f"{what} contains a NUL byte")
        rel = path
        if path.startswith("/"):
            for base in {str(self.ensure()), str(self.root)}:
                if path == base or path.startswith(base.rstrip("/") + "/"):
                    rel = path[len(base):].lstrip("/") or "."
                    break
            else:
                raise OutsideWorkspace(f"{what} {path!r} is outside the workspace; use a path relative to the workspace")
        try:
            return "/".join(lexical(rel)) or "."
        except Refused:
            raise OutsideWorkspace(f"{what} {path!r} is outside the workspace (it climbs above it with '..'); "
                                   "use a path relative to the workspace") from None

    def open(self, path: str, flags: int = os.O_RDONLY, mode: int = 0o644) -> int:
        """A descriptor for ``path`` opened beneath the root; :class:`OutsideWorkspace` if it would lead out.

        Other ``OSError``\\ s (no such file, a directory, a FIFO with no reader) pass as the kernel raised them."""
        rel = self.within(path)
        try:
            return open_beneath(self.ensure(), rel, flags, mode, symlinks="inside")
        except Refused as exc:
            raise OutsideWorkspace(_outside(path, exc)) from None

    def mkdirs(self, path: str) -> int:
        """An ``O_PATH`` descriptor of the directory ``path``, its missing components made without following a link
        out (the caller closes it)."""
        rel = self.within(path)
        try:
            return mkdirs_beneath(self.ensure(), rel, symlinks="inside")
        except Refused as exc:
            raise OutsideWorkspace(_outside(path, exc)) from None

    def walk(self, path: str = ".") -> Generator[tuple[str, int, list[os.DirEntry[str]]], None, None]:
        """:func:`common.beneath.walk_beneath` from ``path``: no link below it is entered."""
        rel = self.within(path)
        try:
            yield from walk_beneath(self.ensure(), rel, symlinks="inside")
        except Refused as exc:
            raise OutsideWorkspace(_outside(path, exc)) from None

    def relative(self, path: Path) -> str:
        """``path`` as the model should see it: relative to the root, with forward slashes."""
        return path.relative_to(self.ensure()).as_posix() or "."


def _outside(path: str, exc: Refused) -> str:
    if exc.errno == errno.EXDEV:
        return (f"path {path!r} is outside the workspace: a symbolic link on it leads out; use a path whose links "
                "stay inside the workspace")
    # Where the kernel cannot confine a walk (no openat2), no link is followed at all.
    return (f"path {path!r} goes through a symbolic link, and links are not followed here; use the path the link "
            "points to")
