"""After Stop no new model call starts, in any kind of loop: a repeat-until loop whose last inner step is running
(its judge is never asked), a forEach part-way through its items (no later item is asked), and a loop inside a
loop. Each is stopped at three moments of one call: as it is announced (its request event: nothing is sent), while
it is in flight at the provider, and as its reply arrives. The calls are counted at the provider; the run ends
``cancelled`` with the code ``stopped``."""
from __future__ import annotations

import asyncio

import pytest

from runtime.engine import RunControl
from runtime.events import ListSink
from runtime.providers import get_provider
from runtime.providers.script import parse_script
from tests.support.documents import judge_loop
from tests.support.engine_runs import doc, run

DEADLINE_S = 60
SLOW_S = 30  # every call takes this long: the run ending long before shows the call in flight was cut short
NOT_YET = {"result": {"done": False, "reason": "more"}}
DONE = {"result": {"done": True, "reason": "ok"}}
MOMENTS = ("as it is announced", "in flight", "as its reply arrives")


class Stopper:
    """The provider the run calls, counting the calls it passes on by step path, and the sink its events go to:
    the run is stopped at the chosen moment of the first call ``at(step_path)`` holds for."""

    def __init__(self, script: dict, at, moment: str) -> None:
        self.inner = get_provider("simulated", script=parse_script(script))
        self.at, self.moment = at, moment
        self.control = RunControl()
        self.sink = _Sink(self)
        self.calls: list[str] = []
        self.calls_at_stop: list[str] | None = None
        self.events_at_stop = 0

    def stop(self) -> None:
        if self.calls_at_stop is None:
            self.calls_at_stop, self.events_at_stop = list(self.calls), len(self.sink.events)
            self.control.request("stop", "ann")

    async def chat(self, request, on_delta=None):
        self.calls.append(request.step_path)
        if self.moment == "in flight" and self.at(request.step_path):
            self.stop()
        return await self.inner.chat(request, on_delta)

    def __getattr__(self, name):
        return getattr(self.inner, name)

    @property
    def after(self) -> list[str]:
        """The calls that reached the provider after the stop."""
        return self.calls[len(self.calls_at_stop or []):]

    def events_after(self, type_: str) -> list[dict]:
        return [e for e in self.sink.events[self.events_at_stop:] if e["type"] == type_]


class _Sink(ListSink):
    def __init__(self, stopper: Stopper) -> None:
        super().__init__()
        self.stopper = stopper

    async def emit(self, event):
        await super().emit(event)
        phase = {"as it is announced": "request", "as its reply arrives": "response"}.get(self.stopper.moment)
        if event["type"] == "agent_turn" and event["data"]["phase"] == phase and self.stopper.at(event.get("stepId")):
            self.stopper.stop()


def slow(reply) -> dict:
    """``reply``, taking SLOW_S to come back (cut short by the stop)."""
    return {**({"content": reply} if isinstance(reply, str) else reply), "latency": SLOW_S}


async def stopped_run(document: str, script: dict, at, moment: str) -> Stopper:
    """Run ``document`` with ``script``, stopped at ``moment`` of the first call ``at`` holds for."""
    stopper = Stopper(script, at, moment)
    started = asyncio.get_running_loop().time()
    result, _ = await asyncio.wait_for(run(doc(document), providers={"simulated": stopper}, control=stopper.control,
                                           sink=stopper.sink), DEADLINE_S)
    assert stopper.calls_at_stop is not None, "the run never reached the point the test stops it at"
    assert asyncio.get_running_loop().time() - started < SLOW_S, "a call in flight was not cut short"
    assert (result.status, result.code) == ("cancelled", "stopped"), (result.status, result.code, result.reason)
    end = stopper.sink.events[-1]
    assert end["type"] == "workflow_end" and end["data"]["status"] == "cancelled"
    assert stopper.after == [], f"called after the stop: {stopper.after}"
    assert not stopper.events_after("iteration_start"), "an iteration started after the stop"
    assert not [e for e in stopper.events_after("agent_turn") if e["data"]["phase"] == "request"], \
        "a call was announced after the stop"
    return stopper


def sent(path: str, moment: str) -> list[str]:
    """What the provider had by the stop: the stopped call itself unless it was stopped as it was announced."""
    return [] if moment == "as it is announced" else [path]


@pytest.mark.parametrize("moment", MOMENTS)
async def test_a_stop_during_a_rounds_last_step_never_asks_the_judge(moment):
    # Round 0 is judged (not done); the stop comes at round 1's draft, the round's last inner step.
    script = {"replies": {"draft": ["one", "two"], "judge": [NOT_YET, DONE]},
              "latency": SLOW_S if moment == "in flight" else 0}
    if moment == "in flight":
        script["replies"]["draft"] = [{"content": "one", "latency": 0}, "two"]
        script["replies"]["judge"] = [{**NOT_YET, "latency": 0}, DONE]
    stopper = await stopped_run(judge_loop("judged", 3), script, lambda path: path == "dev.1.draft", moment)
    assert stopper.calls_at_stop == ["dev.0.draft", "dev.0.untilAgent", *sent("dev.1.draft", moment)]
    assert not [e for e in stopper.sink.events if e["type"] == "judge_verdict" and e["data"].get("iteration") == 1]


FAN = """
name: fan
steps:
  - id: each
    instructions: "Handle {{item}}."
    loop: {forEach: [a, b, c, d, e], maxConcurrency: 1}
"""


@pytest.mark.parametrize("moment", MOMENTS)
async def test_a_stop_part_way_through_a_forEach_asks_no_later_item(moment):
    # Items 0 and 1 answer at once, item 2 is where the stop comes (slowly, when the stop comes in flight).
    script = {"replies": {"each[2]": [slow("c done") if moment == "in flight" else "c done"], "*": ["done"]}}
    stopper = await stopped_run(FAN, script, lambda path: path == "each[2]", moment)
    assert stopper.calls_at_stop == ["each[0]", "each[1]", *sent("each[2]", moment)]
    ended = [e["data"]["index"] for e in stopper.sink.events if e["type"] == "iteration_end"
             and e["data"].get("status") == "completed"]
    assert ended in ([0, 1], [0, 1, 2])  # item 2's answer, once it came back, may still count
    assert [e["data"]["index"] for e in stopper.sink.events if e["type"] == "iteration_start"] == [0, 1, 2]


NESTED = """
name: nested
agents:
  writer: {description: Writes.}
  judge:
    description: Judges.
    resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}
steps:
  - id: each
    loop:
      forEach: [a, b, c]
      maxConcurrency: 1
      steps:
        - id: dev
          loop:
            maxIterations: 3
            untilAgent: judge
            steps:
              - id: draft
                agent: writer
                instructions: Draft {{item}}.
"""


@pytest.mark.parametrize("moment", MOMENTS)
async def test_a_stop_inside_a_loop_inside_a_loop_asks_neither_the_judge_nor_the_next_item(moment):
    # Item 0's loop passes at once; item 1's first draft is where the stop comes.
    second = slow("b draft") if moment == "in flight" else "b draft"
    script = {"replies": {"draft": ["a draft", second], "judge": [DONE]}}
    stopper = await stopped_run(NESTED, script, lambda path: path.startswith("each[1]") and path.endswith("draft"),
                                moment)
    first = stopper.calls_at_stop[:2]
    assert [p.rsplit(".", 1)[-1] for p in first] == ["draft", "untilAgent"] and first[0].startswith("each[0]"), first
    assert stopper.calls_at_stop[2:] == sent("each[1].dev.0.draft", moment)
    assert not any(p.startswith("each[1]") and p.endswith("untilAgent") for p in stopper.calls)
