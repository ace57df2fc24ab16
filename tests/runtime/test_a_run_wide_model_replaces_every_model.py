"""A run-wide model (upstream's ``--model``): every agent's, step's, judge's and the coordinator's model is replaced
for that run only, priced as the model actually called; without it each keeps its own."""
import io
import json

import pytest
from django.core.management import call_command

from runtime.coordinator import CoordinatorSettings
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: mixed models
    version: 1
    agents:
      writer: {description: writes, model: gpt-4o}
      critic:
        description: judges
        model: claude-sonnet-4-5
        resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}
    steps:
      - {id: draft, agent: writer, instructions: Draft.}
      - id: polish
        agent: writer
        model: o3
        dependsOn: [draft]
        instructions: Polish.
        loop: {maxIterations: 2, untilAgent: critic}
""")
REPLIES = script("""
    replies:
      "*": ["fine"]
      critic: [{content: good, result: {done: true, reason: good}}]
""")
OVERRIDE = "gpt-4o-mini"
PRICES = {OVERRIDE: [1.0, 2.0], "gpt-4o": [100.0, 100.0], "o3": [100.0, 100.0], "claude-sonnet-4-5": [100.0, 100.0]}


def requested_models(sink) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for event in sink.of_type("agent_turn"):
        if event["data"].get("phase") == "request":
            seen.setdefault(event.get("stepId") or event.get("agent") or "", set()).add(event["data"]["model"])
    return seen


async def test_without_an_override_each_agent_step_and_judge_uses_its_own():
    result, sink = await run(FLOW, REPLIES)
    assert result.status == "completed", result.reason
    models = requested_models(sink)
    assert models["draft"] == {"gpt-4o"}, models
    assert {m for step, ms in models.items() if step.startswith("polish") and not step.endswith("untilAgent") for m in ms} == {"o3"}
    assert {m for step, ms in models.items() if step.endswith("untilAgent") for m in ms} == {"claude-sonnet-4-5"}
    assert "model_override" not in sink.of_type("workflow_start")[0]["data"]


async def test_the_override_replaces_every_model_and_prices_the_one_called():
    result, sink = await run(FLOW, REPLIES, model_override=OVERRIDE, prices=PRICES)
    assert result.status == "completed", result.reason
    models = requested_models(sink)
    assert len(models) >= 3 and set().union(*models.values()) == {OVERRIDE}, models
    assert sink.of_type("workflow_start")[0]["data"]["model_override"] == OVERRIDE
    responses = [e for e in sink.of_type("agent_turn") if e["data"].get("phase") == "response"]
    tokens = sum(e["tokens"]["prompt"] * 1.0 + e["tokens"]["completion"] * 2.0 for e in responses) / 1e6
    assert result.cost_usd == pytest.approx(tokens)  # at the override's price, not the named models' 100 $/M
    assert FLOW["agents"]["writer"]["model"] == "gpt-4o"  # the document itself is not changed


async def test_the_coordinator_follows_the_override_unless_given_its_own():
    coordinated = script("""
        replies:
          "*": ["fine"]
          critic: [{content: good, result: {done: true, reason: good}}]
          coordinator: ["ok"]
    """)
    _, sink = await run(FLOW, coordinated, model_override=OVERRIDE, coordinator=CoordinatorSettings(mode="narrate"))
    assert requested_models(sink).get("coordinator") == {OVERRIDE}
    _, sink = await run(FLOW, coordinated, model_override=OVERRIDE,
                        coordinator=CoordinatorSettings(mode="narrate", model="claude-haiku-4-5"))
    assert requested_models(sink).get("coordinator") == {"claude-haiku-4-5"}


def test_runworkflow_takes_model_as_upstreams_cli_does(tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text(json.dumps(FLOW))
    replies = tmp_path / "script.json"
    replies.write_text(json.dumps(REPLIES))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", str(path), "--model", OVERRIDE, "--script", str(replies), "--json",
                     "--coordinator", "off", "--workdir", str(tmp_path / "ws"), stdout=out, stderr=err)
    assert exit_.value.code == 0, err.getvalue()
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    called = {e["data"]["model"] for e in events if e["type"] == "agent_turn" and e["data"].get("phase") == "request"}
    assert called == {OVERRIDE}
    assert json.loads(path.read_text())["agents"]["writer"]["model"] == "gpt-4o"
