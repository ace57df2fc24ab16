"""A cumulative repeat-until hands on every round's every inner step, as upstream's runner does.

Ports upstream's internal/exec/executor_test.go ``TestExecutor_LoopStep_OutputMode_Cumulative`` (a judged
debate loop ``pro-argue -> con-argue``: the loop's content holds PRO_R1, CON_R1, PRO_R2, CON_R2),
``TestExecutor_LoopStep_OutputMode_Cumulative_SetsPreserveContent`` and
``..._Last_DoesNotSetPreserveContent`` (a cumulative loop's output is exempt from the per-dependency cut,
a ``last`` one is not) and ``..._Last_DefaultBackwardCompat`` (``last`` keeps the final round's last inner
step). The exact text follows upstream's executor_loop.go: ``## Iteration N`` then ``### <inner id>`` and
its content per inner step in document order, and ``## Judge Feedback (Iteration N)`` with the judge's text.
"""
import json

from runtime.engine.checkpoints import Checkpoint, boundaries, fold
from runtime.engine.prompting import SECTION_LIMIT
from tests.support.checkpoints import assert_fold_matches_engine
from tests.support.engine_runs import doc, prompts, run, run_with_checkpoints, script, step_end
from tests.support.ported_workflows import DEBATE, DEBATE_REPLIES, WHOLE_DEBATE


async def test_a_cumulative_debate_hands_on_every_rounds_every_inner_step_in_order():
    result, sink = await run(doc(DEBATE), script(DEBATE_REPLIES))
    assert result.status == "completed"
    assert result.steps["debate-rounds"].content == WHOLE_DEBATE
    assert step_end(sink, "debate-rounds")["data"]["content"] == WHOLE_DEBATE
    assert sink.of_type("loop_end")[0]["data"]["content"] == WHOLE_DEBATE
    # The aggregator after the loop sees the whole debate, not the last con argument alone.
    aggregator = prompts(sink, "verdict")[0]
    for argument in ("PRO_R1", "CON_R1", "PRO_R2", "CON_R2"):
        assert argument in aggregator


async def test_the_judges_words_join_the_cumulative_output_after_the_round_they_judge():
    replies = DEBATE_REPLIES.replace('{content: "", result: {done: false}}',
                              '{content: "Con has not answered the telemetry.", result: {done: false}}')
    result, _ = await run(doc(DEBATE), script(replies))
    content = result.steps["debate-rounds"].content
    feedback = "## Judge Feedback (Iteration 1)\nCon has not answered the telemetry.\n\n"
    assert feedback in content
    assert content.index("CON_R1") < content.index(feedback) < content.index("## Iteration 2")
    assert "Judge Feedback (Iteration 2)" not in content  # the second verdict said nothing


async def test_a_judge_that_fails_open_adds_no_feedback():
    replies = script(DEBATE_REPLIES)
    replies["replies"]["debate-rounds.0.untilAgent"] = ["I would rather not decide."]  # never submits
    replies["replies"]["debate-rounds.1.untilAgent"] = [{"content": "", "result": {"done": True}}]
    result, sink = await run(doc(DEBATE), replies)
    assert sink.of_type("judge_verdict")[0]["data"]["failed_open"] is True
    assert result.steps["debate-rounds"].content == WHOLE_DEBATE


async def test_a_single_step_cumulative_loop_lists_each_iteration_under_its_number():
    d = doc("""
        name: single
        steps:
          - id: write
            instructions: "Write a stanza."
            loop: {maxIterations: 3, outputMode: cumulative}
    """)
    result, _ = await run(d, script("replies: {write: ['one', 'two', 'three']}"))
    assert result.steps["write"].content == "## Iteration 1\none\n\n## Iteration 2\ntwo\n\n## Iteration 3\nthree\n\n"


async def test_the_last_mode_keeps_the_final_rounds_last_inner_step_only():
    d = doc(DEBATE.replace("      outputMode: cumulative\n", ""))
    replies = DEBATE_REPLIES.replace("- {content: \"\", result: {done: false}}\n", "")
    result, sink = await run(d, script(replies))
    assert result.steps["debate-rounds"].content == "CON_R1: remote work isolates teams"
    assert "PRO_R1" not in prompts(sink, "verdict")[0]


async def test_the_last_mode_takes_the_last_completed_inner_step_in_document_order_when_two_end_the_round():
    d = doc("""
        name: two-ends
        steps:
          - id: loop
            loop:
              maxIterations: 1
              steps:
                - {id: plan, instructions: plan}
                - {id: tests, instructions: tests, dependsOn: [plan]}
                - {id: code, instructions: code, dependsOn: [plan]}
    """)
    result, _ = await run(d, script("replies: {plan: [P], tests: [T], code: [C]}"))
    assert result.steps["loop"].content == "C"  # not the two ends joined


LONG = "x" * (SECTION_LIMIT + 5_000)


async def test_a_cumulative_loops_output_reaches_its_dependents_uncut():
    d = doc("""
        name: long
        steps:
          - id: write
            instructions: "Write at length."
            loop: {maxIterations: 2, outputMode: cumulative}
          - {id: read, dependsOn: [write], instructions: "Read it all."}
    """)
    result, sink = await run(d, {"replies": {"write": [LONG, LONG + "END_OF_ROUND_2"]}})
    prompt = prompts(sink, "read")[0]
    assert result.steps["write"].content in prompt
    assert "END_OF_ROUND_2" in prompt and "more characters cut" not in prompt


async def test_a_last_mode_loops_output_is_still_cut_for_its_dependents():
    d = doc("""
        name: long
        steps:
          - id: write
            instructions: "Write at length."
            loop: {maxIterations: 2}
          - {id: read, dependsOn: [write], instructions: "Read it."}
    """)
    _, sink = await run(d, {"replies": {"write": [LONG, LONG + "END_OF_ROUND_2"]}})
    prompt = prompts(sink, "read")[0]
    assert "more characters cut" in prompt and "END_OF_ROUND_2" not in prompt


async def test_a_debate_resumed_after_its_first_verdict_ends_with_the_same_whole_output():
    replies = DEBATE_REPLIES.replace('{content: "", result: {done: false}}', '{content: "go on", result: {done: false}}')
    clean, clean_sink, taken = await run_with_checkpoints(doc(DEBATE), script(replies))
    assert_fold_matches_engine(clean_sink.events, taken)
    first_verdict = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "verdict")
    checkpoint = Checkpoint.from_dict(json.loads(json.dumps(fold(clean_sink.events, upto=first_verdict).as_dict())))
    later = script(replies)
    later["replies"] = {**later["replies"], "pro": later["replies"]["pro"][1:], "con": later["replies"]["con"][1:],
                        "judge": later["replies"]["judge"][1:]}
    resumed, sink, taken = await run_with_checkpoints(doc(DEBATE), later, start=checkpoint)
    assert_fold_matches_engine(sink.events, taken, checkpoint)
    assert resumed.steps["debate-rounds"].content == clean.steps["debate-rounds"].content
    assert "## Judge Feedback (Iteration 1)\ngo on\n\n" in resumed.steps["debate-rounds"].content
