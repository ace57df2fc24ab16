"""Rules beyond the schema: every problem reported, each pinned to its path with a hint where obvious."""
from designer.documents import load_source, validate_document


def errors(doc):
    return [(d.code, d.path) for d in validate_document(doc).errors]


def warnings(doc):
    return [(d.code, d.path) for d in validate_document(doc).warnings]


def test_every_problem_is_reported_not_only_the_first():
    doc = {
        "name": "w",
        "agents": {"coder": {}},
        "steps": [
            {"id": "a", "agent": "ghost", "dependsOn": ["nope"]},
            {"id": "a"},
            {"id": "Bad"},
        ],
    }
    found = {code for code, _ in errors(doc)}
    assert {"agent_missing_description", "missing_agent", "missing_dep", "duplicate_step", "invalid_step_id"} <= found


def test_dependencies_cannot_reach_into_a_loop():
    doc = {
        "name": "w",
        "steps": [
            {"id": "dev", "loop": {"maxIterations": 2, "steps": [{"id": "impl"}]}},
            {"id": "after", "dependsOn": ["impl"]},
        ],
    }
    assert ("missing_dep", "/steps/1/dependsOn/0") in errors(doc)


def test_inner_steps_cannot_reach_out_of_their_loop():
    doc = {"name": "w", "steps": [{"id": "a"}, {"id": "dev", "loop": {"maxIterations": 2, "steps": [{"id": "impl", "dependsOn": ["a"]}]}}]}
    assert ("missing_dep", "/steps/1/loop/steps/0/dependsOn/0") in errors(doc)


def test_a_cycle_inside_a_loop_is_found_and_named():
    doc = {"name": "w", "steps": [{"id": "dev", "loop": {"maxIterations": 2, "steps": [{"id": "x", "dependsOn": ["y"]}, {"id": "y", "dependsOn": ["x"]}]}}]}
    report = validate_document(doc)
    cycle = [d for d in report.errors if d.code == "cycle"]
    assert cycle, report.errors
    assert "x -> y -> x" in cycle[0].message or "y -> x -> y" in cycle[0].message


def test_the_judge_contract_is_checked_step_by_step():
    judge = {"description": "j", "resultSchema": {"type": "object", "properties": {"done": {"type": "string"}}, "required": ["done"]}}
    doc = {"name": "w", "agents": {"judge": judge}, "steps": [{"id": "l", "loop": {"maxIterations": 2, "untilAgent": "judge"}}]}
    report = validate_document(doc)
    assert [(d.code, d.cls) for d in report.errors] == [("judge_done_not_boolean", "validation")]
    assert report.errors[0].hint


def test_a_result_schema_must_itself_be_a_json_schema():
    doc = {"name": "w", "agents": {"a": {"description": "d", "resultSchema": {"type": "nonsense"}}}, "steps": [{"id": "s", "agent": "a"}]}
    assert [c for c, _ in errors(doc)] == ["invalid_result_schema"]


def test_an_unknown_field_gets_a_did_you_mean_hint():
    report = validate_document({"name": "w", "steps": [{"id": "a", "dependOn": ["b"]}]})
    error = report.errors[0]
    assert (error.code, error.path) == ("unknown_field", "/steps/0/dependOn")
    assert "dependsOn" in error.hint


def test_an_include_named_nowhere_is_an_error():
    assert ("missing_include", "/steps/0/include") in errors({"name": "w", "steps": [{"id": "a", "include": "deploy"}]})
    assert errors({"name": "w", "steps": [{"id": "a", "include": "workflows/deploy.yaml"}]}) == []


def test_cel_that_does_not_compile_blocks_a_run_with_its_position_and_what_was_expected():
    doc = {"name": "w", "steps": [{"id": "a", "condition": "steps.b.status == "}]}
    report = validate_document(doc)
    # The format accepts any string here (upstream's conformance): still valid, so it exports...
    assert report.valid and errors(doc) == []
    assert warnings(doc) == [("cel_syntax", "/steps/0/condition")]
    # ... but no runner can evaluate it, so it cannot run.
    assert report.runnable is False
    assert report.as_dict()["runnable"] is False and report.as_dict()["warnings"][0]["blocks_run"] is True
    message = next(d.message for d in report.diagnostics if d.code == "cel_syntax")
    assert "syntax error at column 18" in message and "expected a value" in message


def test_a_document_without_blocking_problems_is_runnable():
    report = validate_document({"name": "w", "steps": [{"id": "a", "condition": "1 == 1"}]})
    assert report.valid and report.runnable
    invalid = validate_document({"name": "w", "steps": []})
    assert not invalid.valid and not invalid.runnable


def test_bare_content_outside_a_single_step_loop_is_warned():
    multi = {"name": "w", "steps": [{"id": "l", "loop": {"maxIterations": 2, "until": "content.contains('x')", "steps": [{"id": "i"}]}}]}
    single = {"name": "w", "steps": [{"id": "l", "loop": {"maxIterations": 2, "until": "content.contains('x')"}}]}
    assert ("cel_unknown_variable", "/steps/0/loop/until") in warnings(multi)
    assert warnings(single) == []


def test_item_outside_foreach_is_warned():
    doc = {"name": "w", "steps": [{"id": "l", "loop": {"maxIterations": 2, "steps": [{"id": "i", "condition": "item == 'x'"}]}}]}
    assert ("cel_unknown_variable", "/steps/0/loop/steps/0/condition") in warnings(doc)


def test_reading_a_step_that_is_not_a_dependency_is_warned():
    doc = {"name": "w", "steps": [{"id": "a"}, {"id": "b", "condition": "steps.a.status == 'completed'"}]}
    report = validate_document(doc)
    assert [(d.code, d.hint) for d in report.warnings] == [("cel_unavailable_step", "add `a` to dependsOn")]


def test_transitive_dependencies_are_visible():
    doc = {"name": "w", "steps": [{"id": "a"}, {"id": "b", "dependsOn": ["a"]}, {"id": "c", "dependsOn": ["b"], "condition": "steps.a.status == 'completed'"}]}
    assert warnings(doc) == []


def test_dot_access_to_a_hyphenated_id_is_warned_with_the_bracket_form():
    doc = {"name": "w", "steps": [{"id": "list-services"},
                                  {"id": "d", "dependsOn": ["list-services"], "loop": {"forEach": "steps.list-services.result.services"}}]}
    report = validate_document(doc)
    assert [d.code for d in report.warnings] == ["cel_hyphen_dot"]
    assert "steps['list-services']" in report.warnings[0].hint


def test_structurally_broken_documents_still_get_every_rule_checked():
    doc = {"name": 5, "steps": [{"id": "a", "dependsOn": "b"}, {"id": "c", "dependsOn": ["zzz"]}, "junk"]}
    found = {c for c, _ in errors(doc)}
    assert {"wrong_type", "missing_dep"} <= found


def test_caps_are_enforced():
    doc = {"name": "w", "description": "x" * 2001, "steps": [{"id": f"s{i}"} for i in range(101)]}
    found = {c for c, _ in errors(doc)}
    assert {"too_long", "too_many_steps"} <= found


def test_positions_from_text_reach_nested_diagnostics():
    loaded = load_source("name: w\nsteps:\n  - id: l\n    loop:\n      forEach: [a]\n      delay: 10s\n")
    error = loaded.report.errors[0]
    assert (error.code, error.cls, error.line) == ("foreach_with_delay", "loop_validation", 6)


def test_each_missing_field_is_reported_once():
    report = validate_document({"description": "x"})
    assert sorted(d.code for d in report.errors) == ["missing_name", "missing_steps"]


def test_one_bad_duration_is_reported_once():
    report = validate_document({"name": "x", "steps": [{"id": "a", "timeout": "5"}]})
    assert [(d.code, d.path) for d in report.errors] == [("invalid_duration", "/steps/0/timeout")]


def test_an_expression_of_spaces_only_blocks_a_run_naming_the_field():
    doc = {"name": "w", "steps": [{"id": "l", "condition": "  ", "loop": {"maxIterations": 2, "until": "  \t"}}]}
    assert ("cel_blank", "/steps/0/condition") in warnings(doc)
    assert ("cel_blank", "/steps/0/loop/until") in warnings(doc)
    assert validate_document(doc).runnable is False
