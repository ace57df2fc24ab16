"""Open a file beneath a directory so that no path, symlink or race can lead out of it.

A run's folder and workspace are written by agents (``bash`` can make ``f`` a symlink to the server's secret key
between any check and any open), so a path is confined where the file is opened, by the kernel: ``openat2`` with
``RESOLVE_BENEATH`` resolves every component relative to the root's descriptor and fails with EXDEV the moment a
``..``, an absolute symlink or a magic link would leave it. ``symlinks="refuse"`` adds ``RESOLVE_NO_SYMLINKS``: a
link anywhere on the path is refused (what a workflow's own references get: its folder has no links).

Where the kernel has no ``openat2`` (before 5.6, or a seccomp filter that hides it) the path is walked one
component at a time with ``O_NOFOLLOW``: a link is then never followed, even one that stays inside. That is
stricter, never looser. Python's standard library has no ``openat2``; it is called through ctypes.

Beside opening: :func:`mkdirs_beneath` makes missing directories one component at a time, each ``mkdir`` relative
to its parent's descriptor; :func:`walk_beneath` walks a tree on descriptors (``os.scandir(fd)``), entering no link.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

Symlinks = Literal["inside", "refuse"]

_SYS_OPENAT2 = 437              # the same number on every architecture (added after the tables were unified)
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_NO_SYMLINKS = 0x04
_RESOLVE_BENEATH = 0x08
_RETRIES = 32                   # openat2 answers EAGAIN while a rename races the walk; try again, a bounded time


class Refused(OSError):
    """The path leaves the root, or names a link where links are refused; the message names the path and the rule."""


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_has_openat2: bool | None = None


def lexical(path: str) -> list[str]:
    """The path's components, refusing what can never stay inside: empty, absolute, NUL, ``..`` above the root.

    POSIX names: a backslash or a colon is part of a name here (``a\\b`` and ``a:b`` are files an agent may make);
    callers that take Windows-style paths from people (designer.folders) turn them into POSIX ones first."""
    if not isinstance(path, str) or not path.strip():
        raise Refused(errno.EINVAL, "the path is empty")
    if "\x00" in path:
        raise Refused(errno.EINVAL, f"path {path!r} contains a NUL byte")
    name = path
    if name.startswith("/"):
        raise Refused(errno.EXDEV, f"path {path!r} is absolute; only paths relative to the folder are allowed")
    parts: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise Refused(errno.EXDEV, f"path {path!r} climbs out of the folder with '..'")
            parts.pop()
        else:
            parts.append(part)
    return parts


def _openat2(dir_fd: int, path: str, flags: int, mode: int, resolve: int) -> int:
    how = _OpenHow(flags | os.O_CLOEXEC, mode if flags & os.O_CREAT else 0, resolve)
    encoded = os.fsencode(path)
    for _ in range(_RETRIES):
        fd = _libc.syscall(_SYS_OPENAT2, dir_fd, encoded, ctypes.byref(how), ctypes.sizeof(how))
        if fd >= 0:
            return fd
        code = ctypes.get_errno()
        if code != errno.EAGAIN:
            raise OSError(code, os.strerror(code), path)
    raise OSError(errno.EAGAIN, "the folder kept changing while the path was resolved", path)


def _kernel_has_openat2() -> bool:
    global _has_openat2
    if _has_openat2 is None:
        root = os.open("/", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.close(_openat2(root, ".", os.O_PATH, 0, _RESOLVE_BENEATH))
            _has_openat2 = True
        except OSError:  # ENOSYS, a seccomp EPERM, a sandbox's EINVAL: the walk, never a broken opener
            _has_openat2 = False
        finally:
            os.close(root)
    return _has_openat2


@contextmanager
def _root_fd(root: int | str | Path) -> Iterator[int]:
    """``root`` as a directory descriptor: a given one as it is, a path opened (and closed on leaving)."""
    if isinstance(root, int):
        yield root
        return
    fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield fd
    finally:
        os.close(fd)


def _walk(dir_fd: int, parts: list[str], flags: int, mode: int) -> int:
    """The fallback: one component at a time, never following a link."""
    current = os.dup(dir_fd)
    try:
        for part in parts[:-1]:
            following = os.open(part, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=current)
            os.close(current)
            current = following
        fd = os.open(parts[-1] if parts else ".", flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=current)
    finally:
        os.close(current)
    if flags & os.O_PATH and stat.S_ISLNK(os.fstat(fd).st_mode):
        os.close(fd)  # O_PATH | O_NOFOLLOW opens a link itself rather than failing: refuse it as any other open would
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), parts[-1])
    return fd


def open_beneath(root: int | str | Path, path: str, flags: int = os.O_RDONLY, mode: int = 0o644, *,
                 symlinks: Symlinks = "inside") -> int:
    """A descriptor for ``path`` under ``root`` (a directory path, or a descriptor of one), opened with ``flags``.

    Raises :class:`Refused` when the path leaves the root or crosses a refused link; other ``OSError``\\ s (no such
    file, a directory where a file was expected) as the open raised them, for the caller to put in words.
    """
    parts = lexical(path)
    with _root_fd(root) as dir_fd:
        if _kernel_has_openat2():
            resolve = _RESOLVE_BENEATH | _RESOLVE_NO_MAGICLINKS | (_RESOLVE_NO_SYMLINKS if symlinks == "refuse" else 0)
            try:
                return _openat2(dir_fd, "/".join(parts) or ".", flags, mode, resolve)
            except OSError as exc:
                if exc.errno == errno.EXDEV:
                    raise Refused(errno.EXDEV, f"path {path!r} leads out of the folder through a link") from None
                if exc.errno == errno.ELOOP and symlinks == "refuse":
                    raise Refused(errno.ELOOP, f"path {path!r} goes through a symbolic link; links are not followed") from None
                raise
        try:
            return _walk(dir_fd, parts, flags, mode)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link_on_the_way(dir_fd, parts):
                raise Refused(errno.ELOOP, f"path {path!r} goes through a symbolic link; links are not followed") from None
            raise


def _is_link_on_the_way(dir_fd: int, parts: list[str]) -> bool:
    for i in range(len(parts)):
        try:
            if stat.S_ISLNK(os.stat("/".join(parts[: i + 1]), dir_fd=dir_fd, follow_symlinks=False).st_mode):
                return True
        except OSError:
            return False
    return False


@contextmanager
def opened_dir(root: int | str | Path, path: str = ".", *, symlinks: Symlinks = "inside") -> Iterator[int]:
    """A directory under ``root`` as a descriptor (for ``os.scandir`` and ``dir_fd=``), closed on leaving."""
    fd = open_beneath(root, path, os.O_RDONLY | os.O_DIRECTORY, symlinks=symlinks)
    try:
        yield fd
    finally:
        os.close(fd)


def mkdirs_beneath(root: int | str | Path, path: str, mode: int = 0o755, *, symlinks: Symlinks = "inside") -> int:
    """An ``O_PATH`` descriptor of the directory ``path`` under ``root``, made one component at a time if missing.

    Each missing component is made with ``mkdir`` relative to the descriptor of its parent, and each component is
    opened beneath the root as :func:`open_beneath` opens it, so a link swapped in on the way is refused (or, for
    ``symlinks="inside"``, followed only while it stays beneath), never created through.
    """
    parts = lexical(path) if path not in ("", ".") else []
    flags = os.O_PATH | os.O_DIRECTORY
    with _root_fd(root) as dir_fd:
        try:
            return open_beneath(dir_fd, "/".join(parts) or ".", flags, symlinks=symlinks)
        except FileNotFoundError:
            pass
        parent = open_beneath(dir_fd, ".", flags)
        try:
            for i, part in enumerate(parts):
                prefix = "/".join(parts[: i + 1])
                try:
                    child = open_beneath(dir_fd, prefix, flags, symlinks=symlinks)
                except FileNotFoundError:
                    with contextlib.suppress(FileExistsError):  # made meanwhile; or a dangling link, which the open below reports
                        os.mkdir(part, mode, dir_fd=parent)
                    child = open_beneath(dir_fd, prefix, flags, symlinks=symlinks)
                os.close(parent)
                parent = child
        except BaseException:
            os.close(parent)
            raise
        return parent


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False  # gone since the listing


def walk_beneath(root: int | str | Path, path: str = ".", *,
                 symlinks: Symlinks = "refuse") -> Generator[tuple[str, int, list[os.DirEntry[str]]], None, None]:
    """Walk the directory ``path`` under ``root`` top-down, never following a link below it.

    Yields ``(rel, dir_fd, entries)``: ``rel`` relative to ``path`` ("" for itself), the directory open as
    ``dir_fd`` (for ``os.open(name, dir_fd=...)``; closed when the walk moves on, so ``entries``' own ``stat()``
    works only until then) and its ``os.scandir`` entries. Remove entries from the list to keep the walk out of
    those directories. Each directory is opened anew beneath ``path`` with links refused: however deep the tree,
    three descriptors at most stay open (a stack of open parents could run out of them), and a directory swapped
    for a link is not entered. One that vanished, was
    replaced or cannot be read is skipped; only ``path`` itself failing to open raises.
    """
    with _root_fd(root) as root_fd:
        start = open_beneath(root_fd, path, os.O_PATH | os.O_DIRECTORY, symlinks=symlinks)
        try:
            stack = [""]
            while stack:
                rel = stack.pop()
                try:
                    fd = open_beneath(start, rel or ".", os.O_RDONLY | os.O_DIRECTORY, symlinks="refuse")
                except OSError:
                    if not rel:
                        raise
                    continue
                try:
                    try:
                        with os.scandir(fd) as listing:
                            entries = list(listing)
                    except OSError:
                        if not rel:
                            raise
                        continue
                    yield rel, fd, entries
                    below = [entry.name for entry in entries if _is_dir(entry)]
                finally:
                    os.close(fd)
                stack.extend(f"{rel}/{name}" if rel else name for name in reversed(below))
        finally:
            os.close(start)


class TooLarge(OSError):
    """A file over the caller's size limit (read_beneath); the message gives both sizes."""


def read_beneath(root: int | str | Path, path: str, *, max_bytes: int, symlinks: Symlinks = "refuse") -> bytes:
    """The whole of a regular file under ``root``; refuses links (by default), non-files and files over ``max_bytes``.

    Nonblocking open: a FIFO planted where a file was expected cannot hang the reader."""
    fd = open_beneath(root, path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY, symlinks=symlinks)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, f"{path!r} is not a regular file", path) \
                if stat.S_ISDIR(info.st_mode) else OSError(errno.EINVAL, f"{path!r} is not a regular file", path)
        if info.st_size > max_bytes:
            raise TooLarge(errno.EFBIG, f"{path!r} is {info.st_size:,} bytes; the limit is {max_bytes:,}")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > max_bytes:  # it grew since fstat
                raise TooLarge(errno.EFBIG, f"{path!r} is larger than {max_bytes:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
