"""What one command may use: CPU seconds, memory, file size (real rlimits through prlimit), and the workspace's
size, past which the tools that write refuse until files are deleted."""
from __future__ import annotations

import asyncio

from runtime.tools import ToolSettings
from runtime.tools.sandbox import ResourceLimits, run_command
from runtime.tools.session import MemoryStore, RunTools
from tests.support.engine_runs import doc, run, script


async def test_a_command_past_its_cpu_seconds_is_stopped(tmp_path):
    loop = asyncio.get_running_loop()
    started = loop.time()
    result = await run_command("while :; do :; done", workspace=tmp_path, timeout=30,
                               limits=ResourceLimits(cpu_seconds=1))
    assert loop.time() - started < 10
    assert not result.timed_out and result.exit_code not in (0, None)


async def test_a_command_cannot_allocate_past_its_memory(tmp_path):
    result = await run_command("x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo ${#x}", workspace=tmp_path,
                               timeout=60, limits=ResourceLimits(memory_mb=200))
    assert "400000000" not in result.output
    assert "cannot allocate" in result.output or result.exit_code not in (0, None)


async def test_a_command_cannot_write_a_file_past_its_size(tmp_path):
    result = await run_command("head -c 3000000 /dev/zero > big.bin; echo exit=$?", workspace=tmp_path, timeout=30,
                               limits=ResourceLimits(file_mb=1))
    assert (tmp_path / "big.bin").stat().st_size <= 2**20
    assert "exit=0" not in result.output


async def test_writes_are_refused_while_the_workspace_is_over_its_size_and_bash_can_clean_up(tmp_path):
    tools = RunTools(tmp_path / "ws", settings=ToolSettings(workspace_mb=1), store=MemoryStore())
    document = doc("""
        version: 1
        agents:
          w: {description: writes}
        steps:
          - {id: fill, agent: w}
          - {id: more, agent: w, dependsOn: [fill]}
    """)
    replies = script("""
        replies:
          fill:
            - tool_calls: [{name: bash, arguments: {command: "head -c 2000000 /dev/zero > big.bin"}}]
            - "filled"
          more:
            - tool_calls: [{id: w1, name: write, arguments: {path: small.txt, content: x}}]
            - tool_calls: [{id: b1, name: bash, arguments: {command: "rm big.bin"}}]
            - "cleaned"
    """)
    result, sink = await run(document, replies, tools=tools)
    assert result.status == "completed", result.reason
    ends = {e["data"]["tool_call_id"]: e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    assert "over its 1 MB limit" in ends["w1"]["error"]
    assert ends["b1"].get("error") is None
    assert not (tmp_path / "ws" / "small.txt").exists() and not (tmp_path / "ws" / "big.bin").exists()
