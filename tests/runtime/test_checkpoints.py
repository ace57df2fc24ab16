"""A run's state at every step and iteration boundary is rebuilt from its events alone
(runtime/engine/checkpoints.py), and equals the engine's own state at that event, exactly."""
import asyncio
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from designer import workflows
from designer.documents import load_source
from runtime.durability.continuation import checkpoint_of_run
from runtime.engine import Budgets
from runtime.engine.checkpoints import Checkpoint, boundaries, fold
from runtime.live.recorder import persist_events
from runtime.models import Run
from tests.support.checkpoints import JUDGE, TEN_ROUNDS, assert_fold_matches_engine, counted_run, ten_rounds
from tests.support.engine_runs import doc, run_with_checkpoints, script
from tests.support.upstream_spec import SPEC

EXAMPLES = sorted((SPEC / "examples").glob("*.yaml"))


def assert_final_state_matches_result(events: list[dict], result) -> None:
    final = fold(events)
    assert final.spent["tokens"] == result.tokens
    assert final.spent["cost_usd"] == pytest.approx(result.cost_usd)
    for step_id, outcome in result.steps.items():
        if step_id in final.steps:
            assert final.steps[step_id]["status"] == outcome.status
    for loop, meta in result.loops.items():
        end = final.loops[loop]["end"]
        assert {k: end[k] for k in meta} == meta


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
async def test_every_boundary_of_every_upstream_example_is_rebuilt_from_the_events(path: Path):
    loaded = load_source(path.read_text(), filename=str(path))
    result, sink, taken = await run_with_checkpoints(loaded.document, base_dir=path.parent)
    assert_fold_matches_engine(sink.events, taken)
    assert_final_state_matches_result(sink.events, result)


JUDGED = f"""
name: judged
agents:
  {JUDGE}
  writer: {{description: "Writes.", model: "gpt-x"}}
steps:
  - id: dev
    loop:
      maxIterations: 6
      untilAgent: judge
      outputMode: cumulative
      steps:
        - id: implement
          agent: writer
          instructions: "Implement."
        - id: review
          dependsOn: [implement]
          instructions: "Review."
  - id: ship
    dependsOn: [dev]
    instructions: "Ship."
"""


async def test_a_judged_loop_keeps_its_verdicts_and_cumulative_output_at_every_boundary():
    s = script("""
        replies:
          judge:
            - {content: "not yet", result: {done: false, reason: "tests missing"}}
            - "no verdict at all"
            - "none after the reminder either"
            - {content: "ship it", result: {done: true, reason: "ok"}}
          review: ["v1", "v2", "v3"]
        tokens: {prompt: 7, completion: 3}
    """)
    result, sink, taken = await run_with_checkpoints(doc(JUDGED), s, prices={"gpt-x": (3.0, 15.0)})
    assert result.status == "completed"
    assert_fold_matches_engine(sink.events, taken)
    assert_final_state_matches_result(sink.events, result)
    verdict_seq = next(b.seq for b in boundaries(sink.events) if b.kind == "verdict" and b.iteration == 1)
    loop = fold(sink.events, upto=verdict_seq).loops["dev"]
    assert [i["iteration"] for i in loop["iterations"]] == [0, 1]
    assert loop["iterations"][0]["verdict"]["result"] == {"done": False, "reason": "tests missing"}
    assert loop["iterations"][1]["verdict"]["failed_open"] is True
    assert loop["cumulative"].startswith("v1") and "\n\n---\n\nv2" in loop["cumulative"]
    assert loop["end"] is None
    spent = fold(sink.events, upto=verdict_seq).spent
    assert spent["steps_started"] == 4  # implement and review, twice; judges are not steps
    assert spent["cost_usd"] == pytest.approx(2 * (7 * 3.0 + 3 * 15.0) / 1_000_000)


NESTED = """
name: nested
options: {maxConcurrency: 3}
steps:
  - id: plan
    instructions: "Plan."
  - id: each
    dependsOn: [plan]
    loop:
      forEach: [a, b, c, d]
      maxConcurrency: 2
      steps:
        - id: draft
          instructions: "Draft."
        - id: polish
          dependsOn: [draft]
          loop:
            maxIterations: 3
            until: "content.contains('DONE')"
          instructions: "Polish."
  - id: side
    instructions: "Side work."
"""


async def test_forEach_with_concurrency_and_a_nested_loop_is_rebuilt_at_every_boundary():
    s = script("""
        replies:
          polish: ["rough", "DONE"]
        latency: 0.001
    """)
    result, sink, taken = await run_with_checkpoints(doc(NESTED), s)
    assert result.status == "completed", result.reason
    assert_fold_matches_engine(sink.events, taken)
    final = fold(sink.events)
    assert [i["index"] for i in final.loops["each"]["iterations"]] == [0, 1, 2, 3]
    assert "each[2].polish" in final.loops and final.steps["each[3].draft"]["status"] == "completed"


FAILING = """
name: failing
options: {onStepFailure: skip-dependents}
steps:
  - id: a
    instructions: "A."
  - id: broken
    instructions: "Breaks."
  - id: after-broken
    dependsOn: [broken]
    instructions: "Never runs."
  - id: maybe
    condition: "false"
    instructions: "Skipped."
  - id: flaky-loop
    retries: 1
    loop:
      maxIterations: 3
      until: "status == 'completed' && content == 'good'"
    instructions: "Try."
"""


async def test_failures_skips_and_a_retried_loop_are_rebuilt_at_every_boundary():
    s = script("""
        replies:
          broken: [{error: "upstream 503"}]
          flaky-loop: ["bad", {error: "boom"}, "good"]
    """)
    result, sink, taken = await run_with_checkpoints(doc(FAILING), s)
    assert result.status == "partial"
    assert_fold_matches_engine(sink.events, taken)
    final = fold(sink.events)
    assert final.steps["broken"]["error"] == "upstream 503"
    assert final.steps["after-broken"] == {"status": "skipped", "content": "", "result": None, "blocked": True}
    assert final.steps["maybe"]["blocked"] is False
    # The retry restarted the loop at iteration 0: the first attempt's two iterations are gone.
    assert [(i["iteration"], i["content"]) for i in final.loops["flaky-loop"]["iterations"]] == [(0, "good")]
    assert final.loops["flaky-loop"]["end"]["break_reason"] == "until"


async def test_a_forEach_item_run_again_by_the_retry_policy_keeps_only_its_last_attempt():
    d = doc("""
        name: fan
        steps:
          - id: each
            instructions: "Handle."
            loop: {forEach: [a, b, c], maxConcurrency: 1}
    """)
    result, sink, taken = await run_with_checkpoints(d, script("replies: {'each[1]': [{error: 'flaky'}, 'ok']}"),
                                                     policies={"on_iteration_error": "retry"})
    assert result.status == "completed"
    assert_fold_matches_engine(sink.events, taken)
    items = fold(sink.events).loops["each"]["iterations"]
    assert [(i["index"], i["status"], i["content"]) for i in items][1] == (1, "completed", "ok")


async def test_a_run_halted_by_its_budget_is_rebuilt_up_to_its_last_boundary():
    s = script("""
        replies: {}
        tokens: {prompt: 40, completion: 20}
    """)
    d = doc("""
        name: halted
        steps:
          - id: a
            instructions: "A."
          - id: b
            dependsOn: [a]
            loop: {maxIterations: 5}
            instructions: "B."
          - id: c
            dependsOn: [b]
            instructions: "C."
    """)
    result, sink, taken = await run_with_checkpoints(d, s, budgets=Budgets(max_tokens=150))
    assert result.code == "budget:max_tokens"
    assert_fold_matches_engine(sink.events, taken)
    final = fold(sink.events)
    assert final.spent["tokens"]["total"] == 180
    assert final.loops["b"]["end"]["break_reason"] == "stopped"
    assert "c" not in final.steps  # never started: nothing to restore


def test_events_out_of_order_are_refused():
    events = [{"type": "workflow_start", "seq": 2, "data": {"total": 1}}, {"type": "message", "seq": 1, "data": {}}]
    with pytest.raises(ValueError, match="seq order"):
        fold(events)


def test_a_checkpoint_survives_json():
    cp = Checkpoint(seq=3, steps={"a": {"status": "completed", "content": "x", "result": None, "blocked": False}})
    assert Checkpoint.from_dict(json.loads(json.dumps(cp.as_dict()))) == cp


async def test_a_run_started_after_round_4_asks_the_models_only_from_round_5_and_ends_the_same():
    clean, clean_sink, clean_calls = await ten_rounds()
    assert clean.status == "completed" and clean.loops["write"]["rounds_completed"] == 10
    after_4 = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "verdict" and b.iteration == 4)
    checkpoint = Checkpoint.from_dict(json.loads(json.dumps(fold(clean_sink.events, upto=after_4).as_dict())))

    resumed, sink, calls = await ten_rounds(start=checkpoint)

    assert calls == [c for c in clean_calls if c.startswith(("write.5", "write.6", "write.7", "write.8", "write.9",
                                                             "publish"))]
    assert "plan" not in calls and all(int(c.split(".")[1]) >= 5 for c in calls if c.startswith("write."))
    assert len(calls) == 11  # rounds 5-9 and their judges, then publish
    assert resumed.status == "completed"
    assert resumed.steps["write"].content == clean.steps["write"].content
    assert resumed.steps["write"].content.startswith(
        "## Iteration 1\ndraft 0\n\n## Judge Feedback (Iteration 1)\nagain\n\n## Iteration 2\ndraft 1\n\n")
    assert resumed.loops == clean.loops
    assert resumed.tokens == clean.tokens  # earlier rounds' spend counts; none billed twice
    assert fold(sink.events).spent["steps_started"] == 6  # rounds 5-9 and publish
    # Later rounds and their judge see the earlier rounds exactly as in the clean run.
    def asked(events, step_id):
        return [e["data"]["prompt"] for e in events if e["type"] == "agent_turn" and e.get("stepId") == step_id
                and "prompt" in e["data"]]
    for step_id in ("write.5", "write.5.untilAgent", "write.9.untilAgent", "publish"):
        assert asked(sink.events, step_id) == asked(clean_sink.events, step_id), step_id
    assert sink.events[0]["data"]["from_checkpoint"] == after_4


async def test_a_run_started_after_a_round_without_its_verdict_asks_only_that_rounds_judge():
    # The round itself finished: it is not run (or billed) again, and the run ends as the clean one did (a resumed
    # simulated script counts the round's calls as given, so a re-run round would take the next round's reply).
    clean, clean_sink, _ = await ten_rounds()
    end_of_4 = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "iteration" and b.iteration == 4)
    resumed, _, calls = await ten_rounds(start=fold(clean_sink.events, upto=end_of_4))
    assert calls[:2] == ["write.4.untilAgent", "write.5"]
    assert resumed.steps["write"].content == clean.steps["write"].content
    assert resumed.loops == clean.loops


async def test_a_forEach_started_from_a_checkpoint_runs_only_the_items_not_done():
    d = doc("""
        name: fan
        steps:
          - id: each
            instructions: "Handle."
            loop: {forEach: [a, b, c, d, e], maxConcurrency: 1, outputMode: cumulative}
    """)
    s = {"replies": {f"each[{i}]": [f"item {i}"] for i in range(5)}}
    clean, clean_sink, _ = await counted_run(d, s)
    after_2 = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "iteration" and b.iteration == 2)
    resumed, _, calls = await counted_run(d, s, start=fold(clean_sink.events, upto=after_2))
    assert calls == ["each[3]", "each[4]"]
    assert resumed.steps["each"].content == clean.steps["each"].content
    assert resumed.loops == clean.loops


async def test_an_iteration_in_flight_at_the_checkpoint_runs_again_from_its_first_step():
    replies = {"replies": {**{f"dev.{i}.review": [f"review {i}"] for i in range(6)},
                           "judge": [{"content": "no", "result": {"done": False}}],
                           "dev.3.untilAgent": [{"content": "yes", "result": {"done": True, "reason": "fine"}}]}}
    clean, clean_sink, clean_calls = await counted_run(doc(JUDGED), replies)
    assert clean.loops["dev"]["rounds_completed"] == 4
    mid_2 = next(b.seq for b in boundaries(clean_sink.events) if b.kind == "step" and b.path == "dev.2.implement")
    start = fold(clean_sink.events, upto=mid_2)
    assert "dev.2.implement" in start.steps and [i["iteration"] for i in start.loops["dev"]["iterations"]] == [0, 1]
    resumed, _sink, calls = await counted_run(doc(JUDGED), replies, start=start)
    assert calls == clean_calls[clean_calls.index("dev.2.implement"):]
    assert resumed.steps["dev"].content == clean.steps["dev"].content
    assert resumed.steps["ship"].status == "completed" and resumed.loops == clean.loops


def test_a_stored_runs_checkpoint_is_read_from_its_events_in_the_database(db):
    owner = get_user_model().objects.create_user("owner", password="owner-pass-123")
    workflow = workflows.create(owner, source=None, document=doc(TEN_ROUNDS))
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow,
                             version=workflow.versions.get(), provider="simulated")
    _, sink, _ = asyncio.run(ten_rounds())
    for at in range(0, len(sink.events), 40):  # stored in batches, as the recorder stores them
        persist_events(run.pk, sink.events[at:at + 40])
    middle = boundaries(sink.events)[len(boundaries(sink.events)) // 2].seq
    assert checkpoint_of_run(run.pk, upto=middle) == fold(sink.events, upto=middle)
    assert checkpoint_of_run(run.pk).loops["write"]["end"]["break_reason"] == "judge"


@pytest.mark.parametrize("bad, said", [
    ([], "an object with a seq"),
    ({"seq": "3"}, "an object with a seq"),
    ({"seq": 3, "steps": {"a": "done"}}, "with a status"),
    ({"seq": 3, "loops": {"dev": {"kind": "while", "iterations": []}}}, "'dev': needs a kind"),
    ({"seq": 3, "loops": {"dev": {"kind": "repeat-until", "iterations": [{"index": 0, "status": "completed"}]}}},
     "needs its iteration"),
])
def test_a_malformed_checkpoint_is_refused_with_what_is_wrong(bad, said):
    with pytest.raises(ValueError, match=said):
        Checkpoint.from_dict(bad)
