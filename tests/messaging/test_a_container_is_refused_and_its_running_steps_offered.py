"""Upstream's forward_to_agent refuses a loop or include container (a wrapper with no agent of its own)
before sending: the answer starts with ``rejected: `` and nothing is dropped, because nothing was sent."""
import pytest

from runtime.messaging import COORDINATOR


@pytest.mark.parametrize("container, inner", [
    ("loop-stages", "loop-stages.0.worker"),
    ("deploy", "deploy[1].deploy_step"),
    ("deploy-staging", "deploy-staging.run-tests"),
    ("single", "single.2"),  # a single-step loop: its rounds run the agent, the loop step does not
])
def test_a_container_is_refused_with_what_runs_inside_it(router, drops, container, inner):
    router.add_container(container)
    router.open(inner)
    router.open(container + "x.other")  # shares the prefix, is not inside
    refused = router.send(COORDINATOR, container, "for the loop")
    assert refused.status == "rejected"
    assert refused.message is None
    assert refused.targets == (inner,)
    assert refused.text.startswith(f'rejected: "{container}" is a loop or include container')
    assert inner in refused.text
    assert router.drain(inner) == []
    assert drops == []


def test_a_refusal_uses_no_message_id(router):
    router.add_container("loop")
    router.open("loop.0.a")
    router.send(COORDINATOR, "loop", "x")
    assert router.send(COORDINATOR, "a", "y").message.id == "msg-fwd-1"


def test_a_container_with_nothing_running_says_to_narrate(router):
    router.add_container("loop")
    assert "nothing runs inside it now; narrate" in router.send(COORDINATOR, "loop", "x").text
