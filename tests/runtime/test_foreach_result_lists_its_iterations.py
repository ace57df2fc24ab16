"""A forEach step's result lists its iterations, readable from CEL downstream, as upstream's runner gives it.

Ports upstream's internal/exec/foreach_test.go ``TestExecutor_ForEach_ResultAggregation`` (the result is
``{iterations: [...]}`` with one entry per item, and the step's content is the last iteration's) and
``TestExecutor_ForEach_NamespacedIDs`` (each entry's ``id`` is ``proc[i]``); the entry's fields (``id``,
``index``, ``item``, ``content``, ``status``) are upstream's executor_loop.go aggregation. A condition that
reads a map key that is not there skips its step (upstream's "missing data"); any other expression that
cannot be evaluated fails its step with a sentence naming the expression, not the evaluator's dump.
"""
from tests.support.engine_runs import doc, run, script, step_end
from tests.support.ported_workflows import FOREACH_PROC, FOREACH_PROC_REPLIES


async def test_the_result_has_one_entry_per_item_with_id_index_item_content_and_status():
    result, sink = await run(doc(FOREACH_PROC), FOREACH_PROC_REPLIES)
    assert result.steps["proc"].result == {"iterations": [
        {"id": "proc[0]", "index": 0, "item": "x", "content": "result-1", "status": "completed"},
        {"id": "proc[1]", "index": 1, "item": "y", "content": "result-2", "status": "completed"},
        {"id": "proc[2]", "index": 2, "item": "z", "content": "result-3", "status": "completed"},
    ]}
    assert step_end(sink, "proc")["data"]["result"] == result.steps["proc"].result
    assert result.steps["proc"].content == "result-3"  # the last iteration's, as upstream


async def test_a_condition_downstream_reads_an_iterations_content_and_item():
    result, sink = await run(doc(FOREACH_PROC), FOREACH_PROC_REPLIES)
    assert result.steps["after"].status == "completed"
    assert not sink.of_type("step_skipped")


async def test_a_cumulative_foreach_still_hands_on_its_last_items_output():
    d = doc(FOREACH_PROC.replace("loop: {forEach: [x, y, z]}", "loop: {forEach: [x, y, z], outputMode: cumulative}"))
    result, _ = await run(d, FOREACH_PROC_REPLIES)
    assert result.steps["proc"].content == "result-3"  # upstream's forEach has no cumulative output
    assert [i["content"] for i in result.steps["proc"].result["iterations"]] == ["result-1", "result-2", "result-3"]


async def test_a_structured_result_and_an_error_are_kept_on_their_iteration():
    d = doc("""
        name: scored
        agents:
          scorer:
            description: "Scores."
            resultSchema: {type: object, required: [score], properties: {score: {type: integer}}}
        steps:
          - id: score
            agent: scorer
            instructions: "Score it."
            loop: {forEach: [a, b, c], maxConcurrency: 1}
    """)
    s = script("""
        replies:
          "score[0]": [{result: {score: 7}}]
          "score[1]": [{error: "the scorer is down"}]
    """)
    result, _ = await run(d, s)
    listed = result.steps["score"].result["iterations"]
    assert listed[0]["result"] == {"score": 7} and "error" not in listed[0]
    assert listed[1]["status"] == "failed" and "the scorer is down" in listed[1]["error"]
    assert listed[2] == {"id": "score[2]", "index": 2, "item": "c", "content": "", "status": "cancelled"}


async def test_an_inner_dag_iterations_content_is_its_last_inner_step():
    d = doc("""
        name: inner
        steps:
          - id: process
            loop:
              forEach: [item1, item2]
              steps:
                - {id: step-a, instructions: "first step"}
                - {id: step-b, instructions: "second step", dependsOn: [step-a]}
    """)
    result, _ = await run(d, script("replies: {step-a: [A], step-b: [B1, B2]}"))
    assert [i["content"] for i in result.steps["process"].result["iterations"]] == ["B1", "B2"]
    assert result.steps["process"].content == "B2"


async def test_a_condition_reading_a_missing_field_skips_its_step_and_says_why():
    """Upstream's executor.go dispatch: a condition that fails on missing data ("no such key") skips the step
    with a message event, and its dependents still run; here the message names the missing field."""
    d = doc(FOREACH_PROC.replace("steps.proc.result.iterations[0].content == 'result-1' && "
                         "steps.proc.result.iterations[2].item == 'z'", "steps.proc.result.items[0].content == 'x'")
            + """
  - id: last
    dependsOn: [after]
    instructions: "Sum up."
""")
    result, sink = await run(d, FOREACH_PROC_REPLIES)
    assert result.steps["after"].status == "skipped"
    assert result.steps["last"].status == "completed"  # a condition skip does not cascade
    assert result.status == "completed"
    said = "`steps.proc.result` has no field `items` (it has: iterations)"
    assert any(e["message"] == f"condition eval: missing data, skipping step: {said}"
               for e in sink.of_type("message") if e["stepId"] == "after")
    skipped = next(e for e in sink.of_type("step_skipped") if e["stepId"] == "after")
    assert skipped["data"]["missing"] == said and skipped["data"]["reason"] == "condition"


async def test_a_condition_that_is_wrong_rather_than_early_still_fails_in_words():
    d = doc(FOREACH_PROC.replace("steps.proc.result.iterations[0].content == 'result-1' && "
                         "steps.proc.result.iterations[2].item == 'z'", "steps.proc.content.size == 1"))
    result, sink = await run(d, FOREACH_PROC_REPLIES)
    assert result.steps["after"].status == "failed"
    assert step_end(sink, "after")["error"] == ("condition: `steps.proc.content.size == 1` could not be evaluated: "
                                                "`steps.proc.content` is a string, so it has no field `size`")


async def test_an_index_past_the_last_iteration_is_said_in_words():
    d = doc(FOREACH_PROC.replace("steps.proc.result.iterations[0].content == 'result-1' && "
                         "steps.proc.result.iterations[2].item == 'z'", "steps.proc.result.iterations[3].content == ''"))
    _, sink = await run(d, FOREACH_PROC_REPLIES)
    error = step_end(sink, "after")["error"]
    assert "`steps.proc.result.iterations` has 3 items, so there is no [3]" in error
    assert "<class" not in error and "CELEvalError" not in error


async def test_an_until_and_a_foreach_expression_that_miss_a_field_say_so_too():
    until = doc("""
        name: until
        steps:
          - id: poll
            instructions: "Poll."
            loop: {maxIterations: 3, until: "result.healthy == true"}
    """)
    result, sink = await run(until, script("replies: {poll: ['up']}"))
    assert result.steps["poll"].status == "failed"
    assert "until: `result.healthy == true` could not be evaluated: `result` is null, so it has no field `healthy`" \
        in step_end(sink, "poll")["error"]

    each = doc("""
        name: each
        steps:
          - {id: list, instructions: "List."}
          - id: each
            dependsOn: [list]
            instructions: "Handle."
            loop: {forEach: "steps.list.result.items"}
    """)
    result, sink = await run(each, script("replies: {list: ['nothing structured']}"))
    assert step_end(sink, "each")["error"] == ("forEach: `steps.list.result.items` could not be evaluated: "
                                               "`steps.list.result` is null, so it has no field `items`")
