"""Each Coqui loop definition of seed 003 imports into a multi-step repeat-until that says the same thing."""
import pytest

from designer.cel import evaluate
from tests.support.imported_seeds import COQUI_SEEDS, assert_valid, import_seed, step


def review_says(until: str, stage: str, text: str) -> bool:
    return evaluate(until, {"steps": {stage: {"content": text, "status": "completed"}}})


@pytest.mark.parametrize("path", COQUI_SEEDS, ids=lambda p: p.name)
def test_every_seed_definition_imports_into_a_valid_document(path):
    result = import_seed("coqui", path.name)
    assert_valid(result.document)
    assert result.report


def test_the_docs_review_roles_become_a_chain_of_inner_steps():
    doc = import_seed("coqui", "docs_review.json").document
    loop = doc["steps"][0]["loop"]
    assert doc["steps"][0]["id"] == "docs-review"
    assert [(s["id"], s["agent"]) for s in loop["steps"]] == [("write", "coder"), ("review", "reviewer")]
    assert loop["steps"][1]["dependsOn"] == ["write"]
    assert loop["maxIterations"] == 3


def test_evaluation_bound_stops_on_approval_and_not_on_rejection():
    doc = import_seed("coqui", "docs_review.json").document
    until = doc["steps"][0]["loop"]["until"]
    assert review_says(until, "review", "APPROVED. Ready to publish.") is True
    assert review_says(until, "review", "Looks good to me") is True
    assert review_says(until, "review", "LGTM") is True
    assert review_says(until, "review", "Not approved: the install section is missing.") is False
    assert review_says(until, "review", "Needs changes before this can be accepted.") is False
    assert review_says(until, "review", "The examples are wrong.") is False


def test_the_acceptance_criteria_reach_the_reviewer():
    result = import_seed("coqui", "docs_review.json")
    review = step(result.document, "review")
    assert "Documentation is complete, accurate, and well-organized" in review["instructions"]
    assert result.entry("/termination_condition/value/criteria").target == "/steps/0/loop/steps/1/instructions"
    assert result.entry("/termination_condition").outcome == "approximated"


def test_parameters_are_filled_in_at_import():
    result = import_seed("coqui", "investigate.json", subject="websocket libraries")
    explore = result.document["steps"][0]["loop"]["steps"][0]
    assert explore["instructions"] == "Investigate websocket libraries at moderate depth..."
    assert "given value" in result.entry("/parameters/0").note
    assert "default" in result.entry("/parameters/1").note


def test_a_definition_without_termination_runs_a_bounded_number_of_iterations():
    result = import_seed("coqui", "investigate.json")
    loop = result.document["steps"][0]["loop"]
    assert loop["maxIterations"] == 5 and "until" not in loop and "untilAgent" not in loop
    assert any("no termination_condition" in w for w in result.warnings)


def test_the_harness_runs_plan_code_review_until_the_reviewer_approves():
    doc = import_seed("coqui", "harness.json").document
    loop = doc["steps"][0]["loop"]
    assert [s["agent"] for s in loop["steps"]] == ["plan", "coder", "reviewer"]
    assert loop["maxIterations"] == 5
    assert review_says(loop["until"], "evaluate", "Approved.") is True


def test_research_parameters_reach_the_iteration_limit_and_prompts():
    result = import_seed("coqui", "research.json", output_format="comparison matrix")
    loop = result.document["steps"][0]["loop"]
    assert loop["maxIterations"] == 3
    assert step(result.document, "synthesize")["instructions"].endswith("into a comparison matrix.")
    assert result.entry("/roles/1/requires_artifact_from").outcome == "approximated"


def test_goal_driven_becomes_an_until_agent_judge_with_the_goal_prompt():
    result = import_seed("coqui", "goal_driven.json")
    doc = result.document
    loop = doc["steps"][0]["loop"]
    judge = doc["agents"][loop["untilAgent"]]
    assert loop["maxIterations"] == 10
    assert judge["resultSchema"]["required"] == ["done"]
    assert judge["prompt"].startswith("Judge whether the implementation fully satisfies the stated goal.")


def test_a_goal_is_written_into_every_stage():
    doc = import_seed("coqui", "harness.json", goal="Build a Redis caching layer").document
    assert all(s["instructions"].startswith("Goal: Build a Redis caching layer") for s in doc["steps"][0]["loop"]["steps"])
