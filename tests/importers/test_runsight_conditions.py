"""Runsight's condition operators compile to CEL that decides as Runsight's engine does."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.cel import compile_expression, evaluate
from designer.importers import ImportFailed, import_loop
from tests.support.imported_seeds import assert_valid

TEMPLATE = """
blocks:
  work:
    type: linear
    soul_ref: worker
  judge:
    type: linear
    soul_ref: checker
  again:
    type: loop
    inner_block_refs: [work, judge]
    max_rounds: 3
    break_condition: {condition}
workflow:
  name: conditions
  entry: again
"""


def until_for(condition: str) -> str:
    result = import_loop("runsight", TEMPLATE.format(condition=condition))
    assert_valid(result.document)
    return result.document["steps"][0]["loop"]["until"]


def decides(until: str, result: dict) -> bool:
    return evaluate(until, {"steps": {"judge": {"result": result, "content": "", "status": "completed"}}})


def runsight_reference(op, actual, expected, present=True):
    """Runsight's engine on a dict output (conditions/engine.py semantics)."""
    if op == "exists":
        return present
    if op == "not_exists":
        return not present
    if not present:
        actual = None
    if op in ("eq", "neq", "gt", "lt", "gte", "lte"):
        try:
            a, e = float(actual), float(expected)
        except (TypeError, ValueError):
            return False
        return {"eq": a == e, "neq": a != e, "gt": a > e, "lt": a < e, "gte": a >= e, "lte": a <= e}[op]
    if actual is None:
        return op in ("not_equals", "not_contains", "is_empty")
    a, e = str(actual), str(expected)
    return {
        "equals": a == e, "not_equals": a != e, "contains": e in a, "not_contains": e not in a,
        "starts_with": a.startswith(e), "ends_with": a.endswith(e), "is_empty": a == "", "not_empty": a != "",
    }[op]


STRING_CASES = [
    ("equals", "approved", "approved"), ("equals", "approved", "rejected"),
    ("not_equals", "approved", "rejected"), ("not_equals", "approved", "approved"),
    ("contains", "appro", "approved"), ("contains", "xyz", "approved"),
    ("not_contains", "xyz", "approved"), ("not_contains", "pro", "approved"),
    ("starts_with", "app", "approved"), ("starts_with", "ved", "approved"),
    ("ends_with", "ved", "approved"), ("ends_with", "app", "approved"),
    ("is_empty", None, ""), ("is_empty", None, "x"),
    ("not_empty", None, "x"), ("not_empty", None, ""),
]


@pytest.mark.parametrize("op,value,actual", STRING_CASES)
def test_string_operators_agree_with_runsight(op, value, actual):
    value_yaml = "" if value is None else f", value: {value}"
    until = until_for(f"{{eval_key: verdict, operator: {op}{value_yaml}}}")
    assert decides(until, {"verdict": actual}) is runsight_reference(op, actual, value)


@pytest.mark.parametrize("op", ["equals", "not_equals", "contains", "not_contains", "is_empty", "not_empty", "exists", "not_exists"])
def test_a_missing_key_decides_as_in_runsight(op):
    until = until_for(f"{{eval_key: verdict, operator: {op}, value: ok}}")
    assert decides(until, {}) is runsight_reference(op, None, "ok", present=False)


@settings(max_examples=40, deadline=None)
@given(op=st.sampled_from(["eq", "neq", "gt", "lt", "gte", "lte"]),
       actual=st.integers(-20, 20) | st.floats(-20, 20, allow_nan=False),
       expected=st.integers(-20, 20))
def test_numeric_operators_agree_with_runsight(op, actual, expected):
    until = until_for(f"{{eval_key: score, operator: {op}, value: {expected}}}")
    assert decides(until, {"score": actual}) is runsight_reference(op, actual, expected)


def test_a_regex_condition_uses_cel_matches():
    until = until_for("{eval_key: verdict, operator: regex, value: '^appr'}")
    assert decides(until, {"verdict": "approved"}) is True
    assert decides(until, {"verdict": "disapproved"}) is False


def test_a_dotted_eval_key_reads_a_nested_field_and_gets_a_nested_schema():
    result = import_loop("runsight", TEMPLATE.format(condition="{eval_key: review.score, operator: gte, value: 8}"))
    until = result.document["steps"][0]["loop"]["until"]
    assert decides(until, {"review": {"score": 9}}) is True
    assert decides(until, {"review": {}}) is False
    schema = result.document["agents"]["checker"]["resultSchema"]
    assert schema["properties"]["review"]["properties"]["score"] == {"type": "number"}


def test_an_or_group_needs_one_condition():
    until = until_for("{combinator: or, conditions: [{eval_key: score, operator: gte, value: 8}, "
                      "{eval_key: verdict, operator: equals, value: approved}]}")
    assert decides(until, {"score": 3, "verdict": "approved"}) is True
    assert decides(until, {"score": 9, "verdict": "no"}) is True
    assert decides(until, {"score": 3, "verdict": "no"}) is False


def test_every_generated_expression_compiles():
    for op in ["equals", "regex", "gte", "exists", "not_empty"]:
        compile_expression(until_for(f"{{eval_key: 'odd key', operator: {op}, value: \"it's \\\"quoted\\\"\"}}"))


def test_an_unknown_operator_is_refused_with_its_path():
    with pytest.raises(ImportFailed) as err:
        until_for("{eval_key: score, operator: bigger, value: 8}")
    assert "/blocks/again/break_condition/operator" in str(err.value)
    assert "bigger" in str(err.value)


def test_an_unknown_combinator_is_refused():
    with pytest.raises(ImportFailed, match="combinator"):
        until_for("{combinator: xor, conditions: []}")
