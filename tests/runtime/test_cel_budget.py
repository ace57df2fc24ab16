import pytest

from tests.support.engine_runs import doc, run, step_end

pytestmark = pytest.mark.serial  # holds the app to a wall-clock limit (the CEL budget's wall clock): never beside another test

LISTER = """
name: expensive
agents:
  lister:
    description: "Lists numbers."
    resultSchema:
      type: object
      required: [xs]
      properties: {xs: {type: array, items: {type: integer}}}
steps:
  - id: list-numbers
    agent: lister
    instructions: "List numbers."
  - id: check
    dependsOn: [list-numbers]
    condition: "%s"
    instructions: "Check."
"""
NUMBERS = {"replies": {"list-numbers": [{"result": {"xs": list(range(300))}}]}}
QUADRATIC = "steps.list-numbers.result.xs.map(a, steps.list-numbers.result.xs.map(b, a + b)).size() > 0"


async def test_an_over_budget_condition_fails_its_step_with_a_clear_error():
    result, sink = await run(doc(LISTER % QUADRATIC), NUMBERS)
    assert result.steps["check"].status == "failed"
    assert step_end(sink, "check")["error"].startswith("condition: expression exceeded its evaluation budget (cel_budget_exceeded:")
    assert result.status == "partial"  # list-numbers completed


async def test_dot_access_to_a_hyphenated_id_evaluates_as_the_author_meant():
    result, _ = await run(doc(LISTER % "steps.list-numbers.result.xs.size() == 300"), NUMBERS)
    assert result.steps["check"].status == "completed"


async def test_an_over_budget_until_fails_the_loop():
    until = QUADRATIC.replace("steps.list-numbers.result.xs", "[" + ",".join(map(str, range(300))) + "]")
    d = doc(f"""
        name: until-budget
        steps:
          - id: poll
            instructions: "Poll."
            loop:
              maxIterations: 3
              until: "{until}"
    """)
    result, sink = await run(d)
    assert result.status == "failed"
    assert "until: expression exceeded its evaluation budget" in step_end(sink, "poll")["error"]


async def test_an_over_budget_forEach_fails_the_loop():
    d = doc(LISTER % "true")
    d["steps"][1] = {"id": "each", "dependsOn": ["list-numbers"], "instructions": "x",
                     "loop": {"forEach": QUADRATIC.replace(".size() > 0", "")}}
    _result, sink = await run(d, NUMBERS)
    assert "forEach: expression exceeded its evaluation budget" in step_end(sink, "each")["error"]
