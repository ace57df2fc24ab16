"""runworkflow --thinking LEVEL: the level reaches the OpenAI fake as ``reasoning_effort`` and the NDJSON carries it
and the reasoning that came back; an unknown level is refused naming the flag and the choices."""
import io
import json

import pytest
from django.core.management import call_command

from tests.fakes import FakeOpenAI

FLOW = """name: cli thinking
agents:
  solver: {description: Answers., model: openai/gpt-test}
steps:
  - {id: solve, agent: solver, instructions: "What is 2+2?"}
"""


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, out.getvalue(), err.getvalue()


def test_the_level_reaches_the_provider_and_the_reasoning_the_events(tmp_path, settings):
    path = tmp_path / "flow.yaml"
    path.write_text(FLOW)
    reply = {"content": "4", "reasoning": "two plus two", "usage": {"prompt": 9, "completion": 12, "reasoning": 10}}
    with FakeOpenAI([reply]) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-cli-test"
        code, out, err = run_cli(str(path), "--provider", "openai", "--thinking", "medium", "--coordinator", "off",
                                 "--json", "--workdir", str(tmp_path / "ws"))
        sent = fake.requests[0].json
    assert code == 0, err
    assert sent["reasoning_effort"] == "medium"
    events = [json.loads(line) for line in out.splitlines()]
    assert next(e for e in events if e["type"] == "workflow_start")["data"]["thinking"] == "medium"
    turn = next(e for e in events if e["type"] == "agent_turn" and e["data"]["phase"] == "response")
    assert (turn["data"]["reasoning"], turn["data"]["reasoning_tokens"]) == ("two plus two", 10)


def test_an_unknown_level_is_refused_naming_the_flag_and_the_choices(tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text(FLOW)
    with pytest.raises(Exception, match=r"--thinking: invalid choice: 'max' \(choose from '?off'?, '?low'?, '?medium'?, '?high'?\)"):
        call_command("runworkflow", str(path), "--thinking", "max")
