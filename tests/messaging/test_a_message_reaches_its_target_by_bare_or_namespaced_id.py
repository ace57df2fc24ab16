"""Upstream's forward_to_agent takes a step's id as written (``worker``) or as namespaced at run time
(``loop-stages.0.worker``, ``deploy[0].deploy_step``, ``deploy-staging.run-tests``); the router resolves a
bare id to the one running execution that has it."""
import pytest

from runtime.messaging import COORDINATOR
from runtime.messaging.addressing import bare_id


@pytest.mark.parametrize("path, bare", [
    ("worker", "worker"),
    ("loop-stages.0.worker", "worker"),
    ("deploy[0].deploy_step", "deploy_step"),
    ("deploy-staging.run-tests", "run-tests"),
    ("outer[2].inner.3.leaf", "leaf"),
    ("loop.3", "loop"),       # a single-step repeat-until round is the loop's own agent
    ("deploy[12]", "deploy"),  # a single-step forEach item too
])
def test_the_bare_id_of_an_execution_is_the_step_id_it_was_written_with(path, bare):
    assert bare_id(path) == bare


@pytest.mark.parametrize("path", ["loop-stages.0.worker", "deploy[0].deploy_step", "deploy-staging.run-tests", "top"])
def test_the_namespaced_id_of_a_running_step_reaches_it(router, drops, path):
    router.open(path)
    sent = router.send(COORDINATOR, path, "hello")
    assert (sent.status, sent.to) == ("queued", path)
    assert [m.content for m in router.drain(path)] == ["hello"]
    assert drops == []


@pytest.mark.parametrize("path, bare", [
    ("loop-stages.0.worker", "worker"),
    ("deploy[0].deploy_step", "deploy_step"),
    ("deploy-staging.run-tests", "run-tests"),
])
def test_a_bare_id_reaches_the_one_running_execution_that_has_it(router, drops, path, bare):
    router.open("other")
    router.open(path)
    sent = router.send(COORDINATOR, bare, "context update", "context_update")
    assert (sent.status, sent.to, sent.message.to) == ("queued", path, path)
    assert [(m.content, m.kind) for m in router.drain(path)] == [("context update", "context_update")]
    assert router.drain("other") == []
    assert drops == []


def test_a_bare_id_follows_a_repeat_until_loop_into_its_current_round(router):
    # The bidirectional loop: round 0's worker ends, round 1's starts; "worker" now means round 1.
    router.open("loop-stages.0.worker")
    router.close("loop-stages.0.worker")
    router.open("loop-stages.1.worker")
    assert router.send(COORDINATOR, "worker", "next").to == "loop-stages.1.worker"


def test_an_exact_id_wins_over_a_bare_match(router):
    # A top-level step named like an inner one is reached by its own id, not refused as ambiguous.
    router.open("worker")
    router.open("loop.0.worker")
    assert router.send(COORDINATOR, "worker", "x").to == "worker"


def test_a_step_reaches_the_coordinator_by_its_inbox_key(router, drops):
    router.open(COORDINATOR)
    router.open("loop.0.worker")
    sent = router.send("loop.0.worker", COORDINATOR, "progress: 3 of 5")
    assert (sent.status, sent.text) == ("queued", "queued: msg-send-1")
    [message] = router.drain(COORDINATOR)
    assert (message.sender, message.to, message.content) == ("loop.0.worker", COORDINATOR, "progress: 3 of 5")
    assert drops == []


def test_the_targetable_ids_are_the_running_steps_without_the_coordinator(router):
    for path in (COORDINATOR, "b", "loop.0.a"):
        router.open(path)
    router.close("b")
    assert router.targets() == ("loop.0.a",)
