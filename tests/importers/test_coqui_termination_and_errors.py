"""Every Coqui termination type has a zenflow form; malformed definitions are refused with their path."""
import json

import pytest

from designer.importers import ImportFailed, import_loop
from tests.support.imported_seeds import assert_valid


def definition(termination=None, **extra):
    data = {"name": "custom", "roles": [
        {"name": "write", "role": "coder", "prompt": "Write it.", "order": 0},
        {"name": "check", "role": "reviewer", "prompt": "Check it.", "order": 1},
    ]}
    if termination is not None:
        data["termination_condition"] = termination
    data.update(extra)
    return json.dumps(data, indent=2)


def imported(text, **params):
    result = import_loop("coqui", text, parameters=params or None)
    assert_valid(result.document)
    return result


def test_iteration_bound_is_max_iterations_alone():
    result = imported(definition({"type": "iteration_bound", "value": {"max_iterations": 4}}))
    loop = result.document["steps"][0]["loop"]
    assert loop["maxIterations"] == 4 and "until" not in loop and "untilAgent" not in loop
    assert result.entry("/termination_condition/value/max_iterations").outcome == "carried"


def test_iteration_bound_accepts_a_bare_number():
    loop = imported(definition({"type": "iteration_bound", "value": 7})).document["steps"][0]["loop"]
    assert loop["maxIterations"] == 7


def test_time_bound_becomes_the_loop_steps_timeout():
    result = imported(definition({"type": "time_bound", "value": 3600}))
    step = result.document["steps"][0]
    assert step["timeout"] == "1h"
    assert step["loop"]["maxIterations"] >= 1
    assert result.entry("/termination_condition/value").outcome == "approximated"


def test_manual_termination_gets_an_iteration_ceiling_and_says_so():
    result = imported(definition({"type": "manual"}))
    assert result.document["steps"][0]["loop"]["maxIterations"] == 20
    assert "Stop" in result.entry("/termination_condition").note


def test_evaluation_bound_without_rounds_uses_the_top_level_max_iterations():
    result = imported(definition({"type": "evaluation_bound", "value": {"criteria": "done"}}, max_iterations=2))
    assert result.document["steps"][0]["loop"]["maxIterations"] == 2
    assert result.entry("/max_iterations").outcome == "carried"


def test_roles_run_in_order_not_in_list_position():
    text = json.dumps({"name": "o", "roles": [
        {"name": "second", "role": "reviewer", "prompt": "b", "order": 1},
        {"name": "first", "role": "coder", "prompt": "a", "order": 0},
    ], "termination_condition": {"type": "iteration_bound", "value": 2}})
    steps = imported(text).document["steps"][0]["loop"]["steps"]
    assert [s["id"] for s in steps] == ["first", "second"]
    assert steps[1]["dependsOn"] == ["first"]


def test_roles_sharing_a_role_share_one_agent():
    text = json.dumps({"name": "two coders", "roles": [
        {"name": "Draft It", "role": "coder", "prompt": "a"},
        {"name": "Fix It", "role": "coder", "prompt": "b"},
    ]})
    doc = imported(text).document
    assert list(doc["agents"]) == ["coder"]
    assert [s["id"] for s in doc["steps"][0]["loop"]["steps"]] == ["draft-it", "fix-it"]
    assert doc["steps"][0]["id"] == "two-coders"


def test_an_undeclared_placeholder_is_left_and_warned_about():
    text = json.dumps({"name": "p", "roles": [{"role": "coder", "prompt": "Use {{style}}."}]})
    result = imported(text)
    assert result.document["steps"][0]["loop"]["steps"][0]["instructions"] == "Use {{style}}."
    assert any("{{style}}" in w for w in result.warnings)


def test_malformed_json_names_the_line():
    with pytest.raises(ImportFailed) as err:
        import_loop("coqui", '{\n  "name": "x",\n  "roles": [\n}\n')
    assert "not valid JSON" in str(err.value) and err.value.line == 4


def test_a_missing_required_parameter_is_refused_with_a_hint():
    text = json.dumps({"name": "p", "parameters": [{"name": "subject", "required": True}],
                       "roles": [{"role": "explorer", "prompt": "Study {{subject}}"}]})
    with pytest.raises(ImportFailed, match="--param subject="):
        import_loop("coqui", text)


@pytest.mark.parametrize("text,path", [
    ('["not", "an", "object"]', "/"),
    ('{"roles": [{"role": "coder", "prompt": "x"}]}', "/name"),
    ('{"name": "x"}', "/roles"),
    ('{"name": "x", "roles": []}', "/roles"),
    ('{"name": "x", "roles": [{"prompt": "x"}]}', "/roles/0/role"),
    ('{"name": "x", "roles": [{"role": "coder"}]}', "/roles/0/prompt"),
    ('{"name": "x", "roles": [{"role": "coder", "prompt": "p"}], "termination_condition": {"type": "vibes"}}',
     "/termination_condition/type"),
    ('{"name": "x", "roles": [{"role": "coder", "prompt": "p"}], '
     '"termination_condition": {"type": "iteration_bound", "value": {"max_iterations": "lots"}}}',
     "/termination_condition/value/max_iterations"),
    ('{"name": "x", "roles": [{"role": "coder", "prompt": "p"}], "termination_condition": {"type": "time_bound"}}',
     "/termination_condition/value"),
])
def test_malformed_definitions_are_refused_with_the_field(text, path):
    with pytest.raises(ImportFailed) as err:
        import_loop("coqui", text)
    assert err.value.path == path


def test_max_iterations_given_at_import_overrides_the_definition():
    result = imported(definition({"type": "evaluation_bound", "value": {"max_review_rounds": 5}}), max_iterations="2")
    assert result.document["steps"][0]["loop"]["maxIterations"] == 2
    assert any("max_iterations given" in w for w in result.warnings)
