"""A resumed (or forked) run's simulated script hands each step the replies a clean run gives it.

The replay counts a stored model request as given only when the engine will not ask it again: a round half done
when the worker stopped starts clean, so its finished inner steps are asked again and must get the same reply.
Counting them made a resumed judge loop's output one draft off (tests/live/test_resume.py, under load).
"""
from __future__ import annotations

from runtime.durability.continuation import asked_again
from runtime.engine.checkpoints import Checkpoint


def checkpoint(**loops) -> Checkpoint:
    return Checkpoint(seq=40, steps={"plan": {"status": "completed", "content": "p", "result": None, "blocked": False},
                                     "dev.3.draft": {"status": "completed", "content": "draft 3", "result": None,
                                                     "blocked": False}},
                      loops=loops)


DEV = {"kind": "repeat-until", "end": None, "cumulative": "", "iterations": [
    {"iteration": 0, "status": "completed", "content": "a", "result": None, "verdict": {"done": False}},
    {"iteration": 1, "status": "completed", "content": "b", "result": None, "verdict": {"done": False}},
    {"iteration": 2, "status": "completed", "content": "c", "result": None},  # ended, its judge not yet heard
]}


def test_finished_steps_and_rounds_are_not_asked_again():
    start = checkpoint(dev=DEV)
    assert not asked_again("plan", start)
    assert not asked_again("dev.0.draft", start) and not asked_again("dev.1.review", start)
    assert not asked_again("dev.0.untilAgent", start)


def test_a_half_done_round_and_a_round_without_its_verdict_are_asked_again():
    start = checkpoint(dev=DEV)
    assert asked_again("dev.3.draft", start)  # finished, but its round starts clean
    assert asked_again("dev.2.untilAgent", start)  # the round stands; its judge is asked
    assert not asked_again("dev.2.draft", start)
    assert asked_again("report", start)  # never finished


def test_foreach_items_by_index_and_a_cancelled_one_runs_again():
    each = {"kind": "forEach", "end": None, "cumulative": "", "iterations": [
        {"index": 0, "status": "completed", "content": "x", "result": None, "item": 1},
        {"index": 2, "status": "cancelled", "content": "", "result": None, "item": 3}]}
    start = checkpoint(each=each)
    assert not asked_again("each[0]", start) and not asked_again("each[0].deploy", start)
    assert asked_again("each[1].deploy", start) and asked_again("each[2]", start)


def test_without_a_checkpoint_everything_is_asked():
    assert asked_again("plan", None)
