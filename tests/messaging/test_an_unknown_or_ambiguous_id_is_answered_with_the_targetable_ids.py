"""Upstream answers an ``unknown-step`` drop with the ids the coordinator can target, so the model can retry
or narrate instead; a bare id that names two running executions is no better than an unknown one."""
from runtime.messaging import COORDINATOR


def test_an_unknown_id_is_dropped_with_the_ids_running_now(router, drops):
    for path in (COORDINATOR, "plan", "deploy[0].deploy_step"):
        router.open(path)
    sent = router.send(COORDINATOR, "narrator", "hello")
    assert (sent.status, sent.reason) == ("dropped", "unknown-step")
    assert sent.targets == ("deploy[0].deploy_step", "plan")
    assert sent.text.startswith("dropped: unknown-step. ")
    assert 'No running step has the id "narrator"' in sent.text
    assert "deploy[0].deploy_step, plan" in sent.text
    assert [(d.reason, d.target, d.message.content) for d in drops] == [("unknown-step", "narrator", "hello")]


def test_a_step_that_has_not_started_yet_is_unknown(router, drops):
    router.open("loop.0.worker")
    sent = router.send(COORDINATOR, "loop.1.worker", "early")
    assert sent.reason == "unknown-step"
    assert len(drops) == 1


def test_a_bare_id_naming_several_running_items_is_refused_with_them(router, drops):
    router.open("deploy[0].deploy_step")
    router.open("deploy[1].deploy_step")
    router.open("plan")
    sent = router.send(COORDINATOR, "deploy_step", "which one?")
    assert (sent.status, sent.reason, sent.ambiguous) == ("dropped", "unknown-step", True)
    assert sent.targets == ("deploy[0].deploy_step", "deploy[1].deploy_step")
    assert '"deploy_step" names more than one running step: deploy[0].deploy_step, deploy[1].deploy_step' in sent.text
    assert router.drain("deploy[0].deploy_step") == router.drain("deploy[1].deploy_step") == []
    assert [d.reason for d in drops] == ["unknown-step"]


def test_a_namespaced_id_is_never_matched_by_its_last_part(router):
    # "x.worker" is not a bare id: it does not reach "loop.0.worker".
    router.open("loop.0.worker")
    assert router.send(COORDINATOR, "x.worker", "no").reason == "unknown-step"
