from tests.support.engine_runs import doc, ids_of, run, script, step_end

GRAPH = """
name: graph
options: {onStepFailure: %s}
steps:
  - id: a
    instructions: "A."
  - id: broken
    dependsOn: [a]
    instructions: "Breaks."
  - id: child
    dependsOn: [broken]
    instructions: "Needs broken."
  - id: grandchild
    dependsOn: [child]
    instructions: "Needs child."
  - id: sibling
    dependsOn: [a]
    instructions: "Independent branch."
"""
BREAK = script("replies: {broken: [{error: 'disk full'}], sibling: [{content: 'ok', latency: 0.02}]}")


async def test_cascade_fails_dependents_and_lets_other_branches_finish():
    result, sink = await run(doc(GRAPH % "cascade"), BREAK)
    assert result.status == "partial"  # a and sibling completed
    assert result.code == "step_failed"
    assert {k: v.status for k, v in result.steps.items()} == {
        "a": "completed", "broken": "failed", "child": "failed", "grandchild": "failed", "sibling": "completed"}
    assert step_end(sink, "child")["error"] == "dependency 'broken' failed"
    assert "broken" in result.reason and "disk full" in result.reason


async def test_cascade_is_the_default():
    d = doc(GRAPH % "cascade")
    del d["options"]
    result, _ = await run(d, BREAK)
    assert result.steps["child"].status == "failed"


async def test_skip_dependents_skips_the_whole_chain_and_lets_other_branches_finish():
    result, sink = await run(doc(GRAPH % "skip-dependents"), BREAK)
    assert {k: v.status for k, v in result.steps.items()} == {
        "a": "completed", "broken": "failed", "child": "skipped", "grandchild": "skipped", "sibling": "completed"}
    assert ids_of(sink, "step_skipped") == ["child", "grandchild"]
    assert result.status == "partial"


async def test_abort_stops_everything_and_cancels_running_steps():
    result, sink = await run(doc(GRAPH % "abort"),
                             script("replies: {broken: [{error: 'disk full'}], sibling: [{content: 'ok', latency: 5}]}"))
    assert result.status == "partial"
    assert result.code == "aborted"
    assert "onStepFailure: abort" in result.reason
    assert result.steps["sibling"].status == "cancelled"
    assert step_end(sink, "sibling")["data"]["status"] == "cancelled"
    assert "child" not in ids_of(sink, "step_start")


async def test_abort_inside_a_loop_iteration_stops_the_run():
    d = doc("""
        name: loop-abort
        options: {onStepFailure: abort}
        steps:
          - id: each
            loop:
              forEach: [1, 2, 3]
              maxConcurrency: 1
              steps:
                - id: work
                  instructions: "Work."
          - id: after
            dependsOn: [each]
            instructions: "After."
    """)
    result, sink = await run(d, script("replies: {'each[1].work': [{error: 'nope'}]}"))
    assert result.code == "aborted"
    assert "after" not in ids_of(sink, "step_start")


async def test_a_false_condition_skips_the_step_but_not_its_dependents():
    d = doc("""
        name: conditional
        steps:
          - id: design
            instructions: "Design."
          - id: audit
            dependsOn: [design]
            condition: "steps.design.content.contains('authentication')"
            instructions: "Audit."
          - id: finalize
            dependsOn: [audit]
            condition: "steps.audit.status == 'skipped'"
            instructions: "Finalize."
    """)
    result, sink = await run(d, script("replies: {design: ['a plain design']}"))
    assert result.status == "completed"
    assert result.steps["audit"].status == "skipped"
    assert result.steps["finalize"].status == "completed"
    skipped = sink.of_type("step_skipped")[0]
    assert skipped["stepId"] == "audit" and skipped["message"] == "condition is false"


async def test_a_condition_that_cannot_be_evaluated_fails_its_step():
    d = doc("""
        name: bad-condition
        steps:
          - id: a
            instructions: "A."
          - id: b
            dependsOn: [a]
            condition: "steps.a.result.missing == 1"
            instructions: "B."
    """)
    result, sink = await run(d)
    assert result.steps["b"].status == "failed"
    assert step_end(sink, "b")["error"].startswith("condition:")


async def test_a_condition_must_give_a_bool():
    d = doc("""
        name: not-bool
        steps:
          - id: a
            condition: "'yes'"
            instructions: "A."
    """)
    _result, sink = await run(d)
    assert "must give a bool" in step_end(sink, "a")["error"]
