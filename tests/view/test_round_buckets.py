"""A loop's rounds for the chart: at most 500 buckets whatever the loop's size, sums kept exact when buckets
merge, numeric fields of the rounds' and the judge's results found (and capped), sent as patches."""
from __future__ import annotations

import json
import random

from runtime.live.view.rounds import MAX_BUCKETS, MAX_FIELDS, RoundBuckets
from runtime.live.view.state import RunView
from tests.support.engine_runs import run


def totals(rounds: dict) -> dict:
    buckets = rounds["buckets"].values()
    return {"n": sum(b["n"] for b in buckets), "tokens": sum(b["tokens"] for b in buckets),
            "time_count": sum(b["time"][0] for b in buckets if "time" in b),
            "time_sum": round(sum(b["time"][1] for b in buckets if "time" in b), 3),
            "completed": sum(b["status"].get("completed", 0) for b in buckets)}


def test_ten_thousand_items_make_at_most_500_buckets_whose_counts_add_up():
    rounds = RoundBuckets(10_000)
    for i in range(10_000):
        rounds.spent(i, 10, None)
        rounds.finished(i, "completed", 2.0, {"score": i % 7}, None)
    out = rounds.as_dict()
    assert len(out["buckets"]) <= MAX_BUCKETS
    assert rounds.width == 32  # the smallest power of two that fits 10,000 in 500
    assert totals(out) == {"n": 10_000, "tokens": 100_000, "time_count": 10_000, "time_sum": 20_000.0,
                           "completed": 10_000}
    assert out["fields"] == [{"source": "result", "path": ["score"]}]
    assert out["buckets"]["0"]["fields"]["0"][2:] == [0.0, 6.0]


def test_a_growing_loop_doubles_its_width_and_keeps_every_sum_exact():
    grown, known = RoundBuckets(), RoundBuckets(5_000)
    rng = random.Random(3)
    for i in range(5_000):
        ms, tokens, cost = rng.uniform(1, 900), rng.randrange(50), rng.random() / 100
        for r in (grown, known):
            r.spent(i, tokens, cost)
            r.finished(i, "failed" if i % 9 == 0 else "completed", ms, {"a": {"b": i}}, None)
            r.judged(i, i % 2 == 0, False, {"score": i % 5, "done": True})
    assert grown.width == known.width == 16
    assert len(grown.buckets) <= MAX_BUCKETS
    # Merged pairwise as it grew, it equals the loop bucketed at the final width from the start (sums rounded alike).
    a, b = grown.as_dict(), known.as_dict()
    for key in a["buckets"]:
        x, y = a["buckets"][key], b["buckets"][key]
        assert x["n"] == y["n"] and x["status"] == y["status"] and x["verdicts"] == y["verdicts"]
        assert x["tokens"] == y["tokens"]
        assert x["time"][0] == y["time"][0] and x["time"][2:] == y["time"][2:]
        assert abs(x["time"][1] - y["time"][1]) < 1e-6 and abs(x["cost"] - y["cost"]) < 1e-9
        assert x["fields"] == y["fields"]
    assert totals(a)["n"] == 5_000 and sum(bk["verdicts"]["done"] for bk in a["buckets"].values()) == 2_500
    assert [f["path"] for f in a["fields"]] == [["a", "b"], ["score"]]  # booleans are not plotted


def test_fields_are_capped_and_booleans_strings_and_arrays_are_left_out():
    rounds = RoundBuckets()
    result = {f"f{k}": k for k in range(MAX_FIELDS + 5)} | {"ok": True, "name": "x", "list": [1, 2]}
    rounds.finished(0, "completed", 1.0, result, None)
    fields = rounds.as_dict()["fields"]
    assert len(fields) == MAX_FIELDS
    assert {f["path"][0] for f in fields} == {f"f{k}" for k in range(MAX_FIELDS)}


def test_an_item_run_again_is_counted_once_by_its_last_status():
    rounds = RoundBuckets(10)
    rounds.finished(3, "failed", 5.0, None, None)
    rounds.finished(3, "completed", 7.0, None, "failed")
    bucket = rounds.as_dict()["buckets"]["3"]
    assert bucket["n"] == 1 and bucket["status"] == {"completed": 1}
    assert bucket["time"][0] == 2  # each attempt's time counts


def test_patches_send_the_touched_buckets_then_everything_after_a_merge():
    rounds = RoundBuckets()
    held = RoundBuckets.merge_patch(None, rounds.take_patch())
    assert rounds.take_patch() is None
    rounds.finished(7, "completed", 1.0, None, None)
    patch = rounds.take_patch()
    assert not patch["full"] and list(patch["buckets"]) == ["7"]
    held = RoundBuckets.merge_patch(held, patch)
    rounds.finished(MAX_BUCKETS, "completed", 1.0, None, None)  # past the last bucket: the width doubles
    patch = rounds.take_patch()
    assert patch["full"] and patch["width"] == 2
    held = RoundBuckets.merge_patch(held, patch)
    assert held == json.loads(json.dumps(rounds.as_dict()))
    assert set(held["buckets"]) == {"3", str(MAX_BUCKETS // 2)}


async def test_a_big_foreach_has_a_chart_of_its_items_in_the_view():
    items = 3000
    document = {"version": 1, "name": "big", "steps": [
        {"id": "each", "instructions": "x", "loop": {"forEach": list(range(items)), "maxConcurrency": 50}}]}
    _, sink = await run(document, {"replies": {"each": ["done"]}})
    rounds = RunView.of(sink.events).snapshot()["rounds"]["each"]
    assert len(rounds["buckets"]) <= MAX_BUCKETS and rounds["width"] == 8 and rounds["span"] == items
    assert totals(rounds)["n"] == items == totals(rounds)["completed"] == totals(rounds)["time_count"]
    end = sink.events[-1]
    assert totals(rounds)["tokens"] == end["tokens"]["total"] > 0


async def test_a_judged_loop_charts_the_judges_verdicts_and_its_score():
    document = {"version": 1, "agents": {"w": {"description": "works"}, "judge": {
        "description": "judges", "resultSchema": {"type": "object", "required": ["done"], "properties": {
            "done": {"type": "boolean"}, "score": {"type": "number"}}}}},
        "steps": [{"id": "refine", "agent": "w", "loop": {"maxIterations": 4, "untilAgent": "judge"}}]}
    script = {"replies": {"refine": ["draft"], "judge": [
        {"content": "v", "result": {"done": False, "score": 0.25}},
        {"content": "v", "result": {"done": False, "score": 0.5}},
        {"content": "v", "result": {"done": True, "score": 0.75}}]}}
    _, sink = await run(document, script)
    rounds = RunView.of(sink.events).snapshot()["rounds"]["refine"]
    assert rounds["width"] == 1 and rounds["span"] == 3
    assert rounds["fields"] == [{"source": "judge", "path": ["score"]}]
    buckets = [rounds["buckets"][str(i)] for i in range(3)]
    assert [b["verdicts"] for b in buckets] == [{"not_done": 1}, {"not_done": 1}, {"done": 1}]
    assert [b["fields"]["0"][1] for b in buckets] == [0.25, 0.5, 0.75]
    assert all(b["tokens"] > 0 for b in buckets)  # the judge's turns count for the round they judged
