"""A user's own MCP tool servers: list, add, delete, check (connect and list the tools).

Secrets (an HTTP server's headers, a stdio server's environment) go in once and never come back: answers name
them only. Thin over :mod:`accounts.mcp_servers`.
"""
from __future__ import annotations

from typing import Union

from ninja import Router, Status

from accounts import mcp_servers
from accounts.schemas import AdminMcpServerOut, McpCheckOut, McpServerIn, McpServerOut
from accounts.tokens import API_AUTH
from common.schemas import errors
from common.types import ApiRequest

router = Router(tags=["mcp servers"], auth=API_AUTH)


@router.get("/account/mcp-servers", response={200: list[Union[McpServerOut, AdminMcpServerOut]], **errors(401)}, exclude_unset=True,
            summary="Your MCP servers (and the administrator's)")
def list_servers(request: ApiRequest) -> list[dict]:
    return mcp_servers.list_for(request.auth)


@router.post("/account/mcp-servers", response={201: McpServerOut, **errors(400, 401, 409, 422)}, exclude_unset=True,
             summary="Add an MCP server (a stdio command or a URL)")
def create_server(request: ApiRequest, payload: McpServerIn) -> Status[dict]:
    server = mcp_servers.create(request.auth, name=payload.name, command=payload.command, args=payload.args,
                                env=payload.env, url=payload.url, headers=payload.headers)
    return Status(201, mcp_servers.describe(server))


@router.delete("/account/mcp-servers/{server_id}", response={204: None, **errors(401, 404)})
def delete_server(request: ApiRequest, server_id: int) -> Status[None]:
    mcp_servers.delete(request.auth, server_id)
    return Status(204, None)


@router.post("/account/mcp-servers/{server_id}/check", response={200: McpCheckOut, **errors(401, 404)}, exclude_unset=True,
             summary="Connect to the server and list its tools (kept for the editor's tool picker)")
def check_server(request: ApiRequest, server_id: int) -> dict:
    return mcp_servers.check(request.auth, server_id)
