"""send_message is a tool like any other: listed in the run's ask-before set it waits for a person, and a denial
reaches the model as an error while nothing is sent."""
import asyncio

from runtime.coordinator import CoordinatorSettings
from runtime.tools.approvals import Decision
from runtime.tools.session import MemoryStore, RunTools
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: gated
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: work, agent: worker, instructions: Work.}
""")
REPLIES = script("""
    replies:
      work:
        - {tool_calls: [{id: s1, name: send_message, arguments: {text: allowed}}, {id: s2, name: send_message, arguments: {text: denied}}]}
        - done
""")


async def test_a_gated_send_message_waits_and_a_denied_one_sends_nothing(tmp_path):
    tools = RunTools(tmp_path / "ws", store=MemoryStore(), ask_before=["send_message"])

    async def decide():
        while len(tools.approvals.pending()) < 2:
            await asyncio.sleep(0.01)
        tools.approvals.decide("s1", Decision(True, actor="ann"))
        tools.approvals.decide("s2", Decision(False, "not now", actor="bob"))

    decider = asyncio.create_task(decide())
    result, sink = await run(FLOW, REPLIES, tools=tools, coordinator=CoordinatorSettings())
    await decider
    assert result.status == "completed", result.reason
    phases = sorted((e["data"]["tool_call_id"], e["data"]["phase"]) for e in sink.of_type("tool_approval"))
    assert phases == [("s1", "approved"), ("s1", "asked"), ("s2", "asked"), ("s2", "denied")]
    ends = {e["data"]["tool_call_id"]: e["data"]["output"] for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"}
    assert ends["s1"] == "queued: msg-send-1" and ends["s2"] == "error: a person denied this call: not now"
    assert [e["data"]["text"] for e in sink.of_type("message_sent")] == ["allowed"]
