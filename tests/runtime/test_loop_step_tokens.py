"""A loop step's ``step_end`` carries the tokens of all its iterations, its judge's included.

Ports upstream's internal/exec/conformance_test.go ``TestUntilAgentLoop`` (worker 2 x (100, 50) and
judge 2 x (50, 25): the loop step's tokens are (300, 150), the run's the same) and foreach_test.go
``TestExecutor_ForEach_StaticArray`` (three items of (10, 5): the step's tokens are (30, 15)). Ours also
says what each judge spent on its ``judge_verdict``, and a loop that goes on from a checkpoint counts the
rounds it did not run again.
"""
import json

import pytest

from runtime.engine.checkpoints import Checkpoint, boundaries, fold
from runtime.live.view.state import RunView
from tests.support.checkpoints import assert_fold_matches_engine
from tests.support.engine_runs import doc, run, run_with_checkpoints, script, step_end
from tests.support.ported_workflows import UNTIL_AGENT, UNTIL_AGENT_REPLIES

PRICES = {"gpt-x": (3.0, 15.0)}  # USD per million prompt and completion tokens


def usd(prompt: int, completion: int) -> float:
    return (prompt * 3.0 + completion * 15.0) / 1_000_000


async def test_a_judged_loops_step_end_counts_every_worker_and_judge_turn():
    result, sink = await run(doc(UNTIL_AGENT), UNTIL_AGENT_REPLIES, prices=PRICES)
    assert result.status == "completed" and result.loops["iterate"]["rounds_completed"] == 2
    end = step_end(sink, "iterate")
    assert end["tokens"] == {"prompt": 300, "completion": 150, "total": 450}
    assert result.tokens == end["tokens"]  # a one-step workflow: the run's total is the loop's
    assert end["data"]["cost_usd"] == pytest.approx(usd(300, 150))


async def test_each_verdict_says_what_its_judge_spent():
    _, sink = await run(doc(UNTIL_AGENT), UNTIL_AGENT_REPLIES, prices=PRICES)
    assert [e["tokens"] for e in sink.of_type("judge_verdict")] == [{"prompt": 50, "completion": 25, "total": 75}] * 2
    assert sink.of_type("judge_verdict")[0]["data"]["cost_usd"] == pytest.approx(usd(50, 25))


async def test_a_foreach_steps_tokens_are_its_items_tokens():
    d = doc("""
        name: each
        steps:
          - id: process
            instructions: "Process this item"
            loop: {forEach: [a, b, c]}
    """)
    _, sink = await run(d, script("tokens: {prompt: 10, completion: 5}"))
    assert step_end(sink, "process")["tokens"] == {"prompt": 30, "completion": 15, "total": 45}


async def test_a_multi_step_loop_counts_its_inner_steps_and_judge_but_not_the_steps_around_it():
    d = doc("""
        name: around
        agents:
          judge:
            description: "Judges."
            resultSchema: {type: object, required: [done], properties: {done: {type: boolean}}}
        steps:
          - {id: plan, instructions: "Plan."}
          - id: dev
            dependsOn: [plan]
            loop:
              maxIterations: 3
              untilAgent: judge
              steps:
                - {id: implement, instructions: "Implement."}
                - {id: review, instructions: "Review.", dependsOn: [implement]}
          - {id: ship, dependsOn: [dev], instructions: "Ship."}
    """)
    s = script("""
        replies:
          judge: [{result: {done: false}}, {result: {done: true}}]
        tokens: {prompt: 4, completion: 1}
    """)
    result, sink = await run(d, s)
    # Two rounds of implement and review, and two judges: six replies of 5 tokens.
    assert step_end(sink, "dev")["tokens"] == {"prompt": 24, "completion": 6, "total": 30}
    assert result.tokens["total"] == 30 + 5 + 5  # plan and ship are the run's, not the loop's


async def test_a_loop_that_goes_on_from_a_checkpoint_counts_the_rounds_it_did_not_run_again():
    s = script("""
        replies:
          worker: [{content: "working...", tokens: {prompt: 100, completion: 50}}]
          judge:
            - {result: {done: false}, tokens: {prompt: 50, completion: 25}}
            - {result: {done: false}, tokens: {prompt: 50, completion: 25}}
            - {result: {done: true}, tokens: {prompt: 50, completion: 25}}
    """)
    clean, clean_sink, _ = await run_with_checkpoints(doc(UNTIL_AGENT), s, prices=PRICES)
    assert clean.loops["iterate"]["rounds_completed"] == 3
    after_first = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "verdict")
    checkpoint = Checkpoint.from_dict(json.loads(json.dumps(fold(clean_sink.events, upto=after_first).as_dict())))
    later = {**s, "replies": {**s["replies"], "judge": s["replies"]["judge"][1:]}}
    _resumed, sink, taken = await run_with_checkpoints(doc(UNTIL_AGENT), later, start=checkpoint, prices=PRICES)
    assert_fold_matches_engine(sink.events, taken, checkpoint)
    assert len(sink.of_type("iteration_end")) == 2  # rounds 1 and 2 only: round 0 came from the checkpoint
    assert step_end(sink, "iterate")["tokens"] == step_end(clean_sink, "iterate")["tokens"] \
        == {"prompt": 450, "completion": 225, "total": 675}
    assert step_end(sink, "iterate")["data"]["cost_usd"] == pytest.approx(step_end(clean_sink, "iterate")["data"]["cost_usd"])


async def test_a_retried_loop_counts_only_its_last_attempt():
    d = doc("""
        name: retried
        steps:
          - id: poll
            instructions: "Poll."
            retries: 1
            loop: {maxIterations: 1, until: "content == 'up'"}
    """)
    s = script("""
        replies:
          poll: ["down", "up"]
        tokens: {prompt: 6, completion: 2}
    """)
    result, sink = await run(d, s)
    assert result.steps["poll"].status == "completed"
    assert step_end(sink, "poll")["data"]["attempts"] == 2
    assert step_end(sink, "poll")["tokens"] == {"prompt": 6, "completion": 2, "total": 8}
    assert result.tokens["total"] == 16  # the first attempt's round was spent too: the run counts it


async def test_the_checkpoints_and_the_run_view_agree_with_the_loops_tokens():
    _result, sink, taken = await run_with_checkpoints(doc(UNTIL_AGENT), UNTIL_AGENT_REPLIES, prices=PRICES)
    assert_fold_matches_engine(sink.events, taken)
    final = fold(sink.events)
    assert final.steps["iterate"]["tokens"] == {"prompt": 300, "completion": 150, "total": 450}
    assert [i["verdict"]["tokens"]["total"] for i in final.loops["iterate"]["iterations"]] == [75, 75]
    view = RunView.of(sink.events).snapshot()
    assert view["steps"]["iterate"]["tokens"] == 450 == view["run"]["tokens"]["total"]


async def test_a_loop_that_times_out_still_says_what_its_finished_rounds_spent():
    d = doc("""
        name: slow
        steps:
          - id: poll
            instructions: "Poll."
            timeout: 1s
            loop: {maxIterations: 5}
    """)
    s = script("""
        replies:
          poll: ["fast", {content: "slow", latency: 30}]
        tokens: {prompt: 6, completion: 2}
    """)
    result, sink = await run(d, s)
    assert result.steps["poll"].status == "failed" and "timed out" in result.steps["poll"].error
    assert step_end(sink, "poll")["tokens"] == {"prompt": 6, "completion": 2, "total": 8}  # round 0's
