"""Moving evaluation into worker processes changes no answer: every kind of expression our
workflows use gives the same value (or the same error) through the bounded door, sync and async,
as plain in-process cel-python does."""
import pytest

from designer import cel, cel_language

VARIABLES = {
    "iteration": 2,
    "content": "Looks good to me. LGTM",
    "status": "completed",
    "result": {"done": True, "score": 8.5},
    "item": {"name": "svc-a", "tags": ["x", "y"]},
    "index": 3,
    "steps": {
        "list-services": {"content": "a\nb", "status": "completed", "result": {"services": ["api", "web", "db"]}},
        "review": {"content": "Approved: all criteria met.", "status": "completed", "result": None},
        "judge": {"content": "", "status": "failed", "result": {"verdict": "approved", "n": 3}},
    },
}

CASES = [
    ("iteration >= 2", True),
    ("content.contains('LGTM')", True),
    ("steps.review.content.startsWith('Approved')", True),
    ("steps.review.content.matches('(?i)approved')", True),
    ("steps['list-services'].result.services.size()", 3),
    ("steps.list-services.result.services", ["api", "web", "db"]),
    ("steps['list-services'].result.services.map(s, s + '!')", ["api!", "web!", "db!"]),
    ("steps['list-services'].result.services.filter(s, s != 'web')", ["api", "db"]),
    ("steps['list-services'].result.services.exists(s, s == 'db')", True),
    ("steps['list-services'].result.services.all(s, size(s) >= 2)", True),
    ("has(steps.judge.result.verdict) && steps.judge.result.verdict == 'approved'", True),
    ("has(item.missing)", False),
    ("item.tags[index - 2]", "y"),
    ("result.score * 2.0", 17.0),
    ("{'a': iteration, 'b': [1, 2]}", {"a": 2, "b": [1, 2]}),
    ("steps.judge.status == 'failed' ? 'retry' : 'go'", "retry"),
    ("steps.review.result == null", True),
    ("'' + steps.judge.content", ""),
]

ERRORS = [
    ("steps.nope.content", "evaluation failed: "),
    ("1 / 0", "evaluation failed: "),
    ("steps.review.content.contains(", "syntax error at column 31: the expression ends too early"),
    ("iteration +", "syntax error at column 12"),
    ("x" * (cel.MAX_EXPRESSION_LENGTH + 1), f"expression is longer than {cel.MAX_EXPRESSION_LENGTH} characters"),
]


def in_process(expression: str):
    return cel_language.run(cel_language.program(expression), VARIABLES)


@pytest.mark.parametrize("expression, expected", CASES)
def test_an_ordinary_expression_gives_the_same_value_as_in_process(expression, expected):
    assert cel.evaluate(expression, VARIABLES) == expected == in_process(expression)


@pytest.mark.parametrize("expression, expected", CASES)
async def test_the_async_door_gives_the_same_value(expression, expected):
    assert await cel.evaluate_async(expression, VARIABLES) == expected


@pytest.mark.parametrize("expression, starts", ERRORS)
def test_an_error_reads_the_same_as_in_process(expression, starts):
    with pytest.raises(cel.CelError) as bounded:
        cel.evaluate(expression, VARIABLES)
    with pytest.raises(cel.CelError) as plain:
        in_process(expression)
    assert str(bounded.value) == str(plain.value)
    assert str(bounded.value).startswith(starts)
    assert not isinstance(bounded.value, cel.CelCostExceeded)


def test_inspection_names_the_variables_and_steps_an_expression_reads():
    found = cel.inspect("steps.list-services.result.services.exists(s, s == item.name) && steps['review'].status == 'x'")
    assert found.variables == {"steps", "item"}
    assert found.step_refs == {"list-services", "review"}
    assert found.hyphen_dot_refs == ["list-services"]
