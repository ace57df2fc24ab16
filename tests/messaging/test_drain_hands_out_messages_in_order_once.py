"""Upstream's agents drain their inbox at the start of every model turn: every queued message, oldest first,
each one once (its mailbox store's exactly-once ``MarkRead``)."""
from runtime.messaging import COORDINATOR


def test_messages_come_out_in_the_order_they_were_sent(router):
    router.open("a")
    for text in ("one", "two", "three"):
        router.send(COORDINATOR, "a", text)
    assert [(m.id, m.content) for m in router.drain("a")] == [("msg-fwd-1", "one"), ("msg-fwd-2", "two"),
                                                              ("msg-fwd-3", "three")]


def test_a_drained_message_is_never_handed_out_again(router):
    router.open("a")
    router.send(COORDINATOR, "a", "one")
    assert len(router.drain("a")) == 1
    assert router.drain("a") == []
    router.send(COORDINATOR, "a", "two")
    assert [m.content for m in router.drain("a")] == ["two"]


def test_a_mailbox_holds_only_its_own_messages(router):
    router.open("a")
    router.open("b")
    router.send(COORDINATOR, "a", "for a")
    router.send(COORDINATOR, "b", "for b")
    assert [m.content for m in router.drain("b")] == ["for b"]
    assert [m.content for m in router.drain("a")] == ["for a"]


def test_a_step_run_again_starts_with_an_empty_mailbox(router, drops):
    # A retry opens the same id again: what the first attempt left was already reported at its close.
    router.open("a")
    router.send(COORDINATOR, "a", "for the first attempt")
    router.close("a")
    router.open("a")
    assert router.drain("a") == []
    assert router.send(COORDINATOR, "a", "for the retry").status == "queued"
    assert [d.message.content for d in drops] == ["for the first attempt"]


def test_draining_a_mailbox_that_is_not_open_gives_nothing(router):
    assert router.drain("never") == []
