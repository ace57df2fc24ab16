"""The coordinator's model calls are the run's like any other: none starts while the run is paused, and their
tokens count against the run's budget, whose crossing ends the run."""
import asyncio

from runtime.coordinator import CoordinatorSettings
from runtime.engine import Budgets, RunControl
from runtime.events import ListSink
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: watched
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: work, agent: worker, instructions: Work.}
""")


class PauseAtStart(ListSink):
    def __init__(self, control: RunControl) -> None:
        super().__init__()
        self.control = control

    async def emit(self, event):
        await super().emit(event)
        if event["type"] == "step_start":  # the notice that wakes the coordinator is on its way
            self.control.request("pause", "ann")


def coordinator_requests(events) -> list[dict]:
    return [e for e in events if e["type"] == "agent_turn" and e.get("agent") == "coordinator"
            and e["data"]["phase"] == "request"]


async def test_no_coordinator_call_starts_while_the_run_is_paused():
    control = RunControl()
    sink = PauseAtStart(control)
    replies = script("replies:\n  work: [{latency: 0.05, content: done}]\n  coordinator: [ok]\n")
    running = asyncio.create_task(run(FLOW, replies, control=control, sink=sink, coordinator=CoordinatorSettings()))
    for _ in range(50):
        await asyncio.sleep(0.01)
    assert coordinator_requests(sink.events) == []
    control.request("resume", "ann")
    result, _ = await asyncio.wait_for(running, 30)
    assert result.status == "completed"
    assert coordinator_requests(sink.events)


async def test_its_tokens_count_against_the_runs_token_budget():
    replies = script("""
        replies:
          work: [{latency: 0.05, content: done, tokens: {prompt: 1, completion: 1}}]
          coordinator: [{content: "a long look", tokens: {prompt: 500, completion: 500}}]
    """)
    result, _sink = await run(FLOW, replies, coordinator=CoordinatorSettings(), budgets=Budgets(max_tokens=100))
    assert result.status == "failed" and result.code == "budget:max_tokens"
    assert result.tokens["total"] >= 1000
