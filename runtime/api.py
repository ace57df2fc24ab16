"""Run endpoints. Views stay thin over runtime.runs.create."""
from __future__ import annotations

from typing import Any, Literal, Optional

from django.http import HttpResponse
from ninja import File, Query, Router, Status
from ninja.files import UploadedFile

from accounts.tokens import API_AUTH
from accounts.workspaces import Need, chosen
from common.schemas import errors, file_answer
from common.types import ApiRequest, RunId
from runtime.durability import run_files
from runtime.live import run_traces
from runtime.live.serializers import run_dict
from runtime.providers import keys, models
from runtime.runs import access, compare, control, create, debugging, forks, limits, pins, playground, query, shared_memory, tool_decisions
from runtime.schemas import (
    CompareOut,
    CountOut,
    DebugIn,
    DebugOut,
    DenyIn,
    ForkIn,
    IterationOut,
    MetricsOut,
    ModelOut,
    PinIn,
    PinOut,
    PlaygroundApplyIn,
    PlaygroundApplyOut,
    PlaygroundIn,
    PlaygroundInputsOut,
    PlaygroundTryOut,
    ProviderOut,
    RunEvent,
    RunIn,
    RunOut,
    RunStartedOut,
    RunWorkspaceOut,
    ScriptCheckIn,
    ScriptCheckOut,
    SharedMemoryEntryOut,
    SnapshotDiffOut,
    SnapshotFileContentOut,
    SnapshotFilesOut,
    ToolDecisionOut,
    TraceTestOut,
    UploadOut,
    UsageOut,
)

router = Router(tags=["runs"], auth=API_AUTH)


def _started(request: ApiRequest, run_id: RunId) -> dict:
    run = access.reachable(request.auth, run_id)
    return {**run_dict(run), "script_warnings": create.script_warnings(run)}


@router.post("/runs", response={201: RunStartedOut, **errors(400, 401, 404, 422, 429)})
def create_run(request: ApiRequest, payload: RunIn) -> Status[dict]:
    """Start a run; `script_warnings` names script keys that match nothing in the workflow (their replies go unused)."""
    run = create.create_run(request.auth, workflow_id=payload.workflow_id, version=payload.version, provider=payload.provider,
                          model=payload.model, script=payload.script, budgets=payload.budgets, policies=payload.policies,
                          ask_before=payload.ask_before, workspace_upload=payload.workspace_upload,
                          workspace_from_run=payload.workspace_from_run,
                          coordinator=create.API_DEFAULT_MODE if payload.coordinator is None else payload.coordinator,
                          shared_memory=payload.shared_memory, model_override=payload.model_override,
                          permissions=payload.permissions, thinking=payload.thinking, breakpoints=payload.breakpoints,
                          breakpoints_off=payload.breakpoints_off, use_pins=payload.use_pins)
    return Status(201, _started(request, run.id))


@router.post("/runs/script-check", response={200: ScriptCheckOut, **errors(400, 401, 422)})
def check_script(request: ApiRequest, payload: ScriptCheckIn) -> dict:
    """A simulated script checked against a workflow before it runs: its faults as a 400, keys that name nothing as warnings."""
    return create.check_script_against(payload.script, payload.document)


@router.get("/providers", response={200: list[ProviderOut], **errors(401, 404, 422)})
def list_providers(request: ApiRequest, workspace: Optional[int] = Query(None, ge=1, le=2**63 - 1)) -> list[dict]:
    """Each provider and whether a run in the workspace (default: your personal one) can use it now:
    its key comes from the workspace, the server (where its owner granted it), or nowhere."""
    return keys.availability(chosen(request.auth, workspace))


@router.get("/models", response={200: list[ModelOut], **errors(401, 404, 422)})
def list_models(request: ApiRequest, workspace: Optional[int] = Query(None, ge=1, le=2**63 - 1)) -> list[dict]:
    """The models of the providers a run in the workspace (default: your personal one) can use now, with their
    prices per million tokens (genai-prices): the editor's model picker."""
    return models.offered(chosen(request.auth, workspace))


@router.get("/workspaces/{workspace_id}/usage", response={200: UsageOut, **errors(401, 404)})
def workspace_usage(request: ApiRequest, workspace_id: int) -> dict:
    """The workspace's run limits, what is used and what is left today (the run dialog shows it)."""
    return limits.remaining(chosen(request.auth, workspace_id, Need.READ))


@router.post("/workspaces/{workspace_id}/tracing/test", response={200: TraceTestOut, **errors(400, 401, 403, 404)})
def send_test_span(request: ApiRequest, workspace_id: int) -> dict[str, Any]:
    """Owners and admins: one span sent now to the workspace's own collector, with its headers (the settings'
    "Send a test span"): whether it took it, and why not in words."""
    return run_traces.send_test_span(request.auth, workspace_id)


@router.get("/runs", response={200: list[RunOut], **errors(400, 401, 404, 422)})
def list_runs(request: ApiRequest, response: HttpResponse, status: Optional[str] = Query(None, max_length=200),
              workflow: Optional[int] = Query(None, ge=1, le=2**63 - 1), workspace: Optional[int] = Query(None, ge=1, le=2**63 - 1),
              provider: Optional[str] = Query(None, max_length=200), q: Optional[str] = Query(None, max_length=200),
              created_after: Optional[str] = Query(None, max_length=64), created_before: Optional[str] = Query(None, max_length=64),
              limit: int = Query(query.RUN_PAGE_SIZE, ge=1, le=query.MAX_RUN_PAGE_SIZE), before: Optional[str] = Query(None, max_length=200)) -> list[dict]:
    """The runs you may read, newest first, `limit` at a time: the next page is `before=<X-Next-Cursor>`.
    `status` and `provider` take several names (comma-separated); `q` searches the workflow's name."""
    filters = query.run_filters(status=status, workflow_id=workflow, provider=provider, q=q,
                               created_after=created_after, created_before=created_before)
    found = query.list_runs(request.auth, workspace, filters, limit=limit, before=before)
    # The body stays a plain list (what every caller reads); the count and the next page ride in headers.
    response["X-Total-Count"] = str(found.total)
    if found.next_cursor:
        response["X-Next-Cursor"] = found.next_cursor
    return [run_dict(r) for r in found.runs]


@router.get("/runs/active/count", response={200: CountOut, **errors(401)})
def active_count(request: ApiRequest) -> dict[str, int]:
    return {"count": control.active_count(request.auth)}


@router.post("/runs/all/{action}", response={200: CountOut, **errors(401, 422)})
def control_all(request: ApiRequest, action: Literal["pause", "resume", "stop"]) -> dict[str, int]:
    return {"count": control.control_all(request.auth, action)}


@router.get("/runs/{run_id}", response={200: RunOut, **errors(401, 404)})
def get_run(request: ApiRequest, run_id: str) -> dict:
    return run_dict(access.reachable(request.auth, run_id))


@router.get("/runs/{run_id}/compare/{other_id}", response={200: CompareOut, **errors(400, 401, 404)})
def compare_runs(request: ApiRequest, run_id: str, other_id: str) -> dict[str, Any]:
    """This run and another of the same workflow, step by step and iteration by iteration."""
    return compare.compare_runs(access.reachable(request.auth, run_id), access.reachable(request.auth, other_id))


@router.get("/runs/{run_id}/events", response={200: list[RunEvent], **errors(401, 404, 422)})
def run_events(request: ApiRequest, run_id: str, after: int = 0, limit: int = Query(query.MAX_EVENTS_PAGE, ge=1, le=query.MAX_EVENTS_PAGE),
               type: Optional[str] = None, step: Optional[str] = None, before: Optional[int] = None) -> list[dict]:
    """A page of events (``after``/``before`` a seq, ``limit``), optionally of some types (comma-separated) or one step."""
    types = [t for t in (type or "").split(",") if t] or None
    return query.events_after(access.reachable(request.auth, run_id), after, limit, types, step, before)


@router.get("/runs/{run_id}/iterations", response={200: list[IterationOut], **errors(401, 404, 422)})
def run_iterations(request: ApiRequest, run_id: str, step: Optional[str] = None, index: Optional[int] = None,
                   iteration: Optional[int] = None, limit: Optional[int] = Query(None, ge=1, le=10_000), offset: int = Query(0, ge=0)) -> list[dict]:
    return query.iterations(access.reachable(request.auth, run_id), step, index, iteration, limit, offset)


@router.get("/runs/{run_id}/history", response={200: list[IterationOut], **errors(401, 404)})
def run_history(request: ApiRequest, run_id: str) -> list[dict]:
    return query.history(access.reachable(request.auth, run_id))


@router.get("/runs/{run_id}/metrics", response={200: MetricsOut, **errors(401, 404)}, exclude_unset=True)
def run_metrics(request: ApiRequest, run_id: str) -> dict:
    return query.metrics(access.reachable(request.auth, run_id))


@router.get("/runs/{run_id}/shared-memory", response={200: list[SharedMemoryEntryOut], **errors(401, 404)})
def run_shared_memory(request: ApiRequest, run_id: str) -> list[shared_memory.SharedMemoryEntry]:
    """Every key the run's step agents wrote to shared memory, by namespace, with the step that wrote it last."""
    return shared_memory.entries(access.reachable(request.auth, run_id))


@router.delete("/runs/{run_id}", response={204: None, **errors(401, 404, 409)})
def delete_run(request: ApiRequest, run_id: str) -> Status[None]:
    create.delete_run(request.auth, run_id)
    return Status(204, None)


@router.post("/uploads", response={201: UploadOut, **errors(400, 401, 413, 422)})
def upload_files(request: ApiRequest, file: UploadedFile = File(...)) -> Status[dict]:
    """A zip of files for a run to start from (its id goes in ``workspace_upload``); checked now."""
    return Status(201, run_files.create_upload(request.auth, file.name or "", file.read()))


@router.get("/runs/{run_id}/workspace", response={200: RunWorkspaceOut, **errors(401, 404)})
def run_workspace(request: ApiRequest, run_id: str) -> dict:
    return run_files.info(access.reachable(request.auth, run_id))


@router.get("/runs/{run_id}/workspace/snapshots/{number}/files", response={200: SnapshotFilesOut, **errors(401, 404, 422)})
def snapshot_files(request: ApiRequest, run_id: str, number: int) -> dict:
    return run_files.files(access.reachable(request.auth, run_id), number)


@router.get("/runs/{run_id}/workspace/snapshots/{number}/file", response={200: SnapshotFileContentOut, **errors(401, 404, 422)})
def snapshot_file(request: ApiRequest, run_id: str, number: int, path: str) -> dict:
    return run_files.file(access.reachable(request.auth, run_id), number, path)


@router.get("/runs/{run_id}/workspace/snapshots/{number}/diff", response={200: SnapshotDiffOut, **errors(401, 404, 422)})
def snapshot_diff(request: ApiRequest, run_id: str, number: int) -> dict:
    return run_files.diff(access.reachable(request.auth, run_id), number)


@router.get("/runs/{run_id}/workspace.zip", response={**errors(401, 404, 422)},
            openapi_extra=file_answer("application/zip", "The run's workspace files (a snapshot's) as a zip"))
def workspace_zip(request: ApiRequest, run_id: str, snapshot: Optional[int] = None) -> HttpResponse:
    name, data = run_files.zip_of(access.reachable(request.auth, run_id), snapshot)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@router.post("/runs/{run_id}/fork", response={201: RunStartedOut, **errors(400, 401, 404, 409, 422, 429)})
def fork_run(request: ApiRequest, run_id: str, payload: ForkIn) -> Status[dict]:
    """Re-run from here: a new run starting at a step or loop iteration of this finished run, with edits."""
    run = forks.fork(request.auth, run_id, at=payload.at, document=payload.document, patch=payload.patch,
                     input=payload.input, provider=payload.provider, model=payload.model, script=payload.script)
    return Status(201, _started(request, run.id))


@router.post("/runs/{run_id}/pins", response={201: list[PinOut], **errors(400, 401, 403, 404, 409, 422)})
def pin_outputs(request: ApiRequest, run_id: str, payload: PinIn) -> Status[list[dict]]:
    """Pin what a step execution (or every execution of a round or loop) gave in this finished run: runs of the
    workflow take it instead of asking the model, until the pin is cleared or a run turns pins off."""
    fields = payload.dict(exclude_unset=True)
    made = pins.pin_from_run(request.auth, run_id, payload.step, payload.content, payload.result, has_result="result" in fields)
    return Status(201, [pins.pin_dict(p) for p in made])


@router.get("/workflows/{workflow_id}/pins", response={200: list[PinOut], **errors(401, 404)})
def list_pins(request: ApiRequest, workflow_id: int) -> list[dict]:
    """The workflow's pinned outputs, by step path (never part of its document or export)."""
    return [pins.pin_dict(p) for p in pins.listed(request.auth, workflow_id)]


@router.delete("/workflows/{workflow_id}/pins", response={200: CountOut, **errors(400, 401, 403, 404, 422)})
def clear_pins(request: ApiRequest, workflow_id: int, step: Optional[str] = Query(None, max_length=300)) -> dict[str, int]:
    """Clear the workflow's pins: all of them, or `step` and what lies under it; `count` says how many went."""
    return {"count": pins.clear(request.auth, workflow_id, step)}


@router.get("/runs/{run_id}/playground", response={200: PlaygroundInputsOut, **errors(400, 401, 404, 422)})
def playground_inputs(request: ApiRequest, run_id: str, step: str = Query(..., max_length=300)) -> dict:
    """What a step execution of this run was sent (its assembled prompt, tools, model) and what it gave."""
    return playground.inputs(request.auth, run_id, step)


@router.post("/runs/{run_id}/playground", response={200: PlaygroundTryOut, **errors(400, 401, 403, 404, 409, 422)})
def playground_try(request: ApiRequest, run_id: str, payload: PlaygroundIn) -> dict:
    """Run that one agent turn again with edits (instructions, prompt texts, model, temperature); the run is untouched."""
    edits = payload.dict(include={"instructions", "system", "user", "model", "temperature"}, exclude_none=True)
    return playground.try_step(request.auth, run_id, payload.step, edits, payload.script)


@router.post("/runs/{run_id}/playground/apply", response={200: PlaygroundApplyOut, **errors(400, 401, 403, 404, 422)})
def playground_apply(request: ApiRequest, run_id: str, payload: PlaygroundApplyIn) -> dict:
    """Write changed instructions, model or temperature to the workflow as a new version."""
    edits = payload.dict(include={"instructions", "model", "temperature"}, exclude_none=True)
    return playground.apply(request.auth, run_id, payload.step, edits)


@router.post("/runs/{run_id}/tool-calls/{call_id}/approve", response={200: ToolDecisionOut, **errors(401, 404, 409)})
def approve_tool_call(request: ApiRequest, run_id: str, call_id: str) -> dict:
    return tool_decisions.decide(request.auth, run_id, call_id, approve=True)


@router.post("/runs/{run_id}/tool-calls/{call_id}/deny", response={200: ToolDecisionOut, **errors(401, 404, 409, 422)})
def deny_tool_call(request: ApiRequest, run_id: str, call_id: str, payload: Optional[DenyIn] = None) -> dict:
    return tool_decisions.decide(request.auth, run_id, call_id, approve=False, reason=payload.reason if payload else "")


@router.get("/runs/{run_id}/debug", response={200: DebugOut, **errors(401, 404)})
def run_hold(request: ApiRequest, run_id: str) -> dict:
    """Where the run holds at a breakpoint (null: it does not), with what the next agent turn will receive."""
    return debugging.hold_of(request.auth, run_id)


@router.post("/runs/{run_id}/debug", response={200: DebugOut, **errors(400, 401, 403, 404, 409, 422)})
def run_debug(request: ApiRequest, run_id: str, payload: DebugIn) -> dict:
    """At a breakpoint: edit the pending inputs (this run only), continue, step to the next boundary, or skip."""
    return debugging.command(request.auth, run_id, action=payload.action, field=payload.field, value=payload.value,
                             path=payload.path, output=payload.output, result=payload.result, key=payload.key)


@router.post("/runs/{run_id}/{action}", response={200: RunOut, **errors(400, 401, 404, 409, 422)})
def control_run(request: ApiRequest, run_id: str, action: Literal["pause", "resume", "stop"]) -> dict:
    return run_dict(control.control(request.auth, run_id, action))
