"""A user's own MCP tool servers: list, add, delete, check (connect and list the tools).

Secrets (an HTTP server's headers, a stdio server's environment) go in once and never come back: answers name
them only. Thin over :mod:`accounts.mcp_servers`.
"""
from __future__ import annotations

from ninja import Field, Router, Schema, Status

from accounts import mcp_servers
from accounts.tokens import API_AUTH

router = Router(tags=["mcp servers"], auth=API_AUTH)


class McpServerIn(Schema):
    name: str = Field(..., min_length=1, max_length=40)
    command: str = Field("", max_length=500)
    args: list[str] = Field(default_factory=list, max_length=100)
    env: dict[str, str] = Field(default_factory=dict)
    url: str = Field("", max_length=500)
    headers: dict[str, str] = Field(default_factory=dict)


@router.get("/account/mcp-servers", response=list[dict], summary="Your MCP servers (and the administrator's)")
def list_servers(request):
    return mcp_servers.list_for(request.auth)


@router.post("/account/mcp-servers", response={201: dict}, summary="Add an MCP server (a stdio command or a URL)")
def create_server(request, payload: McpServerIn):
    server = mcp_servers.create(request.auth, name=payload.name, command=payload.command, args=payload.args,
                                env=payload.env, url=payload.url, headers=payload.headers)
    return Status(201, mcp_servers.describe(server))


@router.delete("/account/mcp-servers/{server_id}", response={204: None})
def delete_server(request, server_id: int):
    mcp_servers.delete(request.auth, server_id)
    return Status(204, None)


@router.post("/account/mcp-servers/{server_id}/check", response=dict,
             summary="Connect to the server and list its tools (kept for the editor's tool picker)")
def check_server(request, server_id: int):
    return mcp_servers.check(request.auth, server_id)
