"""Where a resumed run went on and when its open steps first started (runtime/engine/resume_points.py), and the
numbering rule's words for rounds, items and steps (runtime/numbering.py), read from plain events."""
from __future__ import annotations

from datetime import UTC, datetime

from runtime.engine.resume_points import first_starts, last_alive, notice_of, open_steps, place_of, public_notice, worked_seconds
from runtime.numbering import iteration_words, place_words, step_words


def ev(seq: int, type_: str, step: str = "", ts: str = "2026-11-27T10:00:00.000Z", **data) -> dict:
    return {"seq": seq, "type": type_, "stepId": step, "timestamp": ts, "data": data}


EVENTS = [
    ev(1, "workflow_start"),
    ev(2, "step_start", "plan", "2026-11-27T10:00:01.000Z"),
    ev(3, "step_end", "plan", status="completed"),
    ev(4, "step_start", "dev", "2026-11-27T10:00:02.000Z"),
    ev(5, "iteration_start", "dev", iteration=0),
    ev(6, "step_start", "dev.0.draft", "2026-11-27T10:00:03.000Z"),
    ev(7, "step_end", "dev.0.draft", status="completed"),
    ev(8, "iteration_end", "dev", iteration=0, status="completed"),
    ev(9, "judge_verdict", "dev", iteration=0, done=False),
    ev(10, "iteration_start", "dev", iteration=1),
    ev(11, "step_start", "dev.1.draft", "2026-11-27T10:00:05.000Z"),
]


def test_the_place_a_run_went_on_from_is_shaped_as_a_fork_point():
    assert place_of(EVENTS, 9) == {"kind": "round", "step": "dev", "iteration": 0}
    assert place_of(EVENTS, 8) == {"kind": "round", "step": "dev", "iteration": 0}
    assert place_of(EVENTS, 3) == {"kind": "step", "step": "plan"}
    assert place_of(EVENTS, 7) == {"kind": "step", "step": "dev.0.draft"}
    items = [ev(1, "iteration_end", "each", index=4301, status="completed")]
    assert place_of(items, 1) == {"kind": "item", "step": "each", "iteration": 4301}
    assert place_of(EVENTS, 0) is None and place_of(EVENTS, 6) is None  # the start; a start closes nothing


def test_open_steps_keep_their_first_start_and_an_iteration_that_runs_again_starts_clean():
    assert open_steps(EVENTS[:9]) == {"dev": "2026-11-27T10:00:02.000Z"}
    assert open_steps(EVENTS) == {"dev": "2026-11-27T10:00:02.000Z", "dev.1.draft": "2026-11-27T10:00:05.000Z"}
    # Round 1 started again (a second resume): the steps inside it are forgotten, the loop's first start kept.
    again = [*EVENTS, ev(12, "iteration_start", "dev", iteration=1),
             ev(13, "step_start", "dev", "2026-11-27T11:00:00.000Z", started_at="2026-11-27T10:00:02.000Z")]
    assert open_steps(again) == {"dev": "2026-11-27T10:00:02.000Z"}
    # Superseded events did not happen to the run that went on.
    lost = [*EVENTS[:9], {**ev(10, "step_start", "late", "2026-11-27T10:00:09.000Z"), "superseded": True}]
    assert open_steps(lost) == {"dev": "2026-11-27T10:00:02.000Z"}


def test_the_notice_keeps_the_engines_start_times_from_readers():
    notice = {"reason": "worker lost", "attempt": 1, "of": 3, "from_seq": 9, "after": place_of(EVENTS, 9),
              "started": open_steps(EVENTS[:9])}
    assert notice_of({"seq": 9, "resumed": notice}) is notice and notice_of({"seq": 9}) is None
    assert "started" not in public_notice(notice) and public_notice(notice)["after"]["iteration"] == 0
    assert first_starts(notice) == {"dev": (1795773602.0, "2026-11-27T10:00:02.000Z", None)}
    assert first_starts({"started": {"dev": "not a time"}}) == {}
    assert "worked" not in public_notice({**notice, "worked": {"dev": 6.0}})
    assert first_starts({**notice, "worked": {"dev": 6.0}})["dev"][2] == 6.0


def test_words_count_from_one_with_the_id_beside():
    assert iteration_words("each", 305, "forEach") == "item 306 (each[305])"
    assert iteration_words("write", 2, "repeat-until") == "round 3 (write.2)"
    assert place_words({"kind": "round", "step": "write", "iteration": 3}) == "round 4 of write"
    assert place_words({"kind": "item", "step": "each", "iteration": 0}) == "item 1 of each"
    assert place_words({"kind": "step", "step": "dev.2.draft"}) == "step draft of round 3 of dev"
    assert place_words(None) == "its start"
    assert step_words("plan") == "step plan" and step_words("each[4].check") == "step check of item 5 of each"


def test_work_before_a_loss_counts_and_the_time_no_worker_ran_does_not():
    kept = EVENTS[:9]  # dev started at 10:00:02, its first round ended
    # Last heard of at 10:00:08 (a later event of the lost attempt, or its heartbeat): six seconds of work.
    later = [*EVENTS, ev(12, "agent_turn", "dev.1.draft", "2026-11-27T10:00:08.000Z")]
    assert last_alive(later, None) == 1795773608.0
    assert worked_seconds(kept, last_alive(later, None)) == {"dev": 6.0}
    beat = datetime(2026, 11, 27, 10, 0, 9, tzinfo=UTC)
    assert worked_seconds(kept, last_alive(later, beat)) == {"dev": 7.0}
    # A second loss: the resumed start carries the first attempt's work; this attempt's counts on from its start.
    again = [*kept, ev(13, "step_start", "dev", "2026-11-27T11:00:00.000Z", started_at="2026-11-27T10:00:02.000Z",
                       carried_s=7.0)]
    assert worked_seconds(again, 1795777204.0) == {"dev": 11.0}  # 7 s, then 4 s after 11:00:00
