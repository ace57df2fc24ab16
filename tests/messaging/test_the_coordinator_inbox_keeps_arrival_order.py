"""The coordinator reads its messages and the run's lifecycle notices in the order they arrived, each once;
discarding them reports every message once with the reason."""
from runtime.messaging import COORDINATOR, CoordinatorInbox, DropReason


def test_notices_and_messages_come_out_in_arrival_order(router):
    router.open(COORDINATOR)
    inbox = CoordinatorInbox(router)
    inbox.notice("step_start", "work", "work started")
    sent = router.send("work", COORDINATOR, "halfway")
    inbox.message_queued(sent.message.id)
    inbox.notice("step_end", "work", "work completed")
    assert inbox.woken.is_set()
    taken = inbox.take()
    assert [(i.source, i.sender, i.text, i.id) for i in taken] == [
        ("lifecycle", "work", "work started", None), ("message", "work", "halfway", "msg-send-1"),
        ("lifecycle", "work", "work completed", None)]
    assert not inbox.woken.is_set() and not inbox.pending
    assert inbox.take() == []


def test_a_restored_message_is_read_although_nobody_announced_it(router):
    router.send("x", "y", "")  # nothing open: only moves the counter
    fresh = type(router)(on_drop=lambda d: None)
    fresh.restore({"version": 1, "sent": 3, "pending": {COORDINATOR: [
        {"id": "msg-send-3", "sender": "a", "to": COORDINATOR, "content": "from before", "kind": "info"}]},
        "finished": [], "containers": []})
    fresh.open(COORDINATOR)
    assert [i.text for i in CoordinatorInbox(fresh).take()] == ["from before"]


def test_discarding_drops_each_pending_message_once(router, drops, reasons):
    router.open(COORDINATOR)
    inbox = CoordinatorInbox(router)
    for text in ("one", "two"):
        inbox.message_queued(router.send("a", COORDINATOR, text).message.id)
    inbox.notice("step_end", "a", "a completed")
    assert inbox.discard(DropReason.MAX_WAKE_CYCLES) == 2
    assert reasons(drops) == [("max-wake-cycles", "msg-send-1"), ("max-wake-cycles", "msg-send-2")]
    assert inbox.take() == [] and not inbox.pending
