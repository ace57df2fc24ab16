"""Upstream's mailboxes hold 10,000 messages by default; past that the newest is refused (``mailbox-full``) and
what the mailbox holds is kept."""
import pytest

from runtime.messaging import COORDINATOR, DEFAULT_CAPACITY, MessageRouter


def test_the_default_capacity_is_upstreams():
    assert DEFAULT_CAPACITY == 10_000


def test_a_mailbox_at_the_default_capacity_refuses_the_next_message(router, drops):
    router.open("a")
    queued = [router.send(COORDINATOR, "a", "x").status for _ in range(DEFAULT_CAPACITY)]
    assert set(queued) == {"queued"}
    assert router.send(COORDINATOR, "a", "one too many").reason == "mailbox-full"
    assert len(router.drain("a")) == DEFAULT_CAPACITY
    assert [d.message.content for d in drops] == ["one too many"]


def test_a_full_mailbox_keeps_the_oldest_and_takes_more_once_drained(drops):
    router = MessageRouter(on_drop=drops.append, capacity=1)
    router.open("a")
    router.send(COORDINATOR, "a", "first")
    router.send(COORDINATOR, "a", "second")
    assert [m.content for m in router.drain("a")] == ["first"]
    assert router.send(COORDINATOR, "a", "third").status == "queued"
    assert [d.message.content for d in drops] == ["second"]


def test_each_mailbox_has_its_own_bound(drops):
    router = MessageRouter(on_drop=drops.append, capacity=1)
    router.open("a")
    router.open(COORDINATOR)
    assert router.send(COORDINATOR, "a", "to a").status == "queued"
    assert router.send("a", COORDINATOR, "to the coordinator").status == "queued"
    assert drops == []


@pytest.mark.parametrize("capacity", [0, -1])
def test_a_mailbox_that_could_hold_nothing_is_refused(capacity):
    with pytest.raises(ValueError, match="capacity must be at least 1"):
        MessageRouter(on_drop=lambda drop: None, capacity=capacity)
