"""Upstream's forward_to_agent ``kind`` is ``info`` (default), ``context_update`` or ``cancel``, and an unknown
kind is ``info``; ``queued: msg-send-<n>`` and ``queued: msg-fwd-<n>`` share one counter per run."""
import pytest

from runtime.messaging import COORDINATOR, message_kind


@pytest.mark.parametrize("value, kind", [
    (None, "info"), ("", "info"), ("info", "info"), ("context_update", "context_update"),
    ("Context-Update", "context_update"), (" cancel ", "cancel"), ("follow-up", "info"), (3, "info"),
])
def test_a_kind_is_read_as_upstream_reads_it(value, kind):
    assert message_kind(value) == kind


def test_sends_and_forwards_share_one_counter_and_drops_use_it_too(router):
    router.open(COORDINATOR)
    router.open("a")
    assert router.send("a", COORDINATOR, "x").text == "queued: msg-send-1"
    assert router.send(COORDINATOR, "a", "y").text == "queued: msg-fwd-2"
    assert router.send(COORDINATOR, "nobody", "z").message.id == "msg-fwd-3"
    assert router.send("a", COORDINATOR, "w").text == "queued: msg-send-4"


def test_an_unknown_kind_is_delivered_as_info(router):
    router.open("a")
    router.send(COORDINATOR, "a", "note", "ack")
    assert [m.kind for m in router.drain("a")] == ["info"]
