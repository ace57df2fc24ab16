"""Document endpoints: validate and render. Views stay thin over designer.services."""
from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal, Optional

from django.http import Http404, HttpRequest, HttpResponse
from ninja import File, Form, Query, Router, Status
from ninja.files import UploadedFile

from accounts import mcp_servers
from accounts.tokens import API_AUTH, signed_in
from accounts.workspaces import role_of
from common.dates import moment
from common.schemas import errors, file_answer
from common.types import ApiRequest
from designer import breakpoints, bundles, services, tool_specs, workflows
from designer.errors import BadRequest
from designer.schemas import (
    BreakpointsCheckIn,
    BreakpointsIn,
    BreakpointsOut,
    DocumentIn,
    MoveIn,
    RenderIn,
    RenderOut,
    ToolOut,
    ValidationOut,
    VersionSummary,
    WorkflowIn,
    WorkflowOut,
    WorkflowSummary,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from designer.models import WorkflowVersion

router = Router(tags=["documents"])


@router.post("/validate", response={200: ValidationOut, **errors(404, 422, 429)}, auth=None, summary="Validate a workflow document")
def validate(request: HttpRequest, payload: DocumentIn) -> dict:
    """Every error and warning with its code, class, JSON pointer and source line; the canonical YAML when valid.
    With `workflow_id` (signed in, by session or token), references are also checked in that workflow's folder."""
    answer = services.validate(payload.source, payload.document)
    user = signed_in(request)
    if user is not None and any(w.get("code") == "unknown_tool" for w in answer["warnings"]):
        answer = _without_mcp_tools(answer, user)
    if payload.workflow_id is None or not isinstance(answer.get("document"), dict):
        return answer
    if user is None:
        raise Http404(f"workflow {payload.workflow_id} not found")
    return bundles.with_folder_problems(answer, workflows.version(user, payload.workflow_id), answer["document"])


def _checked_for(user: User | AnonymousUser | None, answer: dict, document: Any) -> dict:
    """A stored version's check as its reader sees it: their MCP tools are known tools."""
    if user is None or not user.is_authenticated:
        return answer
    if not any(w.get("code") == "unknown_tool" for w in answer["warnings"]):
        return answer
    return _without_mcp_tools({**answer, "document": document}, user)


def _without_mcp_tools(answer: dict, user: User) -> dict:
    """The validator knows the built-in tools only; signed in, a name one of your MCP servers provides is not
    unknown (and no longer keeps the workflow from running)."""
    names = tool_specs.known_names(mcp_servers.tool_catalogue(user))
    document = answer.get("document")
    warnings = [w for w in answer["warnings"] if not tool_specs.provided_after_all(SimpleNamespace(**w), document, names)]
    blocked = any(d.get("blocks_run") for d in answer["errors"] + warnings)
    return {**answer, "warnings": warnings, "runnable": answer["valid"] and not blocked}


@router.get("/tools", response=list[ToolOut], exclude_unset=True, auth=None, summary="The tools agents can be given (upstream's names first)")
def list_tools(request: HttpRequest) -> list[dict]:
    """Signed in (a session or a token), the MCP tools of the administrator's servers (as last listed) and of yours
    (their last check) too; not signed in, the built-in tools only (listing a server may start it)."""
    return tool_specs.catalogue(mcp_servers.tool_catalogue(signed_in(request) or request.user))


@router.post("/render", response={200: RenderOut, **errors(422, 429)}, auth=None, summary="Render a document as canonical YAML or JSON")
def render(request: HttpRequest, payload: RenderIn) -> dict[str, str]:
    """Any mapping, valid or not; with `source`, comments of unchanged nodes are kept."""
    return {"text": services.render(payload.document, payload.format, payload.source)}


# ---------------------------------------------------------------- saved workflows

MAX_UPLOAD_BYTES = 1024 * 1024


def workflow_out(version: WorkflowVersion, user: User) -> dict:
    workflow = version.workflow
    return {
        "id": workflow.id, "name": workflow.name, "workspace_id": workflow.workspace_id,
        "workspace_name": workflow.workspace.name, "role": role_of(user, workflow.workspace_id) or "",
        "version": version.number, "document": version.document,
        "source": version.source, "layout": version.layout or {}, "applied_from": version.applied_from,
        **_checked_for(user, bundles.with_folder_problems(services.stored(version.source, version.document), version),
                       version.document),
        "created_at": workflow.created_at, "updated_at": version.created_at,
    }


@router.get("/workflows", response={200: list[WorkflowSummary], **errors(400, 401, 404, 422)}, auth=API_AUTH, tags=["workflows"])
def list_workflows(request: ApiRequest, response: HttpResponse, workspace: Optional[int] = Query(None, ge=1, le=2**63 - 1),
                   q: Optional[str] = Query(None, max_length=200), valid: Optional[bool] = None,
                   updated_after: Optional[str] = Query(None, max_length=64), updated_before: Optional[str] = Query(None, max_length=64),
                   limit: int = Query(workflows.PAGE_SIZE, ge=1, le=workflows.MAX_PAGE_SIZE), offset: int = Query(0, ge=0, le=2**31)) -> list[dict[str, Any]]:
    """The workflows of one workspace (`workspace`), or of every workspace you are in, newest first: a page of
    `limit` from `offset`, searched by name (`q`), validity and update time. `X-Total-Count` says how many match."""
    filters = workflows.WorkflowFilters(
        q=q or "", valid=valid, updated_after=moment("updated_after", updated_after),
        updated_before=moment("updated_before", updated_before, day_end=True))
    rows, total = workflows.page(workflows.search(request.auth, workspace, filters), limit, offset)
    # The body stays a plain list (what every caller reads); the count rides in a header.
    response["X-Total-Count"] = str(total)
    return [{"id": w.id, "name": w.name, "version": w.current_version, "valid": w.current_valid, "updated_at": w.updated_at,
             "workspace_id": w.workspace_id, "workspace_name": w.workspace.name} for w in rows]


@router.post("/workflows", response={201: WorkflowOut, **errors(400, 401, 403, 404, 422)}, auth=API_AUTH, tags=["workflows"])
def create_workflow(request: ApiRequest, payload: WorkflowIn) -> Status[dict]:
    workflow = workflows.create(request.auth, source=payload.source, document=payload.document, name=payload.name,
                                layout=payload.layout, workspace_id=payload.workspace_id)
    return Status(201, workflow_out(workflow.latest(), request.auth))


@router.post("/workflows/import", response={201: WorkflowOut, **errors(400, 401, 403, 404, 413, 422)}, auth=API_AUTH, tags=["workflows"])
def import_workflow(request: ApiRequest, file: UploadedFile = File(...), into: Optional[int] = Form(None, ge=1, le=2**63 - 1),
                    workspace: Optional[int] = Form(None, ge=1, le=2**63 - 1)) -> Status[dict]:
    """A YAML or JSON file as a new workflow, or with `into` as the next version of that workflow (one of yours)."""
    if file.size is not None and file.size > MAX_UPLOAD_BYTES:
        raise BadRequest(f"{file.name} is {file.size:,} bytes; a workflow file is at most 1 MiB", status=413)
    data = file.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise BadRequest(f"{file.name} is larger than 1 MiB, the limit for a workflow file", status=413)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadRequest(f"{file.name} is not UTF-8 text") from None
    if into is not None:
        workflow = workflows.save_version(request.auth, into, source=text, document=None)
    else:
        workflow = workflows.create(request.auth, source=text, document=None, workspace_id=workspace)
    return Status(201, workflow_out(workflow.latest(), request.auth))


@router.get("/workflows/{workflow_id}", response={200: WorkflowOut, **errors(401, 404)}, auth=API_AUTH, tags=["workflows"])
def get_workflow(request: ApiRequest, workflow_id: int) -> dict:
    return workflow_out(workflows.version(request.auth, workflow_id), request.auth)


@router.put("/workflows/{workflow_id}", response={200: WorkflowOut, **errors(400, 401, 403, 404, 422)}, auth=API_AUTH, tags=["workflows"])
def update_workflow(request: ApiRequest, workflow_id: int, payload: WorkflowIn) -> dict:
    workflow = workflows.save_version(request.auth, workflow_id, source=payload.source, document=payload.document, layout=payload.layout, name=payload.name)
    return workflow_out(workflow.latest(), request.auth)


@router.delete("/workflows/{workflow_id}", response={204: None, **errors(401, 403, 404)}, auth=API_AUTH, tags=["workflows"])
def delete_workflow(request: ApiRequest, workflow_id: int) -> Status[None]:
    workflows.delete(request.auth, workflow_id)
    return Status(204, None)


@router.post("/workflows/{workflow_id}/duplicate", response={201: WorkflowOut, **errors(401, 403, 404)}, auth=API_AUTH, tags=["workflows"])
def duplicate_workflow(request: ApiRequest, workflow_id: int) -> Status[dict]:
    return Status(201, workflow_out(workflows.duplicate(request.auth, workflow_id).latest(), request.auth))


@router.post("/workflows/{workflow_id}/move", response={200: WorkflowOut, **errors(400, 401, 403, 404, 422)}, auth=API_AUTH, tags=["workflows"])
def move_workflow(request: ApiRequest, workflow_id: int, payload: MoveIn) -> dict:
    """Hand the workflow to another workspace (editor or above in both); its runs stay where they ran."""
    return workflow_out(workflows.move(request.auth, workflow_id, payload.workspace_id).latest(), request.auth)


@router.get("/workflows/{workflow_id}/breakpoints", response={200: BreakpointsOut, **errors(401, 404)}, auth=API_AUTH, tags=["workflows"])
def get_breakpoints(request: ApiRequest, workflow_id: int) -> dict:
    """Where the workflow's runs hold for someone to look; kept beside the workflow, never in its document."""
    return {"breakpoints": breakpoints.of_workflow(request.auth, workflow_id)}


@router.put("/workflows/{workflow_id}/breakpoints", response={200: BreakpointsOut, **errors(400, 401, 403, 404, 422)}, auth=API_AUTH, tags=["workflows"])
def put_breakpoints(request: ApiRequest, workflow_id: int, payload: BreakpointsIn) -> dict:
    """Replace the workflow's breakpoints (an editor or above); each refusal names its field (`breakpoints[0].round`)."""
    return {"breakpoints": breakpoints.set_for_workflow(request.auth, workflow_id, payload.breakpoints)}


@router.post("/workflows/{workflow_id}/breakpoints/check", response={200: BreakpointsOut, **errors(400, 401, 404, 422)}, auth=API_AUTH,
             tags=["workflows"])
def check_breakpoints(request: ApiRequest, workflow_id: int, payload: BreakpointsCheckIn) -> dict:
    """Breakpoints for one run (the run dialog's), checked as `POST /runs` will, against `document` when given; nothing is
    stored. Each refusal names its field (`breakpoints[0].round`)."""
    return {"breakpoints": breakpoints.check_for_run(request.auth, workflow_id, payload.breakpoints, payload.document)}


@router.get("/workflows/{workflow_id}/versions", response={200: list[VersionSummary], **errors(401, 404)}, auth=API_AUTH, tags=["workflows"])
def list_versions(request: ApiRequest, workflow_id: int) -> list[dict[str, Any]]:
    workflow = workflows.reachable(request.auth, workflow_id)
    return [{"version": v.number, "valid": v.valid, "created_at": v.created_at} for v in workflow.versions.all()]


@router.get("/workflows/{workflow_id}/versions/{number}", response={200: WorkflowOut, **errors(401, 404)}, auth=API_AUTH, tags=["workflows"])
def get_version(request: ApiRequest, workflow_id: int, number: int) -> dict:
    return workflow_out(workflows.version(request.auth, workflow_id, number), request.auth)


@router.post("/workflows/{workflow_id}/versions/{number}/restore", response={201: WorkflowOut, **errors(401, 403, 404)}, auth=API_AUTH, tags=["workflows"])
def restore_version(request: ApiRequest, workflow_id: int, number: int) -> Status[dict]:
    """Version `number`'s document and layout saved again as the new latest version; earlier versions stay."""
    return Status(201, workflow_out(workflows.restore(request.auth, workflow_id, number).latest(), request.auth))


@router.get("/workflows/{workflow_id}/export", response={**errors(401, 404, 422)}, auth=API_AUTH, tags=["workflows"],
            openapi_extra=file_answer("application/yaml", "The workflow as a YAML (or, with format=json, a JSON) file"))
def export_workflow(request: ApiRequest, workflow_id: int, format: Literal["yaml", "json"] = "yaml") -> HttpResponse:
    filename, text = workflows.export(request.auth, workflow_id, format)
    content_type = "application/json" if format == "json" else "application/yaml"
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
