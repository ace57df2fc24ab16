"""Workflows as folders, in and out: a zip (or a dropped folder) becomes workflows whose versions hold their files;
a version goes out as a zip any zenflow runner runs as it is.

Files are stored once by their SHA-256 (:class:`designer.models.FileBlob`): a new version that changes one
prompt adds one blob and points at the others, it never copies the folder.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from common import archive
from designer import services
from designer.diagnostics import Diagnostic
from designer.errors import BadRequest
from designer.folders import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES, MemoryFolder, PathRefused, check_totals, clean_path
from designer.models import FileBlob, VersionFile, Workflow, WorkflowVersion
from designer.resolve import resolve_references

WORKFLOW_SUFFIXES = (".yaml", ".yml", ".json")
ALL = "*"
# A zip of a folder may exceed the folder's own caps a little (zip overhead); the folder's caps are checked after.
ZIP_LIMITS = archive.ArchiveLimits(max_upload_bytes=MAX_TOTAL_BYTES, max_files=MAX_FILES * 4,
                                   max_total_bytes=MAX_TOTAL_BYTES, max_file_bytes=MAX_FILE_BYTES)


@dataclass
class Planned:
    """One workflow to make from a bundle: its main file and the files it keeps."""

    main_path: str
    text: str
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Plan:
    workflows: list[Planned]
    skipped: dict[str, str] = field(default_factory=dict)   # path -> why it is not a workflow


def read_bundle(data: bytes) -> dict[str, bytes]:
    """A zip's files, checked (paths, links, sizes, names); a zip of one folder is read as that folder's contents."""
    try:
        files = archive.read_zip(data, ZIP_LIMITS)
    except archive.ArchiveRefused as exc:
        raise BadRequest(f"the zip is refused: {exc}") from None
    files = {p: d for p, d in files.items() if not _hidden(p)}
    tops = {p.split("/", 1)[0] for p in files}
    if len(tops) == 1 and all("/" in p for p in files):
        top = tops.pop() + "/"
        files = {p[len(top):]: d for p, d in files.items()}
    try:
        check_totals(files)
    except PathRefused as exc:
        raise BadRequest(f"the zip is refused: {exc}") from None
    return files


def _hidden(path: str) -> bool:
    # What operating systems leave in zips (__MACOSX, .DS_Store, .git) is not the workflow's.
    return any(part.startswith(".") or part == "__MACOSX" for part in path.split("/"))


def _looks_like_workflow(path: str, data: bytes) -> str | None:
    """Why a top-level file is not a workflow to import, or None when it is one."""
    text = text_of(data)
    if text is None:
        return "not UTF-8 text"
    loaded = services.check(text, None)
    if not loaded.parsed:
        return "not a YAML or JSON mapping"
    if "steps" not in loaded.document:
        return "has no steps: not a workflow"
    return None


def candidates(files: dict[str, bytes]) -> list[str]:
    """Top-level workflow files: the ones a bundle's main file may be."""
    return sorted(p for p in files if "/" not in p and p.lower().endswith(WORKFLOW_SUFFIXES))


def plan(files: dict[str, bytes], main: str | None) -> Plan:
    """Which workflows a bundle makes: the main file named, the only top-level workflow, or (``*``) every one.

    One main file keeps the whole folder; with ``*`` each workflow keeps only what it references (its includes,
    theirs, its ``@`` files and context files), so examples that share a folder each get their own.
    """
    if not files:
        raise BadRequest("the zip holds no files")
    if main and main != ALL:
        try:
            path = clean_path(main)
        except PathRefused as exc:
            raise BadRequest(f"main: {exc}") from None
        if path not in files:
            raise BadRequest(f"main: the zip has no file {path!r} (top-level workflows: {', '.join(candidates(files)) or 'none'})")
        return Plan([_planned(path, files, files)])
    tops = candidates(files)
    skipped = {p: why for p in tops if (why := _looks_like_workflow(p, files[p]))}
    workflows = [p for p in tops if p not in skipped]
    if not workflows:
        raise BadRequest("the zip has no workflow at its top level (a .yaml, .yml or .json file with steps)"
                         + (f"; skipped: {', '.join(f'{p} ({why})' for p, why in skipped.items())}" if skipped else ""))
    if main != ALL and len(workflows) > 1:
        raise BadRequest(f"the zip has {len(workflows)} workflows at its top level: name the main one, or import them "
                         f"all (main='*'): {', '.join(workflows)}")
    if main != ALL:
        return Plan([_planned(workflows[0], files, files)], skipped)
    return Plan([_planned(p, files, _referenced(p, files)) for p in workflows], skipped)


def _referenced(main_path: str, files: dict[str, bytes]) -> dict[str, bytes]:
    text = text_of(files[main_path]) or ""
    loaded = services.check(text, None)
    reached = resolve_references(loaded.document, MemoryFolder(files), main_path).files if loaded.parsed else []
    return {p: files[p] for p in reached}


def _planned(main_path: str, files: dict[str, bytes], kept: dict[str, bytes]) -> Planned:
    text = text_of(files[main_path])
    if text is None:
        raise BadRequest(f"main: {main_path} is not UTF-8 text")
    return Planned(main_path, text, {p: d for p, d in kept.items() if p != main_path})


def folder_problems(document: Any, files: dict[str, bytes], main_path: str) -> list[Diagnostic]:
    """The reference diagnostics of a document in its folder (missing files, cycles, depth)."""
    return resolve_references(document, MemoryFolder(files), main_path).diagnostics


class StoredFolder:
    """A stored version's folder, read lazily: sizes from one query, contents only of the files opened."""

    def __init__(self, version: WorkflowVersion) -> None:
        rows = VersionFile.objects.filter(version=version).values_list("path", "blob_id", "blob__size")
        self._index = {path: (blob, size) for path, blob, size in rows}

    def __bool__(self) -> bool:
        return bool(self._index)

    def size(self, path: str) -> int | None:
        found = self._index.get(path)
        return None if found is None else found[1]

    def read(self, path: str) -> bytes | None:
        found = self._index.get(path)
        if found is None:
            return None
        return bytes(FileBlob.objects.values_list("data", flat=True).get(pk=found[0]))


def is_folder(version: WorkflowVersion | None) -> bool:
    return version is not None and (bool(version.main_path) or version.files.exists())


def stored_problems(document: Any, version: WorkflowVersion) -> list[Diagnostic]:
    """Reference diagnostics of ``document`` in ``version``'s folder (empty for a one-file workflow)."""
    if not is_folder(version):
        return []
    return resolve_references(document, StoredFolder(version), version.main_path).diagnostics


def with_folder_problems(answer: dict, version: WorkflowVersion, document: Any = None) -> dict:
    """A check answer with the folder's problems added (a missing include makes it invalid): those of ``document``
    (default: the version's own) in ``version``'s folder."""
    problems = stored_problems(version.document if document is None else document, version)
    if not problems:
        return answer
    errors = [d.as_dict() for d in problems if d.severity == "error"]
    warnings = [d.as_dict() for d in problems if d.severity != "error"]
    return {**answer, "errors": answer["errors"] + errors, "warnings": answer["warnings"] + warnings,
            "valid": answer["valid"] and not errors, "runnable": answer.get("runnable", True) and not errors}


# ---------------------------------------------------------------- storing a version's files


def store_files(version: WorkflowVersion, files: dict[str, bytes]) -> None:
    """Attach files to a version; content already stored (by any version) is not stored again."""
    if not files:
        return
    digests = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
    known = set(FileBlob.objects.filter(sha256__in=set(digests.values())).values_list("sha256", flat=True))
    fresh: dict[str, FileBlob] = {}
    for path, digest in digests.items():
        if digest not in known and digest not in fresh:
            fresh[digest] = FileBlob(sha256=digest, size=len(files[path]), data=files[path])
    FileBlob.objects.bulk_create(fresh.values(), ignore_conflicts=True)
    VersionFile.objects.bulk_create([VersionFile(version=version, path=p, blob_id=d) for p, d in digests.items()])


def blob_for(data: bytes) -> str:
    """The stored blob's id (its SHA-256) for this content, stored now if no version holds it yet."""
    digest = hashlib.sha256(data).hexdigest()
    FileBlob.objects.bulk_create([FileBlob(sha256=digest, size=len(data), data=data)], ignore_conflicts=True)
    return digest


def blobs_of(workflow: Workflow) -> set[str]:
    """The stored blobs any version of ``workflow`` holds."""
    return set(VersionFile.objects.filter(version__workflow=workflow).values_list("blob_id", flat=True).distinct())


def drop_unheld(digests: set[str]) -> int:
    """Delete the blobs among ``digests`` that no version holds any more (a deleted workflow's files); the count.

    Only these, not every unheld blob: a save stores its new blobs before the rows that hold them. A save
    that reuses one of these at this moment keeps it: the delete its reference blocks is given up."""
    dropped = 0
    ordered = sorted(digests)
    for i in range(0, len(ordered), 500):  # SQLite's limit on a query's parameters
        chunk = ordered[i:i + 500]
        try:
            with transaction.atomic():
                held = VersionFile.objects.filter(blob_id__in=chunk).values("blob_id")
                dropped += FileBlob.objects.filter(sha256__in=chunk).exclude(sha256__in=held).delete()[0]
        except IntegrityError:
            continue
    return dropped


def changed_folder(version: WorkflowVersion, path: str, content: bytes | None, rename_to: str | None) -> dict[str, str]:
    """The version's {path: blob id} with one file written (``content``), removed (None) or moved (``rename_to``)."""
    index = dict(VersionFile.objects.filter(version=version).values_list("path", "blob_id"))
    if path == version.main_path:
        raise BadRequest(f"path: {path} is the main document; save it as the workflow itself")
    if rename_to is not None:
        if path not in index:
            raise BadRequest(f"path: the folder has no file {path!r} to rename")
        if rename_to in index or rename_to == version.main_path:
            raise BadRequest(f"rename_to: the folder already has a file {rename_to!r}")
        index[rename_to] = index.pop(path)
    elif content is None:
        if index.pop(path, None) is None:
            raise BadRequest(f"path: the folder has no file {path!r} to delete")
    else:
        if len(content) > MAX_FILE_BYTES:
            raise BadRequest(f"{path} is {len(content):,} bytes; the limit is 10 MiB a file", status=413)
        if path not in index and len(index) + 1 > MAX_FILES:
            raise BadRequest(f"the folder has {len(index):,} files already; the limit is {MAX_FILES:,}")
        index[path] = blob_for(content)
    return index


def carry_files(source: WorkflowVersion | None, target: WorkflowVersion) -> None:
    """The files of ``source`` in ``target`` too, as references to the same blobs (a save that left them alone)."""
    if source is None:
        return
    target.main_path = source.main_path
    target.save(update_fields=["main_path"])
    rows = source.files.values_list("path", "blob_id")
    VersionFile.objects.bulk_create([VersionFile(version=target, path=p, blob_id=b) for p, b in rows])


def text_of(data: bytes) -> str | None:
    """A file's text, or None when it is binary (an image, a PDF)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


def files_of(version: WorkflowVersion) -> dict[str, bytes]:
    rows = VersionFile.objects.filter(version=version).select_related("blob").order_by("path")
    return {r.path: bytes(r.blob.data) for r in rows}


def listing(version: WorkflowVersion) -> list[dict]:
    """The folder as the file panel lists it: path and size of each file, the main document first."""
    rows = VersionFile.objects.filter(version=version).select_related("blob").order_by("path")
    main = {"path": version.main_path or "workflow.yaml", "size": len((version.source or "").encode()), "main": True}
    return [main] + [{"path": r.path, "size": r.blob.size, "main": False} for r in rows]


# ---------------------------------------------------------------- export


def export_zip(version: WorkflowVersion, name: str) -> tuple[str, bytes]:
    """(file name, zip) of the main YAML and every file at its relative path, for upstream's CLI to run as it is."""
    main_path = version.main_path or f"{_slug(name)}.yaml"
    text = version.source or services.render(version.document, "yaml")
    entries = [(main_path, text.encode("utf-8")), *sorted(files_of(version).items())]
    return f"{_slug(name)}-v{version.number}.zip", archive.zip_entries(entries)


def _slug(name: str) -> str:
    out = "".join(c if c.isalnum() or c in "-_" else "-" for c in name.strip().lower()).strip("-")
    return out[:80] or "workflow"
