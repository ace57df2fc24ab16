"""A dataset's cases: what a run starts from, with no change to the workflow, and what it should give.

A case is a mapping::

    {"id": "short-poem",                 # unique in its dataset (made from its position when not given)
     "name": "...",                      # optional words
     "files": {"brief.md": "text"},      # laid into the run's workspace; a path of the workflow's folder is replaced
     "items": {"each-topic": [...]},     # a forEach step's items, replacing its own for this run
     "expected": {"content": "...", "files": {...}, ...},   # what scorers compare with (anything else is free)
     "script": {...}}                    # the simulated provider's replies for this case (dry runs, tests)

Cases come by hand (checked here), from CSV or JSONL (one row a case, columns mapped to files, items or
expectations: :func:`from_csv`, :func:`from_jsonl`), or from a finished run (:func:`from_run`).
"""
from __future__ import annotations

import csv
import io
import json
import posixpath
import re
import zipfile
from typing import Any

from common.errors import BadRequest
from runtime.durability import run_files
from runtime.evals.scorers import step_ids
from runtime.models import Run, RunEvent, WorkspaceUpload

MAX_CASES = 5000
MAX_CASE_BYTES = 1_000_000
CASE_FIELDS = {"id", "name", "files", "items", "expected", "script"}
_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")


def _path(where: str, path: Any) -> str:
    if not isinstance(path, str) or not path.strip():
        raise BadRequest(f"{where}: a file path is required")
    clean = posixpath.normpath(path.strip())
    if clean.startswith(("/", "..")) or clean in (".", "") or "\x00" in clean:
        raise BadRequest(f"{where}: {path!r} is not a relative path inside the workspace")
    return clean


def check_cases(raw: Any, document: dict) -> list[dict]:
    """The cases, checked (a 400 naming the case and the field), ids made for the ones without."""
    if not isinstance(raw, list):
        raise BadRequest("cases: expected a list")
    if len(raw) > MAX_CASES:
        raise BadRequest(f"cases: at most {MAX_CASES} in one dataset")
    loops = {s for s in step_ids(document)}
    seen: set[str] = set()
    out = []
    for i, case in enumerate(raw):
        where = f"cases[{i}]"
        if not isinstance(case, dict):
            raise BadRequest(f"{where}: expected an object")
        unknown = sorted(set(case) - CASE_FIELDS)
        if unknown:
            raise BadRequest(f"{where}: unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(CASE_FIELDS))})")
        case_id = case.get("id", f"case-{i + 1}")
        if not isinstance(case_id, str) or not _ID.match(case_id):
            raise BadRequest(f"{where}.id: letters, digits and ._:- only, 1 to 100 of them")
        if case_id in seen:
            raise BadRequest(f"{where}.id: `{case_id}` is used twice")
        seen.add(case_id)
        checked: dict[str, Any] = {"id": case_id}
        if case.get("name") is not None:
            if not isinstance(case["name"], str):
                raise BadRequest(f"{where}.name: a string")
            checked["name"] = case["name"][:200]
        files = case.get("files") or {}
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise BadRequest(f"{where}.files: an object of path -> text")
        checked["files"] = {_path(f"{where}.files", p): v for p, v in files.items()}
        items = case.get("items") or {}
        if not isinstance(items, dict):
            raise BadRequest(f"{where}.items: an object of forEach step id -> list of items")
        for step, listed in items.items():
            if step not in loops:
                raise BadRequest(f"{where}.items: no step {step!r} in the workflow")
            if not isinstance(listed, list):
                raise BadRequest(f"{where}.items.{step}: a list of items")
        checked["items"] = items
        expected = case.get("expected") or {}
        if not isinstance(expected, dict):
            raise BadRequest(f"{where}.expected: an object")
        checked["expected"] = expected
        if case.get("script") is not None:
            if not isinstance(case["script"], dict):
                raise BadRequest(f"{where}.script: the simulated provider's script, an object")
            checked["script"] = case["script"]
        if len(json.dumps(checked)) > MAX_CASE_BYTES:
            raise BadRequest(f"{where}: larger than {MAX_CASE_BYTES:,} bytes")
        out.append(checked)
    return out


# ---------------------------------------------------------------- imports

def _mapped(row: dict, columns: dict[str, str], where: str) -> dict:
    """One row as a case: ``columns`` maps a column to ``id``, ``name``, ``file:PATH``, ``items:STEP``,
    ``expected:KEY`` or ``expected_file:PATH``; unmapped columns go to ``expected`` under their own name."""
    case: dict[str, Any] = {"files": {}, "items": {}, "expected": {}}
    for column, value in row.items():
        if column is None:
            raise BadRequest(f"{where}: more cells than columns")
        target = columns.get(column, f"expected:{column}")
        kind, _, name = target.partition(":")
        if kind in ("id", "name"):
            case[kind] = value if isinstance(value, str) else json.dumps(value)
        elif kind == "file" and name:
            case["files"][name] = value if isinstance(value, str) else json.dumps(value)
        elif kind == "items" and name:
            if isinstance(value, str):
                try:
                    parsed = json.loads(value)
                except ValueError:
                    parsed = [value]
                value = parsed if isinstance(parsed, list) else [parsed]
            case["items"][name] = value if isinstance(value, list) else [value]
        elif kind == "expected" and name:
            case["expected"][name] = value
        elif kind == "expected_file" and name:
            case["expected"].setdefault("files", {})[name] = value
        else:
            raise BadRequest(f"columns.{column}: {target!r} is not id, name, file:PATH, items:STEP, expected:KEY or expected_file:PATH")
    return case


def from_csv(text: str, columns: dict[str, str] | None) -> list[dict]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames:
        raise BadRequest("csv: no header row")
    return [_mapped(row, columns or {}, f"csv row {n}") for n, row in enumerate(reader, start=2)]


def from_jsonl(text: str, columns: dict[str, str] | None) -> list[dict]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadRequest(f"jsonl line {n}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BadRequest(f"jsonl line {n}: expected an object")
        # A line already in the case shape is taken as it is.
        out.append(row if set(row) <= CASE_FIELDS and not columns else _mapped(row, columns or {}, f"jsonl line {n}"))
    return out


def from_run(run: Run, *, keep_outputs: bool) -> dict:
    """A finished run as a case: the files it started from (an upload), its forEach items, its simulated script,
    and, with ``keep_outputs``, its steps' outputs as the expected ones."""
    case: dict[str, Any] = {"name": f"from run {str(run.id)[:8]}", "files": {}, "items": dict(run.case_items or {}),
                            "expected": {}}
    seed = run.workspace_seed or {}
    if "upload" in seed:
        upload = WorkspaceUpload.objects.filter(pk=seed["upload"]).first()
        if upload is not None:
            with zipfile.ZipFile(io.BytesIO(bytes(upload.data))) as zf:
                for info in zf.infolist():
                    if not info.is_dir():
                        case["files"][info.filename] = zf.read(info).decode("utf-8", errors="replace")
    elif "from_run" in seed:
        snapshot = run_files.latest(seed["from_run"])
        if snapshot is not None:
            case["files"] = {p: c.decode("utf-8", errors="replace") for p, c in run_files.snapshot_contents(snapshot) if c is not None}
    if run.provider == "simulated" and run.script:
        case["script"] = run.script
    if keep_outputs:
        outputs = finished_steps(run)
        top = [s for s in step_ids(run.version.document) if s in outputs]
        last = top[-1] if top else None
        if last is not None:
            case["expected"]["content"] = outputs[last].get("content") or ""
        case["expected"]["steps"] = {k: {"content": v.get("content"), "result": v.get("result")} for k, v in outputs.items()}
    return case


def finished_steps(run: Run) -> dict[str, dict]:
    """Each step's end as it was recorded (top-level step ids and loop steps; not their iterations)."""
    out: dict[str, dict] = {}
    for step_id, text in RunEvent.objects.filter(run=run, type="step_end", superseded=False).values_list("step_id", "event_json"):
        data = json.loads(text).get("data") or {}
        out[step_id] = {"status": data.get("status"), "content": data.get("content") or "", "result": data.get("result")}
    return out


def upload_for(user: Any, name: str, files: dict[str, str]) -> str | None:
    """The case's files as an upload a run starts from (runtime.durability.run_files), or None without files."""
    if not files:
        return None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return str(run_files.create_upload(user, name, buffer.getvalue())["id"])
