"""What a workspace holds at a moment, and what changed since the moment before.

A snapshot is a manifest: relative path -> size, mtime and a SHA-256 of the
content. A file whose size and mtime are unchanged keeps its digest without
being read again, so recording a workspace of 1,000 files with 10 changed
costs a directory walk and 10 reads. The contents of new digests (up to
:data:`MAX_STORED_BYTES` each) go with the snapshot to a store the web server
can read (:class:`runtime.models.WorkspaceBlob`, kept by :mod:`runtime.durability.run_files`), so diffs and downloads work when
the run executed on another machine.

Chosen over ``git commit`` inside the workspace: no ``.git`` directory the
agent can see and rewrite, no git process per step, and the same blobs serve
the file viewer, the diff and the zip.
"""
from __future__ import annotations

import difflib
import errno
import hashlib
import os
import stat
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from common.beneath import walk_beneath

MAX_STORED_BYTES = 2 * 2**20     # per file: bigger files are listed with their size, not kept
MAX_FILES = 20_000               # per snapshot: a workspace past this is recorded in part, and says so
MAX_DIFF_LINES = 2000


@dataclass(frozen=True)
class FileState:
    size: int
    mtime_ns: int
    digest: str

    def as_list(self) -> list:
        return [self.size, self.mtime_ns, self.digest]


Manifest = dict[str, FileState]


@dataclass
class Scan:
    manifest: Manifest
    blobs: dict[str, bytes]          # digest -> content, for digests not seen before and small enough
    partial: bool = False            # more than MAX_FILES files


def scan(root: Path, previous: Manifest | None = None, known_digests: set[str] | None = None) -> Scan:
    """Walk ``root`` (symlinks are listed nowhere and never followed) and hash what changed.

    The agents' ``bash`` may swap any entry for a symlink while this runs: directories are opened on descriptors
    beneath the root with links refused (:func:`common.beneath.walk_beneath`), and a file is opened relative to its
    directory's descriptor with ``O_NOFOLLOW`` and described by ``fstat`` of what was opened, so what is hashed and
    stored is always the file the manifest names, never a link's target (the server's secret key, say)."""
    previous = previous or {}
    known = known_digests if known_digests is not None else set()
    manifest: Manifest = {}
    blobs: dict[str, bytes] = {}
    partial = False
    try:
        with closing(walk_beneath(root)) as walk:
            for rel_dir, dir_fd, entries in walk:
                for entry in entries:
                    rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if not stat.S_ISREG(info.st_mode):
                        continue  # directories are walked; links, FIFOs, sockets and devices are listed nowhere
                    if len(manifest) >= MAX_FILES:
                        partial = True
                        continue
                    before = previous.get(rel)
                    if before is not None and before.size == info.st_size and before.mtime_ns == info.st_mtime_ns:
                        manifest[rel] = before  # the stat read no content: a link swapped in since shows nothing
                        continue
                    hashed = _hash_at(dir_fd, entry.name)
                    if hashed is None:
                        continue  # gone, or no longer a regular file, since the listing
                    state, data = hashed
                    manifest[rel] = state
                    if data is not None and state.digest not in known:
                        blobs[state.digest] = data
                        known.add(state.digest)
    except OSError:
        pass  # the root itself is missing or unreadable: nothing to record
    return Scan(manifest, blobs, partial)


def _hash_at(dir_fd: int, name: str) -> tuple[FileState, bytes | None] | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ELOOP, errno.ENXIO, errno.ENOTDIR, errno.EISDIR):
            return None
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            return None
        return (FileState(info.st_size, info.st_mtime_ns, "unreadable"), None) if stat.S_ISREG(info.st_mode) else None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        digest = hashlib.sha256()
        keep = info.st_size <= MAX_STORED_BYTES
        parts: list[bytes] = []
        try:
            while chunk := os.read(fd, 1 << 20):
                digest.update(chunk)
                if keep:
                    parts.append(chunk)
        except OSError:
            return FileState(info.st_size, info.st_mtime_ns, "unreadable"), None
    finally:
        os.close(fd)
    data = b"".join(parts) if keep else None
    if data is not None and len(data) > MAX_STORED_BYTES:
        data = None  # grew while being read
    return FileState(info.st_size, info.st_mtime_ns, digest.hexdigest()), data


@dataclass
class Changes:
    added: list[str]
    modified: list[str]
    removed: list[str]

    @property
    def empty(self) -> bool:
        return not (self.added or self.modified or self.removed)

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "modified": len(self.modified), "removed": len(self.removed)}


def compare(old: Manifest, new: Manifest) -> Changes:
    return Changes(added=sorted(p for p in new if p not in old),
                   modified=sorted(p for p in new if p in old and old[p].digest != new[p].digest),
                   removed=sorted(p for p in old if p not in new))


def to_json(manifest: Manifest) -> dict[str, list]:
    return {path: state.as_list() for path, state in manifest.items()}


def from_json(data: dict) -> Manifest:
    return {path: FileState(int(v[0]), int(v[1]), str(v[2])) for path, v in (data or {}).items()}


def text_of(data: bytes | None) -> str | None:
    """The content as text, or None for binary (a NUL byte, or not UTF-8)."""
    if data is None or b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def unified(path: str, before: bytes | None, after: bytes | None, *, was: bool, now: bool) -> tuple[str | None, bool]:
    """(unified diff text or None when either side is binary or not stored, truncated)."""
    old_text = text_of(before) if was else ""
    new_text = text_of(after) if now else ""
    if old_text is None or new_text is None:
        return None, False
    lines = list(difflib.unified_diff(old_text.splitlines(keepends=True), new_text.splitlines(keepends=True),
                                      fromfile=f"a/{path}" if was else "/dev/null",
                                      tofile=f"b/{path}" if now else "/dev/null"))
    truncated = len(lines) > MAX_DIFF_LINES
    lines = lines[:MAX_DIFF_LINES]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines), truncated
