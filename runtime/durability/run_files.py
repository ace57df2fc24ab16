"""A run's workspace on the server side: where it lives, what it starts from, where its snapshots go,
and what the API reads back.

The files themselves are on the executing machine's disk
(``WORKSPACES_DIR/<run id>``); every snapshot's manifest and the file contents
are in the database (:class:`DatabaseStore`), so the run page shows the tree,
files, diffs and the zip whichever machine ran it, and after the directory is
pruned (``WORKSPACE_RETENTION_DAYS``).

A resumed run goes on from what it stored (:func:`recorded`): its files are put
back where it executes as its latest snapshot left them (:func:`put_back`), and
its next snapshots are numbered after every one stored. Snapshots an attempt
took after its run's last boundary stay, as its events do, and are marked
superseded with them; they are never the run's latest files. Every write here
goes beneath the workspace without following a link an agent left there.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import posixpath
import shutil
import stat
import time
import uuid
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Sum
from django.http import Http404
from django.utils import timezone

from accounts.models import Workspace
from common import archive, beneath
from common.orm import off_loop
from common.types import RunId
from designer import bundles
from designer.errors import BadRequest
from runtime.models import ACTIVE_STATUSES, Run, RunEvent, ToolApproval, WorkspaceBlob, WorkspaceSnapshot, WorkspaceUpload
from runtime.tools import ToolSettings
from runtime.tools import disk as disks
from runtime.tools import permissions as tool_permissions
from runtime.tools.approvals import Approvals, AskHook
from runtime.tools.mcp import deployment as mcp_deployment
from runtime.tools.session import RUN, Existing, RunTools, SnapshotRecord, Stored, remove_file, write_file
from runtime.tools.snapshots import MAX_STORED_BYTES, FileState, from_json, json_text, text_of, unified

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

MAX_VIEW_CHARS = 512 * 1024
ROOM_FRESH_S = 1.0  # how long a run trusts the snapshot room it read (other runs of its workspace store meanwhile)
log = logging.getLogger(__name__)


def workspace_dir(run_id: RunId) -> Path:
    return Path(settings.WORKSPACES_DIR) / str(run_id)


def limits() -> archive.ArchiveLimits:
    return archive.ArchiveLimits(max_upload_bytes=settings.WORKSPACE_UPLOAD_MAX_BYTES,
                                 max_files=settings.WORKSPACE_UPLOAD_MAX_FILES,
                                 max_total_bytes=settings.WORKSPACE_UNPACKED_MAX_BYTES,
                                 max_file_bytes=settings.WORKSPACE_UNPACKED_MAX_BYTES)


# -- starting a run ------------------------------------------------------------------

def create_upload(user: User, name: str, data: bytes) -> dict:
    """Check a zip (read in full: names, links, sizes declared and real, file count) and keep it for a run to start
    from: its id and contents."""
    try:
        entries = archive.check_zip(data, limits())
    except archive.ArchiveRefused as exc:
        raise BadRequest(f"{name or 'the upload'}: {exc}") from None
    upload = WorkspaceUpload.objects.create(owner=user, name=(name or "")[:255], data=data, files=len(entries),
                                            size=sum(size for _, size in entries))
    return {"id": str(upload.id), "files": upload.files, "bytes": upload.size,
            "names": [path for path, _ in entries[:20]]}


def checked_seed(user: User, upload: str | None, earlier: Run | None) -> dict | None:
    """The ``workspace_seed`` for a new run: the caller's own upload, or an earlier run they may read."""
    if upload and earlier is not None:
        raise BadRequest("give `workspace_upload` or `workspace_from_run`, not both")
    if upload:
        try:
            found = WorkspaceUpload.objects.filter(pk=upload, owner=user).exists()
        except (ValueError, TypeError, ValidationError):
            found = False
        if not found:
            raise BadRequest(f"workspace_upload: no upload {upload!r} of yours (uploads are kept for a day)")
        return {"upload": str(upload)}
    if earlier is not None:
        last = latest(earlier.id)
        if last is None:
            raise BadRequest(f"workspace_from_run: run {earlier.id} left no files")
        # Pinned to the files the caller could read now, not whatever that run holds when this one starts.
        return {"from_run": str(earlier.id), "snapshot": last.number}
    return None


def seed(run: Run, root: Path, failed: list[str] | None = None) -> int:
    """Fill a new run's workspace from what it was asked to start from; the number of files written.

    A file that could not be written (an OSError: no room, no permission) does not stop the others: it is logged
    and its path appended to ``failed`` (an upload that could not be unpacked: its name), for the run to say. An
    upload the zip rules refuse (:class:`common.archive.ArchiveRefused`) stops the start with their words
    (:class:`BadRequest`, which the run fails with)."""
    source = run.workspace_seed or {}
    if not source:
        return 0
    failures = failed if failed is not None else []
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        failures.append(f"the workspace itself ({exc.strerror})")
        log.warning("run %s: its workspace %s could not be made: %s", run.pk, root, exc)
        return 0
    if "upload" in source:
        upload = WorkspaceUpload.objects.filter(pk=source["upload"]).first()
        if upload is None:
            raise BadRequest("the uploaded files this run starts from are gone")
        try:
            return len(archive.extract_zip(bytes(upload.data), root, limits()))
        except archive.ArchiveRefused as exc:  # one kept before uploads were read in full, or limits lowered since
            raise BadRequest(f"{upload.name or 'the uploaded files'}: {exc}") from None
        except OSError as exc:  # extract_zip removed what it wrote
            failures.append(f"{upload.name or 'the uploaded files'} (not unpacked: {exc.strerror or exc})")
            log.warning("run %s: upload %s could not be unpacked: %s", run.pk, upload.pk, exc)
            return 0
    # A fork starts from its parent's files as they were at the fork point; "from an earlier run": its last files.
    snapshot = (WorkspaceSnapshot.objects.filter(run_id=source["from_run"], number=source["snapshot"]).first()
                if isinstance(source.get("snapshot"), int) else latest(source["from_run"]))
    if snapshot is None:
        return 0
    before = len(failures)
    written = sum(1 for path, content in snapshot_contents(snapshot)
                  if content is not None and _written(root, path, content, "truncate", failures))
    _log_failures(run, "written from what it starts from", failures[before:])
    return written


def seed_folder(run: Run, root: Path, failed: list[str] | None = None) -> int:
    """Put the workflow's folder (its main file, includes, prompts, context files) in the run's workspace; files
    already there (from an upload or an earlier run) are kept. Returns the number of files written; paths that
    could not be (an OSError) are logged and appended to ``failed``."""
    version = run.version
    if not bundles.is_folder(version):
        return 0
    failures = failed if failed is not None else []
    main = {version.main_path: (version.source or "").encode()} if version.main_path and version.source else {}
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        failures.append(f"the workspace itself ({exc.strerror})")
        log.warning("run %s: its workspace %s could not be made: %s", run.pk, root, exc)
        return 0
    before = len(failures)
    written = 0
    for path, content in {**main, **bundles.files_of(version)}.items():
        try:
            written += write_file(root, path, content, existing="keep")
        except OSError as exc:
            failures.append(path)
            log.debug("run %s: %s not written: %s", run.pk, path, exc)
    _log_failures(run, "written from the workflow's folder", failures[before:])
    return written


def _written(root: Path, path: str, content: bytes, existing: Existing, failures: list[str]) -> bool:
    """``write_file``, a False (something in the way that could not be removed) or an OSError counted as failed."""
    try:
        if write_file(root, path, content, existing=existing):
            return True
    except OSError:
        pass
    failures.append(path)
    return False


def _log_failures(run: Run, what: str, failures: list[str]) -> None:
    if failures:
        log.warning("run %s: %d files could not be %s: %s", run.pk, len(failures), what, ", ".join(failures[:20]))


def files_notice(failures: list[str], what: str) -> str:
    """What a run says when files could not be put in its workspace: how many, and the first few."""
    shown = ", ".join(failures[:10]) + (f" and {len(failures) - 10} more" if len(failures) > 10 else "")
    return (f"{len(failures)} file{'s' if len(failures) != 1 else ''} could not be {what} (something in the way "
            f"that could not be removed, such as a folder an agent made read-only, or no room left), so the "
            f"workspace differs there: {shown}")


def source_dir(run: Run) -> Path | None:
    """Where the run's main file sits in its workspace (its references resolve from there); None for one file."""
    if not bundles.is_folder(run.version):
        return None
    return workspace_dir(run.id) / posixpath.dirname(run.version.main_path)


def build_run_tools(run: Run, document: Mapping[str, Any]) -> RunTools:
    """The run's tools as the deployment and the run ask: workspace, sandbox, isolation, gate, store."""
    root = workspace_dir(run.id)
    stored = recorded(run)
    notices: list[str] = []
    failed: list[str] = []
    if stored.base is None:
        # It went on from before it recorded any files: from its start again, on a fresh filesystem.
        if os.path.lexists(disks.home_of(root)):
            disks.remove(root)
        if os.path.lexists(root):
            notices += _set_aside(run, root)
    disk = attach_disk(root)
    if disk is not None and not disk.mounted:
        notices.append(disk.fallback_notice())
    if stored.base is not None:
        # Put back here, where it executes: the resume did it where the run was found lost, maybe another machine.
        put_back(run, stored.base, failed)
        if failed:
            notices.append(files_notice(failed, f"put back as snapshot {stored.base} left them"))
    else:
        seed(run, root, failed)
        seed_folder(run, root, failed)
        if failed:
            notices.append(files_notice(failed, "put in the workspace the run starts from"))
    isolation = ((document.get("options") or {}).get("isolation") or RUN)
    # The administrator's MCP servers and the run owner's own: started when the run starts (RunTools.open).
    servers, problems = mcp_deployment.servers_for(run.owner_id)
    tools = RunTools(root, settings=tool_settings(),
                     isolation=isolation if isolation in (RUN, "step") else RUN, ask_before=list(run.ask_before or []),
                     store=DatabaseStore(run.id), approvals=Approvals(on_ask=_asker(run.id)),
                     mcp_servers=servers, mcp_options=mcp_deployment.options(), stored=stored,
                     disk=disk if disk is not None and disk.mounted else None,
                     permissions=tool_permissions.parse(run.permissions or None, known=None))
    tools.mcp_notices += problems
    tools.notices += notices  # said as warnings when the run starts (RunTools.open)
    run_id = run.id

    async def first_use() -> None:
        await off_loop(Run.objects.filter(pk=run_id).update)(tools_used=True)

    tools.on_first_use = first_use
    return tools


def attach_disk(root: Path) -> disks.Disk | None:
    """The run's workspace on a filesystem of AGENT_WORKSPACE_MB (:mod:`runtime.tools.disk`); None when there is no
    limit or the administrator chose snapshots only (AGENT_WORKSPACE_DISK=off), a Disk that is not mounted (and says
    why) when the kernel could not be asked."""
    if not settings.AGENT_WORKSPACE_MB or settings.AGENT_WORKSPACE_DISK != "auto":
        return None
    return disks.attach(root, settings.AGENT_WORKSPACE_MB)


# -- a run that goes on from what it stored (resumed) ------------------------------------

def recorded(run: Run) -> Stored:
    """What the run stored before (nothing for a new run or a fork's first start): the highest snapshot number, and
    its latest files (:func:`latest`) with the labels taken up to them, which its RunTools go on from."""
    rows = list(WorkspaceSnapshot.objects.filter(run=run).order_by("number").values_list("number", "label", "workspace"))
    if not rows:
        return Stored()
    gone = superseded(run.pk)
    live = [(number, label) for number, label, workspace in rows if workspace == RUN and number not in gone]
    if not live:
        return Stored(number=rows[-1][0])
    base = live[-1][0]
    manifest = from_json(WorkspaceSnapshot.objects.get(run=run, number=base).manifest)
    return Stored(number=rows[-1][0], base=base, manifest=manifest, by_label={label: n for n, label in live})


def _announced(run_id: RunId, **where: object) -> list[dict]:
    """The data of the run's own ``workspace_snapshot`` events in order (a fork's inherited ones name its parent's)."""
    texts = RunEvent.objects.filter(run_id=run_id, type="workspace_snapshot", **where).order_by("seq").values_list(
        "event_json", flat=True)
    found = []
    for event in map(json.loads, texts):
        data = event.get("data") or {}
        if not event.get("inherited") and isinstance(data.get("snapshot"), int):
            found.append(data)
    return found


def superseded(run_id: RunId) -> set[int]:
    """Snapshots an attempt took after the boundary its run resumed from: their events are superseded, and so are they."""
    return {data["snapshot"] for data in _announced(run_id, superseded=True)}


def snapshot_at(run_id: RunId, seq: int) -> int | None:
    """The run's workspace snapshot its files were at after event ``seq``: its last own one at or before it."""
    for data in reversed(_announced(run_id, superseded=False, seq__lte=seq)):
        if data.get("workspace", RUN) == RUN:
            return data["snapshot"]
    return None


def snapshots_at(wanted: Mapping[str, list[int]]) -> dict[tuple[str, int], int | None]:
    """:func:`snapshot_at` for many seqs of many runs, by (run id, seq): their events read in one query."""
    own: dict[str, list[tuple[int, int]]] = {}  # run -> (seq, snapshot), in order
    for run_id, at, text in RunEvent.objects.filter(run_id__in=list(wanted), type="workspace_snapshot", superseded=False).order_by(
            "run_id", "seq").values_list("run_id", "seq", "event_json"):
        event = json.loads(text)
        data = event.get("data") or {}
        if not event.get("inherited") and isinstance(data.get("snapshot"), int) and data.get("workspace", RUN) == RUN:
            own.setdefault(str(run_id), []).append((at, data["snapshot"]))
    return {(run_id, seq): next((n for at, n in reversed(own.get(str(run_id), [])) if at <= seq), None)
            for run_id, seqs in wanted.items() for seq in seqs}


def forget_unannounced(run_id: RunId) -> int:
    """Delete the run's snapshots no stored event names: a lost worker took them after its last kept event (or a
    hand-back dropped that event). No boundary's files are in them, nothing refers to them, and with no event there
    is nothing to mark superseded. Returns how many."""
    announced = {data["snapshot"] for data in _announced(run_id)}
    stored = set(WorkspaceSnapshot.objects.filter(run_id=run_id).values_list("number", flat=True))
    if not stored - announced:
        return 0
    return WorkspaceSnapshot.objects.filter(run_id=run_id, number__in=sorted(stored - announced)).delete()[0]


def put_back(run: Run, number: int, failed: list[str] | None = None) -> int:
    """Make the run's workspace what its snapshot ``number`` recorded (:func:`put_files_back`). Returns the number of
    files written or removed; paths that could not be are logged and appended to ``failed``, never raised about."""
    snapshot = WorkspaceSnapshot.objects.get(run=run, number=number)
    failures = failed if failed is not None else []
    before = len(failures)
    # Onto the run's own filesystem (a resume after a reboot finds its image unmounted): files written beside it
    # would be hidden under the mount once the run attaches it, taking the data disk's space unseen.
    attach_disk(workspace_dir(run.pk))
    changed = put_files_back(workspace_dir(run.pk), dict(snapshot_contents(snapshot)), partial=snapshot.partial,
                             failed=failures)
    _log_failures(run, f"put back as snapshot {number} left them", failures[before:])
    return changed


def put_files_back(root: Path, wanted: dict[str, bytes | None], *, partial: bool = False,
                   failed: list[str] | None = None) -> int:
    """Make ``root`` hold ``wanted`` (path -> content; None: too big to have been kept, left as it is): files it
    does not list are removed (none when ``partial``: such a snapshot does not list every file), changed and missing
    ones written (whatever an agent put in their way, a link or a folder, is removed first: a link itself, never
    what it points to). Links and empty folders, which snapshots do not record, are left unless in the way. Returns
    the number of files written or removed.

    Best effort, file by file: an agent may have left what the server cannot change (``chmod 555`` on a folder,
    when the server is not root), or the disk may be full. Such a file is skipped, not raised about, and its path
    appended to ``failed`` (what the run should warn about)."""
    failures = failed if failed is not None else []
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        failures += [path for path, content in wanted.items() if content is not None]
        return 0
    changed = 0
    if not partial:
        for path in _regular_files(root):
            if path in wanted:
                continue
            if remove_file(root, path):
                changed += 1
            elif _still_there(root, path):
                failures.append(path)
    for path, content in wanted.items():
        if content is not None and not _holds(root, path, content):
            changed += _written(root, path, content, "replace", failures)
    return changed


def _still_there(root: Path, path: str) -> bool:
    """Whether a file ``path`` is beneath ``root`` (as anything but a folder), looked at through no link."""
    folder, _, name = path.rpartition("/")
    try:
        with beneath.opened_dir(root, folder or ".", symlinks="refuse") as fd:
            return not stat.S_ISDIR(os.lstat(name, dir_fd=fd).st_mode)
    except OSError:
        return False


def _set_aside(run: Run, root: Path) -> list[str]:
    """Clear the way for a run that starts again from its beginning: its old workspace is renamed to a unique name
    beside it (one atomic step, so nothing an agent left there, a link, a read-only folder, survives into the fresh
    one) and then removed, best effort (links in it are removed, never followed; what cannot be removed stays
    under that name until pruned). What the run should say when it could not be moved."""
    aside = root.with_name(f"{root.name}.discarded-{uuid.uuid4().hex[:12]}")
    try:
        os.rename(root, aside)
    except OSError as exc:
        log.warning("run %s: its old workspace %s could not be moved aside (%s); clearing it in place", run.pk, root, exc)
        shutil.rmtree(root, ignore_errors=True)
        if os.path.lexists(root):
            return [f"the files an earlier attempt left in the workspace could not all be removed ({exc.strerror}); "
                    "the run starts with them"]
        return []
    shutil.rmtree(aside, ignore_errors=True)
    if os.path.lexists(aside):
        log.warning("run %s: its old workspace, moved aside to %s, could not all be removed", run.pk, aside)
    return []


def _holds(root: Path, path: str, content: bytes) -> bool:
    try:
        return beneath.read_beneath(root, path, max_bytes=len(content), symlinks="refuse") == content
    except OSError:
        return False


def _regular_files(root: Path) -> list[str]:
    """The regular files beneath ``root`` (relative paths); each folder opened beneath it, none entered through a link."""
    found: list[str] = []
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            with beneath.opened_dir(root, rel or ".", symlinks="refuse") as fd, os.scandir(fd) as entries:
                for entry in entries:
                    path = f"{rel}/{entry.name}" if rel else entry.name
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(path)
                    elif entry.is_file(follow_symlinks=False):
                        found.append(path)
        except OSError:
            continue  # gone or replaced meanwhile
    return found


def tool_settings() -> ToolSettings:
    """What this deployment lets every tool call do (AGENT_* settings; 0 means no limit)."""
    return dataclasses.replace(mcp_deployment.deployment_tool_settings(),
                               workspace_mb=settings.AGENT_WORKSPACE_MB or None)


class DatabaseStore:
    """A run's snapshots in the database, their file contents bounded by RUN_SNAPSHOT_MB for the run and
    WORKSPACE_SNAPSHOT_MB over all its workspace's runs (0: no limit). Contents arrive a chunk at a time
    (:meth:`save_blobs`, from :meth:`RunTools._scan`), each chunk in one short transaction in a worker thread."""

    def __init__(self, run_id: RunId) -> None:
        self.run_id = run_id
        self._workspace: int | None = None  # the run's (team) workspace, looked up once
        self._room_read: tuple[float, tuple[int | None, str]] | None = None

    async def room(self) -> tuple[int | None, str]:
        """The room left, read again once something was stored or after ROOM_FRESH_S. Asked before every snapshot:
        a read per step was two aggregates on a fresh connection for each of a big forEach's items. The figure only
        keeps a scan from holding contents that could not be kept; :meth:`save_blobs` checks the caps exactly."""
        now = time.monotonic()
        if self._room_read is not None and now - self._room_read[0] < ROOM_FRESH_S:
            return self._room_read[1]
        answer = await off_loop(self._room)()
        self._room_read = (now, answer)
        return answer

    async def save_blobs(self, blobs: dict[str, bytes]) -> tuple[int, str]:
        if blobs:
            self._room_read = None
        return await off_loop(self._save_blobs)(blobs)

    async def save(self, record: SnapshotRecord) -> None:
        await off_loop(self._save)(record)

    def _room(self) -> tuple[int | None, str]:
        caps = self._caps()
        if not caps:
            return None, ""
        room, cap, whose = min(caps)
        return max(0, room), _full(cap, whose)

    def _save_blobs(self, blobs: dict[str, bytes]) -> tuple[int, str]:
        if not blobs:
            return 0, ""
        workspace_id = self._workspace_id()
        run = Run._meta.pk.get_db_prep_value(self.run_id, connection)
        with transaction.atomic():
            # Runs of one workspace storing at once take turns here (the workspace's row is locked; SQLite takes
            # its write lock at BEGIN): each sees what the others stored, so together they never pass the cap.
            self._lock(workspace_id)
            kept, note = self._within_caps(blobs, workspace_id)
            if kept:
                # One executemany, not the ORM's bulk_create: a model instance and its SQL per row is Python work
                # that holds the GIL (and the server's event loop waiting on it) for 20,000-file snapshots.
                table = WorkspaceBlob._meta.db_table
                with connection.cursor() as cursor:
                    cursor.executemany(
                        f"INSERT INTO {table} (run_id, digest, data, size) VALUES (%s, %s, %s, %s) "  # noqa: S608 - our own table name
                        "ON CONFLICT (run_id, digest) DO NOTHING",
                        [(run, digest, data, len(data)) for digest, data in kept.items()])
        return len(blobs) - len(kept), note

    def _save(self, record: SnapshotRecord) -> None:
        if record.blobs:  # contents that came with the record rather than through save_blobs
            refused, said = self._save_blobs(record.blobs)
            record.not_stored += refused
            record.note = record.note or said
        manifest = json_text(record.manifest)  # in slices, before the transaction: it takes a while
        with transaction.atomic():
            counts = record.changes.counts()
            row = WorkspaceSnapshot.objects.create(
                run_id=self.run_id, number=record.number, label=record.label[:300], step_id=(record.step_id or "")[:300],
                workspace=record.workspace[:300], base=record.base, manifest={},
                files=len(record.manifest), partial=record.partial, note=record.note[:300], links=record.links, **counts)
            # The text as encoded: the ORM would encode the whole manifest again, in one call.
            table, cast = WorkspaceSnapshot._meta.db_table, "::jsonb" if connection.vendor == "postgresql" else ""
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET manifest = %s{cast} WHERE id = %s", [manifest, row.pk])  # noqa: S608 - our own table name

    def _workspace_id(self) -> int | None:
        if self._workspace is None:
            self._workspace = Run.objects.filter(pk=self.run_id).values_list("workspace_id", flat=True).first()
        return self._workspace

    @staticmethod
    def _lock(workspace_id: int | None) -> None:
        if workspace_id is not None and settings.WORKSPACE_SNAPSHOT_MB:
            list(Workspace.objects.select_for_update().filter(pk=workspace_id).values_list("pk", flat=True))

    def _caps(self, workspace_id: int | None = None) -> list[tuple[int, int, str]]:
        """(room left in bytes, cap in MB, whose) for each cap there is."""
        run_cap, workspace_cap = settings.RUN_SNAPSHOT_MB, settings.WORKSPACE_SNAPSHOT_MB
        caps: list[tuple[int, int, str]] = []
        if run_cap:
            used = _stored(run_id=self.run_id)
            caps.append((run_cap * 2**20 - used, run_cap, "this run's"))
        if workspace_cap:
            workspace_id = workspace_id if workspace_id is not None else self._workspace_id()
            used = _stored(run__workspace_id=workspace_id) if workspace_id is not None else 0
            caps.append((workspace_cap * 2**20 - used, workspace_cap, "its workspace's (all its runs')"))
        return caps

    def _within_caps(self, blobs: dict[str, bytes], workspace_id: int | None) -> tuple[dict[str, bytes], str]:
        """The contents that fit this run's and its workspace's snapshot storage, in the order scanned, and why the
        others do not ("" if all fit)."""
        caps = self._caps(workspace_id)
        rooms = [room for room, _, _ in caps]
        kept: dict[str, bytes] = {}
        full = ""
        for digest, data in blobs.items():
            over = [i for i, room in enumerate(rooms) if len(data) > room]
            if over:
                if not full:
                    _, cap, whose = caps[over[0]]
                    full = _full(cap, whose)
                continue
            kept[digest] = data
            rooms = [room - len(data) for room in rooms]
        return kept, full


def _stored(**where: object) -> int:
    """The bytes of contents stored for these runs: read from the index ``blob_run_size`` alone, a few milliseconds
    for 20,000 contents, summed again for each chunk a snapshot stores."""
    return WorkspaceBlob.objects.filter(**where).aggregate(n=Sum("size"))["n"] or 0


def _full(cap: int, whose: str) -> str:
    return f"not stored: {whose} snapshot storage ({cap} MB) is full"


def _asker(run_id: RunId) -> AskHook:
    async def ask(call_id: str, tool: str, arguments: object, step_id: str) -> None:
        await off_loop(_record_ask)(run_id, call_id, tool, step_id)
    return ask


def _record_ask(run_id: RunId, call_id: str, tool: str, step_id: str) -> None:
    ToolApproval.objects.get_or_create(run_id=run_id, call_id=call_id[:200],
                                       defaults={"tool": tool[:100], "step_id": step_id[:300]})


# -- housekeeping ---------------------------------------------------------------------

def delete_files(run_id: RunId) -> None:
    """The run's workspace, its step copies and its filesystem image, unmounted first."""
    disks.remove(workspace_dir(run_id))


def prune(days: float | None = None, now: float | None = None) -> list[str]:
    """Delete workspaces (directories) of finished runs older than ``days``; the run ids pruned."""
    days = settings.WORKSPACE_RETENTION_DAYS if days is None else days
    base = Path(settings.WORKSPACES_DIR)
    WorkspaceUpload.objects.filter(created_at__lt=timezone.now() - timedelta(days=1)).delete()
    if not days or not base.is_dir():
        return []
    cutoff = (now or time.time()) - days * 86400
    active = {str(i) for i in Run.objects.filter(status__in=ACTIVE_STATUSES).values_list("id", flat=True)}
    runs: dict[str, list[Path]] = {}
    for entry in base.iterdir():
        name = entry.name
        run_id = name if ".discarded-" in name else name.removesuffix(".steps").removesuffix(".disk")
        runs.setdefault(run_id, []).append(entry)
    pruned = []
    for run_id, entries in runs.items():
        if run_id in active or not all(entry.is_dir() for entry in entries) or \
                max(entry.stat().st_mtime for entry in entries) > cutoff:
            continue
        if ".discarded-" in run_id:
            shutil.rmtree(base / run_id, ignore_errors=True)
        else:
            disks.remove(base / run_id)  # unmounted before anything is deleted: its image goes with its files
        pruned.append(run_id)
    return sorted(set(pruned))


# -- reading it back (the API) ------------------------------------------------------------

def latest(run_id: RunId) -> WorkspaceSnapshot | None:
    """The run's files as last recorded: its last snapshot of the run's workspace that no resume superseded."""
    return WorkspaceSnapshot.objects.filter(run_id=run_id, workspace=RUN).exclude(number__in=superseded(run_id)) \
        .order_by("-number").first()


def _snapshot(run: Run, number: int) -> WorkspaceSnapshot:
    found = WorkspaceSnapshot.objects.filter(run=run, number=number).first()
    if found is None:
        raise Http404(f"run {run.id} has no workspace snapshot {number}")
    return found


def _blobs(run_id: RunId, digests: set[str]) -> dict[str, bytes]:
    rows = WorkspaceBlob.objects.filter(run_id=run_id, digest__in=list(digests)).values_list("digest", "data")
    return {digest: bytes(data) for digest, data in rows}


def snapshot_contents(snapshot: WorkspaceSnapshot) -> list[tuple[str, bytes | None]]:
    manifest = from_json(snapshot.manifest)
    blobs = _blobs(snapshot.run_id, {s.digest for s in manifest.values()})
    return [(path, blobs.get(state.digest)) for path, state in sorted(manifest.items())]


def info(run: Run) -> dict:
    rows = WorkspaceSnapshot.objects.filter(run=run).order_by("number").values(
        "number", "label", "step_id", "workspace", "base", "files", "added", "modified", "removed", "partial",
        "note", "created_at")
    uses = bool(run.ask_before) or bool(rows) or run.tools_used
    gone = superseded(run.pk) if run.start_checkpoint else set()  # only a run that went on from a checkpoint has any
    return {"sandbox": run.sandbox or settings.AGENT_SANDBOX, "network": settings.AGENT_NETWORK,
            "isolation": ((run.version.document.get("options") or {}).get("isolation") or RUN),
            "ask_before": list(run.ask_before or []), "uses_tools": bool(uses),
            "on_disk": workspace_dir(run.id).is_dir(),
            "snapshots": [{**r, "step_id": r["step_id"] or None, "created": r["created_at"].isoformat(),
                           "superseded": r["number"] in gone} for r in rows]}


def _why_not_stored(run: Run, number: int) -> Callable[[FileState], str]:
    """Why a file of snapshot ``number`` has no content kept, in words: too big, unreadable, or the storage was full
    (as the first snapshot up to it that found it full says: a content not kept then is not tried again)."""
    full = (WorkspaceSnapshot.objects.filter(run=run, number__lte=number).exclude(note="").order_by("number")
            .values_list("note", flat=True).first())

    def why(state: FileState) -> str:
        if state.size > MAX_STORED_BYTES:
            return f"not stored: over {MAX_STORED_BYTES // 2**20} MB, too big to keep"
        if state.digest == "unreadable":
            return "not stored: it could not be read"
        return full or "not stored"
    return why


def files(run: Run, number: int) -> dict:
    snapshot = _snapshot(run, number)
    manifest = from_json(snapshot.manifest)
    stored = set(WorkspaceBlob.objects.filter(run=run, digest__in=[s.digest for s in manifest.values()])
                 .values_list("digest", flat=True))
    why = _why_not_stored(run, number)
    return {"snapshot": number, "partial": snapshot.partial, "note": snapshot.note,
            "links": [{"path": p, "target": t} for p, t in sorted((snapshot.links or {}).items())],
            "files": [{"path": p, "size": s.size, "stored": s.digest in stored,
                       "reason": "" if s.digest in stored else why(s)} for p, s in sorted(manifest.items())]}


def file(run: Run, number: int, path: str) -> dict:
    manifest = from_json(_snapshot(run, number).manifest)
    state = manifest.get(path)
    if state is None:
        raise Http404(f"snapshot {number} has no file {path!r}")
    data = _blobs(run.id, {state.digest}).get(state.digest)
    text = text_of(data)
    truncated = text is not None and len(text) > MAX_VIEW_CHARS
    return {"path": path, "size": state.size, "text": text[:MAX_VIEW_CHARS] if text is not None else None,
            "truncated": truncated, "stored": data is not None,
            "reason": "" if data is not None else _why_not_stored(run, number)(state)}


def diff(run: Run, number: int) -> dict:
    snapshot = _snapshot(run, number)
    new = from_json(snapshot.manifest)
    old = from_json(_snapshot(run, snapshot.base).manifest) if snapshot.base else {}
    changed = sorted(p for p in set(new) | set(old)
                     if (old[p].digest if p in old else None) != (new[p].digest if p in new else None))
    blobs = _blobs(run.id, {m[p].digest for m in (old, new) for p in changed if p in m})
    changes = []
    for path in changed:
        was, now = path in old, path in new
        text, truncated = unified(path, blobs.get(old[path].digest) if was else None,
                                  blobs.get(new[path].digest) if now else None, was=was, now=now)
        changes.append({"path": path, "change": "modified" if was and now else "added" if now else "removed",
                        "diff": text, "truncated": truncated})
    return {"snapshot": number, "base": snapshot.base, "changes": changes}


def zip_of(run: Run, number: int | None = None) -> tuple[str, bytes]:
    """(file name, zip bytes) of a snapshot's files (default: the run's workspace as it was last recorded)."""
    snapshot = _snapshot(run, number) if number else latest(run.id)
    if snapshot is None:
        raise Http404(f"run {run.id} has no workspace files")
    entries = [(path, data) for path, data in snapshot_contents(snapshot) if data is not None]
    return f"run-{str(run.id)[:8]}-workspace-{snapshot.number}.zip", archive.zip_entries(entries)
