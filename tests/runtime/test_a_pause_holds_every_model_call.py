"""After Pause no new model call of any kind starts and a paused run never ends by itself: the call in flight
finishes, then the judge, an agent's next turn, a retry and the run's own end all wait for Resume (or Stop)."""
from __future__ import annotations

import asyncio

import pytest

from runtime.engine import RunControl
from runtime.events import ListSink
from tests.support.documents import judge_loop
from tests.support.engine_runs import doc, run

DEADLINE_S = 60


class PauseOn(ListSink):
    """Pauses the run at the first event ``when(event)`` is true for; records every event."""

    def __init__(self, control: RunControl, when) -> None:
        super().__init__()
        self.control, self.when, self.fired = control, when, False

    async def emit(self, event):
        await super().emit(event)
        if not self.fired and self.when(event):
            self.fired = True
            self.control.request("pause", "ann")


async def settle_then(sink: ListSink, settled, then) -> list[dict]:
    """Once the run is paused and ``settled(events)`` holds, let the loop turn many times (anything that would start
    now has every chance to), then ``then()``; answers the events seen up to then."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_S
    while not (sink.fired and settled(sink.events)):
        assert asyncio.get_running_loop().time() < deadline, "the run never reached the point the test waits for"
        await asyncio.sleep(0.01)
    for _ in range(200):
        await asyncio.sleep(0)
    seen = list(sink.events)
    then()
    return seen


def requests(events: list[dict], agent: str | None = None) -> list[dict]:
    return [e for e in events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"
            and (agent is None or e.get("agent") == agent)]


async def test_a_pause_during_a_rounds_last_step_holds_the_judge_until_resume():
    control = RunControl()
    # Paused while the round's last inner step (`draft`, round 0) asks its model.
    sink = PauseOn(control, lambda e: e["type"] == "agent_turn" and e.get("stepId") == "dev.0.draft")
    document = doc(judge_loop("held", 3))
    scripted = {"replies": {"draft": ["one", "two"], "judge": [
        {"result": {"done": False, "reason": "more"}}, {"result": {"done": True, "reason": "ok"}}]}}
    running = asyncio.create_task(run(document, scripted, control=control, sink=sink))
    seen = await settle_then(sink, lambda ev: any(e["type"] == "iteration_end" for e in ev),
                             lambda: control.request("resume", "ann"))
    assert not requests(seen, "judge"), "the judge was asked while the run was paused"
    assert not running.done()
    result, _ = await asyncio.wait_for(running, DEADLINE_S)
    assert result.status == "completed"
    assert len(requests(sink.events, "judge")) == 2  # asked after the resume, round by round


async def test_a_paused_run_whose_last_step_ends_waits_for_resume_to_end():
    control = RunControl()
    sink = PauseOn(control, lambda e: e["type"] == "agent_turn" and e.get("stepId") == "only")
    document = doc("name: one\nsteps:\n  - {id: only, instructions: Go.}\n")
    running = asyncio.create_task(run(document, {"replies": {"only": ["done"]}}, control=control, sink=sink))
    seen = await settle_then(sink, lambda ev: any(e["type"] == "step_end" for e in ev), lambda: None)
    assert not any(e["type"] == "workflow_end" for e in seen)
    assert not running.done(), "a paused run ended by itself"
    control.request("resume", "ann")
    result, _ = await asyncio.wait_for(running, DEADLINE_S)
    assert result.status == "completed"


async def test_a_paused_run_stopped_at_its_end_is_cancelled():
    control = RunControl()
    sink = PauseOn(control, lambda e: e["type"] == "agent_turn" and e.get("stepId") == "only")
    document = doc("name: one\nsteps:\n  - {id: only, instructions: Go.}\n")
    running = asyncio.create_task(run(document, {"replies": {"only": ["done"]}}, control=control, sink=sink))
    await settle_then(sink, lambda ev: any(e["type"] == "step_end" for e in ev), lambda: control.request("stop", "ann"))
    result, _ = await asyncio.wait_for(running, DEADLINE_S)
    assert result.status == "cancelled"


@pytest.mark.parametrize("kind", ["next turn", "retry"])
async def test_a_pause_holds_an_agents_next_turn_and_a_retry(kind):
    control = RunControl()
    sink = PauseOn(control, lambda e: e["type"] == "agent_turn" and e["data"]["phase"] == "request")
    if kind == "next turn":  # text only where a resultSchema asks for submit_result: the reminder is a second turn
        document = doc("""
            name: reminded
            agents:
              worker:
                description: Works.
                resultSchema: {type: object, required: [ok], properties: {ok: {type: boolean}}}
            steps:
              - {id: work, agent: worker, instructions: Work.}
        """)
        replies = {"work": [{"content": "just words"}, {"result": {"ok": True}}]}
    else:
        document = doc("name: retried\nsteps:\n  - {id: work, instructions: Work., retries: 1}\n")
        replies = {"work": [{"error": "overloaded"}, "finished"]}
    running = asyncio.create_task(run(document, {"replies": replies}, control=control, sink=sink))
    seen = await settle_then(sink, lambda ev: any((e["type"] == "agent_turn" and e["data"]["phase"] == "response")
                                                  or e["type"] == "message" for e in ev),
                             lambda: control.request("resume", "ann"))
    assert len(requests(seen)) == 1, [(e["type"], e.get("stepId")) for e in seen]
    result, after = await asyncio.wait_for(running, DEADLINE_S)
    assert result.status == "completed", result.reason
    assert len(requests(after.events)) == 2
