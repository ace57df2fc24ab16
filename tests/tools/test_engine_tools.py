"""Agents with tools, through the engine: scripted tool calls run for real in a real workspace."""
from __future__ import annotations

import asyncio
import json

from runtime.contract import check
from runtime.engine import RunControl
from runtime.tools import ToolSettings
from runtime.tools.approvals import Decision
from runtime.tools.session import MemoryStore, RunTools
from tests.support.engine_runs import doc, run, script, step_end

CODER = """
    version: 1
    name: tools
    agents:
      coder: {description: writes code}
    steps:
      - {id: build, agent: coder, instructions: build it}
"""


def tools_at(tmp_path, **kw) -> RunTools:
    return RunTools(tmp_path / "ws", store=MemoryStore(), **kw)


def calls(sink, phase="end"):
    return [e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == phase]


async def test_scripted_tool_calls_run_in_the_workspace_and_the_model_reads_their_results(tmp_path):
    tools = tools_at(tmp_path)
    replies = script("""
        replies:
          build:
            - tool_calls:
                - {name: write, arguments: {path: src/app.py, content: "print('hi')\\n"}}
                - {name: bash, arguments: {command: "cat src/app.py; echo ok > done.txt"}}
            - tool_calls:
                - {name: read, arguments: {path: done.txt}}
                - {name: grep, arguments: {pattern: "print", path: "."}}
                - {name: glob, arguments: {pattern: "**/*.py"}}
            - tool_calls:   # not beside grep: calls of one turn run at once, and would race
                - {name: edit, arguments: {path: src/app.py, old_string: hi, new_string: bye}}
            - "all done"
    """)
    result, sink = await run(doc(CODER), replies, tools=tools)
    assert result.status == "completed", result.reason
    for event in sink.events:
        check(event)
    ends = {e["data"]["tool_name"]: e for e in calls(sink)}
    assert ends["write"]["data"]["output"] == "wrote 12 bytes to src/app.py"
    assert "print('hi')" in ends["bash"]["data"]["output"]
    assert ends["read"]["data"]["output"] == "ok\n"
    assert ends["grep"]["data"]["output"] == "src/app.py:1:print('hi')"
    assert ends["glob"]["data"]["output"] == "src/app.py"
    assert (tmp_path / "ws" / "src" / "app.py").read_text() == "print('bye')\n"
    assert all(e.get("error") is None for e in ends.values())
    # Tool names offered to the model: upstream's first, then ours.
    first = next(e for e in sink.events if e["type"] == "agent_turn" and e["data"]["phase"] == "request")
    assert first["data"]["tools"] == ["bash", "read", "write", "glob", "grep", "edit", "send_message"]
    # The second request carries the results back.
    second = [e for e in sink.events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"][1]
    assert "wrote 12 bytes to src/app.py" in second["data"]["input"]
    # A snapshot after the step shows what it changed.
    snaps = [e for e in sink.events if e["type"] == "workspace_snapshot"]
    assert [s["data"]["label"] for s in snaps] == ["build"]
    assert snaps[0]["data"]["added"] == 2 and snaps[0]["data"]["files"] == 2


async def test_a_tool_error_reaches_the_model_and_the_conversation_goes_on(tmp_path):
    tools = tools_at(tmp_path)
    replies = script("""
        replies:
          build:
            - tool_calls: [{name: read, arguments: {path: ../../etc/passwd}}, {name: read, arguments: {path: missing.txt}}]
            - "recovered"
    """)
    result, sink = await run(doc(CODER), replies, tools=tools)
    assert result.status == "completed"
    path_of = {e["data"]["tool_call_id"]: e["data"]["input"]["path"] for e in calls(sink, "start")}
    errors = {path_of[e["data"]["tool_call_id"]]: e["error"] for e in calls(sink)}  # ends come in any order
    assert "outside the workspace" in errors["../../etc/passwd"]
    assert "no such file" in errors["missing.txt"]
    second = [e for e in sink.events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"][1]
    assert all(text.startswith("error: ") for text in second["data"]["input"])
    assert step_end(sink, "build")["data"]["content"] == "recovered"


async def test_tools_run_concurrently_within_one_turn(tmp_path):
    tools = tools_at(tmp_path)
    replies = script("""
        replies:
          build:
            - tool_calls:
                - {name: bash, arguments: {command: "sleep 0.6; echo a"}}
                - {name: bash, arguments: {command: "sleep 0.6; echo b"}}
                - {name: bash, arguments: {command: "sleep 0.6; echo c"}}
            - "done"
    """)
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, sink = await run(doc(CODER), replies, tools=tools)
    took = loop.time() - started
    assert result.status == "completed"
    assert sorted(e["data"]["output"] for e in calls(sink)) == ["a\n", "b\n", "c\n"]
    assert took < 1.5, f"three 0.6 s commands took {took:.2f} s: they did not overlap"


async def test_allowlist_and_disallowed_tools_shape_what_an_agent_may_call(tmp_path):
    document = doc("""
        version: 1
        agents:
          reader: {description: reads, tools: [read, bash, glob], disallowedTools: [bash]}
        steps:
          - {id: look, agent: reader}
    """)
    replies = script("""
        replies:
          look:
            - tool_calls: [{name: bash, arguments: {command: "touch pwned"}}]
            - "ok"
    """)
    _result, sink = await run(document, replies, tools=tools_at(tmp_path))
    first = next(e for e in sink.events if e["type"] == "agent_turn" and e["data"]["phase"] == "request")
    assert first["data"]["tools"] == ["read", "glob", "send_message"]
    assert "not available to this agent" in calls(sink)[0]["error"]
    assert not (tmp_path / "ws" / "pwned").exists()


async def test_an_unknown_tool_name_fails_the_run_at_start_naming_agent_and_tool(tmp_path):
    document = doc("""
        version: 1
        agents:
          ops: {description: deploys, tools: [bash, kubectl]}
        steps:
          - {id: deploy, agent: ops}
    """)
    result, sink = await run(document, None, tools=tools_at(tmp_path))
    assert result.status == "failed"
    assert "agent 'ops' lists tool 'kubectl'" in result.reason
    assert not [e for e in sink.events if e["type"] == "step_start"]


async def test_max_turns_bounds_round_trips_not_tool_calls(tmp_path):
    document = doc("""
        version: 1
        agents:
          busy: {description: loops, maxTurns: 2}
        steps:
          - {id: work, agent: busy}
    """)
    replies = script("""
        replies:
          work:
            - tool_calls: [{name: bash, arguments: {command: "echo 1"}}, {name: bash, arguments: {command: "echo 2"}}]
    """)
    _result, sink = await run(document, replies, tools=tools_at(tmp_path))
    requests = [e for e in sink.events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"]
    assert len(requests) == 2
    assert len(calls(sink)) == 4


async def test_a_running_command_is_killed_at_the_step_timeout_and_the_step_fails(tmp_path):
    document = doc("""
        version: 1
        agents:
          slow: {description: slow}
        steps:
          - {id: hang, agent: slow, timeout: 1s}
    """)
    marker = "sleep 4321.5"
    replies = script(f"""
        replies:
          hang:
            - tool_calls: [{{name: bash, arguments: {{command: "{marker}", timeout_seconds: 300}}}}]
    """)
    loop = asyncio.get_running_loop()
    started = loop.time()
    result, sink = await run(document, replies, tools=tools_at(tmp_path))
    assert loop.time() - started < 120, "the step waited for its command's own 300 s"
    assert result.status == "failed"
    assert "timed out after 1s" in step_end(sink, "hang")["error"]
    # Killed: gone once the kernel has reaped it (on a loaded machine that is not the same instant).
    deadline = loop.time() + 30
    while True:
        proc = await asyncio.create_subprocess_exec("pgrep", "-f", marker, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        if out.strip() == b"" or loop.time() > deadline:
            break
        await asyncio.sleep(0.1)
    assert out.strip() == b"", "the command outlived its step"


async def test_approval_granted_denied_and_waiting_does_not_count_against_the_timeout(tmp_path):
    tools = tools_at(tmp_path, ask_before=["bash"])
    document = doc("""
        version: 1
        agents:
          ops: {description: ops}
        steps:
          - {id: act, agent: ops, timeout: 1s}
    """)
    replies = script("""
        replies:
          act:
            - tool_calls: [{id: c1, name: bash, arguments: {command: "echo yes > approved.txt"}},
                           {id: c2, name: bash, arguments: {command: "echo no > denied.txt"}},
                           {id: c3, name: write, arguments: {path: free.txt, content: ungated}}]
            - "done"
    """)

    async def decide_later():
        while len(tools.approvals.pending()) < 2:
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.5)  # longer than the step's timeout: waiting must not count
        assert tools.approvals.decide("c1", Decision(True, actor="alice"))
        assert tools.approvals.decide("c2", Decision(False, "not on prod", actor="bob"))

    decider = asyncio.create_task(decide_later())
    result, sink = await run(document, replies, tools=tools)
    await decider
    assert result.status == "completed", result.reason
    ws = tmp_path / "ws"
    assert (ws / "approved.txt").read_text() == "yes\n"
    assert not (ws / "denied.txt").exists()
    assert (ws / "free.txt").read_text() == "ungated"
    approvals = [(e["data"]["tool_call_id"], e["data"]["phase"], e["data"].get("actor"), e["data"].get("reason"))
                 for e in sink.events if e["type"] == "tool_approval"]
    assert ("c1", "approved", "alice", None) in approvals and ("c2", "denied", "bob", "not on prod") in approvals
    assert [a for a in approvals if a[0] == "c3"] == []
    denied = next(e for e in calls(sink) if e["data"]["tool_call_id"] == "c2")
    assert denied["data"]["output"] == "error: a person denied this call: not on prod"
    # A call's time is the tool's own: the person's decision time is said apart, never in it.
    waited = {e["data"]["tool_call_id"]: e["data"].get("waited_ms") for e in calls(sink)}
    assert waited["c1"] >= 1500 and waited["c2"] >= 1500 and waited["c3"] is None
    assert denied["durationMs"] < waited["c2"]  # it did nothing but wait


async def test_a_stop_cancels_calls_waiting_for_approval(tmp_path):
    tools = tools_at(tmp_path, ask_before=["write"])
    control = RunControl()
    replies = script("""
        replies:
          build:
            - tool_calls: [{id: w1, name: write, arguments: {path: x.txt, content: x}}]
    """)

    async def stop_when_asked():
        while not tools.approvals.pending():
            await asyncio.sleep(0.02)
        control.request("stop", "carol")

    stopper = asyncio.create_task(stop_when_asked())
    result, _sink = await run(doc(CODER), replies, tools=tools, control=control)
    await stopper
    assert result.status == "cancelled"
    assert not (tmp_path / "ws" / "x.txt").exists()
    assert tools.approvals.pending() == []


async def test_isolation_step_gives_parallel_items_their_own_copy_and_the_first_wins_a_conflict(tmp_path):
    document = doc("""
        version: 1
        options: {isolation: step}
        agents:
          w: {description: writes}
        steps:
          - id: each
            agent: w
            loop: {forEach: ["a", "b"], maxConcurrency: 2}
    """)
    replies = script("""
        replies:
          "each[0]":
            - tool_calls: [{name: bash, arguments: {command: "echo a > shared.txt; sleep 0.3; cat shared.txt > seen-a.txt"}}]
            - "a"
          "each[1]":
            - tool_calls: [{name: bash, arguments: {command: "echo b > shared.txt; sleep 0.6; cat shared.txt > seen-b.txt"}}]
            - "b"
    """)
    tools = tools_at(tmp_path, isolation="step")
    result, sink = await run(document, replies, tools=tools)
    assert result.status == "completed", result.reason
    ws = tmp_path / "ws"
    # Each item saw only its own write: no race.
    assert (ws / "seen-a.txt").read_text() == "a\n"
    assert (ws / "seen-b.txt").read_text() == "b\n"
    # Item 0 finished first and its shared.txt came back; item 1's stays in its copy, and the run says so.
    assert (ws / "shared.txt").read_text() == "a\n"
    assert (tools.copies_root / "each_1_" / "shared.txt").read_text() == "b\n"
    warnings = [e["message"] for e in sink.events if e["type"] == "message" and "kept in this step's copy" in e["message"]]
    assert warnings and "shared.txt" in warnings[0]
    copies = {e["data"]["workspace"] for e in sink.events if e["type"] == "workspace_snapshot"}
    assert {"each[0]", "each[1]", "run"} <= copies


async def test_iteration_snapshots_record_what_each_iteration_changed(tmp_path):
    document = doc("""
        version: 1
        agents:
          w: {description: writes}
        steps:
          - id: refine
            agent: w
            loop: {until: "false", maxIterations: 3}
    """)
    replies = script("""
        replies:
          refine:
            - tool_calls: [{name: write, arguments: {path: draft.md, content: "v1"}}]
            - "one"
            - "two (no change)"
            - tool_calls: [{name: write, arguments: {path: draft.md, content: "v3"}}]
            - "three"
    """)
    store = MemoryStore()
    tools = RunTools(tmp_path / "ws", store=store)
    _result, sink = await run(document, replies, tools=tools)
    ends = [e for e in sink.events if e["type"] == "iteration_end"]
    assert [e["data"].get("snapshot") is not None for e in ends] == [True, False, True]
    labels = [r.label for r in store.records]
    assert labels[0] == "refine.0"
    assert store.records[-1].changes.modified == ["draft.md"]
    assert json.dumps([r.event_data() for r in store.records])  # plain data, as events carry it


async def test_without_bubblewrap_bash_fails_saying_so_and_other_tools_still_work(tmp_path):
    tools = RunTools(tmp_path / "ws", settings=ToolSettings(bwrap="/nonexistent/bwrap"), store=MemoryStore())
    replies = script("""
        replies:
          build:
            - tool_calls: [{name: bash, arguments: {command: "echo hi"}}, {name: write, arguments: {path: a, content: b}}]
            - "done"
    """)
    result, sink = await run(doc(CODER), replies, tools=tools)
    assert result.status == "completed"
    errors = {e["data"]["tool_name"]: e.get("error") for e in calls(sink)}
    assert "sandbox (bubblewrap) is not available" in errors["bash"] and "AGENT_SANDBOX=off" in errors["bash"]
    assert errors["write"] is None
