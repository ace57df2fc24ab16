"""MCP tool calls: ``python bench/mcp.py`` (from the repo root).

1. A tool call round trip to a stdio MCP server written with the SDK (``tests/fixtures/mcp/stdio_server.py``,
   its ``add_numbers``), started as in a run: in the bubblewrap sandbox with a workspace, through the run's
   tool (``McpTool.run``: the client session, JSON-RPC over the pipes, the server's own dispatch). Beside it,
   the same function called directly in this process.
2. The server's start (sandbox, interpreter, SDK import, initialize, tools/list) and stop, once each, beside
   nothing: what a run with an MCP server pays before its first step and after its last.

Prints p50 and p95 with the load average before and after; asserts nothing about time.
"""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder comes first on the path, and this file would stand in for the SDK's `mcp`.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from runtime.tools import ToolSettings  # noqa: E402
from runtime.tools.mcp.servers import RunServers  # noqa: E402
from tests.fixtures.mcp.servers import options, stdio_config  # noqa: E402
from tests.fixtures.mcp.stdio_server import add  # noqa: E402

CALLS = 300
STARTS = 5


def p50_p95(samples: list[float]) -> str:
    ordered = sorted(samples)
    return (f"p50 {ordered[len(ordered) // 2] * 1000:8.3f} ms   "
            f"p95 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000:8.3f} ms")


async def round_trips() -> tuple[list[float], list[float], list[float], list[float]]:
    starts, stops, calls, direct = [], [], [], []
    for i in range(STARTS):
        workspace = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
        servers = RunServers([stdio_config()], workspace, ToolSettings(), options())
        began = time.perf_counter()
        tools = await servers.open(set())
        starts.append(time.perf_counter() - began)
        if "add_numbers" not in tools:
            raise SystemExit(f"the server did not start: {servers.notices}")
        tool = tools["add_numbers"]
        if i == 0:
            for n in range(20):  # warm-up
                await tool.run({"a": n, "b": 1}, None, None)  # type: ignore[arg-type]
            for n in range(CALLS):
                began = time.perf_counter()
                result = await tool.run({"a": n, "b": 1}, None, None)  # type: ignore[arg-type]
                calls.append(time.perf_counter() - began)
                assert result.output == str(n + 1)
        began = time.perf_counter()
        await servers.close()
        stops.append(time.perf_counter() - began)
    for n in range(CALLS):
        began = time.perf_counter()
        str(add(n, 1))
        direct.append(time.perf_counter() - began)
    return starts, stops, calls, direct


def main() -> None:
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    starts, stops, calls, direct = asyncio.run(round_trips())
    print(f"1. stdio MCP tool call, sandboxed ({CALLS})   {p50_p95(calls)}")
    print(f"   the same function called directly       {p50_p95(direct)}")
    print(f"2. server start: sandbox to tools/list ({STARTS}) {p50_p95(starts)}")
    print(f"   server stop, process tree gone ({STARTS})    {p50_p95(stops)}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
