"""One run's tools: its workspace, per-step copies (``isolation: step``), snapshots and the gate.

``options.isolation`` (absent or ``run``: the run's agents share one
workspace; ``step``: each step execution, so each loop iteration and each
forEach item, works on its own copy of the workspace as it was when the step
began). A step's copy comes back when the step ends: every file it added,
changed or removed is applied to the run's workspace unless the run's
workspace changed that same file meanwhile (another item got there first);
those files stay in the copy, and the run says which (a warning). Parallel
items therefore never race on a file, and the one that finishes first wins a
conflict. Copies live beside the workspace (``<run>.steps/``) and are deleted
with it.

Snapshots are taken when the workspace changed since the last one, and go to
a :class:`SnapshotStore` (the database in the server, memory elsewhere). A run
that goes on from what it stored before (a resumed run) hands its RunTools a
:class:`Stored`: snapshots are numbered after every one already stored, and the
next one of the run's workspace is counted from the one its files were put
back to.

The server writes into workspaces agents have had their hands on: a folder
there may have become a link to ``/etc``. :func:`open_to_write` and
:func:`remove_file` never go through a link, and a step's copy keeps links as
links.

A run's MCP servers (``mcp_servers``) start in :meth:`RunTools.open`, called by
the engine as the run starts, which registers their tools for the run
(:func:`runtime.tools.use_run_tools`) and answers what the run should say about
them, every server's secret values (and the deployment's) redacted and each
notice capped; :meth:`RunTools.close` stops them when it ends.
"""
from __future__ import annotations

import asyncio
import dataclasses
import errno
import os
import re
import shutil
import stat
from collections.abc import Awaitable, Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from common import beneath
from common.redact import scrub
from runtime import tools as registry
from runtime.tools import ToolSettings
from runtime.tools import disk as disks
from runtime.tools.approvals import Approvals
from runtime.tools.mcp.config import McpOptions, ServerConfig
from runtime.tools.permissions import Permissions
from runtime.tools.snapshots import Changes, Manifest, Scan, Scanner, compare, scan
from runtime.tools.workspace import Workspace

RUN = "run"
MCP_NOTICE_LIMIT = 2000  # characters of one notice about the run's MCP servers (as an account's check error)
# A snapshot's new contents go to the store in batches of about this many (or this many bytes): one short
# transaction each, fewer than one per scan chunk (each costs a thread, a connection and the caps' sums).
SAVE_FILES = 512
SAVE_BYTES = 4 * 2**20


@dataclass
class SnapshotRecord:
    number: int
    label: str
    step_id: str | None
    workspace: str                  # "run", or the step id of an isolation copy
    manifest: Manifest
    blobs: dict[str, bytes]
    changes: Changes
    base: int | None = None         # the snapshot its changes are counted from (None: from empty)
    partial: bool = False
    # Set by the store: how many new contents it did not keep (storage full), and why in words.
    not_stored: int = 0
    note: str = ""
    links: dict[str, str] = field(default_factory=dict)   # symbolic link -> its target as written (never followed)

    def event_data(self) -> dict:
        return {"snapshot": self.number, "label": self.label, "step_id": self.step_id, "workspace": self.workspace,
                "files": len(self.manifest), **self.changes.counts(), **({"partial": True} if self.partial else {}),
                **({"not_stored": self.not_stored, "note": self.note} if self.not_stored else {})}


class SnapshotStore(Protocol):
    async def room(self) -> tuple[int | None, str]:
        """Bytes of contents it can still take (None: no limit), and why not in words once that is spent."""

    async def save_blobs(self, blobs: dict[str, bytes]) -> tuple[int, str]:
        """Keep what fits of one chunk's contents; how many it did not keep, and why in words ("" if all were)."""

    async def save(self, record: SnapshotRecord) -> None:
        """Keep the snapshot (its contents came through save_blobs, or are in ``record.blobs``)."""


@dataclass
class MemoryStore:
    records: list[SnapshotRecord] = field(default_factory=list)
    blobs: dict[str, bytes] = field(default_factory=dict)

    async def room(self) -> tuple[int | None, str]:
        return None, ""

    async def save_blobs(self, blobs: dict[str, bytes]) -> tuple[int, str]:
        self.blobs.update(blobs)
        return 0, ""

    async def save(self, record: SnapshotRecord) -> None:
        self.records.append(record)
        self.blobs.update(record.blobs)


@dataclass
class Stored:
    """What a run stored before this RunTools was made (it resumed): it goes on from there."""

    number: int = 0                     # the highest snapshot number stored, superseded ones included
    base: int | None = None             # the run workspace's snapshot its files were put back to
    manifest: Manifest = field(default_factory=dict)   # that snapshot's
    by_label: dict[str, int] = field(default_factory=dict)


@dataclass
class StepCopy:
    name: str
    workspace: Workspace
    base: Manifest
    base_number: int | None    # the run's snapshot the copy was taken from


def copy_name(step_path: str) -> str:
    """A directory name for a step id (``batch[3]`` -> ``batch_3_``): readable and never a path."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", step_path).strip(".") or "step"


class RunTools:
    def __init__(self, root: Path | str, *, settings: ToolSettings | None = None, isolation: str = RUN,
                 ask_before: list[str] | tuple[str, ...] = (), store: SnapshotStore | None = None,
                 approvals: Approvals | None = None, mcp_servers: list[ServerConfig] | None = None,
                 mcp_options: McpOptions | None = None, stored: Stored | None = None,
                 disk: disks.Disk | None = None, permissions: Permissions | None = None) -> None:
        self.workspace = Workspace(root)
        # The size-limited filesystem the workspace is on (runtime.tools.disk), when the server could mount one.
        self.disk = disk
        self.settings = settings or ToolSettings()
        self.isolation = isolation if isolation in (RUN, "step") else RUN
        self.ask_before = frozenset(ask_before)
        # The run's permission mode (runtime.tools.permissions), its ask-before list folded in: asked at each call.
        self.permissions = dataclasses.replace(permissions or Permissions(), ask_before=self.ask_before)
        self.store: SnapshotStore = store if store is not None else MemoryStore()
        self.approvals = approvals or Approvals()
        self.copies_root = self.workspace.root.with_name(self.workspace.root.name + ".steps")
        self._manifests: dict[str, Manifest] = {}
        self._links: dict[str, dict[str, str]] = {}   # workspace name -> its links at its latest snapshot
        self._last: dict[str, int] = {}       # workspace name -> its latest snapshot number
        self.by_label: dict[str, int] = {}    # label -> the run workspace's snapshot taken under it
        self.looked: set[str] = set()         # labels the run workspace was scanned under, changed or not
        self._known: set[str] = set()
        self._number = 0
        self._lock = asyncio.Lock()
        # The engine's: emits ``workspace_snapshot`` for each record (tools never emit events themselves).
        self.on_record: Callable[[SnapshotRecord], Awaitable[None]] | None = None
        self.size = 0        # bytes in the run's workspace at its last snapshot
        # Any tool call at all; the server records the first on the run (the UI says "not sandboxed" only then).
        self.used = False
        self.on_first_use: Callable[[], Awaitable[None]] | None = None
        self.mcp_servers = list(mcp_servers or [])
        self.mcp_options = mcp_options or McpOptions()
        self.mcp: Any = None                 # RunServers, once open() started some
        self.mcp_notices: list[str] = []     # about servers left out before the run (bad entries)
        self.notices: list[str] = []         # about its files (ones that could not be put back), said as it starts
        if stored is not None:
            self._go_on_from(stored)

    def _go_on_from(self, stored: Stored) -> None:
        """Number after everything stored (a snapshot number is unique in its run), and count the run workspace's
        next changes from the snapshot its files were put back to, as if the run had never stopped. Step copies start
        afresh: a step that runs again copies the workspace again."""
        self._number = stored.number
        self.by_label.update(stored.by_label)
        if stored.base is not None:
            self._manifests[RUN] = dict(stored.manifest)
            self._last[RUN] = stored.base
            self.size = sum(state.size for state in stored.manifest.values())
            self._known.update(state.digest for state in stored.manifest.values())  # their contents are stored

    # -- the run's own tools (MCP servers) --------------------------------------
    async def open(self) -> list[str]:
        """Start the run's MCP servers and register their tools for this run (the current task and the tasks it
        starts); what the run should say as it starts (:attr:`notices` about its files, then about its servers:
        ones that did not start, renamed tools). Calling it again
        starts nothing and answers the same."""
        if self.mcp is None and self.mcp_servers:
            # Here, not at the top: the SDK takes about a second to import, and only runs with servers need it.
            from runtime.tools.mcp.servers import RunServers  # noqa: PLC0415 - lazy, as said above

            self.mcp = RunServers(self.mcp_servers, self.workspace.ensure(), self.settings, self.mcp_options)
            await self.mcp.open(set(registry.names()) - set(registry.run_tools()))
        # Always set, even to none: the run's task may have been started from one that ran another run.
        registry.use_run_tools(self.mcp.tools if self.mcp is not None else {})
        about_servers = self.mcp_notices + (self.mcp.notices if self.mcp is not None else [])
        # What a server wrote (its stderr) may be in these, and each becomes a stored `message` event: no secret of
        # any of the run's servers, nor of the deployment, is left in them (each server's own are already out).
        hidden = [*self.mcp_options.hidden, *(value for server in self.mcp_servers for value in server.secret_values)]
        return self.notices + [scrub(notice, hidden, MCP_NOTICE_LIMIT) for notice in about_servers]

    async def close(self) -> None:
        """Stop the run's MCP servers (their whole process trees) and unmount its workspace's filesystem (its files
        stay in the image, for a resume); safe to call more than once."""
        if self.mcp is not None:
            await self.mcp.close()
            registry.use_run_tools({})
        if self.disk is not None and self.disk.mounted:
            await asyncio.to_thread(self.disk.detach)

    # -- workspaces ------------------------------------------------------------
    async def begin(self, step_path: str) -> StepCopy | None:
        """Under ``isolation: step``, a fresh copy of the run's workspace for this step execution."""
        if self.isolation != "step":
            return None
        name = copy_name(step_path)
        target = self.copies_root / name
        source = self.workspace.ensure()

        def copy() -> Manifest:
            if os.path.lexists(target):
                shutil.rmtree(target)  # a retried step starts again from the run's workspace
            self.copies_root.mkdir(parents=True, exist_ok=True)
            copy_tree(source, target)
            return scan(target, None, set()).manifest

        async with self._lock:
            # The copy's changes are shown against the run's workspace as it was: record that first.
            await self._record(self.workspace.root, RUN, "before " + step_path, step_path, None, always=False)
            base = await asyncio.to_thread(copy)
        return StepCopy(step_path, Workspace(target), base, self._last.get(RUN))

    async def finish(self, copy: StepCopy | None) -> list[str]:
        """Apply a step copy's changes to the run's workspace; the paths that conflicted (kept in the copy)."""
        if copy is None:
            return []
        async with self._lock:
            return await asyncio.to_thread(self._merge, copy)

    def _merge(self, copy: StepCopy) -> list[str]:
        now = scan(copy.workspace.ensure(), copy.base, set()).manifest
        changes = compare(copy.base, now)
        root = self.workspace.ensure()
        current = scan(root, self._manifests.get(RUN), set()).manifest
        conflicts = []
        for path in changes.added + changes.modified + changes.removed:
            base, mine = copy.base.get(path), current.get(path)
            if (base.digest if base else None) != (mine.digest if mine else None):
                conflicts.append(path)
            elif path in now:
                if not _copy_into(copy.workspace.ensure(), root, path):
                    conflicts.append(path)  # a link or a folder is in the way in the run's workspace
            else:
                remove_file(root, path)
        return sorted(conflicts)

    def over_quota(self) -> str | None:
        """Why tools that write must refuse now (the workspace at its last snapshot was past its size), or None."""
        cap = self.settings.workspace_mb
        if cap and self.size > cap * 2**20:
            return (f"the workspace holds {self.size / 2**20:.0f} MB, over its {cap} MB limit; delete files "
                    "with bash (read, glob and grep still work) before writing more")
        return None

    def full_note(self, said: str) -> str | None:
        """What to add to a tool's answer when the kernel refused a write at the workspace's quota (``said``, the
        tool's output or error, names ENOSPC; or the filesystem has no room left), or None."""
        disk = self.disk
        if disk is None or not disk.mounted:
            return None
        if any(words in said for words in disks.FULL_ERRNO_WORDS) or disks.is_full(self.workspace.root):
            return disks.quota_words(disk.mb)
        return None

    # -- snapshots ---------------------------------------------------------------
    async def snapshot(self, label: str, *, step_id: str | None = None, copy: StepCopy | None = None,
                       always: bool = False) -> SnapshotRecord | None:
        """Record the workspace (or a step copy) if it changed since its last snapshot; None when it did not."""
        name = copy.name if copy is not None else RUN
        root = copy.workspace.root if copy is not None else self.workspace.root
        async with self._lock:
            return await self._record(root, name, label, step_id, copy, always=always)

    async def _record(self, root: Path, name: str, label: str, step_id: str | None, copy: StepCopy | None, *,
                      always: bool) -> SnapshotRecord | None:
        if name == RUN:
            self.looked.add(label)
        if not root.exists():
            return None
        first = name not in self._manifests
        previous = self._manifests.get(name) or (copy.base if copy is not None else {})
        found, not_stored, note = await self._scan(root, previous)
        changes, size = await asyncio.to_thread(_compare_and_size, previous, found.manifest)
        # A link made or changed is a change too, though no regular file changed with it.
        if changes.empty and not always and found.links == self._links.get(name, {}):
            return None
        self._number += 1
        base = (copy.base_number if copy is not None else None) if first else self._last.get(name)
        self._manifests[name] = found.manifest
        self._links[name] = found.links
        self._last[name] = self._number
        if name == RUN:
            self.by_label[label] = self._number
            self.size = size
        record = SnapshotRecord(self._number, label, step_id, name, found.manifest, {}, changes, base, found.partial,
                                not_stored=not_stored, note=note, links=found.links)
        await self.store.save(record)
        if self.on_record is not None:
            await self.on_record(record)
        return record

    async def _scan(self, root: Path, previous: Manifest) -> tuple[Scan, int, str]:
        """Scan ``root`` a chunk at a time, each in a worker thread with the event loop free between them (a
        30,000-file workspace never holds it), storing new contents in batches (SAVE_FILES, SAVE_BYTES) as the scan
        goes: never more than a batch, nor more than the store has room for, is held in memory. Returns the scan (its contents already stored),
        how many new contents were not kept and why."""
        room, full = await self.store.room()
        scanner = Scanner(root, previous, self._known, room=room)
        not_stored, note = 0, ""
        pending: dict[str, bytes] = {}
        try:
            while True:
                done = await asyncio.to_thread(scanner.step)
                pending.update(scanner.take_blobs())
                if pending and (done or len(pending) >= SAVE_FILES or sum(map(len, pending.values())) >= SAVE_BYTES):
                    refused, said = await self.store.save_blobs(pending)
                    not_stored, note = not_stored + refused, note or said
                    pending = {}
                if done:
                    break
        except BaseException:
            # A chunk may still be running in its thread: the walk is closed there, once it is through.
            asyncio.get_running_loop().run_in_executor(None, scanner.close)
            raise
        if scanner.skipped:
            not_stored, note = not_stored + scanner.skipped, note or full
        return Scan(scanner.manifest, {}, scanner.partial, scanner.skipped, scanner.links), not_stored, note


def _compare_and_size(previous: Manifest, now: Manifest) -> tuple[Changes, int]:
    return compare(previous, now), sum(state.size for state in now.values())


# -- writing beneath a workspace, never through a link -----------------------------------
# common.beneath opens a file beneath a root; the folders on the way are made here, one component at a time.

Existing = Literal["truncate", "keep", "replace"]
_DIR = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
MODE_BITS = 0o777  # the permission bits a copy keeps: never setuid, setgid or sticky


def open_to_write(root: Path, path: str, *, existing: Existing = "truncate", mode: int = 0o644) -> int | None:
    """A descriptor to write the regular file ``path`` beneath ``root``, its folders made where missing, no link
    followed anywhere on the way; None when that cannot be done (a link, a file where a folder goes, a folder or a
    FIFO where the file goes, a path that leaves the root).

    ``existing``: a file already there is rewritten (``truncate``) or kept (``keep``: None); ``replace`` removes
    whatever is in the way first (a link itself, never what it points to) and makes the file anew.
    """
    try:
        parts = beneath.lexical(path)
    except beneath.Refused:
        return None
    if not parts:
        return None
    root_fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    parent = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            following = _folder(parent, part, replace=existing == "replace")
            os.close(parent)
            parent = following
            if parent < 0:
                return None
        if existing == "replace":
            try:
                _remove_entry(parent, parts[-1])
            except OSError:
                return None
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK  # O_NONBLOCK: a FIFO there fails at once instead of hanging
        flags |= os.O_EXCL if existing in ("keep", "replace") else os.O_TRUNC
        try:
            fd = beneath.open_beneath(root_fd, path, flags, mode, symlinks="refuse")
        except (beneath.Refused, FileExistsError, IsADirectoryError):
            return None
        except OSError as exc:
            if exc.errno in (errno.ENXIO, errno.ELOOP, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.EROFS):
                return None  # a FIFO, a link, a file where a folder goes; a folder an agent made read-only
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd
    finally:
        if parent >= 0:
            os.close(parent)
        os.close(root_fd)


def write_file(root: Path, path: str, data: bytes, *, existing: Existing = "truncate") -> bool:
    """Write ``data`` as ``path`` beneath ``root`` (see :func:`open_to_write`); False when it was not written."""
    fd = open_to_write(root, path, existing=existing)
    if fd is None:
        return False
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return True


def remove_file(root: Path, path: str) -> bool:
    """Remove the regular file or the link ``path`` beneath ``root`` (a link itself, never what it points to), with no
    link followed on the way; False when there was none."""
    try:
        parts = beneath.lexical(path)
        if not parts:
            return False
        folder = beneath.open_beneath(root, "/".join(parts[:-1]) or ".", os.O_PATH | os.O_DIRECTORY,
                                      symlinks="refuse")
    except OSError:
        return False
    try:
        if stat.S_ISDIR(os.lstat(parts[-1], dir_fd=folder).st_mode):
            return False
        os.unlink(parts[-1], dir_fd=folder)
        return True
    except OSError:
        return False
    finally:
        os.close(folder)


def _folder(parent: int, name: str, *, replace: bool) -> int:
    """An O_PATH descriptor of the folder ``name`` in ``parent``, made if missing; -1 when something else is there
    (``replace``: it is removed and a folder made in its place)."""
    for _ in range(3):  # it may be made or removed by someone else between the calls: look again, a bounded time
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP) or not replace:
                return -1
            try:
                _remove_entry(parent, name)
            except OSError:
                return -1  # what is in the way cannot be removed (a read-only folder): the file is not written
        try:
            os.mkdir(name, 0o755, dir_fd=parent)
        except FileExistsError:
            pass
        except OSError:
            return -1  # not allowed here (a folder an agent made read-only), or no room
    return -1


def _remove_entry(parent: int, name: str) -> None:
    """Whatever ``name`` is in ``parent``: a folder with all it holds (links in it removed, not followed), else the
    entry itself."""
    try:
        info = os.lstat(name, dir_fd=parent)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(name, dir_fd=parent)
    else:
        os.unlink(name, dir_fd=parent)


def _copy_into(source_root: Path, root: Path, path: str) -> bool:
    """A step copy's file ``path`` into the run's workspace (content and mode), reading and writing through no link."""
    try:
        source = beneath.open_beneath(source_root, path, os.O_RDONLY | os.O_NONBLOCK, symlinks="refuse")
    except OSError:
        return False
    try:
        info = os.fstat(source)
        if not stat.S_ISREG(info.st_mode):
            return False
        target = open_to_write(root, path)
        if target is None:
            return False
        try:
            _pour(source, target)
            os.fchmod(target, stat.S_IMODE(info.st_mode) & MODE_BITS)
        finally:
            os.close(target)
        return True
    finally:
        os.close(source)


def copy_tree(source: Path, target: Path) -> None:
    """Copy the folder ``source`` as the new folder ``target`` (which must not exist), on open descriptors only.

    Agents' processes (``bash``, a stdio MCP server) may be changing ``source`` while it is copied, swapping any
    folder for a link to the server's files between two calls; a copy that went by path names would follow it.
    Here each folder is opened beneath ``source`` with links refused (:func:`common.beneath.walk_beneath`), each
    entry is read relative to the descriptor of the folder it was listed in and written relative to the
    descriptor of its copy: a link is copied as a link (``readlinkat``/``symlinkat``), never followed; a file is
    opened with ``O_NOFOLLOW`` and copied only when ``fstat`` of what was opened says it is a regular file; FIFOs,
    sockets and devices are left out (opening a FIFO would hang the step). A folder swapped for a link meanwhile
    is copied empty. Files and folders keep their permission bits (``& 0o777``: a setuid file an agent made is
    copied without it) and times."""
    os.mkdir(target, 0o700)
    target_fd = os.open(target, _DIR)
    folders: list[tuple[str, os.stat_result]] = []   # in the order visited, parents first
    try:
        with closing(beneath.walk_beneath(source)) as walk:
            for rel, fd, entries in walk:
                try:
                    into = beneath.open_beneath(target_fd, rel or ".", os.O_RDONLY | os.O_DIRECTORY,
                                                symlinks="refuse")
                except OSError:
                    entries.clear()  # its copy is not there: nothing beneath it is copied
                    continue
                try:
                    folders.append((rel, os.fstat(fd)))
                    entries[:] = [entry for entry in entries if _copy_entry(fd, into, entry)]
                finally:
                    os.close(into)
        for rel, info in reversed(folders):  # a folder's mode and times once all beneath it is written
            _settle_folder(target_fd, rel, info)
    finally:
        os.close(target_fd)


def _copy_entry(source_dir: int, target_dir: int, entry: os.DirEntry[str]) -> bool:
    """Copy one listed entry between two open folders; True when it is a folder whose copy was made (to walk)."""
    name = entry.name
    try:
        if entry.is_symlink():
            os.symlink(os.readlink(name, dir_fd=source_dir), name, dir_fd=target_dir)
            return False
        if entry.is_dir(follow_symlinks=False):
            os.mkdir(name, 0o700, dir_fd=target_dir)
            return True
        if not entry.is_file(follow_symlinks=False):
            return False  # a FIFO, a socket or a device
    except OSError:
        return False  # changed or gone since the listing (readlink of what is no longer a link: EINVAL)
    _copy_file(source_dir, target_dir, name)
    return False


def _copy_file(source_dir: int, target_dir: int, name: str) -> None:
    """The regular file ``name`` from one open folder into another, with its permission bits and times; left out
    when it is no longer a regular file (swapped for a link, a folder or a FIFO since the listing)."""
    try:
        source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC,
                         dir_fd=source_dir)
    except OSError:
        return
    try:
        info = os.fstat(source)
        if not stat.S_ISREG(info.st_mode):
            return
        target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                         dir_fd=target_dir)
        try:
            _pour(source, target)
            os.fchmod(target, stat.S_IMODE(info.st_mode) & MODE_BITS)
            os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
        finally:
            os.close(target)
    finally:
        os.close(source)


def _settle_folder(target_fd: int, rel: str, info: os.stat_result) -> None:
    try:
        fd = beneath.open_beneath(target_fd, rel or ".", os.O_RDONLY | os.O_DIRECTORY, symlinks="refuse")
    except OSError:
        return
    try:
        os.fchmod(fd, stat.S_IMODE(info.st_mode) & MODE_BITS)
        os.utime(fd, ns=(info.st_atime_ns, info.st_mtime_ns))
    except OSError:
        pass
    finally:
        os.close(fd)


def _pour(source: int, target: int) -> None:
    while os.sendfile(target, source, None, 1 << 30):
        pass
