"""Past its wake cycles the coordinator asks its model nothing more: what is pending is dropped with
max-wake-cycles (one message_dropped each) and one max_wake_cycles_warning says so, however many follow."""
from runtime.coordinator import CoordinatorSettings
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: busy
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: first, agent: worker, instructions: Work.}
      - {id: second, agent: worker, instructions: Work., dependsOn: [first]}
""")
REPLIES = script("""
    replies:
      first: [{latency: 0.05, tool_calls: [{name: send_message, arguments: {text: one}}]}, done]
      second: [{latency: 0.05, tool_calls: [{name: send_message, arguments: {text: two}}]}, done]
      coordinator: [ok]
""")


async def test_one_wake_then_every_message_is_dropped_and_one_warning_given():
    result, sink = await run(FLOW, REPLIES, coordinator=CoordinatorSettings(max_wake_cycles=1))
    assert result.status == "completed"
    asked = [e for e in sink.of_type("agent_turn") if e.get("agent") == "coordinator" and e["data"]["phase"] == "request"]
    assert len(asked) == 1
    dropped = [(e["data"]["text"], e["data"]["reason"]) for e in sink.of_type("message_dropped")]
    assert dropped == [("one", "max-wake-cycles"), ("two", "max-wake-cycles")]
    [warning] = sink.of_type("max_wake_cycles_warning")
    assert warning["data"]["limit"] == 1 and warning["data"]["dropped"] == 1
    assert sink.of_type("coordinator_synthesis") == [] and result.summary == ""


async def test_the_default_cap_is_upstreams_hundred():
    assert CoordinatorSettings().max_wake_cycles == 100
