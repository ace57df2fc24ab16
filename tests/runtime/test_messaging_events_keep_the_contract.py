"""Every messaging and coordinator event the engine emits keeps runtime/contract.py, and the contract's drop reasons
are the router's (upstream's wire strings)."""
from typing import get_args

from runtime import contract
from runtime.coordinator import CoordinatorSettings
from runtime.messaging import DropReason
from tests.support.engine_runs import doc, run, script

MESSAGING_EVENTS = {"message_sent", "coordinator_message", "agent_inbox_drain", "coordinator_inbox_message",
                    "message_dropped", "coordinator_narration", "coordinator_synthesis", "max_wake_cycles_warning"}


def test_the_drop_reasons_are_the_routers():
    reason = contract.MessageDroppedData.model_fields["reason"].annotation
    assert set(get_args(reason)) == {r.value for r in DropReason}


async def test_a_busy_run_emits_every_messaging_event_and_each_keeps_the_contract():
    document = doc("""
        name: busy
        version: 1
        agents:
          worker: {description: works}
        steps:
          - {id: a, agent: worker, instructions: Work.}
          - {id: b, agent: worker, instructions: Work., dependsOn: [a]}
    """)
    replies = script("""
        replies:
          a:
            - {latency: 0.05, tool_calls: [{name: send_message, arguments: {text: one}}]}
            - {latency: 0.05, tool_calls: [{name: send_message, arguments: {text: two}}]}
            - done
          b: [{latency: 0.05, tool_calls: [{name: send_message, arguments: {text: three}}]}, done]
          coordinator:
            - when: "a started"
              tool_calls:
                - {name: narrate, arguments: {text: "a is off"}}
                - {name: forward_to_agent, arguments: {target_step_id: a, text: hint, kind: context_update}}
                - {name: forward_to_agent, arguments: {target_step_id: ghost, text: lost}}
                - {name: finalize, arguments: {summary: early}}
            - ok
    """)
    _result, sink = await run(document, replies, coordinator=CoordinatorSettings(max_wake_cycles=3))
    for event in sink.events:
        contract.check(event)
    assert {e["type"] for e in sink.events} >= MESSAGING_EVENTS
