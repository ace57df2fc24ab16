from tests.support.engine_runs import InstantSleep, doc, ids_of, prompts, run, script, step_end

SINGLE = """
name: single
steps:
  - id: poll
    instructions: "Check service health."
    loop:
      maxIterations: 5
      until: "content.contains('healthy')"
"""

MULTI = """
name: multi
steps:
  - id: dev
    loop:
      maxIterations: 4
      until: "steps.review.content.contains('LGTM')"
      steps:
        - id: implement
          instructions: "Implement it."
        - id: review
          dependsOn: [implement]
          instructions: "Review it."
"""


async def test_until_stops_the_loop_as_soon_as_it_is_true():
    s = script("""
        replies:
          poll: ["starting", "degraded", "healthy now", "never reached"]
    """)
    result, sink = await run(doc(SINGLE), s)
    assert result.status == "completed"
    assert result.loops["poll"] == {"rounds_completed": 3, "broke_early": True, "break_reason": "until"}
    assert [e["data"]["iteration"] for e in sink.of_type("iteration_start")] == [0, 1, 2]
    assert step_end(sink, "poll")["data"]["content"] == "healthy now"


async def test_a_loop_without_stop_signals_runs_exactly_max_iterations_and_completes():
    d = doc("""
        name: plain
        steps:
          - id: grind
            instructions: "Do one more pass."
            loop: {maxIterations: 3}
    """)
    result, sink = await run(d)
    assert result.status == "completed"
    assert len(sink.of_type("iteration_end")) == 3
    assert result.loops["grind"] == {"rounds_completed": 3, "broke_early": False, "break_reason": "max_iterations"}


async def test_an_until_that_never_fires_fails_the_loop_saying_so():
    result, sink = await run(doc(SINGLE), script("replies: {poll: ['still broken']}"))
    assert result.status == "failed"
    assert "loop exhausted 5 iterations: until never became true" in step_end(sink, "poll")["error"]
    loop_end = sink.of_type("loop_end")[0]
    assert loop_end["data"]["break_reason"] == "max_iterations"
    assert loop_end["data"]["rounds_completed"] == 5


async def test_multi_step_iterations_use_namespaced_ids_and_inner_step_variables():
    s = script("""
        replies:
          review: ["needs work", "needs work", "LGTM"]
    """)
    result, sink = await run(doc(MULTI), s)
    assert result.loops["dev"]["rounds_completed"] == 3
    assert result.loops["dev"]["break_reason"] == "until"
    started = ids_of(sink, "step_start")
    assert started == ["dev", "dev.0.implement", "dev.0.review", "dev.1.implement", "dev.1.review",
                       "dev.2.implement", "dev.2.review"]


async def test_the_iteration_variable_is_zero_based_in_until():
    d = doc("""
        name: counted
        steps:
          - id: count
            instructions: "Count."
            loop:
              maxIterations: 10
              until: "iteration == 2"
    """)
    result, _sink = await run(d)
    assert result.loops["count"]["rounds_completed"] == 3


async def test_single_step_until_sees_result_and_status():
    d = doc("""
        name: scored
        agents:
          scorer:
            description: "Scores."
            resultSchema:
              type: object
              required: [score]
              properties: {score: {type: integer}}
        steps:
          - id: improve
            agent: scorer
            instructions: "Improve the score."
            loop:
              maxIterations: 5
              until: "status == 'completed' && result.score >= 7"
    """)
    s = script("""
        replies:
          improve:
            - {content: "a", result: {score: 3}}
            - {content: "b", result: {score: 8}}
    """)
    result, _sink = await run(d, s)
    assert result.loops["improve"]["rounds_completed"] == 2
    assert result.steps["improve"].result == {"score": 8}


async def test_delay_waits_between_iterations_but_not_after_the_last():
    d = doc("""
        name: delayed
        steps:
          - id: poll
            instructions: "Poll."
            loop: {maxIterations: 3, delay: "1m30s"}
    """)
    sleep = InstantSleep()
    result, _ = await run(d, sleep=sleep)
    assert result.status == "completed"
    assert sleep.calls == [90.0, 90.0]


async def test_delay_is_not_applied_after_an_iteration_that_stops_the_loop():
    d = doc(SINGLE.replace("until:", "delay: 10s\n      until:"))
    sleep = InstantSleep()
    await run(d, script("replies: {poll: ['x', 'healthy']}"), sleep=sleep)
    assert sleep.calls == [10.0]


async def test_cumulative_output_lists_every_iteration_under_its_number():
    d = doc("""
        name: cumulative
        steps:
          - id: write
            instructions: "Write a stanza."
            loop: {maxIterations: 3, outputMode: cumulative}
    """)
    result, sink = await run(d, script("replies: {write: ['one', 'two', 'three']}"))
    # As upstream's runner writes it (executor_loop.go), not the schema's "---" separator.
    expected = "## Iteration 1\none\n\n## Iteration 2\ntwo\n\n## Iteration 3\nthree\n\n"
    assert result.steps["write"].content == expected
    assert sink.of_type("loop_end")[0]["data"]["content"] == expected


async def test_last_output_mode_keeps_only_the_final_iteration():
    d = doc("""
        name: last
        steps:
          - id: write
            instructions: "Write."
            loop: {maxIterations: 3, outputMode: last}
    """)
    result, _ = await run(d, script("replies: {write: ['one', 'two', 'three']}"))
    assert result.steps["write"].content == "three"


async def test_each_iteration_sees_the_previous_ones_content_and_result():
    d = doc("""
        name: carry
        agents:
          drafter:
            description: "Drafts."
            resultSchema: {type: object, required: [n], properties: {n: {type: integer}}}
        steps:
          - id: draft
            agent: drafter
            instructions: "Draft."
            loop: {maxIterations: 3}
    """)
    s = script("""
        replies:
          draft:
            - {content: "first draft", result: {n: 1}}
            - {content: "second draft", result: {n: 2}}
            - {content: "third draft", result: {n: 3}}
    """)
    _, sink = await run(d, s)
    seen = prompts(sink, "draft.2")[0]
    assert "iteration 3 of at most 3" in seen
    assert "second draft" in seen and '{"n": 2}' in seen
    # The history counts from 1, as the loop's line does: iteration 1 was the first draft, 2 is "Previous iteration (2)".
    assert "- iteration 1: completed: first draft" in seen
    assert "- iteration 0" not in seen and "Previous iteration (2)" in seen
    assert "Previous iteration" not in prompts(sink, "draft.0")[0]


async def test_multi_step_inner_steps_see_earlier_steps_of_the_same_iteration():
    _, sink = await run(doc(MULTI), script("replies: {implement: ['code v1'], review: ['LGTM']}"))
    review_prompt = prompts(sink, "dev.0.review")[0]
    assert "Output of step `implement`" in review_prompt and "code v1" in review_prompt


async def test_iteration_events_carry_status_content_and_result():
    _, sink = await run(doc(SINGLE), script("replies: {poll: ['healthy']}"))
    end = sink.of_type("iteration_end")[0]
    assert end["stepId"] == "poll"
    assert end["data"] == {"iteration": 0, "status": "completed", "content": "healthy", "result": None}
    assert isinstance(end["durationMs"], float) and end["durationMs"] >= 0 and end["duration"].endswith("s")


async def test_a_failing_iteration_fails_the_loop_with_break_reason_failed():
    result, sink = await run(doc(SINGLE), script("replies: {poll: ['ok', {error: 'upstream 503'}]}"))
    assert result.status == "failed"
    assert result.loops["poll"] == {"rounds_completed": 1, "broke_early": True, "break_reason": "failed"}
    assert "upstream 503" in step_end(sink, "poll")["error"]
