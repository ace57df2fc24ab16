"""Workspace snapshots as a run that lost its worker left them: stored in the database, announced by its events;
and a workflow of two steps that each write a file, to make them."""
from __future__ import annotations

import hashlib

from runtime.models import Run, WorkspaceBlob, WorkspaceSnapshot

TWO_WRITING_STEPS = """
version: 1
name: snapshots
agents:
  w: {description: writes, tools: [write]}
steps:
  - {id: first, agent: w}
  - {id: second, agent: w, dependsOn: [first]}
"""
TWO_WRITING_STEPS_SCRIPT = {"replies": {
    "first": [{"tool_calls": [{"name": "write", "arguments": {"path": "a.txt", "content": "a\n"}}]}, "one"],
    "second": [{"tool_calls": [{"name": "write", "arguments": {"path": "b.txt", "content": "b\n"}}]}, "two"],
}}


def stored_snapshot(run: Run, number: int, label: str, files: dict[str, bytes], base: int | None) -> None:
    manifest = {}
    for path, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        WorkspaceBlob.objects.get_or_create(run=run, digest=digest, defaults={"data": data})
        manifest[path] = [len(data), 0, digest]
    WorkspaceSnapshot.objects.create(run=run, number=number, label=label, step_id=label, manifest=manifest,
                                     files=len(files), base=base)


def announced(seq: int, number: int, label: str) -> dict:
    return {"type": "workspace_snapshot", "seq": seq, "stepId": label,
            "data": {"snapshot": number, "label": label, "workspace": "run"}}
