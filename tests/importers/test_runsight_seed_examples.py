"""Each Runsight loop example of seed 002 imports into a valid zenflow document that says the same thing."""
import pytest

from designer.cel import evaluate
from tests.support.imported_seeds import RUNSIGHT_SEEDS, assert_valid, import_seed, step


@pytest.mark.parametrize("path", RUNSIGHT_SEEDS, ids=lambda p: p.name)
def test_every_seed_example_imports_into_a_valid_document(path):
    result = import_seed("runsight", path.name)
    assert_valid(result.document)
    assert result.report, "an import always ends with a report"


def test_the_basic_loop_becomes_a_loop_step_judged_by_the_gate():
    doc = import_seed("runsight", "basic_loop.yaml").document
    refine = step(doc, "refine")
    assert refine["loop"]["maxIterations"] == 3
    assert refine["loop"]["untilAgent"] == "review"
    assert [s["id"] for s in refine["loop"]["steps"]] == ["draft"]
    judge = doc["agents"]["review"]
    assert judge["resultSchema"]["properties"]["done"] == {"type": "boolean", "description": "true when the loop should stop"}
    assert judge["resultSchema"]["required"] == ["done"]


def test_the_code_block_after_the_loop_depends_on_the_loop():
    doc = import_seed("runsight", "basic_loop.yaml").document
    done = step(doc, "done")
    assert done["dependsOn"] == ["refine"]
    assert "def main(data):" in done["instructions"]


def test_the_basic_loop_report_says_how_the_gate_and_rounds_were_carried():
    result = import_seed("runsight", "basic_loop.yaml")
    assert result.entry("/blocks/refine/max_rounds").outcome == "carried"
    assert result.entry("/blocks/refine/max_rounds").target == "/steps/0/loop/maxIterations"
    assert result.entry("/blocks/refine/break_on_exit").target == "/steps/0/loop/untilAgent"
    assert result.entry("/blocks/done/code").outcome == "approximated"
    assert result.entry("/blocks/review/fail").outcome == "approximated"


def test_a_break_condition_becomes_a_cel_until_over_the_last_blocks_result():
    doc = import_seed("runsight", "break_condition.yaml").document
    until = step(doc, "refine")["loop"]["until"]
    assert evaluate(until, {"steps": {"review": {"result": {"verdict": "approved"}}}}) is True
    assert evaluate(until, {"steps": {"review": {"result": {"verdict": "rejected"}}}}) is False
    assert evaluate(until, {"steps": {"review": {"result": {}}}}) is False
    assert doc["agents"]["critic"]["resultSchema"]["properties"]["verdict"] == {"type": "string"}


def test_an_and_group_needs_every_condition():
    doc = import_seed("runsight", "break_condition_group.yaml").document
    until = step(doc, "refine")["loop"]["until"]

    def stops(result):
        return evaluate(until, {"steps": {"review": {"result": result}}})

    assert stops({"score": 8, "verdict": "approved"}) is True
    assert stops({"score": 9.5, "verdict": "approved"}) is True
    assert stops({"score": 7, "verdict": "approved"}) is False
    assert stops({"score": 10, "verdict": "rejected"}) is False
    assert doc["agents"]["critic"]["resultSchema"]["properties"]["score"] == {"type": "number"}


def test_retry_on_exit_suppresses_the_break_for_that_round():
    result = import_seed("runsight", "retry_on_exit.yaml")
    until = step(result.document, "refine")["loop"]["until"]
    assert evaluate(until, {"steps": {"review": {"result": {"verdict": "approved"}}}}) is True
    assert evaluate(until, {"steps": {"review": {"result": {"verdict": "needs work"}}}}) is False
    assert result.entry("/blocks/refine/retry_on_exit").outcome == "approximated"
    assert result.entry("/blocks/refine/break_on_exit").target == "/steps/0/loop/until"


def test_carry_mode_last_is_zenflows_own_behaviour_and_inject_as_is_dropped():
    result = import_seed("runsight", "carry_context_last.yaml")
    loop = step(result.document, "refine")["loop"]
    assert "outputMode" not in loop
    assert result.entry("/blocks/refine/carry_context/mode").outcome == "carried"
    dropped = result.entry("/blocks/refine/carry_context/inject_as")
    assert dropped.outcome == "dropped" and dropped.target is None and "shared_memory" in dropped.note


def test_carry_mode_all_becomes_cumulative_output_for_the_steps_after_the_loop():
    result = import_seed("runsight", "carry_context_all.yaml")
    assert step(result.document, "refine")["loop"]["outputMode"] == "cumulative"
    assert step(result.document, "publish")["dependsOn"] == ["refine"]
    entry = result.entry("/blocks/refine/carry_context/mode")
    assert entry.outcome == "approximated" and entry.target == "/steps/0/loop/outputMode"
    assert result.entry("/blocks/refine/carry_context/source_blocks").outcome == "approximated"


def test_stateful_inner_blocks_are_reported_as_dropped():
    result = import_seed("runsight", "stateful.yaml")
    entry = result.entry("/blocks/draft/stateful")
    assert entry.outcome == "dropped"
    assert "memory" in entry.note


def test_a_code_block_checked_by_a_gate_loops_until_the_gate_passes():
    doc = import_seed("runsight", "all_block_types.yaml").document
    loop = step(doc, "improve_loop")["loop"]
    assert loop["untilAgent"] == "check"
    assert loop["maxIterations"] == 5
    assert doc["agents"][loop["steps"][0]["agent"]]["description"].startswith("Stands in for Runsight code blocks")
