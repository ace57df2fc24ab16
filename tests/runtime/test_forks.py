"""Fork points (runtime/engine/fork_points.py): the cut in a finished run's events, the state the fork starts
from, its edited input, and the engine going on from there asking the models only for what follows."""
import json

import pytest

from runtime.engine.checkpoints import Checkpoint, fold
from runtime.engine.fork_points import ForkPointError, locate, resolve, with_input
from runtime.runs.forks import PatchError, apply_patch
from tests.support.checkpoints import EACH, EACH_SCRIPT, TEN_ROUNDS, TEN_SCRIPT, counted_run, ten_rounds
from tests.support.engine_runs import doc


def json_copy(checkpoint: Checkpoint) -> Checkpoint:
    return Checkpoint.from_dict(json.loads(json.dumps(checkpoint.as_dict())))


async def test_a_fork_at_round_5_inherits_rounds_0_to_4_and_asks_only_from_round_5():
    clean, clean_sink, _ = await ten_rounds()
    point = locate(clean_sink.events, "write", 5)
    assert point.kind == "round" and point.events == [e for e in clean_sink.events if e["seq"] <= point.seq]
    assert next(e for e in clean_sink.events if e["seq"] == point.seq + 1)["type"] == "iteration_start"
    assert [i["iteration"] for i in point.checkpoint.loops["write"]["iterations"]] == [0, 1, 2, 3, 4]
    assert all(i["verdict"]["done"] is False for i in point.checkpoint.loops["write"]["iterations"])

    edited = doc(TEN_ROUNDS)
    edited["agents"]["judge"]["prompt"] = "Be much stricter."
    forked, sink, calls = await counted_run(edited, TEN_SCRIPT, start=json_copy(point.checkpoint))

    assert calls and all(c == "publish" or int(c.split(".")[1]) >= 5 for c in calls), calls
    assert len(calls) == 11  # rounds 5-9 with their judges, then publish
    judged = [e for e in sink.events if e["type"] == "agent_turn" and e["stepId"].endswith("untilAgent")
              and "prompt" in e["data"]]
    assert judged and all("Be much stricter." in e["data"]["prompt"]["system"] for e in judged)
    assert forked.status == "completed" and forked.steps["write"].content == clean.steps["write"].content


async def test_an_edited_previous_output_is_what_the_round_sees():
    _, clean_sink, _ = await ten_rounds()
    point = locate(clean_sink.events, "write", 3)
    start = with_input(point, {"previous_output": "a rewritten draft 2"})
    loop = start.loops["write"]
    assert loop["iterations"][2]["content"] == "a rewritten draft 2"
    assert loop["cumulative"].endswith("a rewritten draft 2") and "draft 2" not in loop["cumulative"].replace("rewritten draft 2", "")
    forked, sink, calls = await counted_run(doc(TEN_ROUNDS), TEN_SCRIPT, start=json_copy(start))
    asked = next(e["data"]["prompt"]["user"] for e in sink.events if e["type"] == "agent_turn"
                 and e["stepId"] == "write.3" and "prompt" in e["data"])
    assert "a rewritten draft 2" in asked
    assert calls[0] == "write.3"
    assert "a rewritten draft 2" in forked.steps["write"].content


async def test_a_fork_of_a_forEach_item_runs_only_that_item_and_what_waited_for_the_loop():
    d = doc(EACH)
    clean, clean_sink, _ = await counted_run(d, EACH_SCRIPT)
    point = locate(clean_sink.events, "each", 2)
    assert point.kind == "item"
    assert not any(e.get("stepId") == "each[2]" for e in point.events)
    assert sorted(i["index"] for i in point.checkpoint.loops["each"]["iterations"]) == [0, 1, 3, 4]
    assert "sum" not in point.checkpoint.steps and point.checkpoint.loops["each"]["end"] is None

    start = with_input(point, {"item": "z"})
    forked, sink, calls = await counted_run(d, EACH_SCRIPT, start=json_copy(start))
    assert calls == ["each[2]", "sum"]
    assert next(e for e in sink.events if e["type"] == "iteration_start")["data"] == {"index": 2, "item": "z"}
    assert forked.steps["each"].content == clean.steps["each"].content  # the same scripted reply, in item order
    assert forked.status == "completed"


async def test_a_fork_at_a_step_inherits_what_finished_before_it_started():
    _clean, clean_sink, _ = await ten_rounds()
    point = locate(clean_sink.events, "publish")
    assert point.kind == "step" and "write" in point.checkpoint.steps and "publish" not in point.checkpoint.steps
    _, _, calls = await counted_run(doc(TEN_ROUNDS), TEN_SCRIPT, start=json_copy(point.checkpoint))
    assert calls == ["publish"]


def test_a_step_inside_an_iteration_forks_from_the_outermost_iteration():
    assert resolve("write.3.untilAgent", None) == ("write", 3)
    assert resolve("each[2].draft", None) == ("each", 2)
    assert resolve("outer.1.inner.4.draft", 7) == ("outer", 1)
    assert resolve("publish", None) == ("publish", None)


async def test_points_that_are_not_in_the_run_are_refused_naming_the_field():
    _, sink, _ = await ten_rounds()
    with pytest.raises(ForkPointError, match="never ran") as missing:
        locate(sink.events, "nope")
    assert missing.value.field == "step"
    with pytest.raises(ForkPointError, match=r"never ran iteration 12 \(round 13\): it ran iterations 0 to 9 \(rounds 1 to 10\)") as past:
        locate(sink.events, "write", 12)
    assert past.value.field == "iteration"
    with pytest.raises(ForkPointError, match="never ran a loop iteration") as not_loop:
        locate(sink.events, "plan", 0)
    assert not_loop.value.field == "iteration"
    with pytest.raises(ForkPointError, match=r"the first round \(iteration 0\) has no previous round"):
        with_input(locate(sink.events, "write", 0), {"previous_output": "x"})
    with pytest.raises(ForkPointError, match="takes only 'previous_output'"):
        with_input(locate(sink.events, "write", 2), {"item": 1})
    with pytest.raises(ForkPointError, match="only a loop iteration takes an input"):
        with_input(locate(sink.events, "publish"), {"item": 1})


async def test_a_fork_of_a_fork_folds_its_own_events_from_its_start():
    _, sink, _ = await ten_rounds()
    first = with_input(locate(sink.events, "write", 3), {"previous_output": "edited 2"})
    _, forked_sink, _ = await counted_run(doc(TEN_ROUNDS), TEN_SCRIPT, start=json_copy(first))
    # The fork's stream: the inherited events, then its own numbered on from the point.
    own = [{**e, "seq": e["seq"] + first.seq} for e in forked_sink.events]
    stream = [e for e in sink.events if e["seq"] <= first.seq] + own
    second = locate(stream, "write", 6, start=first, start_seq=first.seq)
    assert second.checkpoint.loops["write"]["iterations"][2]["content"] == "edited 2"  # the first fork's edit carries on
    assert [i["iteration"] for i in second.checkpoint.loops["write"]["iterations"]] == list(range(6))
    assert second.checkpoint.seq == second.seq and second.events == [e for e in stream if e["seq"] <= second.seq]
    assert fold(second.events).loops["write"]["iterations"][2]["content"] == "draft 2"  # what a fold from scratch would lose


def test_a_json_patch_edits_a_copy_and_refuses_what_it_cannot_apply():
    original = {"steps": [{"id": "a", "instructions": "x"}], "agents": {"j/k": {}}}
    patched = apply_patch(original, [{"op": "replace", "path": "/steps/0/instructions", "value": "y"},
                                     {"op": "add", "path": "/agents/j~1k/prompt", "value": "p"},
                                     {"op": "add", "path": "/steps/-", "value": {"id": "b"}}])
    assert patched == {"steps": [{"id": "a", "instructions": "y"}, {"id": "b"}], "agents": {"j/k": {"prompt": "p"}}}
    assert original["steps"][0]["instructions"] == "x"
    for bad, said in [({"op": "replace"}, "a list of operations"),
                      ([{"op": "move", "path": "/a"}], "`op` must be one of"),
                      ([{"op": "replace", "path": "/steps/3/instructions", "value": 1}], "past the end"),
                      ([{"op": "replace", "path": "/nothing", "value": 1}], "does not exist"),
                      ([{"op": "test", "path": "/steps/0/id", "value": "b"}], "test failed"),
                      ([{"op": "add", "path": "steps", "value": 1}], "must start with /")]:
        with pytest.raises(PatchError, match=said):
            apply_patch(original, bad)
