import pytest

from runtime.providers.script import ScriptError, load_script
from tests.support.engine_runs import doc, run, script


def test_replies_come_in_order_and_the_last_one_repeats():
    s = load_script("replies: {review: ['needs work', 'LGTM']}")
    assert [s.next_reply(["review"]).content for _ in range(4)] == ["needs work", "LGTM", "LGTM", "LGTM"]


def test_keys_are_tried_namespaced_id_then_step_id_then_agent_then_star():
    s = load_script('{"replies": {"dev.1.review": ["exact"], "review": ["by step"], "reviewer": ["by agent"], "*": ["any"]}}')
    assert s.next_reply(["dev.1.review", "review", "reviewer", "*"]).content == "exact"
    assert s.next_reply(["dev.2.review", "review", "reviewer", "*"]).content == "by step"
    assert s.next_reply(["x", "y", "reviewer", "*"]).content == "by agent"
    assert s.next_reply(["x", "*"]).content == "any"
    assert s.next_reply(["x"]) is None


def test_scripts_are_checked():
    with pytest.raises(ScriptError, match="unknown reply field"):
        load_script("replies: {a: [{contents: 'typo'}]}")
    with pytest.raises(ScriptError, match="latency"):
        load_script("latency: -1")
    with pytest.raises(ScriptError, match="tokens"):
        load_script("tokens: {prompt: many}")


async def test_scripted_tokens_and_latency_apply_per_reply():
    result, _sink = await run(doc("name: x\nsteps: [{id: a, instructions: hi}]"),
                             script("replies: {a: ['x']}\nlatency: 0.001\ntokens: {prompt: 7, completion: 3}"))
    assert result.tokens == {"prompt": 7, "completion": 3, "total": 10}


async def test_an_agent_key_scripts_every_step_of_that_agent():
    d = doc("""
        name: by-agent
        agents: {writer: {description: "Writes."}}
        steps:
          - {id: a, agent: writer, instructions: "A."}
          - {id: b, agent: writer, dependsOn: [a], instructions: "B."}
    """)
    result, _ = await run(d, script("replies: {writer: ['first', 'second']}"))
    assert (result.steps["a"].content, result.steps["b"].content) == ("first", "second")


async def test_without_a_script_the_simulated_agent_echoes_its_task_and_submits_a_minimal_valid_result():
    d = doc("""
        name: minimal
        agents:
          planner:
            description: "Plans."
            resultSchema:
              type: object
              required: [tasks, priority, ok, label]
              properties:
                tasks: {type: array, minItems: 2, items: {type: object, required: [name], properties: {name: {type: string, minLength: 3}}}}
                priority: {type: integer, minimum: 1}
                ok: {type: boolean}
                label: {enum: [low, high]}
        steps:
          - {id: plan, agent: planner, instructions: "Plan three tasks."}
    """)
    result, _ = await run(d)
    assert result.steps["plan"].content == "[simulated planner] Plan three tasks."
    assert result.steps["plan"].result == {"tasks": [{"name": "xxx"}, {"name": "xxx"}], "priority": 1,
                                           "ok": False, "label": "low"}
