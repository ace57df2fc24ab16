"""Upstream's two promises together, over any order of operations: a message sent is either drained once by the
mailbox it was addressed to or reported once as a drop, never both, never twice, never lost; checkpoints
(snapshot, then restore into a fresh router) included."""
from hypothesis import example, given, settings
from hypothesis import strategies as st

from runtime.messaging import COORDINATOR, DropReason, MessageRouter

# Few ids, so that operations meet: two forEach items sharing a bare id, a round, the coordinator.
PATHS = [COORDINATOR, "loop.0.worker", "deploy[0].deploy_step", "deploy[1].deploy_step"]
TARGETS = [*PATHS, "worker", "deploy_step", "loop", "nobody"]

operation = st.one_of(
    st.tuples(st.just("open"), st.sampled_from(PATHS)),
    st.tuples(st.just("close"), st.sampled_from(PATHS)),
    st.tuples(st.just("drain"), st.sampled_from(PATHS)),
    st.tuples(st.just("discard"), st.sampled_from(PATHS)),
    st.tuples(st.just("send"), st.sampled_from(PATHS), st.sampled_from(TARGETS)),
    st.tuples(st.just("checkpoint")),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(operation, max_size=60), st.booleans())
@example([("open", "loop.0.worker"), ("send", COORDINATOR, "worker"), ("checkpoint",), ("drain", "loop.0.worker")], False)
def test_each_sent_message_is_drained_or_dropped_exactly_once(operations, cancelled):
    drops = []
    drained = []
    sent = []
    router = MessageRouter(on_drop=drops.append, capacity=3)
    router.add_container("loop")
    router.add_container("deploy")
    running = set()
    for op in operations:
        if op[0] == "open":
            router.open(op[1])
            running.add(op[1])
        elif op[0] == "close":
            router.close(op[1])
            running.discard(op[1])
        elif op[0] == "drain":
            got = router.drain(op[1])
            assert all(m.to == op[1] for m in got)
            drained += [m.id for m in got]
        elif op[0] == "discard":
            router.discard(op[1], DropReason.MAX_WAKE_CYCLES)
        elif op[0] == "send":
            result = router.send(op[1], op[2], "text")
            if result.message is not None:
                sent.append(result.message.id)
        else:  # a checkpoint, and the run resumed from it in a fresh router, where the running steps start again
            snapshot = router.snapshot()
            router = MessageRouter(on_drop=drops.append, capacity=3)
            router.restore(snapshot)
            for path in sorted(running):
                router.open(path)
    router.end_run(cancelled=cancelled)
    dropped = [d.message.id for d in drops]
    assert len(set(sent)) == len(sent)
    assert sorted(drained + dropped) == sorted(sent)
