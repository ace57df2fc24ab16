"""Upstream's "no silent drops": every message that never reaches its target's conversation is handed to the
drop callback exactly once, with one of the wire reasons, so the engine emits exactly one ``message_dropped``."""
from runtime.messaging import COORDINATOR, DropReason, MessageRouter


def test_the_reasons_are_upstreams_wire_strings():
    assert sorted(r.value for r in DropReason) == sorted([
        "workflow-cancelled", "target-terminal", "unknown-step", "mailbox-closed-by-finalize", "max-wake-cycles",
        "hold-timeout", "mailbox-full", "no-transcript", "transcript-too-large", "resume-shutdown", "resolver-error"])


def test_a_message_to_a_finished_step_is_target_terminal(router, drops, reasons):
    router.open("review")
    router.close("review")
    sent = router.send(COORDINATOR, "review", "too late")
    assert (sent.status, sent.to, sent.text) == ("dropped", "review", "dropped: target-terminal")
    assert reasons(drops) == [("target-terminal", "msg-fwd-1")]


def test_a_bare_id_whose_executions_all_finished_is_target_terminal(router, drops):
    router.open("loop.0.worker")
    router.close("loop.0.worker")
    sent = router.send(COORDINATOR, "worker", "between rounds")
    assert (sent.reason, sent.to) == ("target-terminal", "loop.0.worker")
    assert len(drops) == 1


def test_messages_pending_when_a_step_ends_are_target_terminal_once(router, drops, reasons):
    router.open("a")
    router.send(COORDINATOR, "a", "one")
    router.send(COORDINATOR, "a", "two")
    router.close("a")
    router.close("a")  # closing again reports nothing twice
    assert reasons(drops) == [("target-terminal", "msg-fwd-1"), ("target-terminal", "msg-fwd-2")]
    assert {d.target for d in drops} == {"a"}
    assert router.drain("a") == []


def test_a_drained_message_is_not_dropped_when_its_step_ends(router, drops):
    router.open("a")
    router.send(COORDINATOR, "a", "read in time")
    router.drain("a")
    router.close("a")
    assert drops == []


def test_a_full_mailbox_drops_the_newest_as_mailbox_full(drops, reasons):
    router = MessageRouter(on_drop=drops.append, capacity=2)
    router.open("a")
    results = [router.send(COORDINATOR, "a", str(i)) for i in range(3)]
    assert [r.status for r in results] == ["queued", "queued", "dropped"]
    assert results[2].text == "dropped: mailbox-full"
    assert reasons(drops) == [("mailbox-full", "msg-fwd-3")]


def test_a_cancelled_run_drops_what_is_pending_and_what_comes_later_as_workflow_cancelled(router, drops, reasons):
    router.open(COORDINATOR)
    router.open("a")
    router.send(COORDINATOR, "a", "pending")
    router.send("a", COORDINATOR, "pending too")
    router.end_run(cancelled=True)
    router.close("a")  # the step's own end, after the halt: nothing more to report
    late = router.send(COORDINATOR, "a", "after the stop")
    assert late.text == "dropped: workflow-cancelled"
    # Mailbox by mailbox, in the order they opened; each message once.
    assert reasons(drops) == [("workflow-cancelled", "msg-send-2"), ("workflow-cancelled", "msg-fwd-1"),
                              ("workflow-cancelled", "msg-fwd-3")]


def test_a_run_that_ends_drops_the_coordinators_unread_messages_as_target_terminal(router, drops, reasons):
    router.open(COORDINATOR)
    router.open("a")
    router.send("a", COORDINATOR, "last words")
    router.close("a")
    router.end_run()
    router.end_run()
    assert reasons(drops) == [("target-terminal", "msg-send-1")]
    assert router.send("a", COORDINATOR, "after the end").reason == "target-terminal"


def test_the_engine_discards_a_mailbox_with_its_own_reason(router, drops, reasons):
    # The coordinator past its wake cycles (max-wake-cycles); a held step that timed out (hold-timeout).
    router.open(COORDINATOR)
    router.open("a")
    router.send("a", COORDINATOR, "one")
    router.send("a", COORDINATOR, "two")
    assert router.discard(COORDINATOR, DropReason.MAX_WAKE_CYCLES) == 2
    assert router.discard(COORDINATOR, DropReason.MAX_WAKE_CYCLES) == 0
    router.send(COORDINATOR, "a", "three")
    assert router.discard("a", DropReason.HOLD_TIMEOUT) == 1
    assert reasons(drops) == [("max-wake-cycles", "msg-send-1"), ("max-wake-cycles", "msg-send-2"),
                              ("hold-timeout", "msg-fwd-3")]
    assert router.send("a", COORDINATOR, "still open").status == "queued"


def test_without_a_coordinator_send_message_answers_no_coordinator_and_reports_no_drop(router, drops):
    # Upstream's --quiet runs: "dropped: no-coordinator" is the tool's answer, not a message_dropped event.
    router.open("a")
    sent = router.send("a", COORDINATOR, "anyone?")
    assert (sent.status, sent.text, sent.message) == ("dropped", "dropped: no-coordinator", None)
    assert drops == []


def test_a_finished_coordinator_is_target_terminal_not_absent(router, drops):
    router.open(COORDINATOR)
    router.close(COORDINATOR)
    router.open("a")
    assert router.send("a", COORDINATOR, "late").text == "dropped: target-terminal"
    assert len(drops) == 1
