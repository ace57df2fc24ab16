"""A stdio MCP server that dies mid-run printing its environment: the call's error, which the model reads and the
run stores in its ``tool_call`` event, names the server, its exit code and what it wrote, with its secret values
``[redacted]`` and the rest of what it wrote kept.

A real server (``tests/fixtures/mcp/stdio_server.py``, its ``crash_telling_env`` tool) in the bubblewrap sandbox,
called by an agent through the engine, as in ``tests/tools/test_mcp.py``.
"""
from __future__ import annotations

import pytest

from runtime.tools.sandbox import probe
from runtime.tools.session import MemoryStore, RunTools
from tests.fixtures.mcp.servers import options, stdio_config
from tests.support.engine_runs import doc, run, script

SECRET = "crash-env-secret-8180-mnopqr"
PASSWORD = "crash-env-password-9190-stuvw"


@pytest.fixture(autouse=True)
def real_sandbox():
    assert probe("bwrap") is None, "bubblewrap must work here (make sandbox)"


async def test_the_error_of_a_server_that_died_telling_its_env_shows_no_secret(tmp_path):
    tools = RunTools(tmp_path / "ws", store=MemoryStore(), mcp_options=options(),
                     mcp_servers=[stdio_config(env={"API_TOKEN": SECRET, "DB_PASSWORD": PASSWORD})])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [crash_telling_env, echo]}
        steps:
          - {id: work, agent: helper}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{id: c1, name: crash_telling_env, arguments: {}}]
            - tool_calls: [{id: c2, name: echo, arguments: {text: again}}]
            - "carried on"
    """)
    await tools.open()
    try:
        result, sink = await run(document, replies, tools=tools)
    finally:
        await tools.close()
    assert result.status == "completed", result.reason
    ends = {e["data"]["tool_call_id"]: e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    said = ends["c1"]["error"]
    assert said.startswith("MCP server 'fixture' stopped (exit code 3): crashing with API_TOKEN=[redacted] "
                           "DB_PASSWORD=[redacted] HOME=/workspace "), said
    assert "LANG=C.UTF-8" in said
    assert ends["c2"]["error"] == said  # later calls say the same
    assert ends["c1"]["data"]["output"] == "error: " + said
    assert SECRET not in repr(sink.events) and PASSWORD not in repr(sink.events)
