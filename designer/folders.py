"""A workflow's folder: the files beside its main document, at relative paths, and the rules those paths keep.

Includes, ``@`` prompts and context files name files relative to the file that names them (upstream's rule).
In a stored folder every path is normalised and confined: no ``..`` above the folder, nothing absolute, no links
(a zip's links are refused on the way in; a disk folder's are never followed, common.beneath). The same :class:`Folder` reading
serves files on disk (the CLI) and files in the database (the web app), so both resolve alike.
"""
from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from common import beneath

MAX_FILE_BYTES = 10 * 2**20     # upstream's cap on one context or prompt file
MAX_FILES = 500                 # ours: a folder is a workflow's, not a repository's
MAX_TOTAL_BYTES = 50 * 2**20    # ours, all files together


class PathRefused(ValueError):
    """A path that cannot be in a workflow's folder; the message names it and the rule."""


def clean_path(raw: str) -> str:
    """A stored file's path, relative and posix (``a/./b`` -> ``a/b``); refuses absolute and climbing paths."""
    if not isinstance(raw, str) or not raw.strip():
        raise PathRefused("a file path is empty")
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise PathRefused(f"path {raw!r} is absolute; paths are relative to the workflow's folder")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PathRefused(f"path {raw!r} uses '..'; paths must stay inside the workflow's folder")
    if not parts or any("\x00" in p for p in parts):
        raise PathRefused(f"path {raw!r} is not a file name")
    return "/".join(parts)


def joined(base_dir: str, ref: str) -> str:
    """``ref`` as seen from the folder ``base_dir`` (both relative); refuses a path that leaves the folder."""
    if ref.startswith("/") or (len(ref) > 1 and ref[1] == ":"):
        raise PathRefused(f"path {ref!r} is absolute; paths are relative to the file that names them")
    path = posixpath.normpath(posixpath.join(base_dir, ref.replace("\\", "/")))
    if path == ".." or path.startswith("../"):
        raise PathRefused(f"path {ref!r} leaves the workflow's folder")
    return clean_path(path)


class Folder(Protocol):
    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when there is no such file (or it cannot be read)."""

    def size(self, path: str) -> int | None:
        """The file's size without reading it, or None when missing."""


@dataclass
class MemoryFolder:
    """Files held in memory: a zip being imported, a stored version's folder."""

    files: dict[str, bytes] = field(default_factory=dict)

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)

    def size(self, path: str) -> int | None:
        data = self.files.get(path)
        return None if data is None else len(data)


@dataclass
class DiskFolder:
    """Files under a directory on disk, opened beneath it (common.beneath): no link is followed, in or out."""

    root: Path

    def _open(self, path: str) -> int | None:
        try:
            fd = beneath.open_beneath(self.root, path, os.O_RDONLY | os.O_NONBLOCK, symlinks="refuse")
        except OSError:
            return None
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
        except OSError:
            regular = False
        if not regular:
            os.close(fd)
            return None
        return fd

    def read(self, path: str) -> bytes | None:
        fd = self._open(path)
        if fd is None:
            return None
        try:
            with os.fdopen(fd, "rb") as handle:
                return handle.read()
        except OSError:
            return None

    def size(self, path: str) -> int | None:
        fd = self._open(path)
        if fd is None:
            return None
        try:
            return os.fstat(fd).st_size
        finally:
            os.close(fd)


def check_totals(files: dict[str, bytes]) -> None:
    """A folder's caps: file count, each file's size, the total."""
    if len(files) > MAX_FILES:
        raise PathRefused(f"the folder has {len(files):,} files; the limit is {MAX_FILES:,}")
    for path, data in files.items():
        if len(data) > MAX_FILE_BYTES:
            raise PathRefused(f"file {path!r} is {len(data):,} bytes; the limit is 10 MiB a file")
    total = sum(len(d) for d in files.values())
    if total > MAX_TOTAL_BYTES:
        raise PathRefused(f"the folder's files add up to {total:,} bytes; the limit is {MAX_TOTAL_BYTES // 2**20} MiB")
