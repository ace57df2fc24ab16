"""What the document and workflow endpoints take and answer (designer/api.py, designer/folder_api.py), as ninja
Schemas: the OpenAPI document says it, and the front end's types are generated from it
(``frontend/src/api/openapi.gen.ts``). Not to be confused with designer/schema.py, the workflow format's schema.

The answers are what the services write, field for field and in their order. A document, a layout and a
diagnostic pass through as they are; routes whose answers leave some fields out use ``exclude_unset``.
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, NotRequired, Optional

from ninja import Field, Schema
from typing_extensions import TypedDict

from common.schemas import PassedThrough

# ---------------------------------------------------------------- checking and rendering a document


# One problem in a document (designer.diagnostics.Diagnostic.as_dict): `code` the precise tag (missing_dep ...),
# `class` the upstream class a conformance case may name instead, `path` a JSON pointer into the document, `line` and
# `column` 1-based when it came from text; `hint` only when there is one, `blocks_run` (true) only for a problem the
# format accepts but no runner can run.
DiagnosticOut = TypedDict("DiagnosticOut", {
    "code": str, "class": str, "severity": Literal["error", "warning"], "path": str, "message": str,
    "line": Optional[int], "column": Optional[int], "hint": NotRequired[str], "blocks_run": NotRequired[bool],
})
# Written as the validator made it.
Diagnostic = Annotated[dict[str, Any], PassedThrough(DiagnosticOut)]


class DocumentIn(Schema):
    source: Optional[str] = None
    document: Optional[Any] = None
    # A saved workflow whose folder the document's includes, `@` files and context files resolve in.
    workflow_id: Optional[int] = Field(None, ge=1, le=2**63 - 1)


class ValidationOut(Schema):
    valid: bool
    runnable: bool
    errors: list[Diagnostic]
    warnings: list[Diagnostic]
    document: Optional[dict] = None
    yaml: Optional[str] = None
    canonical: Optional[str] = None
    iteration_outputs: dict[str, list[str]] = {}  # noqa: RUF012 - a field's default (pydantic copies it), not a ClassVar


class RenderIn(Schema):
    document: Any
    format: Literal["yaml", "json"] = "yaml"
    source: Optional[str] = None


class RenderOut(Schema):
    text: str


class ToolOut(Schema):
    """A tool agents can be given: upstream's names first, then this server's own, then MCP servers' tools."""

    name: str
    description: str
    upstream: bool                 # other runners of the format have it too
    automatic: bool = False        # given by the run (send_message always, shared memory when on): never listed for it
    note: str = ""                 # this server's own tool: why a workflow naming it runs only here
    mcp_server: str = ""           # an MCP server's tool: the server's name
    mcp_name: str = ""             # and its name there (`name` has the server's prefix when two names clash)


# ---------------------------------------------------------------- saved workflows


class WorkflowIn(Schema):
    source: Optional[str] = None
    document: Optional[Any] = None
    name: Optional[str] = None
    layout: Optional[Any] = None
    # On create: the workspace to make it in (editor or above); absent: your personal workspace.
    workspace_id: Optional[int] = Field(None, ge=1, le=2**63 - 1)


class MoveIn(Schema):
    workspace_id: int = Field(..., ge=1, le=2**63 - 1)


class WorkflowSummary(Schema):
    id: int
    name: str
    version: int
    valid: bool
    updated_at: datetime
    workspace_id: int
    workspace_name: str


class WorkflowOut(Schema):
    id: int
    name: str
    workspace_id: int
    workspace_name: str
    role: str  # yours in its workspace: what the editor lets you do
    version: int
    document: dict
    source: str
    layout: dict
    valid: bool
    runnable: bool
    errors: list[Diagnostic]
    warnings: list[Diagnostic]
    iteration_outputs: dict[str, list[str]] = {}  # noqa: RUF012 - a field's default (pydantic copies it), not a ClassVar
    applied_from: Optional[int] = None  # the version the playground's Apply changed to make this one (null: saved otherwise)
    created_at: datetime
    updated_at: datetime


class VersionSummary(Schema):
    version: int
    valid: bool
    created_at: datetime


# ---------------------------------------------------------------- a workflow's folder


class FileIn(Schema):
    path: str = Field(..., max_length=1000)
    text: Optional[str] = None          # the file's new text; absent with `delete` or `rename_to`
    base64: Optional[str] = None        # or its bytes (an image, a PDF), base64-encoded
    delete: bool = False
    rename_to: Optional[str] = Field(None, max_length=1000)


class BundleWorkflowOut(Schema):
    id: int
    name: str
    version: int
    valid: bool
    main_path: str
    files: int


class BundleImportOut(Schema):
    workflows: list[BundleWorkflowOut]
    skipped: dict[str, str]     # a top-level file that is not a workflow -> why


class FolderFileOut(Schema):
    """A file of a version's folder, the main document first."""

    path: str
    size: int
    main: bool


class FolderFileContentOut(Schema):
    path: str
    size: int
    text: Optional[str]     # cut at 512 KiB; null for a binary file
    truncated: bool


class FolderFileChangeOut(Schema):
    """A folder file that differs between two versions (designer.folder_changes): both texts, cut at 256 KiB;
    null on the side where the file is absent or binary."""

    path: str
    change: Literal["added", "removed", "changed"]
    binary: bool
    size_before: Optional[int]
    size_after: Optional[int]
    before: Optional[str]
    after: Optional[str]
    truncated: bool


class FileWrittenOut(Schema):
    """The new version a file's write, delete or rename made."""

    version: int
    valid: bool
    files: list[FolderFileOut]


class IncludeTargetOut(Schema):
    """What an include step runs: a file of the folder, a saved workflow (and its version), or nothing yet."""

    path: str                   # the include step's JSON pointer
    step: Any                   # its id
    ref: str                    # what its `include` names
    kind: Literal["file", "saved", "missing"]
    file: str = ""              # kind "file": the folder's file
    workflow_id: int = 0        # kind "saved": the saved workflow, its latest version and whether it is valid
    name: str = ""
    version: int = 0
    valid: bool = False
    message: str = ""           # kind "missing": why


class BreakpointsIn(Schema):
    """A workflow's breakpoints, all of them (designer.breakpoints: each {id?, kind, step?, round?, item?, done?,
    condition?, tool?, note?})."""

    breakpoints: list[Any]


class BreakpointsCheckIn(Schema):
    """Breakpoints for one run, to check before it starts; ``document``: check against these steps (a draft)."""

    breakpoints: list[Any]
    document: Optional[dict[str, Any]] = None


class BreakpointsOut(Schema):
    breakpoints: list[dict[str, Any]]
