"""A run stopped while a message waits in a step's mailbox drops it once, as workflow-cancelled."""
from runtime.coordinator import CoordinatorSettings
from runtime.engine import RunControl
from runtime.events import ListSink
from tests.support.engine_runs import doc, run, script


class StopAfterForward(ListSink):
    def __init__(self, control: RunControl) -> None:
        super().__init__()
        self.control = control

    async def emit(self, event):
        await super().emit(event)
        if event["type"] == "coordinator_message":
            self.control.request("stop", "ann")


async def test_the_pending_forward_is_dropped_as_workflow_cancelled():
    control = RunControl()
    sink = StopAfterForward(control)
    replies = script("""
        replies:
          work: [{latency: 0.5, content: slow}]
          coordinator:
            - {when: "work started", tool_calls: [{name: forward_to_agent, arguments: {target_step_id: work, text: hurry}}]}
    """)
    document = doc("name: s\nversion: 1\nsteps:\n  - {id: work, instructions: Work.}\n")
    result, _ = await run(document, replies, control=control, sink=sink, coordinator=CoordinatorSettings())
    assert result.status == "cancelled"
    dropped = [(e["data"]["text"], e["data"]["reason"]) for e in sink.of_type("message_dropped")]
    assert dropped == [("hurry", "workflow-cancelled")]
