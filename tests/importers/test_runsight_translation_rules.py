"""How Runsight constructs beyond the seed examples become zenflow: ids, souls, transitions, nesting, fields."""
from designer.cel import evaluate
from designer.importers import import_loop
from designer.validation import validate_document
from tests.support.imported_seeds import assert_valid, step


def imported(text):
    result = import_loop("runsight", text)
    assert_valid(result.document)
    return result


def test_block_ids_become_valid_step_ids_and_the_rename_is_reported():
    result = imported("""\
blocks:
  Draft Block: {type: linear, soul_ref: Senior Writer}
  2nd-pass: {type: linear, soul_ref: Senior Writer, depends: Draft Block}
workflow: {name: names, entry: Draft Block}
""")
    doc = result.document
    assert [s["id"] for s in doc["steps"]] == ["draft-block", "nd-pass"]
    assert step(doc, "nd-pass")["dependsOn"] == ["draft-block"]
    assert list(doc["agents"]) == ["senior-writer"]
    assert "renamed" in result.entry("/blocks/Draft Block").note


def test_inline_souls_carry_role_prompt_model_and_tools():
    result = import_loop("runsight", """\
souls:
  writer:
    id: writer
    role: Technical writer
    system_prompt: You write crisp release notes.
    model_name: gpt-4o
    provider: openai
    tools: [search]
    temperature: 0.3
    avatar_color: "#ff0000"
blocks:
  notes: {type: linear, soul_ref: writer}
workflow: {name: souls, entry: notes}
""")
    # Valid, and kept as written; this runtime has no `search` tool, so the validator warns that it cannot run here.
    report = validate_document(result.document)
    assert report.valid and [(d.code, d.path) for d in report.warnings] == [("unknown_tool", "/agents/writer/tools/0")]
    agent = result.document["agents"]["writer"]
    assert agent == {"description": "Technical writer", "prompt": "You write crisp release notes.",
                     "model": "openai/gpt-4o", "tools": ["search"], "temperature": 0.3}
    assert result.entry("/souls/writer/avatar_color").outcome == "dropped"
    assert result.entry("/souls/writer/system_prompt").target == "/agents/writer/prompt"


def test_plain_transitions_become_dependencies():
    doc = imported("""\
blocks:
  a: {type: linear, soul_ref: s}
  b: {type: linear, soul_ref: s}
  c: {type: linear, soul_ref: s}
workflow:
  name: chain
  entry: a
  transitions:
    - {from: a, to: b}
    - {from: b, to: c}
    - {from: c}
""").document
    assert step(doc, "b")["dependsOn"] == ["a"]
    assert step(doc, "c")["dependsOn"] == ["b"]


def test_a_transition_that_would_close_a_cycle_is_dropped_and_reported():
    result = imported("""\
blocks:
  a: {type: linear, soul_ref: s}
  b: {type: linear, soul_ref: s}
workflow:
  name: cycle
  entry: a
  transitions:
    - {from: a, to: b}
    - {from: b, to: a}
""")
    assert "dependsOn" not in step(result.document, "a")
    entry = result.entry("/workflow/transitions/1")
    assert entry.outcome == "dropped" and "cycle" in entry.note


def test_a_gate_outside_a_loop_routes_with_cel_conditions():
    result = imported("""\
blocks:
  draft: {type: linear, soul_ref: writer}
  check: {type: gate, soul_ref: critic, eval_key: draft, pass: publish, fail: rework}
  publish: {type: linear, soul_ref: editor}
  rework: {type: linear, soul_ref: writer}
workflow: {name: routes, entry: draft}
""")
    doc = result.document
    check = step(doc, "check")
    assert check["dependsOn"] == ["draft"]
    assert "PASS" in check["instructions"]
    publish, rework = step(doc, "publish"), step(doc, "rework")
    assert publish["dependsOn"] == ["check"] and rework["dependsOn"] == ["check"]
    passed = {"steps": {"check": {"content": "PASS - reads well"}}}
    failed = {"steps": {"check": {"content": "FAIL: too long"}}}
    assert evaluate(publish["condition"], passed) is True and evaluate(publish["condition"], failed) is False
    assert evaluate(rework["condition"], failed) is True and evaluate(rework["condition"], passed) is False
    assert result.entry("/blocks/check/pass").target == "/steps/2/condition"


def test_conditional_transitions_use_output_conditions_and_a_default():
    doc = imported("""\
blocks:
  triage:
    type: linear
    soul_ref: triager
    output_conditions:
      - case_id: urgent
        condition_group: {conditions: [{eval_key: priority, operator: gte, value: 8}]}
      - case_id: normal
        default: true
  page: {type: linear, soul_ref: oncall}
  queue: {type: linear, soul_ref: support}
workflow:
  name: triage
  entry: triage
  conditional_transitions:
    - {from: triage, urgent: page, default: queue}
""").document
    urgent = {"steps": {"triage": {"result": {"priority": 9}}}}
    calm = {"steps": {"triage": {"result": {"priority": 2}}}}
    assert evaluate(step(doc, "page")["condition"], urgent) is True
    assert evaluate(step(doc, "page")["condition"], calm) is False
    assert evaluate(step(doc, "queue")["condition"], calm) is True
    assert doc["agents"]["triager"]["resultSchema"]["properties"]["priority"] == {"type": "number"}


def test_a_nested_loop_is_flattened_into_the_outer_loop_and_reported():
    result = imported("""\
blocks:
  outline: {type: linear, soul_ref: writer}
  draft: {type: linear, soul_ref: writer}
  polish: {type: loop, inner_block_refs: [draft], max_rounds: 2}
  chapter: {type: loop, inner_block_refs: [outline, polish], max_rounds: 3}
workflow: {name: nested, entry: chapter}
""")
    doc = result.document
    assert [s["id"] for s in doc["steps"]] == ["chapter"]
    assert [s["id"] for s in doc["steps"][0]["loop"]["steps"]] == ["outline", "draft"]
    assert result.entry("/blocks/polish").outcome == "approximated"
    assert result.entry("/blocks/polish/max_rounds").outcome == "dropped"


def test_a_gate_that_is_not_last_is_tested_in_cel_and_stops_on_pass():
    doc = imported("""\
blocks:
  draft: {type: linear, soul_ref: writer}
  check: {type: gate, soul_ref: critic, eval_key: draft}
  log: {type: code, code: "def main(data):\\n    return {}"}
  refine: {type: loop, inner_block_refs: [draft, check, log], break_on_exit: pass}
workflow: {name: gate-in-middle, entry: refine}
""").document
    loop = step(doc, "refine")["loop"]
    assert "untilAgent" not in loop
    assert loop["maxIterations"] == 5
    assert evaluate(loop["until"], {"steps": {"check": {"content": "**PASS**"}}}) is True
    assert evaluate(loop["until"], {"steps": {"check": {"content": "FAIL: passable but thin"}}}) is False


def test_block_timeouts_and_retry_configs_are_carried():
    result = imported("""\
blocks:
  fetch:
    type: linear
    soul_ref: s
    timeout_seconds: 90
    retry_config: {max_attempts: 3, backoff: exponential}
workflow: {name: fields, entry: fetch}
""")
    fetch = step(result.document, "fetch")
    assert fetch["timeout"] == "1m30s"
    assert fetch["retries"] == 2
    entry = result.entry("/blocks/fetch/retry_config")
    assert entry.outcome == "approximated" and "backoff" in entry.note


def test_inputs_become_dependencies():
    doc = imported("""\
blocks:
  research: {type: linear, soul_ref: s}
  write: {type: linear, soul_ref: s, inputs: {facts: {from: research.output}}}
workflow: {name: inputs, entry: research}
""").document
    assert step(doc, "write")["dependsOn"] == ["research"]


def test_a_top_level_block_depending_on_an_inner_block_depends_on_its_loop():
    result = imported("""\
blocks:
  draft: {type: linear, soul_ref: writer}
  refine: {type: loop, inner_block_refs: [draft], max_rounds: 2}
  publish: {type: linear, soul_ref: editor, depends: draft}
workflow: {name: reach-in, entry: refine}
""")
    assert step(result.document, "publish")["dependsOn"] == ["refine"]


def test_a_loop_without_a_break_rule_runs_all_its_rounds():
    result = imported("""\
blocks:
  draft: {type: linear, soul_ref: writer}
  refine: {type: loop, inner_block_refs: [draft]}
workflow: {name: plain, entry: refine}
""")
    loop = result.document["steps"][0]["loop"]
    assert loop == {"maxIterations": 5, "steps": loop["steps"]}
    assert result.entry("/blocks/refine/max_rounds").outcome == "approximated"


def test_top_level_runsight_settings_are_reported_as_dropped():
    result = imported("""\
version: "1.0"
enabled: true
config: {model: gpt-4o}
tools: [http]
blocks:
  a: {type: linear, soul_ref: s}
workflow: {name: top, entry: a}
""")
    for field in ("/version", "/enabled", "/config", "/tools"):
        assert result.entry(field).outcome == "dropped"


def test_a_synthesize_block_depends_on_its_inputs():
    result = imported("""\
blocks:
  pros: {type: linear, soul_ref: analyst}
  cons: {type: linear, soul_ref: analyst}
  merge: {type: synthesize, soul_ref: editor, input_block_ids: [pros, cons]}
workflow: {name: synth, entry: pros}
""")
    merge = step(result.document, "merge")
    assert merge["dependsOn"] == ["pros", "cons"] and merge["agent"] == "editor"
    assert result.entry("/blocks/merge/input_block_ids/0").outcome == "carried"
