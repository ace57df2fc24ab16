"""The ``bash`` tool: one shell command in the run's workspace, inside the sandbox.

Upstream's parameters: ``command``, ``timeout_seconds`` (default 30, at most
300), ``working_directory`` (ignored: the workspace is the working directory,
as upstream does when a work dir is set). How the command is contained is
:mod:`runtime.tools.sandbox`'s business.
"""
from __future__ import annotations

from runtime.tools import Tool, ToolError, ToolResult, ToolSettings
from runtime.tools.sandbox import DEFAULT_TIMEOUT, MAX_TIMEOUT, ResourceLimits, SandboxUnavailable, run_command
from runtime.tools.workspace import Workspace


class BashTool(Tool):
    name = "bash"

    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ToolError("`command` is required and must be a non-empty string")
        timeout = args.get("timeout_seconds", DEFAULT_TIMEOUT)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ToolError("`timeout_seconds` must be a positive number of seconds")
        try:
            result = await run_command(command, workspace=workspace.ensure(), timeout=min(float(timeout), MAX_TIMEOUT),
                                       network=settings.network, mode=settings.sandbox, bwrap=settings.bwrap,
                                       limits=ResourceLimits(settings.cpu_seconds, settings.memory_mb, settings.file_mb),
                                       tmp_mb=settings.tmp_mb)
        except SandboxUnavailable as exc:
            raise ToolError(str(exc)) from None
        output = result.output
        if result.exit_code not in (0, None):
            output = f"{output.rstrip()}\n[exit code {result.exit_code}]".lstrip("\n")
        return ToolResult(output, truncated=result.truncated)
