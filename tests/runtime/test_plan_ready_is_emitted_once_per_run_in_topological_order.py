"""``plan_ready`` (upstream's event): right after ``workflow_start``, once per run, the top-level steps in
topological order with their ``dependsOn`` edges and each loop's inner plan; a run started from a checkpoint (a
resume, a fork) does not announce it again."""
from runtime import contract
from tests.support.engine_runs import doc, run, run_with_checkpoints

# Written out of order: the plan is the order the steps can run in, ties in document order.
DIAMOND = doc("""
    name: diamond
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: report, agent: worker, instructions: Report., dependsOn: [left, right]}
      - {id: left, agent: worker, instructions: Left., dependsOn: [start]}
      - id: right
        dependsOn: [start]
        loop:
          maxIterations: 2
          steps:
            - {id: check, agent: worker, instructions: Check., dependsOn: [draft]}
            - {id: draft, agent: worker, instructions: Draft.}
      - {id: start, agent: worker, instructions: Start.}
""")
REPLIES = {"replies": {"*": ["ok"]}}


async def test_the_plan_comes_once_right_after_workflow_start_in_topological_order():
    result, sink = await run(DIAMOND, REPLIES)
    assert result.status == "completed", result.reason
    types = [e["type"] for e in sink.events]
    assert types.count("plan_ready") == 1
    assert types[:2] == ["workflow_start", "plan_ready"]
    plan = sink.of_type("plan_ready")[0]
    contract.check(plan)
    workflow = plan["data"]["workflow"]
    assert workflow["name"] == "diamond"
    assert workflow["steps"] == ["start", "left", "right", "report"]
    assert workflow["edges"] == [{"source": "start", "target": "left"}, {"source": "start", "target": "right"},
                                 {"source": "left", "target": "report"}, {"source": "right", "target": "report"}]
    assert workflow["scopes"] == {"right": {"steps": ["draft", "check"], "edges": [{"source": "draft", "target": "check"}]}}


async def test_every_step_starts_after_the_plan_in_an_order_the_plan_allows():
    _, sink = await run(DIAMOND, REPLIES)
    plan_seq = sink.of_type("plan_ready")[0]["seq"]
    order = sink.of_type("plan_ready")[0]["data"]["workflow"]["steps"]
    starts = [e for e in sink.of_type("step_start") if e["stepId"] in order]
    assert all(e["seq"] > plan_seq for e in starts)
    ends = {e["stepId"]: e["seq"] for e in sink.of_type("step_end")}
    for edge in sink.of_type("plan_ready")[0]["data"]["workflow"]["edges"]:
        start_of_target = next(e["seq"] for e in starts if e["stepId"] == edge["target"])
        assert ends[edge["source"]] < start_of_target


async def test_a_run_that_goes_on_from_a_checkpoint_does_not_announce_its_plan_again():
    _, first, taken = await run_with_checkpoints(DIAMOND, REPLIES)
    middle = next(c for c in taken if "left" in c.steps)
    result, again = await run(DIAMOND, REPLIES, start=middle, first_seq=middle.seq)
    assert result.status == "completed", result.reason
    assert again.of_type("plan_ready") == []
    kept = [e for e in first.events if e["seq"] <= middle.seq] + again.events
    assert [e["type"] for e in kept].count("plan_ready") == 1
