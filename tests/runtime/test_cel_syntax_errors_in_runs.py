"""A CEL expression that cannot parse fails its step saying 'syntax error', where, and what was expected
(the validator blocks such runs; the engine still explains itself when handed one directly)."""
from tests.support.engine_runs import doc, run, step_end

BROKEN_UNTIL = """
name: broken
steps:
  - id: refine
    loop:
      maxIterations: 3
      until: "steps.critic.content.contains("
      steps:
        - id: critic
          instructions: "Review."
"""

BROKEN_CONDITION = """
name: broken
steps:
  - id: a
    instructions: "A."
  - id: b
    dependsOn: [a]
    condition: "steps.a.status =="
    instructions: "B."
"""


async def test_an_until_that_cannot_parse_fails_the_loop_with_the_position_and_what_was_expected():
    result, sink = await run(doc(BROKEN_UNTIL))
    assert result.status == "failed"
    error = step_end(sink, "refine").get("error") or ""
    assert "until: syntax error at column 31" in error
    assert "expected ')' or a value" in error


async def test_a_condition_that_cannot_parse_fails_its_step_saying_so():
    _result, sink = await run(doc(BROKEN_CONDITION))
    error = step_end(sink, "b").get("error") or ""
    assert error.startswith("condition: syntax error at column 18")
    assert "ends too early" in error
