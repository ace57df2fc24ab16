"""Every step agent has upstream's send_message; in a run without a coordinator (upstream's --quiet) it answers
`dropped: no-coordinator`, which is an answer, not an error, and no message_dropped event."""
from runtime.events import ListSink
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: quiet
    version: 1
    agents:
      worker: {description: works, tools: [read]}
    steps:
      - {id: work, agent: worker, instructions: Work.}
""")
SENDS = script("""
    replies:
      work:
        - {tool_calls: [{name: send_message, arguments: {text: halfway}}]}
        - done
""")


def tool_ends(sink: ListSink, name: str) -> list[dict]:
    return [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end" and e["data"]["tool_name"] == name]


async def test_send_message_is_offered_although_the_agent_lists_only_read():
    _result, sink = await run(FLOW, SENDS)
    first = sink.of_type("agent_turn")[0]
    assert "send_message" in first["data"]["tools"]


async def test_without_a_coordinator_it_answers_no_coordinator_and_drops_nothing():
    result, sink = await run(FLOW, SENDS)
    assert result.status == "completed"
    [end] = tool_ends(sink, "send_message")
    assert end["data"]["output"] == "dropped: no-coordinator" and "error" not in end
    assert sink.of_type("message_dropped", "message_sent") == []


async def test_an_agent_that_disallows_it_is_not_offered_it():
    document = doc("""
        name: quiet
        version: 1
        agents:
          worker: {description: works, disallowedTools: [send_message]}
        steps:
          - {id: work, agent: worker, instructions: Work.}
    """)
    _result, sink = await run(document, SENDS)
    assert "send_message" not in (sink.of_type("agent_turn")[0]["data"].get("tools") or [])
    [end] = tool_ends(sink, "send_message")
    assert end["error"].startswith("tool 'send_message' is not available")


async def test_an_empty_text_is_an_error_the_model_reads():
    empty = script("""
        replies:
          work:
            - {tool_calls: [{name: send_message, arguments: {text: "  "}}]}
            - done
    """)
    _result, sink = await run(FLOW, empty)
    [end] = tool_ends(sink, "send_message")
    assert end["data"]["output"] == "error: `text` is required and must be a non-empty string"
