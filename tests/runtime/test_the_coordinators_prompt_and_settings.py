"""What the coordinator is told (upstream's documented behaviour, our words) and how it is set up."""
import pytest

from runtime.coordinator import CoordinatorSettings, first_agent_model, parse_mode
from runtime.coordinator.prompt import final_prompt, system_prompt, wake_prompt
from runtime.messaging import InboxItem


def test_narrate_mode_asks_for_one_narration_per_significant_event_and_no_repeats():
    text = system_prompt("narrate", "flow", "Ship it.")
    assert "once per significant event" in text and "Never repeat" in text and "Ship it." in text
    assert "only with ids you were shown" in text


def test_summary_only_is_told_not_to_narrate():
    text = system_prompt("summary-only", "flow", "")
    assert "You do not narrate" in text and "once per significant event" not in text


def test_each_wake_lists_its_news_in_order_and_the_ids_it_can_target_now():
    items = [InboxItem("lifecycle", "a", "a started", event="step_start"),
             InboxItem("message", "a", "halfway", id="msg-send-1", kind="info")]
    text = wake_prompt(3, items, ("a", "loop.1.b"))
    assert text.splitlines() == ["Wake 3: what happened since your last wake:", "- a started",
                                 "- message msg-send-1 from a: halfway", "", "Step ids you can target now: a, loop.1.b"]
    assert "nobody to forward to" in wake_prompt(4, items, ())


def test_the_last_wake_asks_for_finalize_with_the_runs_status():
    assert "Call finalize once now" in final_prompt(9, [], "partial") and "status: partial" in final_prompt(9, [], "partial")


def test_the_model_defaults_to_the_first_agents():
    assert first_agent_model({"agents": {"a": {"description": "x", "model": "openai/gpt-x"}, "b": {"model": "y"}}}) == "openai/gpt-x"
    assert first_agent_model({"agents": {"a": {"description": "x"}, "b": {"model": "y"}}}) == ""
    assert first_agent_model({}) == ""


def test_modes_and_the_cap_are_checked():
    assert [parse_mode(m) for m in ("narrate", "summary-only", "off")] == ["narrate", "summary-only", "off"]
    with pytest.raises(ValueError, match="not 'quiet'"):
        parse_mode("quiet")
    with pytest.raises(ValueError, match="at least 1"):
        CoordinatorSettings(max_wake_cycles=0)
    assert not CoordinatorSettings(mode="off").on
