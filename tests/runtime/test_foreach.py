import asyncio

from runtime.engine.loops import FOREACH_PARALLEL_CAP
from runtime.providers import ChatReply, Provider, ProviderError
from tests.support.engine_runs import doc, ids_of, prompts, run, script, step_end


class Tracking(Provider):
    """Counts calls in flight; replies with the step path after a short, per-step delay."""

    name = "simulated"

    def __init__(self, delays: dict | None = None, fail: set | None = None):
        self.in_flight = 0
        self.peak = 0
        self.delays = delays or {}
        self.fail = fail or set()
        self.calls: list[str] = []

    async def chat(self, request, on_delta=None):
        self.calls.append(request.step_path)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delays.get(request.step_path, 0.001))
        finally:
            self.in_flight -= 1
        if request.step_path in self.fail:
            raise ProviderError(f"{request.step_path} broke")
        return ChatReply(content=f"done {request.step_path}")


STATIC = """
name: static
steps:
  - id: review
    instructions: "Review this repo."
    loop:
      forEach: ["repo-a", "repo-b", "repo-c", "repo-d", "repo-e"]
      maxConcurrency: 2
"""

DYNAMIC = """
name: dynamic
agents:
  discovery:
    description: "Lists services."
    resultSchema:
      type: object
      required: [services]
      properties:
        services: {type: array, items: {type: object}}
steps:
  - id: list-services
    agent: discovery
    instructions: "List services."
  - id: deploy-each
    dependsOn: [list-services]
    loop:
      forEach: "steps.list-services.result.services"
      steps:
        - id: deploy
          instructions: "Deploy."
        - id: verify
          dependsOn: [deploy]
          instructions: "Verify."
"""

SERVICES = """
replies:
  list-services:
    - content: "found 3"
      result: {services: [{name: auth, region: us-east-1}, {name: api, region: eu-west-1}, {name: web, region: ap-south-1}]}
"""


async def test_a_static_array_runs_one_single_step_iteration_per_item_with_namespaced_ids():
    result, sink = await run(doc(STATIC))
    assert result.status == "completed"
    assert sorted(i for i in ids_of(sink, "step_end") if i != "review") == [f"review[{i}]" for i in range(5)]
    assert [e["data"]["item"] for e in sink.of_type("iteration_start")] == ["repo-a", "repo-b", "repo-c",
                                                                            "repo-d", "repo-e"]
    assert result.loops["review"] == {"rounds_completed": 5, "broke_early": False, "break_reason": "items_exhausted"}


async def test_the_item_is_injected_in_the_spec_format():
    _, sink = await run(doc(STATIC))
    assert '## forEach Item (index: 1)\n"repo-b"' in prompts(sink, "review[1]")[0]


async def test_a_cel_forEach_over_a_hyphenated_dependency_uses_multi_step_namespacing():
    result, sink = await run(doc(DYNAMIC), script(SERVICES))
    assert result.status == "completed"
    inner = [i for i in ids_of(sink, "step_start") if i.startswith("deploy-each[")]
    assert sorted(inner) == sorted(f"deploy-each[{i}].{s}" for i in range(3) for s in ("deploy", "verify"))
    assert '{"name": "api", "region": "eu-west-1"}' in prompts(sink, "deploy-each[1].deploy")[0]
    assert sink.of_type("step_start")[1]["data"]["items"] == 3


async def test_results_stay_in_item_order_when_iterations_finish_out_of_order():
    provider = Tracking(delays={"review[0]": 0.05, "review[1]": 0.03, "review[2]": 0.001})
    d = doc(STATIC.replace('"repo-d", "repo-e"', '"repo-d"').replace("maxConcurrency: 2", "maxConcurrency: 4"))
    d["steps"][0]["loop"]["outputMode"] = "cumulative"
    result, sink = await run(d, providers={"simulated": provider})
    ends = [e["data"]["index"] for e in sink.of_type("iteration_end")]
    assert ends[0] != 0  # they did finish out of order
    listed = result.steps["review"].result["iterations"]
    assert [i["content"] for i in listed] == [f"done review[{i}]" for i in range(4)]
    # As upstream's runner: the last item's output, whatever outputMode says (every item's is in the result).
    assert result.steps["review"].content == "done review[3]"


async def test_max_concurrency_bounds_parallel_iterations():
    provider = Tracking(delays={f"review[{i}]": 0.01 for i in range(5)})
    result, _ = await run(doc(STATIC), providers={"simulated": provider})
    assert result.status == "completed"
    assert provider.peak == 2


async def test_without_max_concurrency_all_items_run_in_parallel():
    provider = Tracking(delays={f"review[{i}]": 0.02 for i in range(5)})
    d = doc(STATIC)
    del d["steps"][0]["loop"]["maxConcurrency"]
    await run(d, providers={"simulated": provider})
    assert provider.peak == 5


async def test_the_parallel_safety_cap_applies_and_is_announced():
    provider = Tracking()
    items = list(range(FOREACH_PARALLEL_CAP + 20))
    d = doc("""
        name: many
        steps:
          - id: each
            instructions: "Handle it."
            loop: {forEach: [0]}
    """)
    d["steps"][0]["loop"]["forEach"] = items
    provider.delays = {f"each[{i}]": 0.01 for i in items}
    result, sink = await run(d, providers={"simulated": provider})
    assert result.status == "completed"
    assert provider.peak == FOREACH_PARALLEL_CAP
    assert any("safety cap" in e["message"] for e in sink.of_type("message"))


async def test_a_forEach_expression_that_is_not_a_list_fails_the_loop_clearly():
    d = doc(DYNAMIC.replace("steps.list-services.result.services", "steps.list-services.result"))
    result, sink = await run(d, script(SERVICES))
    assert result.status == "partial"  # list-services completed
    assert "forEach must give a list" in step_end(sink, "deploy-each")["error"]
    assert "a map" in step_end(sink, "deploy-each")["error"]


async def test_a_failed_iteration_cancels_the_iterations_not_yet_started_and_fails_the_loop():
    provider = Tracking(fail={"review[1]"})
    d = doc(STATIC.replace("maxConcurrency: 2", "maxConcurrency: 1"))
    result, sink = await run(d, providers={"simulated": provider})
    assert result.status == "failed"
    assert provider.calls == ["review[0]", "review[1]"]
    assert result.loops["review"] == {"rounds_completed": 1, "broke_early": True, "break_reason": "failed"}
    assert "item 2 (review[1]) failed" in step_end(sink, "review")["error"]
    assert [i["status"] for i in result.steps["review"].result["iterations"][2:]] == ["cancelled"] * 3


async def test_item_and_index_are_visible_to_inner_conditions():
    d = doc("""
        name: cond
        steps:
          - id: each
            loop:
              forEach: [{name: a, skip: false}, {name: b, skip: true}]
              steps:
                - id: work
                  condition: "!item.skip && index == 0"
                  instructions: "Work."
    """)
    result, sink = await run(d)
    assert result.status == "completed"
    assert ids_of(sink, "step_skipped") == ["each[1].work"]


async def test_the_loop_result_lists_each_iterations_result_in_item_order():
    d = doc("""
        name: results
        agents:
          scorer:
            description: "Scores."
            resultSchema: {type: object, required: [score], properties: {score: {type: integer}}}
        steps:
          - id: score
            agent: scorer
            instructions: "Score it."
            loop: {forEach: [a, b, c]}
    """)
    s = script("""
        replies:
          "score[0]": [{result: {score: 0}}]
          "score[1]": [{result: {score: 1}}]
          "score[2]": [{result: {score: 2}}]
    """)
    result, _ = await run(d, s)
    listed = result.steps["score"].result["iterations"]
    assert [i["result"] for i in listed] == [{"score": 0}, {"score": 1}, {"score": 2}]
