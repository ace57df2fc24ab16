"""Try one step alone (issue #33): a step execution of a finished run, its real inputs, tried again with edits.

:func:`inputs` reads what the execution was sent from the run's events (the first request's assembled prompt, the
tools offered, the model and provider) beside what it gave. :func:`try_step` runs that one agent conversation again
(runtime.engine.playground) with changed instructions, prompt texts, model or temperature, as often as wanted: it
writes nothing to the parent run (no event, no spend, no file), and answers with the result beside the original.
:func:`apply` writes changed instructions, model or temperature back to the workflow as a new version.

Tools: when the execution was offered workspace tools, the try gets them in a copy of the run's workspace as the
last snapshot before the execution's first request left it (a temporary folder beside the run's, removed after the
try): the parent's own files are never touched. The agent's MCP tools are not started for a try, and a tool call
that would wait for a person's approval ends the try at :data:`TRY_TIMEOUT_S`; ``notes`` says what the try had.

Who may do what: reading the inputs needs read access to the run; trying calls a model, so it needs the role that
runs (and a key for the run's provider, as a run would); applying needs the role that edits the workflow.
"""
from __future__ import annotations

import asyncio
import copy
import json
import math
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from django.conf import settings

from accounts.workspaces import Need
from designer import services as documents
from designer import workflows
from designer.errors import BadRequest
from runtime.durability import run_files
from runtime.engine.context import DEFAULT_AGENT, StepError
from runtime.engine.playground import Turn, try_turn
from runtime.engine.pricing import PriceBook
from runtime.engine.shapes import WorkflowDoc
from runtime.events import ListSink
from runtime.execution.worker import providers_for
from runtime.models import Run, RunEvent, WorkspaceSnapshot
from runtime.providers import Provider, ProviderError, close_all
from runtime.runs import create, pins
from runtime.runs.access import reachable
from runtime.tools import permissions as tool_permissions
from runtime.tools.messaging import MESSAGING_TOOLS
from runtime.tools.session import RunTools

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_TEXT = 200_000  # characters of an edited prompt or instructions
MAX_TEMPERATURE = 2.0
TRY_TIMEOUT_S = 300.0  # a try answers its request: a tool call waiting for an approval nobody can give ends it
NOT_WORKSPACE_TOOLS = frozenset({"submit_result", *MESSAGING_TOOLS})


def finished(user: User, run_id: str, need: Need) -> Run:
    run = reachable(user, run_id, need)
    if run.active:
        raise BadRequest(f"run {run.id} is still {run.status}: try a step of a finished run", status=409)
    return run


def _request_of(run: Run, step: str) -> dict:
    """The execution's first request event (its last attempt's, when it was retried)."""
    texts = (RunEvent.objects.filter(run=run, superseded=False, type="agent_turn", step_id=step)
             .order_by("seq").values_list("event_json", flat=True))
    found = None
    for event in (json.loads(t) for t in texts):
        if _first_request(event):
            found = event
    if found is None:
        raise BadRequest(f"step: `{step}` names no agent execution of run {run.id} (open one from the run page)")
    return found


def _first_request(event: dict) -> bool:
    data = event.get("data") or {}
    return data.get("phase") == "request" and data.get("turn") == 1 and isinstance(data.get("prompt"), dict)


def judge_requests(run_ids: list[str], wanted: set[tuple[str, str]], chunk: int = 400) -> dict[tuple[str, str], dict]:
    """The first request event of each wanted (run id, judge step path), as :func:`_request_of` picks it, read in a
    few queries for many runs (re-scoring a judge asks of up to a thousand rounds)."""
    found: dict[tuple[str, str], dict] = {}
    for at in range(0, len(run_ids), chunk):
        rows = (RunEvent.objects.filter(run_id__in=run_ids[at:at + chunk], superseded=False, type="agent_turn",
                                        step_id__endswith=".untilAgent")
                .order_by("seq").values_list("run_id", "step_id", "event_json"))
        for run_id, step_id, text in rows:
            key = (str(run_id), step_id)
            if key in wanted and '"request"' in text:
                event = json.loads(text)
                if _first_request(event):
                    found[key] = event
    return found


def place(document: dict, path: str) -> tuple[dict | None, bool]:
    """The step of ``document`` a step path runs (``dev.2.draft`` is `draft` in loop `dev`; ``each[3]`` the
    forEach step itself), and whether the path is its loop's judge; (None, False) when the document has none
    (an included workflow's step)."""
    steps: list = document.get("steps") or []
    step: dict | None = None
    parts = path.split(".")
    i = 0
    while i < len(parts):
        part = parts[i]
        if part == "untilAgent" and step is not None and isinstance(step.get("loop"), dict):
            return step, True
        step = next((s for s in steps if isinstance(s, dict) and s.get("id") == part.split("[")[0]), None)
        if step is None:
            return None, False
        i += 1
        loop = step.get("loop")
        if isinstance(loop, dict):
            if i < len(parts) and parts[i].isdigit():
                i += 1  # a round's number
            steps = loop.get("steps") or []
    return step, False


def recorded(run: Run, path: str, request: dict) -> dict[str, Any]:
    """What an execution's first request event says it was sent: its place, agent, provider, model, prompt texts,
    the tools offered, and the step's instructions as the run's version has them."""
    data = request.get("data") or {}
    prompt = data.get("prompt") or {}
    document = run.version.document if run.version_id else {}
    found, judge = place(document, path)
    instructions = (found or {}).get("instructions") if found is not None else None
    return {
        "step": path, "kind": "judge" if judge else "step", "agent": request.get("agent") or "default",
        "provider": data.get("provider") or run.provider, "model": data.get("model") or "",
        "system": prompt.get("system") or "", "user": prompt.get("user") or "", "inbox": prompt.get("inbox") or [],
        "tools": data.get("tools") or [], "instructions": instructions if isinstance(instructions, str) else None,
    }


def inputs(user: User, run_id: str, step: Any) -> dict[str, Any]:
    """What the execution was sent and what it gave."""
    run = reachable(user, run_id)
    path = _step(step)
    request = _request_of(run, path)
    sent = recorded(run, path, request)
    document = run.version.document if run.version_id else {}
    agent = (document.get("agents") or {}).get(sent["agent"]) or {}
    original = pins.executions(run).get(path)
    turns = [json.loads(t) for t in RunEvent.objects.filter(run=run, superseded=False, type="agent_turn", step_id=path,
                                                             seq__gte=request.get("seq") or 0).values_list("event_json", flat=True)]
    responses = [e for e in turns if (e.get("data") or {}).get("phase") == "response"]
    return {
        "run_id": str(run.id), "workflow_id": run.workflow_id, "version": run.version.number if run.version_id else None,
        **sent, "temperature": agent.get("temperature"),
        "original": {
            "content": (original or {}).get("content"), "result": (original or {}).get("result"),
            "status": "completed" if original is not None else "failed",
            "tokens": sum(int((e.get("tokens") or {}).get("total") or 0) for e in responses),
            "cost_usd": sum(float((e.get("data") or {}).get("cost_usd") or 0.0) for e in responses),
            "turns": len(responses), "pinned": any((e.get("data") or {}).get("pinned") for e in responses),
        },
    }


def _step(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise BadRequest("step: name the step execution to try (a step path such as `draft` or `dev.2.untilAgent`)")
    if len(raw) > pins.MAX_STEP_PATH:
        raise BadRequest(f"step: a step path is at most {pins.MAX_STEP_PATH} characters")
    return raw.strip()


def checked_edits(raw: dict[str, Any]) -> dict[str, Any]:
    """The edits asked for, each checked and refused naming its field."""
    out: dict[str, Any] = {}
    for key in ("system", "user", "instructions"):
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise BadRequest(f"{key}: must be text")
        if len(value) > MAX_TEXT:
            raise BadRequest(f"{key}: at most {MAX_TEXT} characters")
        out[key] = value
    model = raw.get("model")
    if model is not None:
        if not isinstance(model, str) or not model.strip() or len(model) > 200:
            raise BadRequest("model: name a model (at most 200 characters)")
        out["model"] = model.strip()
    temperature = raw.get("temperature")
    if temperature is not None:
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not math.isfinite(temperature) \
                or not 0 <= temperature <= MAX_TEMPERATURE:
            raise BadRequest(f"temperature: a number from 0 to {MAX_TEMPERATURE:g}")
        out["temperature"] = float(temperature)
    return out


def _with_instructions(user_text: str, old: str | None, new: str) -> str:
    """The recorded user prompt with the step's task replaced (prompting puts it under ``## Task``)."""
    if old and old.strip() and old.strip() in user_text:
        return user_text.replace(old.strip(), new.strip(), 1)
    raise BadRequest("instructions: the recorded prompt does not hold this step's instructions as written "
                     "(they come from a file, or were cut); edit `user` instead")


def turn_for(run: Run, sent: dict[str, Any], changes: dict[str, Any]) -> Turn:
    """The turn to try: the recorded request (:func:`recorded`) with checked ``changes`` (:func:`checked_edits`)."""
    document = run.version.document if run.version_id else {}
    agent = dict((document.get("agents") or {}).get(sent["agent"]) or DEFAULT_AGENT)
    if "temperature" in changes:
        agent["temperature"] = changes["temperature"]
    user_text = changes.get("user", sent["user"])
    if "instructions" in changes and "user" not in changes:
        user_text = _with_instructions(user_text, sent["instructions"], changes["instructions"])
    model = changes.get("model") or sent["model"]
    return Turn(step_path=sent["step"], step_id=sent["step"].rsplit(".", 1)[-1].split("[")[0], agent_name=sent["agent"],
                agent=agent, model=model if model != run.provider else "", system=changes.get("system", sent["system"]),
                user=user_text)


async def ask(run: Run, turn: Turn, providers: dict[str, Provider], *, prices: PriceBook,
              tools: RunTools | None = None) -> dict[str, Any]:
    """One try of ``turn`` (at most :data:`TRY_TIMEOUT_S`): what it gave and spent. The caller closes the providers
    and the tools: many tries may share them."""
    # A run whose version is gone: no agents, options or description to read.
    document: WorkflowDoc = run.version.document if run.version_id else {"name": "", "steps": []}
    sink = ListSink()
    error = None
    try:
        conv = await asyncio.wait_for(try_turn(document, turn, providers=providers, default_provider=run.provider, sink=sink,
                                               run_id=f"{run.id}:playground", prices=prices, thinking=run.thinking or None,
                                               tools=tools), TRY_TIMEOUT_S)
    except TimeoutError:
        conv, error = None, f"the try took longer than {TRY_TIMEOUT_S:g} s (a tool call waiting for an approval ends it)"
    except (ProviderError, StepError) as exc:
        conv, error = None, str(exc) or type(exc).__name__
    responses = [e for e in sink.of_type("agent_turn") if e["data"].get("phase") == "response"]
    return {
        "content": conv.content if conv is not None else "", "result": conv.result if conv is not None else None,
        "status": "failed" if conv is None or conv.error else "completed",
        "error": error or (conv.error if conv is not None else None),
        "tokens": sum(int((e.get("tokens") or {}).get("total") or 0) for e in responses),
        "cost_usd": sum(float(e["data"].get("cost_usd") or 0.0) for e in responses), "turns": len(responses),
    }


def prices() -> PriceBook:
    return PriceBook(overrides=dict(getattr(settings, "MODEL_PRICES", {}) or {}))


def try_step(user: User, run_id: str, step: Any, edits: dict[str, Any], script: Any = None) -> dict[str, Any]:
    """Run the execution's agent conversation once more, with ``edits``; the parent run is left as it was."""
    run = finished(user, run_id, Need.RUN)
    workflows.reachable(user, run.workflow_id, Need.RUN)
    original = inputs(user, run_id, step)
    changes = checked_edits(edits)
    checked_script = create.check_script(script) if script is not None else None
    create.provider_key(run.workspace, run.provider, user=user, workflow=run.workflow.name)
    turn = turn_for(run, original, changes)
    notes: list[str] = []
    folder, tools = workspace_copy(run, path_seq(run, original["step"]), original["tools"], notes)
    providers = providers_for(run, script=checked_script)
    book = prices()

    async def attempt() -> dict[str, Any]:
        try:
            return await ask(run, turn, providers, prices=book, tools=tools)
        finally:
            await close_all(providers)
            if tools is not None:
                await tools.close()

    try:
        answer = async_to_sync(attempt)()
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    return {
        "step": original["step"], "agent": turn.agent_name, "model": changes.get("model") or original["model"],
        "temperature": turn.agent.get("temperature"), "prompt": {"system": turn.system, "user": turn.user},
        **answer, "notes": notes, "original": original["original"],
    }


def path_seq(run: Run, step: str) -> int:
    """The seq of the execution's first request."""
    return int(_request_of(run, step).get("seq") or 0)


@dataclass
class Files:
    """What a try's copy of the run's workspace is made of: the snapshot's files (number None: an empty workspace)."""

    number: int | None = None
    files: dict = field(default_factory=dict)
    partial: bool = False


def wants_workspace(offered: list[str]) -> bool:
    return any(t not in NOT_WORKSPACE_TOOLS for t in offered)


def snapshot_files(run: Run, number: int | None) -> Files:
    """The files of the run's snapshot ``number`` (read from the database: before the copy is made)."""
    if number is None:
        return Files()
    snapshot = WorkspaceSnapshot.objects.get(run=run, number=number)
    return Files(number, dict(run_files.snapshot_contents(snapshot)), snapshot.partial)


def workspace_from(run: Run, files: Files, notes: list[str]) -> tuple[Path, RunTools]:
    """A copy of the run's workspace made of ``files``, in a temporary folder beside the run's, with tools over it.
    Files only, no database. An empty one is made by the first tool call that needs it (most tries call none: a
    judge re-scored on a thousand rounds makes no thousand folders)."""
    base = run_files.workspace_dir(run.id).parent
    if files.number is None:
        folder = base / f"{run.id}.try-{uuid.uuid4().hex[:12]}"
    else:
        base.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f"{run.id}.try-", dir=base))
    root = folder / "workspace"
    if files.number is not None:
        failed: list[str] = []
        run_files.put_files_back(root, files.files, partial=files.partial, failed=failed)
        notes.append(f"tools ran in a copy of the run's workspace as snapshot {files.number} left it; the run's files are "
                     "untouched" + (f" ({len(failed)} files could not be copied)" if failed else ""))
    else:
        notes.append("tools ran in an empty workspace: the run recorded no files before this step")
    tools = RunTools(root, settings=run_files.tool_settings(),
                     permissions=tool_permissions.parse(run.permissions or None, known=None))
    return folder, tools


def workspace_copy(run: Run, seq: int, offered: list[str], notes: list[str]) -> tuple[Path | None, RunTools | None]:
    """A copy of the run's workspace as its last snapshot at or before ``seq`` left it, with tools over it; (None,
    None) when the execution was offered no workspace tool."""
    if not wants_workspace(offered):
        return None, None
    return workspace_from(run, snapshot_files(run, run_files.snapshot_at(run.id, seq)), notes)


def apply(user: User, run_id: str, step: Any, edits: dict[str, Any]) -> dict[str, Any]:
    """Write changed instructions, model or temperature of the execution's step and agent to the workflow's latest
    version, as a new version (what the playground tried, kept)."""
    run = reachable(user, run_id)
    workflow = workflows.reachable(user, run.workflow_id, Need.EDIT)
    original = inputs(user, run_id, step)
    changes = {k: v for k, v in checked_edits(edits).items() if k in ("instructions", "model", "temperature")}
    if not changes:
        raise BadRequest("instructions, model or temperature: give at least one to write to the workflow")
    current = workflow.latest()
    document = copy.deepcopy(current.document)
    found, judge = place(document, original["step"])
    if found is None:
        raise BadRequest(f"step: `{original['step']}` is not in the workflow's document (a step of an included workflow)")
    name = original["agent"]
    agents = document.setdefault("agents", {})
    if "instructions" in changes:
        found["instructions"] = changes["instructions"]  # a judge's task is its loop step's instructions
    for key in ("model", "temperature"):
        if key not in changes:
            continue
        if name in agents and isinstance(agents[name], dict):
            agents[name][key] = changes[key]
        elif key == "model" and not judge:
            found["model"] = changes[key]
        else:
            raise BadRequest(f"{key}: agent `{name}` is not defined in the workflow; define it to set its {key}")
    source = documents.render(document, "yaml", current.source or None)
    # The version says which one it changed: the editor opens it with one undo step back to that one.
    saved = workflows.save_version(user, workflow.pk, source=source, document=None, applied_from=current.number)
    return {"workflow_id": saved.pk, "version": saved.current_version, "applied": sorted(changes)}

