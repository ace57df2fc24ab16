from runtime.engine import Budgets
from tests.support.engine_runs import doc, ids_of, run, script

CHAIN = """
name: chain
steps:
  - id: one
    instructions: "One."
  - id: two
    dependsOn: [one]
    instructions: "Two."
  - id: three
    dependsOn: [two]
    instructions: "Three."
"""
TOKENS = script("tokens: {prompt: 100, completion: 50}")


async def test_tokens_and_cost_are_totalled_from_the_price_table():
    d = doc(CHAIN)
    for step in d["steps"]:
        step["model"] = "openai/gpt-4o"
    result, sink = await run(d, TOKENS, prices={"gpt-4o": (2.5, 10.0)})
    assert result.tokens == {"prompt": 300, "completion": 150, "total": 450}
    assert abs(result.cost_usd - (300 * 2.5 + 150 * 10.0) / 1_000_000) < 1e-12
    assert sink.of_type("workflow_end")[0]["tokens"]["total"] == 450


async def test_crossing_the_token_budget_stops_the_run_with_that_reason():
    result, sink = await run(doc(CHAIN), TOKENS, budgets=Budgets(max_tokens=200))
    assert result.status == "partial"  # steps before the budget ran completed (zenflow's status)
    assert result.code == "budget:max_tokens"
    assert "token budget exceeded: 300 of 200" in result.reason
    assert "three" not in ids_of(sink, "step_start")
    assert sink.of_type("workflow_end")[0]["data"]["code"] == "budget:max_tokens"


async def test_crossing_the_cost_budget_stops_the_run():
    d = doc(CHAIN)
    d["steps"][0]["model"] = d["steps"][1]["model"] = "gpt-4o"
    result, _ = await run(d, TOKENS, prices={"gpt-4o": (2.5, 10.0)}, budgets=Budgets(max_cost_usd=0.001))
    assert result.code == "budget:max_cost_usd"
    assert result.steps["three"].status == "cancelled"


async def test_the_step_budget_stops_the_run_before_the_next_step_starts():
    result, sink = await run(doc(CHAIN), budgets=Budgets(max_steps=2))
    assert result.code == "budget:max_steps"
    assert [e["stepId"] for e in sink.of_type("agent_turn") if e["data"]["phase"] == "request"] == ["one", "two"]


async def test_the_step_budget_counts_loop_iterations():
    d = doc("""
        name: loop
        steps:
          - id: poll
            instructions: "Poll."
            loop: {maxIterations: 50}
    """)
    result, sink = await run(d, budgets=Budgets(max_steps=4))
    assert result.code == "budget:max_steps"
    assert result.loops["poll"]["break_reason"] == "stopped"
    assert len(sink.of_type("step_end")) == 6  # poll.0 .. poll.3, the cancelled poll.4, and poll


async def test_the_duration_budget_stops_a_long_run():
    result, _ = await run(doc(CHAIN), script("replies: {two: [{latency: 30}]}"), budgets=Budgets(max_duration_s=0.2))
    assert result.code == "budget:max_duration_s"
    assert result.steps["one"].status == "completed"
    assert result.steps["two"].status == "cancelled"
