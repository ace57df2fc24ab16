"""Hub and spoke through the engine: a step's send_message wakes the coordinator, whose forward_to_agent reaches
the step's next model turn as user content naming the sender; every message is delivered or dropped once."""
from runtime.coordinator import CoordinatorSettings
from tests.support.checkpoints import assert_fold_matches_engine
from tests.support.engine_runs import doc, run, run_with_checkpoints, script

FLOW = doc("""
    name: talk
    version: 1
    agents:
      worker: {description: works, model: sim-model}
    steps:
      - {id: work, agent: worker, instructions: Work.}
""")
# The worker's second turn takes 0.1 s, so the coordinator (instant) has forwarded by the third at the latest.
ROUND_TRIP = script("""
    replies:
      work:
        - {tool_calls: [{name: send_message, arguments: {text: "halfway there"}}]}
        - {latency: 0.1, tool_calls: [{name: send_message, arguments: {text: "still at it"}}]}
        - done
      coordinator:
        - when: "from work: halfway there"
          tool_calls:
            - {name: forward_to_agent, arguments: {target_step_id: work, text: "use the cache", kind: context_update}}
        - "nothing to add"
""")
NARRATE = CoordinatorSettings(mode="narrate")


def tool_end(sink, name: str, agent: str | None = None) -> list[dict]:
    return [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end" and e["data"]["tool_name"] == name
            and (agent is None or e.get("agent") == agent)]


async def test_a_forward_is_drained_at_the_steps_next_turn_with_a_header_naming_the_sender():
    result, sink = await run(FLOW, ROUND_TRIP, coordinator=NARRATE)
    assert result.status == "completed", result.reason
    sent = sink.of_type("message_sent")
    assert [(e["stepId"], e["data"]["id"], e["data"]["to"]) for e in sent] == [
        ("work", "msg-send-1", "coordinator"), ("work", "msg-send-3", "coordinator")]
    [forward] = sink.of_type("coordinator_message")
    assert forward["stepId"] == "work" and forward["data"]["id"] == "msg-fwd-2"  # one counter with msg-send
    assert forward["data"]["kind"] == "context_update"
    [drained] = sink.of_type("agent_inbox_drain")
    assert drained["stepId"] == "work" and drained["data"]["sender"] == "coordinator"
    assert drained["data"]["id"] == "msg-fwd-2" and drained["data"]["turn"] in (2, 3)
    turn = drained["data"]["turn"]
    request = [e for e in sink.of_type("agent_turn") if e.get("stepId") == "work" and e["data"]["phase"] == "request"
               ][turn - 1]
    assert request["data"]["input"][-1] == "[Message from coordinator, context_update (msg-fwd-2)]\nuse the cache"
    assert request["seq"] > drained["seq"] > forward["seq"]
    assert [e["data"]["output"] for e in tool_end(sink, "send_message")] == ["queued: msg-send-1", "queued: msg-send-3"]
    assert [e["data"]["output"] for e in tool_end(sink, "forward_to_agent")] == ["queued: msg-fwd-2"]


async def test_the_coordinator_reads_lifecycle_notices_and_messages():
    _result, sink = await run(FLOW, ROUND_TRIP, coordinator=NARRATE)
    read = sink.of_type("coordinator_inbox_message")
    assert [(e["data"]["source"], e["data"]["text"]) for e in read] == [("message", "halfway there"),
                                                                          ("message", "still at it")]
    told = "\n".join(i for e in sink.of_type("agent_turn") if e.get("agent") == "coordinator"
                     and e["data"]["phase"] == "request" for i in e["data"]["input"])
    assert "- work started" in told and "- message msg-send-1 from work: halfway there" in told
    assert "- work completed: done" in told


async def test_a_message_still_in_the_coordinators_inbox_at_the_end_is_read_by_its_last_wake():
    _result, sink = await run(FLOW, ROUND_TRIP, coordinator=NARRATE)
    read_ids = [e["data"].get("id") for e in sink.of_type("coordinator_inbox_message")]
    assert {"msg-send-1", "msg-send-3"} <= set(read_ids)
    assert sink.of_type("message_dropped") == []


async def test_a_forward_to_a_step_that_ends_without_reading_it_is_dropped_as_target_terminal():
    late = script("""
        replies:
          work: [{latency: 0.1, tool_calls: [{name: send_message, arguments: {text: "hi"}}]}, done]
          coordinator:
            - {when: "work started", tool_calls: [{name: forward_to_agent, arguments: {target_step_id: work, text: a}}]}
            - {when: "from work: hi", latency: 0.1,
               tool_calls: [{name: forward_to_agent, arguments: {target_step_id: work, text: b}}]}
    """)
    _result, sink = await run(FLOW, late, coordinator=NARRATE)
    drained = [e["data"]["text"] for e in sink.of_type("agent_inbox_drain")]
    dropped = [(e["data"]["text"], e["data"]["reason"], e["stepId"]) for e in sink.of_type("message_dropped")]
    # "a" arrived during the first turn and was read at the second; "b" came after the step had ended.
    assert drained == ["a"]
    assert dropped == [("b", "target-terminal", "work")]


async def test_the_coordinators_turns_count_in_the_runs_tokens_and_checkpoints():
    result, sink, taken = await run_with_checkpoints(FLOW, ROUND_TRIP, coordinator=NARRATE)
    responses = [e for e in sink.of_type("agent_turn") if e["data"]["phase"] == "response"]
    mine = [e for e in responses if e.get("agent") == "coordinator"]
    assert mine and all("stepId" not in e for e in mine)
    assert result.tokens["total"] == sum(e["tokens"]["total"] for e in responses)
    assert mine[0]["data"]["model"] == "sim-model"  # the first agent's model by default
    assert_fold_matches_engine(sink.events, taken)
