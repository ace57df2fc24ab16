"""Durations are whole seconds in v1, so the timeout tests wait about a second each."""
from tests.support.engine_runs import doc, ids_of, run, script, step_end


async def test_a_step_timeout_fails_the_step():
    d = doc("""
        name: slow
        steps:
          - id: slow
            timeout: 1s
            instructions: "Take forever."
    """)
    result, sink = await run(d, script("replies: {slow: [{content: 'late', latency: 30}]}"))
    assert result.status == "failed"
    assert step_end(sink, "slow")["error"] == "timed out after 1s"


async def test_options_step_timeout_applies_to_steps_inside_loop_iterations():
    d = doc("""
        name: per-iteration
        options: {stepTimeout: 1s}
        steps:
          - id: each
            loop:
              forEach: [a, b]
              steps:
                - id: work
                  instructions: "Work."
    """)
    result, sink = await run(d, script("replies: {'each[1].work': [{content: 'late', latency: 30}]}"))
    assert step_end(sink, "each[1].work")["error"] == "timed out after 1s"
    assert step_end(sink, "each[0].work")["data"]["status"] == "completed"
    assert result.status == "failed"


async def test_a_loop_timeout_bounds_all_iterations_together():
    d = doc("""
        name: loop-timeout
        steps:
          - id: poll
            timeout: 1s
            instructions: "Poll."
            loop: {maxIterations: 100}
    """)
    _result, sink = await run(d, script("replies: {'*': [{content: 'tick', latency: 0.3}]}"))
    assert step_end(sink, "poll")["error"] == "timed out after 1s"
    assert 2 <= len(sink.of_type("iteration_start")) <= 5
    assert sink.of_type("loop_end")[0]["data"]["break_reason"] == "stopped"


async def test_the_workflow_timeout_fails_the_run():
    d = doc("""
        name: run-timeout
        options: {timeout: 1s}
        steps:
          - id: slow
            instructions: "Slow."
    """)
    result, sink = await run(d, script("replies: {slow: [{latency: 30}]}"))
    assert result.status == "failed"
    assert result.code == "timeout"
    assert step_end(sink, "slow")["data"]["status"] == "cancelled"


async def test_retries_rerun_a_failed_step():
    d = doc("""
        name: flaky
        steps:
          - id: flaky
            retries: 2
            instructions: "Might fail."
    """)
    result, sink = await run(d, script("replies: {flaky: [{error: 'upstream 503'}, 'ok']}"))
    assert result.status == "completed"
    assert step_end(sink, "flaky")["data"]["attempts"] == 2
    assert any("retrying flaky" in e["message"] for e in sink.of_type("message"))


async def test_a_step_fails_when_its_retries_run_out():
    d = doc("""
        name: flaky
        steps:
          - id: flaky
            retries: 1
            instructions: "Fails."
    """)
    result, sink = await run(d, script("replies: {flaky: [{error: 'upstream 503'}]}"))
    assert result.status == "failed"
    assert step_end(sink, "flaky")["data"]["attempts"] == 2


async def test_retries_restart_a_loop_from_iteration_zero():
    d = doc("""
        name: loop-retry
        steps:
          - id: poll
            retries: 1
            instructions: "Poll."
            loop: {maxIterations: 3}
    """)
    s = script("""
        replies:
          poll: ["one", {error: "flaky"}, "again one", "again two", "again three"]
    """)
    result, sink = await run(d, s)
    assert result.status == "completed"
    assert [e["data"]["iteration"] for e in sink.of_type("iteration_start")] == [0, 1, 0, 1, 2]
    assert ids_of(sink, "step_start").count("poll") == 1
    assert result.steps["poll"].content == "again three"
