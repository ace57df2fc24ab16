import asyncio
import contextlib
import threading

from runtime.engine import RunControl
from runtime.events import ListSink
from tests.support.engine_runs import doc, ids_of, run, script

CHAIN = """
name: chain
steps:
  - id: one
    instructions: "One."
  - id: two
    dependsOn: [one]
    instructions: "Two."
  - id: three
    dependsOn: [two]
    instructions: "Three."
"""


class HookSink(ListSink):
    """Calls ``hook(event)`` for each event after storing it."""

    def __init__(self, hook):
        super().__init__()
        self.hook = hook

    async def emit(self, event):
        await super().emit(event)
        self.hook(event)


async def _resume_later(control: RunControl, sink: ListSink, seen: dict) -> None:
    while control.state != "paused":
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.05)
    seen["started_while_paused"] = [e["stepId"] for e in sink.events if e["type"] == "step_start"]
    sink.events.append({"type": "resumed"})
    control.resume()


async def test_pause_lets_the_running_step_finish_and_starts_nothing_until_resume():
    control = RunControl()
    sink = HookSink(lambda e: control.pause() if e["type"] == "step_end" and e["stepId"] == "one" else None)
    seen: dict = {}
    resumer = asyncio.create_task(_resume_later(control, sink, seen))
    result, _ = await run(doc(CHAIN), control=control, sink=sink)
    await resumer
    assert result.status == "completed"
    assert seen["started_while_paused"] == ["one"]
    kinds = [(e["type"], e.get("stepId")) for e in sink.events]
    assert kinds.index(("resumed", None)) < kinds.index(("step_start", "two"))
    assert control.state == "finished"


async def test_pause_holds_back_the_next_loop_iteration():
    d = doc("""
        name: loop
        steps:
          - id: poll
            instructions: "Poll."
            loop: {maxIterations: 3}
    """)
    control = RunControl()
    sink = HookSink(lambda e: control.pause() if e["type"] == "iteration_end" and e["data"]["iteration"] == 0 else None)
    seen: dict = {}
    resumer = asyncio.create_task(_resume_later(control, sink, seen))
    result, _ = await run(d, control=control, sink=sink)
    await resumer
    kinds = [(e["type"], e.get("data", {}).get("iteration")) for e in sink.events]
    assert kinds.index(("resumed", None)) < kinds.index(("iteration_start", 1))
    assert result.loops["poll"]["rounds_completed"] == 3


async def test_stop_cancels_running_steps_and_ends_the_run_cancelled():
    control = RunControl()
    sink = HookSink(lambda e: control.stop() if e["type"] == "step_start" and e["stepId"] == "two" else None)
    result, _ = await run(doc(CHAIN), script("replies: {two: [{latency: 30}]}"), control=control, sink=sink)
    assert result.status == "cancelled"
    assert result.code == "stopped"
    assert result.steps["two"].status == "cancelled"
    assert "three" not in ids_of(sink, "step_start")
    end = sink.of_type("workflow_end")[0]
    assert end["data"]["status"] == "cancelled"


async def test_stop_while_paused_ends_the_run():
    control = RunControl()

    def hook(e):
        if e["type"] == "step_end" and e["stepId"] == "one":
            control.pause()
            asyncio.get_running_loop().call_soon(control.stop)

    sink = HookSink(hook)
    result, _ = await run(doc(CHAIN), control=control, sink=sink)
    assert result.status == "cancelled"
    assert "two" not in ids_of(sink, "step_start")


async def test_stop_from_another_thread_goes_through_call_soon_threadsafe():
    control = RunControl()
    loop = asyncio.get_running_loop()

    def hook(e):
        if e["type"] == "step_start" and e["stepId"] == "two":
            threading.Thread(target=lambda: loop.call_soon_threadsafe(control.stop)).start()

    result, _ = await run(doc(CHAIN), script("replies: {two: [{latency: 30}]}"), control=control, sink=HookSink(hook))
    assert result.status == "cancelled"


async def test_cancelling_the_run_task_from_outside_still_ends_the_stream():
    sink = ListSink()
    task = asyncio.create_task(run(doc(CHAIN), script("replies: {one: [{latency: 30}]}"), sink=sink))
    while not sink.of_type("step_start"):
        await asyncio.sleep(0.001)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert sink.events[-1]["type"] == "workflow_end"
    assert sink.events[-1]["data"]["status"] == "cancelled"


async def test_pause_holds_back_forEach_items_not_yet_started():
    d = doc("""
        name: fan
        steps:
          - id: each
            instructions: "Handle."
            loop: {forEach: [a, b, c, d], maxConcurrency: 2}
    """)
    control = RunControl()
    sink = HookSink(lambda e: control.pause() if e["type"] == "iteration_end" and e["data"]["index"] == 0 else None)
    seen: dict = {}
    resumer = asyncio.create_task(_resume_later(control, sink, seen))
    result, _ = await run(d, control=control, sink=sink)
    await resumer
    kinds = [(e["type"], e.get("data", {}).get("index")) for e in sink.events]
    resumed = kinds.index(("resumed", None))
    assert resumed < kinds.index(("iteration_start", 2)) and resumed < kinds.index(("iteration_start", 3))
    assert result.loops["each"]["rounds_completed"] == 4


async def test_time_spent_paused_is_left_out_of_step_and_iteration_durations():
    d = doc("""
        name: loop
        steps:
          - id: refine
            loop:
              maxIterations: 1
              steps:
                - id: a
                  instructions: "A."
                - id: b
                  dependsOn: [a]
                  instructions: "B."
    """)
    control = RunControl()
    sink = HookSink(lambda e: control.pause() if e["type"] == "step_start" and e["stepId"] == "refine.0.a" else None)

    async def resume_after_half_a_second():
        while control.state != "paused":
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.5)
        control.resume()

    resumer = asyncio.create_task(resume_after_half_a_second())
    started = asyncio.get_running_loop().time()
    result, _ = await run(d, script("latency: 0.02\nreplies: {'*': ['ok']}"), control=control, sink=sink)
    await resumer
    wall = asyncio.get_running_loop().time() - started
    assert result.status == "completed" and wall >= 0.5
    end = sink.of_type("iteration_end")[0]
    assert end["durationMs"] < 300, end
    assert end["duration"].endswith("s") and not end["duration"].startswith("0.5")


async def test_pause_resume_and_stop_are_events_in_the_run_log():
    control = RunControl()
    sink = HookSink(lambda e: control.pause() if e["type"] == "step_end" and e["stepId"] == "one" else None)
    seen: dict = {}
    resumer = asyncio.create_task(_resume_later(control, sink, seen))
    await run(doc(CHAIN), control=control, sink=sink)
    await resumer
    actions = [e["data"]["action"] for e in sink.events if e["type"] == "run_control"]
    assert actions == ["pause", "resume"]
    paused = next(e for e in sink.events if e["type"] == "run_control")
    assert "paused" in paused["message"] and paused["seq"] < sink.of_type("workflow_end")[0]["seq"]


async def test_a_pause_asked_before_the_engine_starts_is_recorded_too():
    # A run is claimed (status running, its control reachable) before run_workflow starts: under load, seconds.
    control = RunControl()
    control.request("pause", "member")
    sink = ListSink()
    resumer = asyncio.create_task(_resume_later(control, sink, {}))
    await run(doc(CHAIN), control=control, sink=sink)
    await resumer
    recorded = [(e["data"]["action"], e["data"].get("actor")) for e in sink.events if e["type"] == "run_control"]
    assert recorded == [("pause", "member"), ("resume", "member")]
