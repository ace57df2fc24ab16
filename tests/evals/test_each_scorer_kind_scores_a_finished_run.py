"""Each scorer kind over a finished run as the scorers read it, and scorers checked like workflows."""
import pytest

from common.errors import BadRequest
from runtime.evals.scorers import Finished, check_scorers, judge_score, run_variables, score_plain

DOCUMENT = {"steps": [{"id": "dev", "loop": {"untilAgent": "judge", "steps": [{"id": "draft"}]}}, {"id": "report"}]}


def finished(tmp_path=None, **expected):
    steps = {"dev": {"status": "completed", "content": "a draft about otters", "result": None},
             "report": {"status": "completed", "content": "Otters: 3 facts", "result": {"facts": 3, "title": "Otters"}}}
    variables = run_variables(status="completed", reason="", steps=steps, loops={"dev": {"rounds": 2, "break_reason": "judge",
                              "broke_early": True}}, tokens=120, cost_usd=0.01, duration_s=1.5, expected=expected, case={"id": "c"})
    return Finished(variables=variables, last_step="report", workspace=tmp_path)


def score(scorer, run=None):
    return score_plain(scorer, run or finished()).as_dict()


def test_cel_reads_steps_loops_and_the_runs_spend():
    assert score({"name": "x", "kind": "cel", "expr": "loops.dev.rounds == 2 && run.tokens < 200"})["passed"] is True
    assert score({"name": "x", "kind": "cel", "expr": "steps.report.result.facts >= 5"})["score"] == 0.0
    # A number is the score itself (clamped to [0, 1]), passed from the threshold.
    assert score({"name": "x", "kind": "cel", "expr": "double(steps.report.result.facts) / 4.0"}) == {
        "score": 0.75, "passed": True, "reason": "double(steps.report.result.facts) / 4.0 = 0.75"}
    assert score({"name": "x", "kind": "cel", "expr": "0.25", "threshold": 0.3})["passed"] is False


def test_cel_that_fails_at_run_time_scores_zero_with_the_error():
    out = score({"name": "x", "kind": "cel", "expr": "steps.report.result.missing > 1"})
    assert out["score"] == 0.0 and out["reason"].startswith("error:")


def test_text_checks_default_to_the_last_step_and_the_expected_content():
    assert score({"name": "x", "kind": "contains", "value": "Otters"})["passed"] is True
    assert score({"name": "x", "kind": "contains", "step": "dev", "value": "Otters"})["passed"] is False
    assert score({"name": "x", "kind": "regex", "value": r"\d+ facts"})["passed"] is True
    assert score({"name": "x", "kind": "equals"}, finished(content="Otters: 3 facts"))["passed"] is True
    assert score({"name": "x", "kind": "equals"}, finished(content="Beavers"))["reason"] == "report does not equal 'Beavers'"


def test_json_schema_names_where_the_result_fails():
    schema = {"type": "object", "required": ["facts"], "properties": {"facts": {"type": "integer", "minimum": 5}}}
    out = score({"name": "x", "kind": "json_schema", "step": "report", "schema": schema})
    assert out["passed"] is False and out["reason"].startswith("report's result at facts: 3 is less than the minimum of 5")
    assert score({"name": "x", "kind": "json_schema", "schema": {"type": "object"}})["passed"] is True


def test_file_checks_read_the_runs_workspace(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "summary.md").write_text("Otters hold hands\n")
    run = finished(tmp_path, files={"out/summary.md": "Otters hold hands"})
    assert score({"name": "x", "kind": "file", "path": "out/summary.md"}, run)["passed"] is True
    assert score({"name": "x", "kind": "file", "path": "out/summary.md", "check": "contains", "value": "hands"}, run)["passed"]
    assert score({"name": "x", "kind": "file", "path": "out/summary.md", "check": "equals"}, run)["passed"] is True
    assert score({"name": "x", "kind": "file", "path": "missing.md"}, run)["reason"] == "missing.md does not exist"
    assert score({"name": "x", "kind": "file", "path": "../escape"}, run)["reason"] == "../escape is outside the workspace"


def test_the_judges_reply_is_read_as_json_or_its_first_number():
    scorer = {"name": "j", "kind": "llm_judge", "rubric": "r", "model": "openai/m", "scale": 5}
    assert judge_score(scorer, '{"score": 4, "reason": "clear"}').as_dict() == {"score": 0.75, "passed": True, "reason": "4/5: clear"}
    assert judge_score(scorer, "I would say 2 out of 5").score == 0.25
    assert judge_score(scorer, "no idea").reason.startswith("the judge gave no score")


@pytest.mark.parametrize("scorer, words", [
    ({"name": "x", "kind": "cel", "expr": "steps.nope.content == ''"}, "scorer `x`.expr: no step nope in the workflow"),
    ({"name": "x", "kind": "cel", "expr": "1 +"}, "scorer `x`.expr:"),
    ({"name": "x", "kind": "contains", "step": "ghost"}, "scorer `x`.step: no step 'ghost' in the workflow"),
    ({"name": "x", "kind": "regex", "value": "("}, "scorer `x`.value: not a regular expression"),
    ({"name": "x", "kind": "json_schema", "schema": {"type": 3}}, "scorer `x`.schema:"),
    ({"name": "x", "kind": "file"}, "scorer `x`.path:"),
    ({"name": "x", "kind": "llm_judge", "rubric": "r", "model": "m", "scale": 1}, "scorer `x`.scale:"),
    ({"name": "x", "kind": "vibes"}, "scorer `x`.kind: unknown kind 'vibes'"),
    ({"kind": "cel"}, "scorers[0].name:"),
])
def test_scorers_are_checked_against_the_workflow_with_the_field_named(scorer, words):
    with pytest.raises(BadRequest) as caught:
        check_scorers([scorer], DOCUMENT)
    assert str(caught.value).startswith(words), str(caught.value)


def test_two_scorers_of_one_name_are_refused():
    with pytest.raises(BadRequest, match="is used twice"):
        check_scorers([{"name": "a", "kind": "contains"}, {"name": "a", "kind": "equals"}], DOCUMENT)
