"""MCP servers as this deployment configures them: the administrator's (``MCP_SERVERS``), a run owner's (their
account), the settings every connection follows, and the account page's check (``MCP_CHECKER`` names
:func:`check_entry`)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import tempfile
from pathlib import Path

from django.conf import settings

from accounts import mcp_servers as accounts_mcp
from runtime.tools import ToolSettings
from runtime.tools.mcp.config import HTTP, ConfigError, McpOptions, ServerConfig, parse, parse_all


def options() -> McpOptions:
    return McpOptions(start_timeout=settings.MCP_START_TIMEOUT, call_timeout=settings.MCP_CALL_TIMEOUT,
                      allow_private=settings.MCP_URLS_ALLOW_PRIVATE, sandbox_paths=tuple(settings.MCP_SANDBOX_PATHS),
                      hidden=tuple(accounts_mcp.deployment_secrets()))


def deployment_tool_settings() -> ToolSettings:
    """What this deployment lets every sandboxed process do (AGENT_* settings; 0 means no limit). A run's tools
    add its workspace's size (runtime.durability.run_files.tool_settings)."""
    return ToolSettings(sandbox=settings.AGENT_SANDBOX, network=settings.AGENT_NETWORK,
                        cpu_seconds=settings.AGENT_CPU_SECONDS or None, memory_mb=settings.AGENT_MEMORY_MB or None,
                        file_mb=settings.AGENT_FILE_MB or None, tmp_mb=settings.AGENT_TMP_MB or None)


def servers_for(user_id: int) -> tuple[list[ServerConfig], list[str]]:
    """The administrator's servers, then the user's own; and what is wrong with entries left out."""
    problems: list[str] = []
    try:
        servers = parse_all(settings.MCP_SERVERS)
    except ConfigError as exc:
        servers, problems = [], [f"MCP_SERVERS is left out: {exc}"]
    if user_id is None:
        return servers, problems
    for entry, known in accounts_mcp.entries_for(user_id):
        try:
            server = parse(entry, owner="user")
        except ConfigError as exc:
            problems.append(str(exc))
            continue
        servers.append(ServerConfig(**{**server.__dict__, "known_tools": tuple(known)}))
    return servers, problems


def check_entry(entry: dict, owner: str = "user", tool_settings: ToolSettings | None = None) -> list[dict]:
    """Start the server (a stdio one in a scratch sandbox), list its tools, stop it; ValueError in words."""
    try:
        server = parse(entry, owner=owner)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    tool_settings = tool_settings or deployment_tool_settings()
    chosen = options()
    # Here, not at the top: run_files imports this module, and the SDK takes about a second to import.
    from runtime.tools.mcp.client import Connection, McpUnavailable  # noqa: PLC0415 - lazy, as said above
    from runtime.tools.mcp.launch import Launch  # noqa: PLC0415 - lazy, as said above

    async def listing(scratch: Path) -> list[dict]:
        launch = None if server.kind == HTTP else Launch(server, scratch, tool_settings, chosen.sandbox_paths)
        connection = Connection(server, launch=launch, allow_private=chosen.allow_private,
                                call_timeout=chosen.call_timeout, hidden=chosen.hidden)
        try:
            tools = await connection.start(chosen.start_timeout)
        except McpUnavailable as exc:
            raise ValueError(str(exc)) from None
        finally:
            await connection.close()
        return [{"name": t.name, "description": t.description, "input_schema": t.input_schema} for t in tools]

    def in_own_loop() -> list[dict]:
        with tempfile.TemporaryDirectory(prefix="mcp-check-") as scratch:
            return asyncio.run(listing(Path(scratch)))

    # Its own thread and loop: the caller may be a view running beside an event loop, or none.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(in_own_loop).result()
