"""forward_to_agent reaches a step running inside a repeat-until round (`loop.N.inner`, or its bare id), a forEach
item (`loop[N].inner`) and an include (`include.inner`), as upstream's router resolves them."""
from runtime.coordinator import CoordinatorSettings
from tests.support.engine_runs import doc, run, script

INCLUDED = """
name: sub
version: 1
agents:
  worker: {description: works}
steps:
  - {id: run-tests, agent: worker, instructions: Test.}
"""
FLOW = doc("""
    name: nested
    version: 1
    agents:
      worker: {description: works}
    steps:
      - id: rounds
        loop:
          maxIterations: 2
          steps:
            - {id: worker, agent: worker, instructions: Work.}
      - id: items
        dependsOn: [rounds]
        loop:
          forEach: [a, b]
          maxConcurrency: 1
          steps:
            - {id: deploy_step, agent: worker, instructions: Deploy.}
      - {id: deploy-staging, include: sub.yaml, dependsOn: [items]}
""")


def forward(when: str, target: str, text: str) -> str:
    return (f'    - {{when: "{when}", tool_calls: [{{name: forward_to_agent, '
            f'arguments: {{target_step_id: "{target}", text: "{text}"}}}}]}}\n')


# Each inner step's first turn takes 0.1 s and calls a tool, so there is a second turn to read the forward.
FIRST = "[{latency: 0.1, tool_calls: [{name: send_message, arguments: {text: working}}]}, done]"
REPLIES = script(
    "replies:\n"
    + "".join(f"  {key}: {FIRST}\n" for key in ("rounds.0.worker", "rounds.1.worker", "'items[1].deploy_step'",
                                                 "deploy-staging.run-tests"))
    + "  coordinator:\n"
    + forward("rounds.0.worker started", "rounds.0.worker", "to round 0")
    + forward("rounds.1.worker started", "worker", "to round 1 by bare id")
    + forward("items[1].deploy_step started", "items[1].deploy_step", "to item 1")
    + forward("deploy-staging.run-tests started", "deploy-staging.run-tests", "to the included step")
    + "    - ok\n")


async def test_each_forward_is_drained_by_the_execution_it_names(tmp_path):
    (tmp_path / "sub.yaml").write_text(INCLUDED)
    result, sink = await run(FLOW, REPLIES, coordinator=CoordinatorSettings(), base_dir=tmp_path)
    assert result.status == "completed", result.reason
    drained = [(e["stepId"], e["data"]["text"]) for e in sink.of_type("agent_inbox_drain")]
    assert drained == [("rounds.0.worker", "to round 0"), ("rounds.1.worker", "to round 1 by bare id"),
                       ("items[1].deploy_step", "to item 1"), ("deploy-staging.run-tests", "to the included step")]
    assert [e["data"]["to"] for e in sink.of_type("coordinator_message")] == [
        "rounds.0.worker", "rounds.1.worker", "items[1].deploy_step", "deploy-staging.run-tests"]
    assert sink.of_type("message_dropped") == []
