import pytest

from runtime.engine.policies import Policies, PolicyError, approved, similarity
from tests.support.engine_runs import doc, run, script, step_end

LOOP = """
name: policy-loop
steps:
  - id: write
    instructions: "Improve the draft."
    loop: {maxIterations: 6}
"""


def test_approval_needs_approval_words_and_no_rejection():
    assert approved("LGTM, ship it")
    assert approved("Approved.")
    assert not approved("Not approved: changes requested")
    assert not approved("Looks good but the tests are failing")
    assert not approved("I reviewed it")


def test_similarity_ignores_whitespace():
    assert similarity("a  b\nc", "a b c") == 1.0
    assert 0.8 < similarity("the quick brown fox", "the quick brown fax") < 1.0


def test_policies_are_checked():
    with pytest.raises(PolicyError, match="kind"):
        Policies.from_dict({"stop_rules": [{"kind": "vibes"}]})
    with pytest.raises(PolicyError, match="marker"):
        Policies.from_dict({"stop_rules": [{"kind": "output_contains"}]})
    with pytest.raises(PolicyError, match="on_iteration_error"):
        Policies.from_dict({"on_iteration_error": "shrug"})


async def test_converged_stops_when_an_iteration_repeats_the_previous_one():
    s = script("replies: {write: ['draft one', 'draft two', 'draft two ', 'never']}")
    result, sink = await run(doc(LOOP), s, policies={"stop_rules": [{"kind": "converged"}]})
    assert result.status == "completed"
    assert result.loops["write"] == {"rounds_completed": 3, "broke_early": True, "break_reason": "policy",
                                     "stop_rule": "converged"}
    assert sink.of_type("loop_end")[0]["data"]["stop_rule"] == "converged"


async def test_converged_honours_a_similarity_threshold():
    s = script("replies: {write: ['the quick brown fox jumps', 'the quick brown fox jumped', 'x']}")
    result, _ = await run(doc(LOOP), s, policies={"stop_rules": [{"kind": "converged", "threshold": 0.9}]})
    assert result.loops["write"]["rounds_completed"] == 2


async def test_output_contains_stops_on_the_marker():
    s = script("replies: {write: ['working', 'all DONE', 'x']}")
    result, _ = await run(doc(LOOP), s, policies={"stop_rules": [{"kind": "output_contains", "marker": "DONE"}]})
    assert result.loops["write"]["stop_rule"] == "output_contains"
    assert result.steps["write"].content == "all DONE"


async def test_approval_with_a_rejection_does_not_stop_the_loop():
    s = script("replies: {write: ['not approved yet', 'LGTM', 'x']}")
    result, _ = await run(doc(LOOP), s, policies={"stop_rules": [{"kind": "approval"}]})
    assert result.loops["write"]["rounds_completed"] == 2 and result.loops["write"]["stop_rule"] == "approval"


async def test_all_needs_every_rule_on_the_same_iteration():
    s = script("replies: {write: ['DONE a', 'LGTM', 'LGTM DONE', 'x']}")
    policies = {"combine": "all", "stop_rules": [{"kind": "approval"}, {"kind": "output_contains", "marker": "DONE"}]}
    result, _ = await run(doc(LOOP), s, policies=policies)
    assert result.loops["write"]["rounds_completed"] == 3
    assert result.loops["write"]["stop_rule"] == "all(approval,output_contains)"


async def test_policies_can_target_named_loops_only():
    s = script("replies: {write: ['same', 'same', 'same']}")
    result, _ = await run(doc(LOOP), s, policies={"stop_rules": [{"kind": "converged"}], "loops": ["other"]})
    assert result.loops["write"]["break_reason"] == "max_iterations"


async def test_error_policy_skip_records_the_failure_and_goes_on():
    s = script("replies: {write: ['one', {error: 'flaky'}, 'three', 'four', 'five', 'six']}")
    result, sink = await run(doc(LOOP), s, policies={"on_iteration_error": "skip"})
    assert result.status == "completed"
    assert len(sink.of_type("iteration_start")) == 6
    assert result.loops["write"]["rounds_completed"] == 5
    assert any("run policy: skip" in e["message"] for e in sink.of_type("message"))


async def test_error_policy_retry_counts_toward_the_ceiling():
    d = doc(LOOP.replace("maxIterations: 6", "maxIterations: 3"))
    s = script("replies: {write: ['one', {error: 'flaky'}, 'two', 'three']}")
    result, sink = await run(d, s, policies={"on_iteration_error": "retry"})
    assert len(sink.of_type("iteration_start")) == 3
    assert result.loops["write"]["rounds_completed"] == 2
    assert result.steps["write"].content == "two"
    assert "Previous iteration (1)" in sink.of_type("agent_turn")[-2]["data"]["prompt"]["user"]


async def test_error_policy_abort_is_the_default():
    s = script("replies: {write: ['one', {error: 'flaky'}]}")
    result, _sink = await run(doc(LOOP), s, policies={})
    assert result.status == "failed"
    assert result.loops["write"]["break_reason"] == "failed"


async def test_every_iteration_failing_fails_the_loop_even_when_skipping():
    result, sink = await run(doc(LOOP), script("replies: {write: [{error: 'down'}]}"),
                             policies={"on_iteration_error": "skip"})
    assert result.status == "failed"
    assert "all 6 iterations failed" in step_end(sink, "write")["error"]


FOREACH = """
name: fan
steps:
  - id: each
    instructions: "Handle."
    loop: {forEach: [a, b, c], maxConcurrency: 1}
"""


async def test_forEach_skip_lets_the_other_items_finish():
    result, _ = await run(doc(FOREACH), script("replies: {'each[1]': [{error: 'bad item'}]}"),
                          policies={"on_iteration_error": "skip"})
    assert result.status == "completed"
    assert result.loops["each"]["rounds_completed"] == 2
    assert [i["status"] for i in result.steps["each"].result["iterations"]] == ["completed", "failed", "completed"]


async def test_forEach_retry_runs_a_failed_item_again():
    result, sink = await run(doc(FOREACH), script("replies: {'each[1]': [{error: 'flaky'}, 'ok']}"),
                             policies={"on_iteration_error": "retry"})
    assert result.status == "completed"
    assert [e["data"]["index"] for e in sink.of_type("iteration_start")] == [0, 1, 1, 2]
