"""Upstream keeps a run's undelivered messages in its store for a resumed run. Here a checkpoint keeps the
router's snapshot (plain JSON); the resumed run's router hands each pending message out exactly once: when
its step runs again, or as a drop when the run ends without it."""
import json

import pytest

from runtime.messaging import COORDINATOR, MessageRouter


def resumed(snapshot, drops):
    router = MessageRouter(on_drop=drops.append)
    router.restore(json.loads(json.dumps(snapshot)))  # through JSON, as a checkpoint stores it
    return router


def test_pending_messages_wait_for_their_step_and_come_out_once(router, drops):
    router.open(COORDINATOR)
    router.open("loop.2.worker")
    router.send(COORDINATOR, "worker", "first", "context_update")
    router.send(COORDINATOR, "worker", "second")
    router.send("loop.2.worker", COORDINATOR, "progress")
    router.drain(COORDINATOR)  # delivered before the checkpoint: not in it
    snapshot = router.snapshot()

    later = []
    again = resumed(snapshot, later)
    assert again.drain("loop.2.worker") == []  # not open yet
    again.open("loop.2.worker")
    again.open(COORDINATOR)
    got = again.drain("loop.2.worker")
    assert [(m.id, m.content, m.kind, m.sender) for m in got] == [
        ("msg-fwd-1", "first", "context_update", COORDINATOR), ("msg-fwd-2", "second", "info", COORDINATOR)]
    assert again.drain("loop.2.worker") == []
    assert again.drain(COORDINATOR) == []
    again.close("loop.2.worker")
    again.end_run()
    assert later == []


def test_the_snapshot_is_plain_json_of_what_is_undelivered(router):
    router.add_container("loop")
    router.open("loop.0.a")
    router.open("b")
    router.send(COORDINATOR, "a", "hello")
    router.close("b")
    assert router.snapshot() == {
        "version": 1, "sent": 1, "finished": ["b"], "containers": ["loop"],
        "pending": {"loop.0.a": [{"id": "msg-fwd-1", "sender": COORDINATOR, "to": "loop.0.a", "content": "hello",
                                  "kind": "info"}]},
    }


def test_a_resumed_router_answers_as_the_first_would(router, drops):
    router.add_container("loop")
    router.open("done")
    router.close("done")
    router.open("a")
    router.send(COORDINATOR, "a", "x")
    later = []
    again = resumed(router.snapshot(), later)
    assert again.send(COORDINATOR, "done", "late").reason == "target-terminal"
    assert again.send(COORDINATOR, "loop", "wrapper").status == "rejected"
    assert again.send(COORDINATOR, "nobody", "typo").message.id == "msg-fwd-3"  # ids go on from the snapshot


def test_a_message_whose_step_never_runs_again_is_dropped_once_at_the_end(router, reasons):
    router.open("a")
    router.send(COORDINATOR, "a", "never read")
    later = []
    again = resumed(router.snapshot(), later)
    again.end_run()
    again.end_run()
    assert reasons(later) == [("target-terminal", "msg-fwd-1")]


def test_a_cancelled_resumed_run_drops_what_it_held_as_workflow_cancelled(router, reasons):
    router.open("a")
    router.send(COORDINATOR, "a", "never read")
    later = []
    resumed(router.snapshot(), later).end_run(cancelled=True)
    assert reasons(later) == [("workflow-cancelled", "msg-fwd-1")]


def test_a_snapshot_taken_after_restore_still_holds_the_waiting_messages(router):
    router.open("a")
    router.send(COORDINATOR, "a", "waiting")
    again = resumed(router.snapshot(), [])
    third = resumed(again.snapshot(), [])
    third.open("a")
    assert [m.content for m in third.drain("a")] == ["waiting"]


def test_restored_messages_beyond_the_capacity_are_mailbox_full(router, reasons):
    router.open("a")
    for text in ("1", "2", "3"):
        router.send(COORDINATOR, "a", text)
    later = []
    small = MessageRouter(on_drop=later.append, capacity=2)
    small.restore(router.snapshot())
    small.open("a")
    assert [m.content for m in small.drain("a")] == ["1", "2"]
    assert reasons(later) == [("mailbox-full", "msg-fwd-3")]


def test_a_router_in_use_refuses_a_snapshot(router):
    router.open("a")
    with pytest.raises(RuntimeError, match="fresh router"):
        router.restore(router.snapshot())


@pytest.mark.parametrize("snapshot, field", [
    ([], "must be an object"),
    ({"version": 2, "sent": 0, "pending": {}}, "`version`"),
    ({"version": 1, "sent": -1, "pending": {}}, "`sent`"),
    ({"version": 1, "sent": True, "pending": {}}, "`sent`"),
    ({"version": 1, "sent": 0, "pending": []}, "`pending`"),
    ({"version": 1, "sent": 0, "pending": {}, "finished": "a"}, "`finished`"),
    ({"version": 1, "sent": 0, "pending": {}, "containers": [1]}, "`containers`"),
    ({"version": 1, "sent": 1, "pending": {"a": [{"id": "m", "sender": "s", "to": "a"}]}}, "`content`"),
    ({"version": 1, "sent": 1, "pending": {"a": [{"id": "m", "sender": "s", "to": "a", "content": "c", "kind": "x"}]}},
     "`kind`"),
])
def test_a_malformed_snapshot_is_refused_naming_the_field(snapshot, field):
    with pytest.raises(ValueError, match=field):
        MessageRouter(on_drop=lambda drop: None).restore(snapshot)
