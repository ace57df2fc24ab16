import io
import json

from runtime.events import Emitter, ListSink, NdjsonSink, PrintSink, format_duration, rfc3339
from tests.support.engine_runs import doc, run, script


def test_durations_are_go_style():
    assert format_duration(1.2344) == "1.234s"
    assert format_duration(0.25) == "250ms"
    assert format_duration(0) == "0s"
    assert format_duration(90) == "1m30s"
    assert format_duration(3725.5) == "1h2m5.5s"


def test_timestamps_are_rfc3339_utc():
    assert rfc3339(0) == "1970-01-01T00:00:00.000Z"


async def test_the_emitter_numbers_events_and_stamps_the_envelope():
    sink = ListSink()
    emitter = Emitter("run-1", sink, clock=lambda: 0.0)
    await emitter.emit("message", step_id="a", message="hi", data=None)
    await emitter.emit("message")
    assert sink.events[0] == {"type": "message", "seq": 1, "timestamp": "1970-01-01T00:00:00.000Z",
                              "runId": "run-1", "stepId": "a", "message": "hi"}
    assert sink.events[1]["seq"] == 2


async def test_ndjson_sink_writes_one_json_object_per_line():
    out = io.StringIO()
    await run(doc("name: x\nsteps: [{id: a, instructions: hi}]"), sink=NdjsonSink(out))
    lines = out.getvalue().splitlines()
    events = [json.loads(line) for line in lines]
    assert events[0]["type"] == "workflow_start" and events[-1]["type"] == "workflow_end"
    assert [e["seq"] for e in events] == list(range(1, len(lines) + 1))


async def test_print_sink_shows_steps_loops_and_verdicts_readably():
    out = io.StringIO()
    d = doc("""
        name: readable
        agents:
          judge: {description: "J.", resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}}
        steps:
          - id: loop
            instructions: "Work."
            loop: {maxIterations: 2, untilAgent: judge}
    """)
    await run(d, script("replies: {judge: [{result: {done: true, reason: 'looks right'}}]}"), sink=PrintSink(out))
    text = out.getvalue()
    assert "▶ readable: 1 steps" in text
    # Rounds read 1-based with the format's id beside (docs/format.md "Numbering"), as on every page.
    assert "↻ loop round 1 (loop.0)" in text
    assert "↺ loop round 1 (loop.0) completed" in text
    assert "judge after round 1 (loop.0): done (looks right)" in text
    assert "iteration 0" not in text and "round 0" not in text
    assert "loop ended after 1 round: judge" in text
    assert "✓ loop completed" in text and "[1/1]" in text
    assert text.strip().splitlines()[-1].startswith("■ completed")


async def test_print_sink_counts_foreach_items_from_one_with_the_id_beside():
    out = io.StringIO()
    d = doc("""
        name: items
        steps:
          - id: each
            instructions: "Check {{item}}."
            loop: {forEach: [a, b]}
    """)
    await run(d, sink=PrintSink(out))
    text = out.getvalue()
    assert "↻ each item 1 (each[0])" in text and "↺ each item 2 (each[1]) completed" in text
    assert "item 0" not in text and "item 3" not in text


async def test_inner_steps_are_addressed_by_namespaced_ids():
    d = doc("""
        name: ns
        steps:
          - id: dev
            loop:
              maxIterations: 3
              steps:
                - {id: review, instructions: "Review."}
          - id: deploy-each
            loop:
              forEach: [a, b]
              steps:
                - {id: verify, instructions: "Verify."}
          - id: single
            instructions: "One."
            loop: {forEach: [a]}
    """)
    _, sink = await run(d)
    ids = {e["stepId"] for e in sink.of_type("step_start")}
    assert {"dev.2.review", "deploy-each[0].verify", "deploy-each[1].verify", "single[0]"} <= ids


async def test_the_assembled_prompt_is_recorded_in_the_agent_turn_request():
    _, sink = await run(doc("name: x\ndescription: The goal.\nsteps: [{id: a, instructions: Do the thing.}]"))
    request = sink.of_type("agent_turn")[0]
    assert request["data"]["phase"] == "request" and request["data"]["turn"] == 1
    assert "## Goal\nThe goal." in request["data"]["prompt"]["user"]
    assert "## Task\nDo the thing." in request["data"]["prompt"]["user"]
    assert request["data"]["prompt"]["system"].startswith("You are the agent 'default'")


async def test_simulated_replies_stream_as_output_deltas():
    _, sink = await run(doc("name: x\nsteps: [{id: a, instructions: hi}]"),
                        script("replies: {a: ['a reply long enough to arrive in several pieces']}"))
    outputs = sink.of_type("output")
    assert len(outputs) > 2
    assert "".join(e.get("delta", "") for e in outputs) == "a reply long enough to arrive in several pieces"
    assert outputs[-1]["done"] is True


async def test_tools_of_a_run_without_a_workspace_are_warned_about_once_at_start_and_do_not_fail_the_run():
    d = doc("""
        name: tools
        agents:
          coder: {description: "Codes.", tools: [bash, write]}
        steps:
          - {id: a, agent: coder, instructions: "Code."}
    """)
    result, sink = await run(d)
    assert result.status == "completed"
    assert [e["type"] for e in sink.events[:3]] == ["workflow_start", "plan_ready", "message"]
    warning = sink.events[2]
    assert warning["data"]["tools"] == ["bash", "write"]
    assert result.warnings == [warning["message"]]
