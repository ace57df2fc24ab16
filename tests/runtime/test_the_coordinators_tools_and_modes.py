"""The coordinator's tools answer as upstream's do (narrate, finalize, forward_to_agent to unknown steps and to
containers), and its modes decide what it is offered: narrate, summary-only (no narrate) and off (no coordinator)."""
import pytest

from runtime.coordinator import CoordinatorSettings
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: modes
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: first, agent: worker, instructions: Work.}
      - {id: second, agent: worker, instructions: Work more., dependsOn: [first]}
""")


def coordinator_says(*replies: str) -> dict:
    return script("replies:\n  coordinator:\n" + "".join(f"    - {r}\n" for r in replies))


def answers(sink, name: str) -> list[str]:
    return [e["data"]["output"] for e in sink.of_type("tool_call")
            if e["data"]["phase"] == "end" and e["data"]["tool_name"] == name]


def offered(sink) -> list[str]:
    first = next(e for e in sink.of_type("agent_turn") if e.get("agent") == "coordinator")
    return first["data"]["tools"]


async def test_narrate_answers_narrated_with_one_narration_event():
    replies = coordinator_says('{when: "first started", tool_calls: [{name: narrate, arguments: {text: "First is off."}}]}',
                               '"ok"')
    _result, sink = await run(FLOW, replies, coordinator=CoordinatorSettings())
    assert answers(sink, "narrate") == ["narrated"]
    [narration] = sink.of_type("coordinator_narration")
    assert narration["data"]["text"] == "First is off." and narration["message"] == "First is off."


async def test_the_last_finalize_is_the_runs_summary():
    replies = coordinator_says(
        '{when: "first started", tool_calls: [{name: finalize, arguments: {summary: "early guess"}}]}',
        '{when: "have all ended", tool_calls: [{name: finalize, arguments: {summary: "Both steps done."}}]}', '"ok"')
    result, sink = await run(FLOW, replies, coordinator=CoordinatorSettings())
    assert answers(sink, "finalize") == ["finalized", "finalized"]
    assert [e["data"]["summary"] for e in sink.of_type("coordinator_synthesis")] == ["early guess", "Both steps done."]
    assert result.summary == "Both steps done."
    assert sink.events[-1]["data"]["summary"] == "Both steps done."


async def test_without_finalize_its_last_text_stands_in_for_the_synthesis():
    result, sink = await run(FLOW, coordinator_says('{when: "have all ended", content: "All went well."}', '"ok"'),
                             coordinator=CoordinatorSettings())
    [synthesis] = sink.of_type("coordinator_synthesis")
    assert synthesis["data"] == {"summary": "All went well.", "source": "reply"}
    assert result.summary == "All went well."


async def test_an_unknown_step_is_dropped_and_answered_with_the_ids_it_can_target():
    replies = coordinator_says(
        '{when: "first started", tool_calls: [{name: forward_to_agent, arguments: {target_step_id: nope, text: hi}}]}',
        '"ok"')
    script_first = {"first": [{"latency": 0.1, "content": "done"}]}
    replies["replies"].update(script_first)
    _result, sink = await run(FLOW, replies, coordinator=CoordinatorSettings())
    [answer] = answers(sink, "forward_to_agent")
    assert answer.startswith('dropped: unknown-step. No running step has the id "nope". Ids you can target now: first.')
    [dropped] = sink.of_type("message_dropped")
    assert dropped["data"]["reason"] == "unknown-step" and dropped["data"]["to"] == "nope"
    assert "stepId" not in dropped  # it sits on its sender, the coordinator, which is no step


async def test_a_container_is_rejected_and_its_content_kept_as_a_narration():
    looped = doc("""
        name: looped
        version: 1
        agents:
          worker: {description: works}
        steps:
          - id: batch
            loop:
              forEach: [1]
              steps:
                - {id: item, agent: worker, instructions: Work.}
    """)
    replies = script("""
        replies:
          batch[0].item: [{latency: 0.1, content: done}]
          coordinator:
            - when: "batch[0].item started"
              tool_calls: [{name: forward_to_agent, arguments: {target_step_id: batch, text: "for the batch"}}]
            - ok
    """)
    _result, sink = await run(looped, replies, coordinator=CoordinatorSettings())
    [answer] = answers(sink, "forward_to_agent")
    assert answer.startswith('rejected: "batch" is a loop or include container') and "batch[0].item" in answer
    assert sink.of_type("message_dropped") == []
    [narration] = sink.of_type("coordinator_narration")
    assert narration["data"]["text"] == "for the batch" and narration["data"]["rejected_target"] == "batch"


async def test_summary_only_offers_no_narrate_and_refuses_it():
    replies = coordinator_says('{when: "first started", tool_calls: [{name: narrate, arguments: {text: "x"}}]}', '"ok"')
    _result, sink = await run(FLOW, replies, coordinator=CoordinatorSettings(mode="summary-only"))
    assert offered(sink) == ["forward_to_agent", "finalize"]
    assert sink.of_type("coordinator_narration") == []
    [refused] = [e for e in sink.of_type("agent_turn") if e.get("agent") == "coordinator"
                 and e["data"]["phase"] == "request" and any("not available" in i for i in e["data"]["input"])]
    assert refused


async def test_narrate_mode_offers_all_three_tools():
    _result, sink = await run(FLOW, coordinator_says('"ok"'), coordinator=CoordinatorSettings())
    assert offered(sink) == ["forward_to_agent", "narrate", "finalize"]


@pytest.mark.parametrize("settings", [None, CoordinatorSettings(mode="off")], ids=["none", "off"])
async def test_off_means_no_coordinator_no_cost_and_no_coordinator_events(settings):
    result, sink = await run(FLOW, coordinator_says('"ok"'), coordinator=settings)
    assert [e for e in sink.events if e.get("agent") == "coordinator" or e["type"].startswith("coordinator")] == []
    assert result.summary == ""


async def test_an_unknown_mode_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="narrate, summary-only, off"):
        CoordinatorSettings(mode="loud")  # type: ignore[arg-type]


async def test_a_failing_coordinator_model_is_said_and_the_run_goes_on():
    result, sink = await run(FLOW, coordinator_says('{error: "upstream 503"}'), coordinator=CoordinatorSettings())
    assert result.status == "completed"
    warnings = [e["message"] for e in sink.of_type("message") if "coordinator: wake" in e.get("message", "")]
    assert warnings and "upstream 503" in warnings[0]
