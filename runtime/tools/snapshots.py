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

import contextlib
import difflib
import errno
import hashlib
import json
import os
import stat
import threading
import time
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path

from common.beneath import walk_beneath

MAX_STORED_BYTES = 2 * 2**20     # per file: bigger files are listed with their size, not kept
MAX_FILES = 20_000               # per snapshot: a workspace past this is recorded in part, and says so
MAX_DIFF_LINES = 2000
MAX_LINKS = 200                  # symbolic links listed per snapshot (each with its target as written)
MAX_TARGET_CHARS = 300


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
    skipped: int = 0                 # new contents not kept: past the room the store had
    links: dict[str, str] = field(default_factory=dict)   # symbolic link -> its target as written, never followed


# One chunk of a scan (Scanner.step): about this many entries looked at, or this many bytes read, whichever first.
# A chunk of new small files takes a few milliseconds; the caller hands the thread back to the event loop between
# chunks and stores each chunk's contents before the next, so neither the loop nor the memory waits on the whole
# workspace.
CHUNK_FILES = 256
CHUNK_BYTES = 8 * 2**20
CHUNK_SECONDS = 0.005   # and at most about this long: a thread holding the GIL longer would hold the loop's requests


class Scanner:
    """A scan (:func:`scan`) taken a chunk at a time: :meth:`step` goes on from where the last one stopped.

    Contents of new digests are kept (up to :data:`MAX_STORED_BYTES` each) only while they fit ``room``, the bytes
    the store said it can take (None: no limit), checked before a file is read, so a workspace of many new files is
    never held in memory past what will be stored; :meth:`take_blobs` hands over each chunk's. A content that did
    not fit is counted in ``skipped`` and not tried again (its digest goes in ``known_digests`` all the same).
    :meth:`step` and :meth:`close` may be called from any thread, one at a time (a lock sees to it)."""

    def __init__(self, root: Path, previous: Manifest | None = None, known_digests: set[str] | None = None, *,
                 room: int | None = None) -> None:
        self.previous = previous or {}
        self.known = known_digests if known_digests is not None else set()
        self.room = room
        self.manifest: Manifest = {}
        self.links: dict[str, str] = {}
        self.blobs: dict[str, bytes] = {}
        self.partial = False
        self.skipped = 0
        self.chunks = 0
        self.done = False
        self._root = root
        self._walk: Generator[tuple[str, int, list[os.DirEntry[str]]], None, None] | None = None
        self._current: tuple[str, int, list[os.DirEntry[str]]] | None = None
        self._index = 0
        self._lock = threading.Lock()

    def step(self, files: int = CHUNK_FILES, read: int = CHUNK_BYTES, seconds: float = CHUNK_SECONDS) -> bool:
        """Look at about ``files`` more entries, read about ``read`` more bytes or go on about ``seconds``, whichever
        comes first; True once the walk is over."""
        with self._lock:
            if self.done:
                return True
            self.chunks += 1
            looked = taken = 0
            until = time.monotonic() + seconds
            try:
                if self._walk is None:
                    self._walk = walk_beneath(self._root)
                while looked < files and taken < read and (looked % 16 or time.monotonic() < until):
                    if self._current is None:
                        self._current = next(self._walk, None)
                        self._index = 0
                        if self._current is None:
                            self._finish()
                            return True
                    rel_dir, dir_fd, entries = self._current
                    if self._index >= len(entries):
                        self._current = None
                        continue
                    entry = entries[self._index]
                    self._index += 1
                    looked += 1
                    taken += self._one(dir_fd, f"{rel_dir}/{entry.name}" if rel_dir else entry.name, entry)
            except OSError:
                self._finish()  # the root itself is missing or unreadable: nothing (more) to record
                return True
            return False

    def _one(self, dir_fd: int, rel: str, entry: os.DirEntry[str]) -> int:
        """Record one listed entry; the bytes read for it."""
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            return 0
        if stat.S_ISLNK(info.st_mode):
            self._link(dir_fd, rel, entry.name)
            return 0
        if not stat.S_ISREG(info.st_mode):
            return 0  # directories are walked; FIFOs, sockets and devices are listed nowhere
        if len(self.manifest) >= MAX_FILES:
            self.partial = True
            return 0
        before = self.previous.get(rel)
        if before is not None and before.size == info.st_size and before.mtime_ns == info.st_mtime_ns:
            self.manifest[rel] = before  # the stat read no content: a link swapped in since shows nothing
            return 0
        fits = self.room is None or info.st_size <= self.room
        hashed = _hash_at(dir_fd, entry.name, keep=fits)
        if hashed is None:
            return 0  # gone, or no longer a regular file, since the listing
        state, data = hashed
        self.manifest[rel] = state
        if state.digest in self.known or state.digest == "unreadable" or state.size > MAX_STORED_BYTES:
            return state.size
        if data is not None and (self.room is None or len(data) <= self.room):
            self.known.add(state.digest)
            self.blobs[state.digest] = data
            if self.room is not None:
                self.room -= len(data)
        elif data is not None or not fits:
            self.known.add(state.digest)
            self.skipped += 1  # the store had no room for it: not kept in memory, not tried again
        return state.size

    def _link(self, dir_fd: int, rel: str, name: str) -> None:
        """A symbolic link is listed with its target as the link says it (``readlink`` beside it), never opened or
        followed: a link an agent made shows in the tree as a link, and its target's content never enters a snapshot."""
        if len(self.links) >= MAX_LINKS:
            self.partial = True
            return
        with contextlib.suppress(OSError):  # gone, or no longer a link, since the listing
            self.links[rel] = os.readlink(name, dir_fd=dir_fd)[:MAX_TARGET_CHARS]

    def take_blobs(self) -> dict[str, bytes]:
        """The contents kept since the last call (the caller stores them)."""
        blobs, self.blobs = self.blobs, {}
        return blobs

    def _finish(self) -> None:
        self.done = True
        self._current = None
        if self._walk is not None:
            self._walk.close()  # its open directories with it

    def close(self) -> None:
        """Stop the walk where it is (its directories are closed); safe to call more than once, from any thread."""
        with self._lock:
            if not self.done:
                self._finish()


def scan(root: Path, previous: Manifest | None = None, known_digests: set[str] | None = None) -> Scan:
    """Walk ``root`` (symlinks are listed apart with their targets, never followed) and hash what changed, in one go.

    The agents' ``bash`` may swap any entry for a symlink while this runs: directories are opened on descriptors
    beneath the root with links refused (:func:`common.beneath.walk_beneath`), and a file is opened relative to its
    directory's descriptor with ``O_NOFOLLOW`` and described by ``fstat`` of what was opened, so what is hashed and
    stored is always the file the manifest names, never a link's target (the server's secret key, say).
    :class:`Scanner` does the same a chunk at a time."""
    scanner = Scanner(root, previous, known_digests)
    try:
        while not scanner.step(files=1 << 62, read=1 << 62, seconds=float("inf")):
            pass
    finally:
        scanner.close()
    return Scan(scanner.manifest, scanner.take_blobs(), scanner.partial, scanner.skipped, scanner.links)


def _hash_at(dir_fd: int, name: str, *, keep: bool = True) -> tuple[FileState, bytes | None] | None:
    """The file ``name``'s state, and its content when ``keep`` and it is at most MAX_STORED_BYTES (else None)."""
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
        keep = keep and info.st_size <= MAX_STORED_BYTES
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


def json_text(manifest: Manifest, slice_size: int = 500) -> str:
    """``json.dumps(to_json(manifest))``, encoded a slice at a time with the GIL let go between slices: a
    20,000-file manifest is 2 MB of JSON, and encoding it in one call holds every other thread (the event loop's
    requests) for tens of milliseconds."""
    paths = list(manifest)
    parts = []
    for start in range(0, len(paths), slice_size):
        piece = json.dumps({path: manifest[path].as_list() for path in paths[start:start + slice_size]})
        parts.append(piece[1:-1])
        time.sleep(0)  # lets another thread have the GIL
    return "{" + ", ".join(part for part in parts if part) + "}"


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
