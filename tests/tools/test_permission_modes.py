"""Permission modes as zenflow's CLI flags (--allow, --deny, --strict, --sandbox, --yolo) beside the ask-before gate:
decided where each call is carried out, refusals read by the model in words, bad modes refused naming the field,
and the same over POST /runs (stored, forked) and runworkflow (exit 3 for flags that exclude each other)."""
import asyncio
import io
import json

import pytest
from django.core.management import call_command

from runtime.tools.approvals import Decision
from runtime.tools.permissions import Permissions, PermissionsError, parse
from runtime.tools.session import MemoryStore, RunTools
from tests.support.engine_runs import doc, run, script

KNOWN = ["bash", "read", "write", "edit", "grep", "glob", "send_message"]
FLOW = doc("""
    name: permitted
    version: 1
    agents:
      worker: {description: works, tools: [bash, read, write, edit, glob]}
    steps:
      - {id: work, agent: worker, instructions: Work.}
""")
CALLS = script("""
    replies:
      work:
        - tool_calls:
            - {id: b, name: bash, arguments: {command: echo hi}}
            - {id: w, name: write, arguments: {path: a.txt, content: x}}
            - {id: e, name: edit, arguments: {path: a.txt, old: x, new: y}}
            - {id: g, name: glob, arguments: {pattern: "*"}}
        - done
""")


@pytest.mark.parametrize(("mode", "tool", "verdict"), [
    ({}, "bash", "run"),
    ({"ask_before": frozenset({"bash"})}, "bash", "ask"),
    ({"deny": frozenset({"bash"}), "yolo": True}, "bash", "refuse"),
    ({"sandbox": True}, "bash", "refuse"),
    ({"sandbox": True}, "edit", "refuse"),
    ({"sandbox": True}, "write", "run"),
    ({"sandbox": True, "ask_before": frozenset({"write"})}, "write", "ask"),
    ({"yolo": True, "ask_before": frozenset({"bash"})}, "bash", "run"),
    ({"allow": frozenset({"read"})}, "read", "run"),
    ({"allow": frozenset({"read"})}, "bash", "ask"),
    ({"allow": frozenset({"read"}), "strict": True}, "bash", "refuse"),
    ({"strict": True}, "read", "refuse"),
    ({"allow": frozenset({"bash"}), "ask_before": frozenset({"bash"})}, "bash", "run"),
])
def test_each_mode_decides_as_upstreams_flags(mode, tool, verdict):
    assert Permissions(**mode).decide(tool).verdict == verdict


def test_messaging_tools_are_stopped_only_by_deny():
    strict = Permissions(strict=True, sandbox=True)
    assert strict.decide("send_message", messaging=True).verdict == "run"
    assert Permissions(deny=frozenset({"send_message"})).decide("send_message", messaging=True).verdict == "refuse"


@pytest.mark.parametrize(("raw", "words"), [
    ({"sandbox": True, "yolo": True}, "sandbox and yolo exclude each other"),
    ({"allow": ["bash"], "deny": ["bash"]}, "bash cannot be both allowed and denied"),
    ({"allow": ["rm"]}, "permissions.allow: unknown tool 'rm'"),
    ({"deny": "bash"}, "permissions.deny: expected a list of tool names"),
    ({"strict": "yes"}, "permissions.strict: expected true or false"),
    ({"loud": True}, "permissions.loud: unknown field"),
    ([], "expected an object"),
])
def test_bad_modes_are_refused_naming_the_field(raw, words):
    with pytest.raises(PermissionsError) as refused:
        parse(raw, known=KNOWN)
    assert words in str(refused.value)


def ends(sink) -> dict[str, str]:
    return {e["data"]["tool_call_id"]: e["data"]["output"] for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"}


async def test_sandbox_mode_refuses_bash_and_edit_where_they_are_called(tmp_path):
    tools = RunTools(tmp_path / "ws", store=MemoryStore(), permissions=Permissions(sandbox=True))
    result, sink = await run(FLOW, CALLS, tools=tools)
    assert result.status == "completed", result.reason
    out = ends(sink)
    assert out["b"].startswith("error: not run: this run is in sandbox mode") and "'bash'" in out["b"]
    assert out["e"].startswith("error: not run: this run is in sandbox mode")
    assert not out["w"].startswith("error") and not out["g"].startswith("error")
    assert (tmp_path / "ws" / "a.txt").read_text() == "x"  # written, and the edit never ran


async def test_an_allow_list_asks_for_the_rest_and_strict_refuses_them(tmp_path):
    tools = RunTools(tmp_path / "ws", store=MemoryStore(), permissions=Permissions(allow=frozenset({"write", "glob"})))

    async def approve_all():
        while len(tools.approvals.pending()) < 2:
            await asyncio.sleep(0.01)
        for call_id in tools.approvals.pending():
            tools.approvals.decide(call_id, Decision(True, actor="ann"))

    decider = asyncio.create_task(approve_all())
    _, sink = await run(FLOW, CALLS, tools=tools)
    await decider
    asked = {e["data"]["tool_call_id"] for e in sink.of_type("tool_approval") if e["data"]["phase"] == "asked"}
    assert asked == {"b", "e"}

    strict = RunTools(tmp_path / "ws2", store=MemoryStore(),
                      permissions=Permissions(allow=frozenset({"write", "glob"}), strict=True))
    _, sink = await run(FLOW, CALLS, tools=strict)
    out = ends(sink)
    assert out["b"] == ("error: not run: 'bash' is not on this run's allow list (glob, write), and the run is strict "
                        "(permissions: strict)")
    assert sink.of_type("tool_approval") == []


async def test_yolo_runs_what_the_ask_before_list_would_hold(tmp_path):
    tools = RunTools(tmp_path / "ws", store=MemoryStore(), ask_before=["bash"], permissions=Permissions(yolo=True))
    result, sink = await asyncio.wait_for(run(FLOW, CALLS, tools=tools), 60)
    assert result.status == "completed" and sink.of_type("tool_approval") == []
    assert ends(sink)["b"].strip() == "hi"


def test_runworkflow_refuses_sandbox_with_yolo_with_exit_3(tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text(json.dumps(FLOW))
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", str(path), "--sandbox", "--yolo", stdout=io.StringIO(), stderr=err)
    assert exit_.value.code == 3
    assert "sandbox and yolo exclude each other" in err.getvalue()
