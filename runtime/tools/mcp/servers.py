"""A run's MCP servers: started when the run starts, their tools named, stopped when it ends.

Naming rule (:func:`designer.tool_specs.mcp_names`, documented in
``docs/tools.md``, "MCP servers"): a server's tool is offered under its MCP
name, unless that name is a built-in tool's or another of the run's servers
has a tool of the same name; then it is offered as ``<server>__<tool>`` (every
server involved), and the run says so in a ``message`` event. The call still
goes to the server under its MCP name.

A server that fails to start is reported at run start; when its tools are
known from the user's last check, they are still registered and each call
fails with the reason, so the model hears it rather than the run refusing to
start. A server that dies mid-run makes its calls fail the same way.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from designer.tool_specs import mcp_names
from runtime.tools import Tool, ToolError, ToolResult, ToolSettings
from runtime.tools.mcp.client import Connection, McpUnavailable, RemoteTool
from runtime.tools.mcp.config import HTTP, McpOptions, ServerConfig
from runtime.tools.mcp.launch import Launch
from runtime.tools.sandbox import SandboxUnavailable
from runtime.tools.workspace import Workspace


class McpTool(Tool):
    """One server's tool in a run: what the model is offered, and the call that goes to the server."""

    def __init__(self, name: str, remote: RemoteTool, connection: Connection) -> None:
        self.name = name
        self.remote = remote
        self.connection = connection

    @property
    def description(self) -> str:
        return self.remote.description or f"{self.remote.name} (MCP server '{self.connection.name}')"

    @property
    def parameters(self) -> dict:
        return dict(self.remote.input_schema or {"type": "object", "properties": {}})

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        return await self.connection.call(self.remote.name, args)


class UnavailableTool(Tool):
    """A tool of a server that did not start (known from its last check): every call says why."""

    def __init__(self, name: str, remote: RemoteTool, reason: str) -> None:
        self.name = name
        self.remote = remote
        self.reason = reason

    @property
    def description(self) -> str:
        return self.remote.description

    @property
    def parameters(self) -> dict:
        return dict(self.remote.input_schema or {"type": "object", "properties": {}})

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        raise ToolError(self.reason)


@dataclass
class RunServers:
    servers: list[ServerConfig]
    workspace: Path
    settings: ToolSettings
    options: McpOptions = field(default_factory=McpOptions)
    connections: list[Connection] = field(default_factory=list)
    tools: dict[str, Tool] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)

    async def open(self, builtins: set[str]) -> dict[str, Tool]:
        """Start every server at once; the run's MCP tools by offered name (notices say what went wrong)."""
        servers = self._usable()
        self.connections = [self._connection(server) for server in servers]
        outcomes = await asyncio.gather(*(self._start(c) for c in self.connections))
        listed: dict[str, list[RemoteTool]] = {}
        failed: dict[str, str] = {}
        for connection, outcome in zip(self.connections, outcomes, strict=True):
            if isinstance(outcome, str):
                failed[connection.name] = outcome
                self.notices.append(outcome)
                listed[connection.name] = [RemoteTool(str(t.get("name")), str(t.get("description") or ""),
                                                      dict(t.get("input_schema") or {"type": "object"}))
                                           for t in connection.config.known_tools if t.get("name")]
            else:
                listed[connection.name] = outcome
        names, notices = mcp_names({s: [t.name for t in tools] for s, tools in listed.items()}, builtins)
        self.notices += notices
        by_server = {c.name: c for c in self.connections}
        for server, tools in listed.items():
            for remote in tools:
                offered = names.get((server, remote.name))
                if offered is None:
                    continue
                self.tools[offered] = (UnavailableTool(offered, remote, failed[server]) if server in failed
                                       else McpTool(offered, remote, by_server[server]))
        return self.tools

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.connections), return_exceptions=True)

    def _usable(self) -> list[ServerConfig]:
        kept: list[ServerConfig] = []
        for server in self.servers:
            if any(k.name == server.name for k in kept):
                self.notices.append(f"MCP server '{server.name}' of the run's owner is left out: an administrator's "
                                    "server has that name")
                continue
            kept.append(server)
        return kept

    def _connection(self, server: ServerConfig) -> Connection:
        launch = None if server.kind == HTTP else Launch(server, self.workspace, self.settings,
                                                         self.options.sandbox_paths)
        return Connection(server, launch=launch, allow_private=self.options.allow_private,
                          call_timeout=self.options.call_timeout, hidden=self.options.hidden)

    async def _start(self, connection: Connection) -> list[RemoteTool] | str:
        try:
            return await connection.start(self.options.start_timeout)
        except McpUnavailable as exc:
            return str(exc)
        except SandboxUnavailable as exc:
            await connection.close()
            return f"MCP server '{connection.name}' could not start: {exc}"
