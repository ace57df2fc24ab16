"""Run endpoints. Views stay thin over runtime.runs.create."""
from __future__ import annotations

from typing import Any, Literal, Optional

from django.http import HttpResponse
from ninja import File, Query, Router, Status
from ninja.files import UploadedFile

from accounts.tokens import API_AUTH
from accounts.workspaces import Need, chosen
from common.schemas import errors, file_answer
from common.types import ApiRequest
from runtime.durability import run_files
from runtime.live.serializers import run_dict
from runtime.providers import keys
from runtime.runs import access, compare, control, create, forks, limits, query, tool_decisions
from runtime.schemas import (
    CompareOut,
    CountOut,
    DenyIn,
    ForkIn,
    IterationOut,
    MetricsOut,
    ProviderOut,
    RunEvent,
    RunIn,
    RunOut,
    RunWorkspaceOut,
    SnapshotDiffOut,
    SnapshotFileContentOut,
    SnapshotFilesOut,
    ToolDecisionOut,
    UploadOut,
    UsageOut,
)

router = Router(tags=["runs"], auth=API_AUTH)


@router.post("/runs", response={201: RunOut, **errors(400, 401, 404, 422, 429)})
def create_run(request: ApiRequest, payload: RunIn) -> Status[dict]:
    run = create.create_run(request.auth, workflow_id=payload.workflow_id, version=payload.version, provider=payload.provider,
                          model=payload.model, script=payload.script, budgets=payload.budgets, policies=payload.policies,
                          ask_before=payload.ask_before, workspace_upload=payload.workspace_upload,
                          workspace_from_run=payload.workspace_from_run, coordinator=payload.coordinator,
                          shared_memory=payload.shared_memory)
    return Status(201, run_dict(access.reachable(request.auth, run.id)))


@router.get("/providers", response={200: list[ProviderOut], **errors(401, 404, 422)})
def list_providers(request: ApiRequest, workspace: Optional[int] = Query(None, ge=1, le=2**63 - 1)) -> list[dict]:
    """Each provider and whether a run in the workspace (default: your personal one) can use it now:
    its key comes from the workspace, the server (where its owner granted it), or nowhere."""
    return keys.availability(chosen(request.auth, workspace))


@router.get("/workspaces/{workspace_id}/usage", response={200: UsageOut, **errors(401, 404)})
def workspace_usage(request: ApiRequest, workspace_id: int) -> dict:
    """The workspace's run limits, what is used and what is left today (the run dialog shows it)."""
    return limits.remaining(chosen(request.auth, workspace_id, Need.READ))


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


@router.post("/runs/{run_id}/fork", response={201: RunOut, **errors(400, 401, 404, 409, 422, 429)})
def fork_run(request: ApiRequest, run_id: str, payload: ForkIn) -> Status[dict]:
    """Re-run from here: a new run starting at a step or loop iteration of this finished run, with edits."""
    run = forks.fork(request.auth, run_id, at=payload.at, document=payload.document, patch=payload.patch,
                     input=payload.input, provider=payload.provider, model=payload.model, script=payload.script)
    return Status(201, run_dict(access.reachable(request.auth, run.id)))


@router.post("/runs/{run_id}/tool-calls/{call_id}/approve", response={200: ToolDecisionOut, **errors(401, 404, 409)})
def approve_tool_call(request: ApiRequest, run_id: str, call_id: str) -> dict:
    return tool_decisions.decide(request.auth, run_id, call_id, approve=True)


@router.post("/runs/{run_id}/tool-calls/{call_id}/deny", response={200: ToolDecisionOut, **errors(401, 404, 409, 422)})
def deny_tool_call(request: ApiRequest, run_id: str, call_id: str, payload: Optional[DenyIn] = None) -> dict:
    return tool_decisions.decide(request.auth, run_id, call_id, approve=False, reason=payload.reason if payload else "")


@router.post("/runs/{run_id}/{action}", response={200: RunOut, **errors(400, 401, 404, 409, 422)})
def control_run(request: ApiRequest, run_id: str, action: Literal["pause", "resume", "stop"]) -> dict:
    return run_dict(control.control(request.auth, run_id, action))
