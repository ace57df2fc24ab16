"""What the account, workspace and MCP server endpoints take and answer (accounts/api.py, accounts/workspaces_api.py,
accounts/mcp_api.py), as ninja Schemas: the OpenAPI document says it, and the front end's types are generated from
it (``frontend/src/api/openapi.gen.ts``).

The answers are what the services write, field for field and in their order; routes whose answers leave some
fields out use ``exclude_unset``.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Optional

from ninja import Field, Schema

from accounts import invitations
from common.schemas import Number

RoleName = Literal["owner", "admin", "editor", "runner", "viewer"]

# ---------------------------------------------------------------- who am I


class MeOut(Schema):
    username: str


# ---------------------------------------------------------------- workspaces


class WorkspaceIn(Schema):
    name: str = Field(..., min_length=1, max_length=100)


class RoleIn(Schema):
    role: RoleName


class InvitationIn(Schema):
    role: RoleName = "editor"
    email: str = Field("", max_length=254)
    days: float = Field(invitations.DEFAULT_DAYS, gt=0, le=invitations.MAX_DAYS)


class LimitsIn(Schema):
    max_concurrent_runs: Optional[int] = Field(None, ge=0, le=10_000)
    max_runs_per_day: Optional[int] = Field(None, ge=0, le=10_000_000)
    max_tokens_per_day: Optional[int] = Field(None, ge=0, le=10**15)
    max_cost_usd_per_day: Optional[float] = Field(None, ge=0, le=10**9)


class ServerKeysIn(Schema):
    granted: bool


class KeyIn(Schema):
    provider: Literal["openai", "anthropic", "google", "vertex", "bedrock", "azure", "mistral", "groq", "deepseek",
                      "openrouter", "ollama", "xai", "together", "fireworks", "cerebras"]
    api_key: str = Field(..., min_length=1, max_length=500)
    base_url: str = Field("", max_length=300)


class TracingIn(Schema):
    """A workspace's trace settings: ``headers`` is write-only (null keeps what is stored, '' clears it)."""

    mode: Literal["server", "own", "off"]
    endpoint: str = Field("", max_length=500)
    headers: Optional[str] = Field(None, max_length=4000)   # Name=value,Name2=value2 (OTEL_EXPORTER_OTLP_HEADERS)
    link_template: str = Field("", max_length=500)


class WorkspaceSummaryOut(Schema):
    """One of your workspaces, with your role: the switcher's options."""

    id: int
    name: str
    role: RoleName
    personal: bool


class WorkspaceLimitsOut(Schema):
    """Run limits (null: none)."""

    max_concurrent_runs: Optional[int]
    max_runs_per_day: Optional[int]
    max_tokens_per_day: Optional[int]
    max_cost_usd_per_day: Optional[Number]


class MemberOut(Schema):
    user_id: int
    username: str
    role: RoleName


class WorkspaceOut(Schema):
    """A workspace with your role in it, its limits and its members."""

    id: int
    name: str
    role: RoleName
    personal: bool
    server_keys: bool           # whether runs here may spend the server's own provider keys
    can_grant_server_keys: bool  # whether you may change that: the server's owner only (the page disables it for others)
    limits: WorkspaceLimitsOut
    members: list[MemberOut]


class InvitationOut(Schema):
    """A new invitation: its link is shown this once."""

    id: int
    url: str  # shown once: only its digest is kept
    role: str
    email: str
    expires_at: datetime


class PendingInvitationOut(Schema):
    id: int
    email: str
    role: RoleName
    expires_at: datetime
    created_by: str             # a username ('' when the account is gone)


class WorkspaceKeyOut(Schema):
    """A provider key stored for a workspace (never the key itself)."""

    provider: str
    set: bool
    base_url: str               # shown without anything secret in it
    stored_by: str


class TracingOut(Schema):
    """Where the workspace's runs send their spans and how their pages link them (never the headers' values)."""

    mode: Literal["server", "own", "off"]   # the server's collector, the workspace's own endpoint, or no traces
    endpoint: str                 # the traces URL, as given ('' : none)
    header_names: list[str]       # the headers stored, by name
    link_template: str            # '' : the server's (server_link_template)
    server_collector: bool        # whether the server sends traces itself (OTEL_EXPORTER_OTLP_ENDPOINT is set)
    server_link_template: str


class AuditEntryOut(Schema):
    id: int
    at: datetime
    actor: str
    action: str
    detail: Any


# ---------------------------------------------------------------- MCP servers


class McpServerIn(Schema):
    name: str = Field(..., min_length=1, max_length=40)
    command: str = Field("", max_length=500)
    args: list[str] = Field(default_factory=list, max_length=100)
    env: dict[str, str] = Field(default_factory=dict)
    url: str = Field("", max_length=500)
    headers: dict[str, str] = Field(default_factory=dict)


class McpToolOut(Schema):
    name: Optional[str]
    description: Optional[str]


class McpServerOut(Schema):
    """One of your MCP servers: everything but its secrets' values (it names them)."""

    id: int
    name: str
    kind: Literal["stdio", "http"]
    command: str
    args: list[str]
    url: str
    header_names: list[str] = []    # noqa: RUF012 - a field's default (pydantic copies it), not a ClassVar; an HTTP server's headers
    env_names: list[str] = []       # noqa: RUF012 - a field's default (pydantic copies it), not a ClassVar; a stdio server's environment
    tools: list[McpToolOut]         # as its last check listed them
    checked_at: Optional[str]       # ISO 8601; null: never checked
    check_error: Optional[str]


class AdminMcpServerOut(Schema):
    """A server the administrator provides (settings.MCP_SERVERS): its name and kind only."""

    name: str
    kind: Literal["stdio", "http"]
    admin: Literal[True]


class McpCheckOut(Schema):
    ok: bool
    error: Optional[str]
    server: McpServerOut
