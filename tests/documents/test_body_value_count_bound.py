"""The byte-level refusal of bodies with too many values never refuses what the full walk accepts."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from designer import json_body
from designer.source import value_problem

TEXT = st.text(alphabet=st.sampled_from(['"', ":", ",", "\\", " ", "a", "\n", "{", "["]), max_size=6)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | TEXT,
                    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(TEXT, inner, max_size=6), max_leaves=60)


@settings(max_examples=1000, deadline=None)
@given(JSON, st.booleans())
def test_the_fast_refusal_is_a_lower_bound_of_the_walk(value, indent):
    body = json.dumps(value, indent=1 if indent else None).encode()
    limit = 8
    original = json_body.MAX_BODY_VALUES
    json_body.MAX_BODY_VALUES = limit
    try:
        refused_fast = json_body._surely_too_many_values(body)
    finally:
        json_body.MAX_BODY_VALUES = original
    walked = value_problem(json.loads(body), max_depth=1000, max_values=limit)
    if refused_fast:
        assert walked is not None and walked.code == "too_large"


def test_a_body_of_many_members_is_refused_before_it_is_parsed(monkeypatch):
    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(json_body.json, "loads", no_parsing)
    body = json.dumps({"document": {"steps": [{"id": f"s{i}", "instructions": "x"} for i in range(100_000)]}}, indent=2).encode()
    try:
        json_body.parse_json_body(body)
    except json_body.BodyError as exc:
        assert str(exc) == "invalid JSON body: the body holds more than 200,000 values"
    else:
        raise AssertionError("accepted")
