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
a :class:`SnapshotStore` (the database in the server, memory elsewhere).

A run's MCP servers (``mcp_servers``) start in :meth:`RunTools.open`, called by
the engine as the run starts, which registers their tools for the run
(:func:`runtime.tools.use_run_tools`) and answers what the run should say about
them; :meth:`RunTools.close` stops them when it ends.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from runtime import tools as registry
from runtime.tools import ToolSettings
from runtime.tools.approvals import Approvals
from runtime.tools.mcp.config import McpOptions, ServerConfig
from runtime.tools.snapshots import Changes, Manifest, compare, scan
from runtime.tools.workspace import OutsideWorkspace, Workspace

RUN = "run"
INLINE_FILES = 64  # workspaces smaller than this (at their last snapshot) are scanned on the event loop


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

    def event_data(self) -> dict:
        return {"snapshot": self.number, "label": self.label, "step_id": self.step_id, "workspace": self.workspace,
                "files": len(self.manifest), **self.changes.counts(), **({"partial": True} if self.partial else {})}


class SnapshotStore(Protocol):
    async def save(self, record: SnapshotRecord) -> None: ...


@dataclass
class MemoryStore:
    records: list[SnapshotRecord] = field(default_factory=list)
    blobs: dict[str, bytes] = field(default_factory=dict)

    async def save(self, record: SnapshotRecord) -> None:
        self.records.append(record)
        self.blobs.update(record.blobs)


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
                 mcp_options: McpOptions | None = None):
        self.workspace = Workspace(root)
        self.settings = settings or ToolSettings()
        self.isolation = isolation if isolation in (RUN, "step") else RUN
        self.ask_before = frozenset(ask_before)
        self.store: SnapshotStore = store if store is not None else MemoryStore()
        self.approvals = approvals or Approvals()
        self.copies_root = self.workspace.root.with_name(self.workspace.root.name + ".steps")
        self._manifests: dict[str, Manifest] = {}
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

    # -- the run's own tools (MCP servers) --------------------------------------
    async def open(self) -> list[str]:
        """Start the run's MCP servers and register their tools for this run (the current task and the tasks it
        starts); what the run should say about them (servers that did not start, renamed tools). Calling it again
        starts nothing and answers the same."""
        if self.mcp is None and self.mcp_servers:
            # Here, not at the top: the SDK takes about a second to import, and only runs with servers need it.
            from runtime.tools.mcp.servers import RunServers

            self.mcp = RunServers(self.mcp_servers, self.workspace.ensure(), self.settings, self.mcp_options)
            await self.mcp.open(set(registry.names()) - set(registry.run_tools()))
        # Always set, even to none: the run's task may have been started from one that ran another run.
        registry.use_run_tools(self.mcp.tools if self.mcp is not None else {})
        return self.mcp_notices + (self.mcp.notices if self.mcp is not None else [])

    async def close(self) -> None:
        """Stop the run's MCP servers (their whole process trees); safe to call more than once."""
        if self.mcp is not None:
            await self.mcp.close()
            registry.use_run_tools({})

    # -- workspaces ------------------------------------------------------------
    async def begin(self, step_path: str) -> StepCopy | None:
        """Under ``isolation: step``, a fresh copy of the run's workspace for this step execution."""
        if self.isolation != "step":
            return None
        name = copy_name(step_path)
        target = self.copies_root / name
        source = self.workspace.ensure()

        def copy() -> Manifest:
            if target.exists():
                shutil.rmtree(target)  # a retried step starts again from the run's workspace
            shutil.copytree(source, target, symlinks=True)
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
        current = scan(self.workspace.ensure(), self._manifests.get(RUN), set()).manifest
        conflicts = []
        for path in changes.added + changes.modified + changes.removed:
            base, mine = copy.base.get(path), current.get(path)
            if (base.digest if base else None) != (mine.digest if mine else None):
                conflicts.append(path)
                continue
            try:
                target = self.workspace.resolve(path)
            except OutsideWorkspace:
                conflicts.append(path)
                continue
            if path in now:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(copy.workspace.ensure() / path, target, follow_symlinks=False)
            elif target.is_file() and not target.is_symlink():
                os.unlink(target)
        return sorted(conflicts)

    def over_quota(self) -> str | None:
        """Why tools that write must refuse now (the workspace at its last snapshot was past its size), or None."""
        cap = self.settings.workspace_mb
        if cap and self.size > cap * 2**20:
            return (f"the workspace holds {self.size / 2**20:.0f} MB, over its {cap} MB limit; delete files "
                    "with bash (read, glob and grep still work) before writing more")
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
        if len(previous) < INLINE_FILES:
            found = scan(root, previous, self._known)  # a few files: a thread hop would cost more than the walk
        else:
            found = await asyncio.to_thread(scan, root, previous, self._known)
        changes = compare(previous, found.manifest)
        if changes.empty and not always:
            return None
        self._number += 1
        base = (copy.base_number if copy is not None else None) if first else self._last.get(name)
        self._manifests[name] = found.manifest
        self._last[name] = self._number
        if name == RUN:
            self.by_label[label] = self._number
            self.size = sum(state.size for state in found.manifest.values())
        record = SnapshotRecord(self._number, label, step_id, name, found.manifest, found.blobs, changes, base,
                                found.partial)
        await self.store.save(record)
        if self.on_record is not None:
            await self.on_record(record)
        return record
