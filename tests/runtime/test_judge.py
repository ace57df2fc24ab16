from tests.support.engine_runs import doc, prompts, run, script, step_end

JUDGED = """
name: judged
description: "Ship a rate limiter."
agents:
  judge:
    description: "Decides if the cycle is done."
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {type: boolean}
        reason: {type: string}
steps:
  - id: dev
    loop:
      maxIterations: 5
      untilAgent: judge
      steps:
        - id: implement
          instructions: "Implement."
        - id: review
          dependsOn: [implement]
          instructions: "Review."
"""


async def test_the_judge_stops_the_loop_when_it_returns_done():
    s = script("""
        replies:
          judge:
            - {content: "not yet", result: {done: false, reason: "tests missing"}}
            - {content: "ship it", result: {done: true, reason: "ok"}}
    """)
    result, sink = await run(doc(JUDGED), s)
    assert result.status == "completed"
    assert result.loops["dev"] == {"rounds_completed": 2, "broke_early": True, "break_reason": "judge"}
    verdicts = [e["data"] for e in sink.of_type("judge_verdict")]
    assert [(v["iteration"], v["done"], v["reason"], v["failed_open"]) for v in verdicts] == [
        (0, False, "tests missing", False), (1, True, "ok", False)]
    assert all(e["stepId"] == "dev" for e in sink.of_type("judge_verdict"))


async def test_the_judges_reason_and_text_reach_the_next_iteration():
    s = script("""
        replies:
          judge:
            - {content: "Add rate limit headers.", result: {done: false, reason: "tests missing"}}
            - {content: "fine", result: {done: true}}
    """)
    _, sink = await run(doc(JUDGED), s)
    seen = prompts(sink, "dev.1.implement")[0]
    assert "Judge's feedback" in seen
    assert "tests missing" in seen and "Add rate limit headers." in seen


async def test_the_judge_fails_open_when_it_never_submits_a_result():
    s = script("""
        replies:
          judge: ["I think it needs more tests", "Really, more tests", {content: "done", result: {done: true}}]
    """)
    result, sink = await run(doc(JUDGED), s)
    assert result.status == "completed"
    first = sink.of_type("judge_verdict")[0]["data"]
    assert first["failed_open"] is True and first["done"] is None
    assert "submit_result never called, not even after a reminder" in first["error"]
    assert '"Really, more tests"' in first["error"]
    assert "I think it needs more tests" in prompts(sink, "dev.1.implement")[0]
    assert result.loops["dev"]["rounds_completed"] == 2


async def test_a_judge_that_never_says_done_fails_the_loop_with_a_clear_message():
    s = script("replies: {judge: [{content: 'no', result: {done: false}}]}")
    result, sink = await run(doc(JUDGED), s)
    assert result.status == "failed"
    assert "loop exhausted 5 iterations: judge agent never returned done" in step_end(sink, "dev")["error"]
    assert result.loops["dev"]["break_reason"] == "max_iterations"


async def test_the_unscripted_simulated_judge_says_not_done_so_loops_run_to_max_iterations():
    result, sink = await run(doc(JUDGED))
    assert len(sink.of_type("iteration_end")) == 5
    assert all(e["data"]["done"] is False for e in sink.of_type("judge_verdict"))
    assert result.status == "failed"


async def test_the_judge_sees_the_history_of_every_iteration_so_far():
    s = script("""
        replies:
          review: ["round one review", "round two review", "round three review"]
          judge:
            - {content: "no", result: {done: false, reason: "r1"}}
            - {content: "no", result: {done: false, reason: "r2"}}
            - {content: "yes", result: {done: true}}
    """)
    _, sink = await run(doc(JUDGED), s)
    third = prompts(sink, "dev.2.untilAgent")[0]
    assert "Iteration 1" in third and "round one review" in third
    assert "round two review" in third and "round three review" in third
    assert "reason: r1" in third and "reason: r2" in third
    assert "Ship a rate limiter." in third


async def test_until_is_evaluated_before_the_judge():
    d = doc(JUDGED.replace("untilAgent: judge", "untilAgent: judge\n      until: \"steps.review.content == 'LGTM'\""))
    result, sink = await run(d, script("replies: {review: ['LGTM'], judge: [{result: {done: false}}]}"))
    assert result.loops["dev"]["break_reason"] == "until"
    assert sink.of_type("judge_verdict") == []


async def test_a_judge_with_both_signals_silent_names_both_in_the_failure():
    d = doc(JUDGED.replace("untilAgent: judge", "untilAgent: judge\n      until: \"iteration > 10\""))
    _result, sink = await run(d)
    assert "until never became true and judge agent never returned done" in step_end(sink, "dev")["error"]


async def test_a_judge_that_errors_fails_open_too():
    result, sink = await run(doc(JUDGED), script("replies: {judge: [{error: 'boom'}, {result: {done: true}}]}"))
    verdict = sink.of_type("judge_verdict")[0]["data"]
    assert verdict["failed_open"] is True and "boom" in verdict["error"]
    assert result.status == "completed"
