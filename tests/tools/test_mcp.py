"""MCP servers' tools in runs: real servers written with the SDK (a stdio one started in the run's bubblewrap
sandbox, a streamable-HTTP one on loopback), an agent calling them through the engine, for real.

The engine starts a run's servers with ``RunTools.open()`` as the run starts and stops them with ``close()``
(see ``with_servers``: until the engine's hook is in, the tests call both around the run; both are idempotent).
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from runtime.contract import check
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers import get_provider
from runtime.tools import ToolSettings, run_tools
from runtime.tools.approvals import Decision
from runtime.tools.mcp import ServerConfig
from runtime.tools.mcp.launch import Launch
from runtime.tools.mcp.servers import RunServers
from runtime.tools.sandbox import probe
from runtime.tools.session import MemoryStore, RunTools
from tests.fakes.openai import FakeToolAgent
from tests.fixtures.mcp.servers import SANDBOX_PATHS, http_server, options, stdio_config
from tests.support.engine_runs import doc, run, script

TOKEN = "s3cret-token-value-42"
BUILTINS = {"bash", "read", "write", "glob", "grep", "edit"}


@pytest.fixture(scope="module")
def remote():
    with http_server(TOKEN) as url:
        yield url


@pytest.fixture(autouse=True)
def real_sandbox():
    assert probe("bwrap") is None, "bubblewrap must work here (make sandbox)"


def tools_with(tmp_path, servers, **kw) -> RunTools:
    return RunTools(tmp_path / "ws", store=MemoryStore(), mcp_servers=servers, mcp_options=options(), **kw)


async def with_servers(tools: RunTools, document, replies=None, **kw):
    notices = await tools.open()
    try:
        result, sink = await run(document, replies, tools=tools, **kw)
    finally:
        await tools.close()
    return notices, result, sink


def flow(*tool_names: str) -> dict:
    return doc(f"""
        version: 1
        agents:
          helper: {{description: helps, tools: [{", ".join(tool_names)}]}}
        steps:
          - {{id: work, agent: helper}}
    """)


def calls(sink, phase="end"):
    return [e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == phase]


def remote_config(url, token=TOKEN, owner="admin") -> ServerConfig:
    return ServerConfig("remote", "http", url=url, headers={"X-Token": token}, owner=owner)


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


FLOW = """
    version: 1
    agents:
      helper: {description: helps, model: "openai/model-x", tools: [add_numbers, shout, where]}
    steps:
      - {id: work, agent: helper}
"""


async def test_an_agent_is_offered_mcp_tools_with_descriptions_and_reads_their_results_over_http(tmp_path, remote):
    tools = tools_with(tmp_path, [stdio_config(), remote_config(remote)])
    agent_calls = [{"name": "add_numbers", "arguments": {"a": 2, "b": 40}},
                   {"name": "shout", "arguments": {"text": "quiet please"}}]
    with FakeToolAgent(agent_calls, final="the sum is 42") as server:
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="sk-test-123456")
        await tools.open()
        sink = ListSink()
        try:
            result = await run_workflow(doc(FLOW), RunOptions(run_id="t", sink=sink, providers={"openai": provider},
                                                              default_provider="openai", tools=tools))
        finally:
            await tools.close()
            await provider.aclose()
        requests = [r.json for r in server.requests]
    assert result.status == "completed", result.reason
    offered = {t["function"]["name"]: t["function"] for t in requests[0]["tools"]}
    assert list(offered) == ["add_numbers", "shout", "where", "send_message"]
    assert offered["add_numbers"]["description"] == "Add two integers and answer their sum."
    assert offered["shout"]["description"] == "Answer the text in capitals."
    assert offered["add_numbers"]["parameters"]["required"] == ["a", "b"]
    results = [(m["tool_call_id"], m["content"]) for m in requests[1]["messages"] if m["role"] == "tool"]
    assert results == [("call_0", "42"), ("call_1", "QUIET PLEASE")]
    for event in sink.events:
        check(event)
    starts = {e["data"]["tool_name"]: e["data"]["input"] for e in calls(sink, "start")}
    ends = {e["data"]["tool_name"]: e for e in calls(sink)}
    assert starts == {"add_numbers": {"a": 2, "b": 40}, "shout": {"text": "quiet please"}}
    assert ends["add_numbers"]["data"]["output"] == "42" and ends["add_numbers"].get("error") is None
    assert ends["shout"]["data"]["output"] == "QUIET PLEASE" and ends["shout"]["data"]["truncated"] is False


async def test_the_stdio_server_runs_in_the_sandbox_with_the_runs_workspace(tmp_path):
    tools = tools_with(tmp_path, [stdio_config()])
    replies = script("""
        replies:
          work:
            - tool_calls: [{name: where, arguments: {}}]
            - "seen"
    """)
    _, result, sink = await with_servers(tools, flow("where"), replies)
    assert result.status == "completed", result.reason
    said = calls(sink)[0]["data"]["output"]
    assert "cwd=/workspace" in said and "inside=written" in said
    assert "outside=refused" in said and "home=refused" in said
    assert (tmp_path / "ws" / "mcp-was-here.txt").read_text() == "x"  # the workspace is the run's
    assert not Path("/work-outside-mcp.txt").exists()


async def test_a_stdio_server_gets_its_own_env_and_nothing_of_the_servers_and_no_secret_is_in_its_argv(tmp_path,
                                                                                                      monkeypatch):
    monkeypatch.setenv("SERVER_ONLY_SECRET", "do-not-leak")
    secret = "env-token-in-the-sandbox-77"
    server = stdio_config(env={"API_TOKEN": secret})
    argv = Launch(server, tmp_path, ToolSettings(), SANDBOX_PATHS).parameters().args
    assert secret not in " ".join(argv)
    servers = RunServers([server], tmp_path, ToolSettings(), options())
    tools = await servers.open(BUILTINS)
    said = (await tools["environment"].run({}, None, None)).output  # type: ignore[arg-type]
    await servers.close()
    assert said.endswith(f"API_TOKEN={secret}")
    names = set(said.split(" API_TOKEN=")[0].split())
    assert {"API_TOKEN", "PATH", "HOME"} <= names
    assert not names & {"SERVER_ONLY_SECRET", "USER", "LOGNAME", "SHELL", "DJANGO_SETTINGS_MODULE"}


async def test_a_crashing_server_fails_that_call_naming_the_server_and_the_run_goes_on(tmp_path):
    tools = tools_with(tmp_path, [stdio_config()])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [crash, add_numbers, bash]}
        steps:
          - {id: work, agent: helper}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{id: c1, name: crash, arguments: {}}]
            - tool_calls: [{id: c2, name: add_numbers, arguments: {a: 1, b: 1}},
                           {id: c3, name: bash, arguments: {command: "echo still here"}}]
            - "carried on"
    """)
    _, result, sink = await with_servers(tools, document, replies)
    assert result.status == "completed", result.reason
    ends = {e["data"]["tool_call_id"]: e for e in calls(sink)}
    stopped = "MCP server 'fixture' stopped (exit code 3): crashing on purpose"
    assert ends["c1"]["error"] == stopped and ends["c1"]["data"]["output"] == "error: " + stopped
    assert ends["c2"]["error"] == stopped  # later calls say the same, at once
    assert ends["c3"]["data"]["output"] == "still here\n"  # the built-in tools are unaffected


async def test_a_server_error_reaches_the_model_as_a_tool_error(tmp_path):
    tools = tools_with(tmp_path, [stdio_config()])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [fail]}
        steps:
          - {id: work, agent: helper}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{name: fail, arguments: {reason: "the disk is full"}}]
            - "noted"
    """)
    _, result, sink = await with_servers(tools, document, replies)
    assert result.status == "completed"
    assert "the disk is full" in calls(sink)[0]["error"]


async def test_ask_before_holds_an_mcp_call_until_a_person_decides(tmp_path):
    tools = tools_with(tmp_path, [stdio_config()], ask_before=["add_numbers"])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [add_numbers, echo]}
        steps:
          - {id: work, agent: helper}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{id: c1, name: add_numbers, arguments: {a: 3, b: 4}}, {id: c2, name: echo, arguments: {text: free}},
                           {id: c3, name: add_numbers, arguments: {a: 0, b: 0}}]
            - "done"
    """)

    async def decide_later():
        while len(tools.approvals.pending()) < 2:
            await asyncio.sleep(0.05)
        assert tools.approvals.decide("c1", Decision(True, actor="alice"))
        assert tools.approvals.decide("c3", Decision(False, "not now", actor="bob"))

    decider = asyncio.create_task(decide_later())
    _, result, sink = await with_servers(tools, document, replies)
    await decider
    assert result.status == "completed", result.reason
    asked = [(e["data"]["tool_call_id"], e["data"]["phase"]) for e in sink.events if e["type"] == "tool_approval"]
    assert ("c1", "asked") in asked and ("c1", "approved") in asked and ("c3", "denied") in asked
    assert all(call != "c2" for call, _ in asked)
    ends = {e["data"]["tool_call_id"]: e["data"]["output"] for e in calls(sink)}
    assert ends == {"c1": "7", "c2": "free", "c3": "error: a person denied this call: not now"}


async def test_colliding_names_get_the_server_prefix_and_the_run_says_so(tmp_path, remote):
    tools = tools_with(tmp_path, [stdio_config(), remote_config(remote)])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [read, fixture__read, fixture__echo, remote__echo]}
        steps:
          - {id: work, agent: helper}
    """)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "a.txt").write_text("built-in")
    replies = script("""
        replies:
          work:
            - tool_calls: [{id: r1, name: read, arguments: {path: a.txt}}, {id: r2, name: fixture__read, arguments: {path: a.txt}},
                           {id: e1, name: fixture__echo, arguments: {text: hi}}, {id: e2, name: remote__echo, arguments: {text: hi}}]
            - "done"
    """)
    notices, result, sink = await with_servers(tools, document, replies)
    assert result.status == "completed", result.reason
    assert "MCP server 'fixture': its tool 'read' has the name of a built-in tool, so it is offered as " \
           "'fixture__read'" in notices
    assert "MCP server 'fixture': its tool 'echo' has the name of a tool of MCP server 'remote', so it is " \
           "offered as 'fixture__echo'" in notices
    assert any("'remote__echo'" in n for n in notices)
    ends = {e["data"]["tool_call_id"]: e["data"]["output"] for e in calls(sink)}
    assert ends == {"r1": "built-in", "r2": "mcp read a.txt", "e1": "hi", "e2": "remote: hi"}


async def test_a_server_that_fails_to_start_is_reported_and_its_known_tools_fail_with_the_reason(tmp_path):
    broken = stdio_config("broken", "--fail-at-start", owner="user",
                          known_tools=({"name": "zap", "description": "Zap a thing"},))
    tools = tools_with(tmp_path, [stdio_config(), broken])
    document = doc("""
        version: 1
        agents:
          helper: {description: helps, tools: [zap, echo]}
        steps:
          - {id: work, agent: helper}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{id: z, name: zap, arguments: {}}, {id: e, name: echo, arguments: {text: ok}}]
            - "done"
    """)
    notices, result, sink = await with_servers(tools, document, replies)
    reason = "MCP server 'broken' could not start (exit code 2): no configuration found"
    assert reason in notices
    assert result.status == "completed", result.reason
    ends = {e["data"]["tool_call_id"]: e for e in calls(sink)}
    assert ends["z"]["error"] == reason and ends["e"]["data"]["output"] == "ok"


async def test_an_unknown_command_is_reported_not_raised(tmp_path):
    servers = RunServers([ServerConfig("ghost", "stdio", command="no-such-mcp-server")], tmp_path, ToolSettings(),
                         options())
    assert await servers.open(BUILTINS) == {}
    assert servers.notices == ["MCP server 'ghost' could not start (exit code 127): "
                               "bash: line 1: no-such-mcp-server: command not found"]
    await servers.close()


async def test_servers_are_stopped_with_their_process_tree_when_the_run_ends(tmp_path):
    tools = tools_with(tmp_path, [stdio_config()])
    await tools.open()
    marker = str((tmp_path / "ws").resolve())
    assert processes_mentioning(marker), "the server's sandbox should be running"
    assert "echo" in run_tools()
    await tools.close()
    await tools.close()  # twice is harmless
    for _ in range(50):
        if not processes_mentioning(marker):
            break
        await asyncio.sleep(0.1)
    assert processes_mentioning(marker) == []


async def test_header_values_never_appear_in_events_or_notices(tmp_path, remote):
    tools = tools_with(tmp_path, [remote_config(remote)])
    replies = script("""
        replies:
          work:
            - tool_calls: [{name: shout, arguments: {text: hey}}]
            - "done"
    """)
    notices, result, sink = await with_servers(tools, flow("shout"), replies)
    assert result.status == "completed"
    assert calls(sink)[0]["data"]["output"] == "HEY"
    assert TOKEN not in repr(sink.events) and TOKEN not in repr(notices)
    assert TOKEN not in repr(tools.mcp_servers)


async def test_a_wrong_token_is_reported_naming_the_server(tmp_path, remote):
    servers = RunServers([remote_config(remote, token="wrong")], tmp_path, ToolSettings(), options())
    assert await servers.open(BUILTINS) == {}
    assert len(servers.notices) == 1 and servers.notices[0].startswith("MCP server 'remote' could not be reached")
    await servers.close()


async def test_a_users_server_on_a_private_address_is_refused_unless_allowed(tmp_path, remote):
    refused = RunServers([remote_config(remote, owner="user")], tmp_path, ToolSettings(), options())
    assert await refused.open(BUILTINS) == {}
    assert "127.0.0.1 resolves to 127.0.0.1, a private or local address" in refused.notices[0]
    allowed = RunServers([remote_config(remote, owner="user")], tmp_path, ToolSettings(), options(allow_private=True))
    assert "shout" in await allowed.open(BUILTINS)
    await allowed.close()


async def test_runs_in_one_process_never_see_each_others_mcp_tools(tmp_path):
    seen: dict[str, list[str]] = {}

    async def one(name: str) -> None:
        tools = tools_with(tmp_path / name, [stdio_config(name)] if name == "with" else [])
        notices = await tools.open()
        await asyncio.sleep(0.05)
        seen[name] = sorted(run_tools()) or notices
        await tools.close()

    await asyncio.gather(asyncio.create_task(one("with")), asyncio.create_task(one("without")))
    assert "add_numbers" in seen["with"], seen["with"]
    assert seen["without"] == []
