"""What changed in a workflow's folder between two versions: each file added, removed or changed, with both texts.

The main document is compared elsewhere (its steps and its YAML); this is every other file of the folder, so
two versions that differ only in a prompt (`prompts/planner.md` edited in the Files tab) never read as equal.
Files are compared by their blob digest, so an unchanged file costs no read.
"""
from __future__ import annotations

from typing import Any

from designer.bundles import text_of
from designer.models import FileBlob, VersionFile, WorkflowVersion

# Each side's text is cut here: the page draws a line diff of it, and a 10 MiB file would stall the browser.
MAX_TEXT_CHARS = 256 * 1024


def _index(version: WorkflowVersion) -> dict[str, str]:
    return dict(VersionFile.objects.filter(version=version).values_list("path", "blob_id"))


def _side(digest: str | None, blobs: dict[str, bytes]) -> tuple[str | None, int | None, bool]:
    """(text or None, size or None, binary) of one side of a file."""
    if digest is None:
        return None, None, False
    data = blobs[digest]
    text = text_of(data)
    return (text[:MAX_TEXT_CHARS] if text is not None else None), len(data), text is None


def changes(before: WorkflowVersion, after: WorkflowVersion) -> list[dict[str, Any]]:
    """The folder's files that differ from ``before`` to ``after``, sorted by path. A rename reads as one file
    removed and one added (the blob store does not record renames)."""
    old, new = _index(before), _index(after)
    differing = sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))
    wanted = {d for p in differing for d in (old.get(p), new.get(p)) if d is not None}
    blobs = {b.sha256: bytes(b.data) for b in FileBlob.objects.filter(sha256__in=wanted)}
    out = []
    for path in differing:
        text_before, size_before, binary_before = _side(old.get(path), blobs)
        text_after, size_after, binary_after = _side(new.get(path), blobs)
        change = "added" if path not in old else "removed" if path not in new else "changed"
        out.append({"path": path, "change": change, "binary": binary_before or binary_after,
                    "size_before": size_before, "size_after": size_after,
                    "before": text_before, "after": text_after,
                    "truncated": any(t is not None and len(t) >= MAX_TEXT_CHARS for t in (text_before, text_after))})
    return out
