"""The issue's attack: `size(L.map(a, L.map(b, a))) > 0` with L a literal list of 350-380 integers.
Under the old tracer it sometimes escaped its bound; now it fails its step with the CEL budget error,
every time, whichever field holds it."""
import pytest

from tests.support.engine_runs import doc, run, step_end

pytestmark = pytest.mark.serial  # holds the app to a wall-clock limit (the CEL budget's wall clock): never beside another test

# The CPU timer ends it; on a machine loaded enough to starve the worker, the wall-clock bound does.
BUDGET_ERRORS = ("expression exceeded its evaluation budget (cel_budget_exceeded: more than 50 ms of CPU time)",
                 "expression exceeded its evaluation budget (cel_budget_exceeded: no answer within 5000 ms of wall-clock time)")
SIZES = (350, 365, 380)


def numbers(n: int) -> str:
    return "[" + ",".join(str(i) for i in range(n)) + "]"


def quadratic(n: int) -> str:
    return f"size({numbers(n)}.map(a, {numbers(n)}.map(b, a))) > 0"


@pytest.mark.parametrize("n", SIZES)
async def test_a_quadratic_condition_fails_its_step_with_the_budget_error(n):
    d = {"name": "attack", "steps": [{"id": "first", "instructions": "Go."},
                                     {"id": "check", "dependsOn": ["first"], "condition": quadratic(n), "instructions": "x"}]}
    result, sink = await run(d)
    assert result.steps["check"].status == "failed"
    assert step_end(sink, "check")["error"] in [f"condition: {e}" for e in BUDGET_ERRORS]
    assert result.status == "partial"  # "first" completed


@pytest.mark.parametrize("n", SIZES)
async def test_a_quadratic_until_fails_its_loop_naming_until(n):
    d = doc("""
        name: attack
        steps:
          - id: poll
            instructions: "Poll."
            loop:
              maxIterations: 3
    """)
    d["steps"][0]["loop"]["until"] = quadratic(n)
    result, sink = await run(d)
    assert result.status == "failed"
    assert step_end(sink, "poll")["error"] in [f"until: {e}" for e in BUDGET_ERRORS]


@pytest.mark.parametrize("n", SIZES)
async def test_a_quadratic_forEach_fails_its_loop_naming_forEach(n):
    d = {"name": "attack", "steps": [{"id": "each", "instructions": "x",
                                      "loop": {"forEach": f"{numbers(n)}.map(a, {numbers(n)}.map(b, a))"}}]}
    result, sink = await run(d)
    assert result.status == "failed"
    assert step_end(sink, "each")["error"] in [f"forEach: {e}" for e in BUDGET_ERRORS]
