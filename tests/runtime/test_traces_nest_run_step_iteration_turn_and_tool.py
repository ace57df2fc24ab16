"""OpenTelemetry traces made from a run's events (runtime/live/tracing.py), received by an OTLP/HTTP collector on
loopback: one trace per run, spans nested run > loop step > iteration > inner step > model turn > tool call, with
upstream's names and attributes and the GenAI conventions on model calls; the coordinator's wakes beside the steps.
A collector that is not there costs the run nothing: it completes, and the spans it could not send are counted."""
from runtime.coordinator import CoordinatorSettings
from runtime.events import ListSink
from runtime.live.tracing import Tracing
from tests.fakes.otlp import FakeCollector, closed_port_url
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: traced
    version: 1
    agents:
      worker: {description: works, model: gpt-4o}
    steps:
      - {id: prep, agent: worker, instructions: Prep.}
      - id: refine
        dependsOn: [prep]
        loop:
          maxIterations: 2
          steps:
            - {id: draft, agent: worker, instructions: Draft.}
""")
REPLIES = script("""
    replies:
      prep: [{tool_calls: [{name: send_message, arguments: {text: ready}}]}, done]
      refine.0.draft: [{tool_calls: [{name: send_message, arguments: {text: one}}], tokens: {prompt: 11, completion: 7}}, done]
      refine.1.draft: [{tool_calls: [{name: send_message, arguments: {text: two}}], tokens: {prompt: 11, completion: 7}}, done]
      coordinator: [{tool_calls: [{name: narrate, arguments: {text: noted}}]}, ok]
""")


def by_id(spans):
    return {s.span_id: s for s in spans}


def chain(span, spans) -> list[str]:
    """The names from ``span`` up to its root."""
    index = by_id(spans)
    names = [span.name]
    while span.parent_span_id:
        span = index[span.parent_span_id]
        names.append(span.name)
    return names


async def traced_run(tracing: Tracing, trace_id: str | None = None, **kw):
    sink = tracing.sink(ListSink(), trace_id)
    result, _ = await run(FLOW, REPLIES, sink=sink, coordinator=CoordinatorSettings(max_wake_cycles=4), **kw)
    sink.close()
    return result, sink


async def test_a_run_is_one_trace_nested_from_the_run_down_to_each_tool_call():
    with FakeCollector() as collector:
        tracing = Tracing(collector.url, schedule_delay_ms=50)
        trace_id = tracing.new_trace_id()
        result, sink = await traced_run(tracing, trace_id)
        assert result.status == "completed", result.reason
        assert tracing.flush(30)
        spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans))
    assert {s.trace_id for s in spans} == {trace_id}
    assert sink.trace_id_hex == trace_id
    root = next(s for s in spans if s.name == "zenflow.flow")
    assert root.parent_span_id == ""
    assert root.attributes["zenflow.workflow.name"] == "traced"
    assert root.attributes["zenflow.status"] == "completed"
    assert "plan_ready" in root.events
    assert root.resource["service.name"] == "loop-designer"

    tools = [s for s in spans if s.name == "goai.tool" and s.attributes.get("zenflow.step.id", "").startswith("refine.")]
    assert len(tools) == 2  # one per iteration
    for tool in tools:
        assert chain(tool, spans) == ["goai.tool", "goai.generate", "zenflow.step", "zenflow.loop.iteration",
                                      "zenflow.loop", "zenflow.flow"]
        assert tool.attributes["gen_ai.tool.name"] == "send_message"
    iterations = sorted(s.attributes["zenflow.loop.iteration"] for s in spans if s.name == "zenflow.loop.iteration")
    assert iterations == [0, 1]
    loop = next(s for s in spans if s.name == "zenflow.loop")
    assert loop.attributes["zenflow.step.id"] == "refine" and loop.attributes["zenflow.loop.type"] == "repeat-until"

    turn = by_id(spans)[tools[0].parent_span_id]
    assert turn.attributes["gen_ai.request.model"] == "gpt-4o"
    assert turn.attributes["gen_ai.operation.name"] == "chat"
    assert turn.attributes["gen_ai.usage.input_tokens"] == 11
    assert turn.attributes["gen_ai.usage.output_tokens"] == 7
    assert turn.attributes["gen_ai.response.finish_reasons"] == ["tool_calls"]
    prep = next(s for s in spans if s.name == "zenflow.step" and s.attributes["zenflow.step.id"] == "prep")
    assert prep.parent_span_id == root.span_id and prep.attributes["zenflow.step.agent"] == "worker"

    wakes = [s for s in spans if s.name == "zenflow.coordinator"]
    assert wakes and all(s.parent_span_id == root.span_id for s in wakes)
    narrate = next(s for s in spans if s.name == "goai.tool" and s.attributes["gen_ai.tool.name"] == "narrate")
    assert chain(narrate, spans)[-3:] == ["goai.generate", "zenflow.coordinator", "zenflow.flow"]
    assert all(s.end_ns >= s.start_ns > 0 for s in spans)
    assert tracing.failed == 0 and tracing.dropped == 0


async def test_a_resumed_run_goes_on_in_the_same_trace():
    with FakeCollector() as collector:
        tracing = Tracing(collector.url, schedule_delay_ms=50)
        trace_id = tracing.new_trace_id()
        await traced_run(tracing, trace_id)
        await traced_run(tracing, trace_id)
        assert tracing.flush(30)
        spans = collector.wait_for(lambda spans: sum(s.name == "zenflow.flow" for s in spans) == 2)
    assert {s.trace_id for s in spans} == {trace_id}


async def test_a_dead_collector_neither_fails_nor_holds_the_run_and_its_lost_spans_are_counted():
    tracing = Tracing(closed_port_url(), timeout_s=1, max_queue_size=8, schedule_delay_ms=50)
    result, sink = await traced_run(tracing)
    assert result.status == "completed", result.reason
    assert sink.inner.of_type("workflow_end")  # every event still reached the run's own sink
    assert tracing.dropped > 0  # more spans than the queue holds: the oldest were dropped, and counted
    tracing.flush(30)
    assert tracing.exported == 0


async def test_a_single_step_loops_items_are_one_span_each_with_their_turns_under_them():
    each = doc("""
        name: fan out
        version: 1
        agents:
          worker: {description: works}
        steps:
          - {id: each, agent: worker, instructions: "Item {{ item }}.", loop: {forEach: [a, b, c], maxConcurrency: 2}}
    """)
    with FakeCollector() as collector:
        tracing = Tracing(collector.url, schedule_delay_ms=50)
        sink = tracing.sink(ListSink())
        result, _ = await run(each, {"replies": {"*": ["ok"]}}, sink=sink)
        assert result.status == "completed", result.reason
        assert tracing.flush(30)
        spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans))
    items = [s for s in spans if s.name == "zenflow.loop.iteration"]
    assert sorted(s.attributes["zenflow.loop.iteration"] for s in items) == [0, 1, 2]
    assert all(s.attributes["zenflow.step.agent"] == "worker" and s.attributes["zenflow.status"] == "completed"
               for s in items)
    turns = [s for s in spans if s.name == "goai.generate"]
    assert len(turns) == 3
    assert all(chain(t, spans) == ["goai.generate", "zenflow.loop.iteration", "zenflow.loop", "zenflow.flow"]
               for t in turns)
    assert not [s for s in spans if s.name == "zenflow.step"]  # each item's body is its iteration
