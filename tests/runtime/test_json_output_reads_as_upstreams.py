"""``runworkflow --json`` prints upstream zenflow's event names and fields for the events both runners have (ours
stay as additions), so that a consumer written against upstream's ``--json`` reads ours: real runs' output, through
the OpenAI fake (a tool call, reasoning, a forEach loop) and upstream's messaging example with the coordinator,
checked event by event against the contract's fact sheet of upstream's fields, and read by a consumer that knows only upstream's."""
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from runtime.contract import EVENT_DATA, UPSTREAM, UPSTREAM_ENVELOPE, UPSTREAM_ONLY, Event
from runtime.contract import upstream_missing as missing
from runtime.events import upstream_event
from tests.fakes import FakeOpenAI
from tests.support.upstream_spec import SPEC

DOCS = Path(__file__).resolve().parents[2] / "docs"
FLOW = """name: upstream reader
agents:
  coder: {description: Looks around., model: openai/gpt-test, tools: [read, bash]}
steps:
  - {id: look, agent: coder, instructions: Read notes.txt.}
  - id: each
    dependsOn: [look]
    loop:
      forEach: '["a", "b"]'
      steps:
        - {id: one, agent: coder, instructions: Say the item.}
  - {id: never, agent: coder, instructions: Never runs., condition: "false"}
"""
REPLIES = [
    {"tool_calls": [{"id": "r1", "name": "read", "arguments": {"path": "notes.txt"}}], "reasoning": "Read it first.",
     "usage": {"prompt": 20, "completion": 9, "reasoning": 4}},
    {"tool_calls": [{"id": "b1", "name": "bash", "arguments": {"command": "ls"}}]},
    {"content": "notes read"},
]


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def upstream_reader(events: list[dict]) -> dict:
    """What a shell consumer of upstream's ``--json`` works out, reading only upstream's fields."""
    seen: dict = {"steps": {}, "tools": [], "reasoning": [], "tokens": 0, "output": {}}
    for e in events:
        kind, data = e["type"], e.get("data") or {}
        if kind == "workflow_start":
            seen["total"] = data["total"]
        elif kind == "step_start":
            seen["steps"][e["stepId"]] = "running"
        elif kind == "step_end":
            seen["steps"][e["stepId"]] = data["status"]
        elif kind == "step_skipped":
            seen["steps"][e["stepId"]] = "skipped"
        elif kind == "agent_turn" and data["phase"] == "response":
            seen["tokens"] += e["tokens"]["total"]
            if e.get("reasoning"):
                seen["reasoning"].append((e["stepId"], data["turn"], e["reasoning"]))
        elif kind == "tool_call" and data["phase"] == "end":
            seen["tools"].append((data["tool_name"], data["tool_call_id"], bool(e.get("error")), e["duration"]))
        elif kind == "output" and "delta" in e:
            seen["output"][e["stepId"]] = seen["output"].get(e["stepId"], "") + e["delta"]
        elif kind == "workflow_end":
            seen["status"], seen["duration"] = data["status"], e["duration"]
    return seen


def test_a_run_through_a_provider_prints_upstreams_fields_and_an_upstream_reader_follows_it(tmp_path, settings):
    (tmp_path / "flow.yaml").write_text(FLOW)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("remember the milk\n")
    with FakeOpenAI(REPLIES, default={"content": "item said"}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-cli-test"
        code, events, err = run_cli(str(tmp_path / "flow.yaml"), "--provider", "openai", "--coordinator", "off",
                                    "--deny", "bash", "--json", "--workdir", str(tmp_path / "ws"))
    assert code == 0, err
    assert {e["type"] for e in events} >= {"workflow_start", "workflow_end", "step_start", "step_end", "step_skipped",
                                           "agent_turn", "tool_call", "output"}
    for event in events:
        assert missing(event) == [], (event["type"], missing(event), event)
    read = upstream_reader(events)
    assert read["total"] == 3 and read["status"] == "completed"
    assert read["steps"] == {"look": "completed", "each": "completed", "each[0].one": "completed",
                             "each[1].one": "completed", "never": "skipped"}
    # The denied call is an ended call with an error, as upstream's reader expects a failed tool.
    assert [(name, call, failed) for name, call, failed, _ in read["tools"]] == [("read", "r1", False), ("bash", "b1", True)]
    assert all(duration.endswith("s") for *_, duration in read["tools"])
    # Reasoning on the envelope, where upstream puts it (and in data, where ours shows it folded).
    assert read["reasoning"] == [("look", 1, "Read it first.")]
    turn = next(e for e in events if e.get("reasoning"))
    assert turn["data"]["reasoning"] == "Read it first." and turn["data"]["reasoning_tokens"] == 4
    assert read["tokens"] == sum(e["tokens"]["total"] for e in events if e["type"] == "agent_turn" and "tokens" in e)
    assert read["output"]["look"] == "notes read"
    # Ours stay as additions: numbered, with the structure of a namespaced id.
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert next(e for e in events if e.get("stepId") == "each[1].one")["where"] == {"loop": "each", "item": 1, "inner": "one"}


def test_the_coordinators_events_keep_upstreams_names_and_fields():
    example = SPEC / "examples" / "messaging-demo.yaml"
    code, events, err = run_cli(str(example), "--script", str(DOCS / "scripts" / "messaging-demo.script.yaml"), "--json")
    assert code == 0, err
    kinds = {e["type"] for e in events}
    assert kinds >= {"message_sent", "coordinator_message", "agent_inbox_drain", "coordinator_inbox_message",
                     "coordinator_narration", "coordinator_synthesis"}
    for event in events:
        assert missing(event) == [], (event["type"], missing(event), event)


def test_the_printed_copy_adds_the_envelopes_reasoning_and_changes_nothing_else():
    turn = {"type": "agent_turn", "seq": 4, "data": {"phase": "response", "reasoning": "why"}}
    assert upstream_event(turn) == {**turn, "reasoning": "why"}
    assert "reasoning" not in turn  # the stored event is not touched
    plain = {"type": "agent_turn", "seq": 5, "data": {"phase": "response"}}
    assert upstream_event(plain) is plain


def test_the_docs_table_names_every_event_type_of_both_runners():
    table = (DOCS / "ndjson.md").read_text()
    rows = {line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")}
    assert set(UPSTREAM) | set(UPSTREAM_ONLY) | set(EVENT_DATA) <= rows, sorted((set(UPSTREAM) | set(EVENT_DATA)) - rows)
    assert set(UPSTREAM) <= set(EVENT_DATA)  # every upstream type we have is in the contract


def test_our_envelope_has_every_field_of_upstreams():
    assert set(UPSTREAM_ENVELOPE) <= set(Event.model_fields)
