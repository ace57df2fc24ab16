import io
import json

import pytest
from django.core.management import call_command

from tests.support.upstream_spec import SPEC

LOOP = """
name: cli-loop
agents:
  judge:
    description: "Judge."
    resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}
steps:
  - id: work
    instructions: "Work."
    loop: {maxIterations: 3, untilAgent: judge}
"""


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, out.getvalue(), err.getvalue()


def test_json_prints_ndjson_events_and_exits_zero_when_the_run_completes():
    code, out, _ = run_cli(str(SPEC / "examples/simple-chain.yaml"), "--json", "--run-id", "cli-1")
    events = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert events[0]["type"] == "workflow_start" and events[-1]["data"]["status"] == "completed"
    assert {e["runId"] for e in events} == {"cli-1"}


def test_the_live_view_is_readable(tmp_path):
    code, out, _ = run_cli(str(SPEC / "examples/parallel-fan-out.yaml"))
    assert code == 0
    assert "▶ parallel-fan-out: 5 steps" in out and "✓ integrate completed" in out and "[5/5]" in out


def test_a_script_drives_the_run_and_a_failed_run_exits_one(tmp_path):
    (tmp_path / "flow.yaml").write_text(LOOP)
    (tmp_path / "script.yaml").write_text("replies:\n  judge: [{result: {done: false}}]\n")
    code, out, _ = run_cli(str(tmp_path / "flow.yaml"), "--script", str(tmp_path / "script.yaml"))
    assert code == 1
    assert "judge agent never returned done" in out
    (tmp_path / "done.yaml").write_text("replies:\n  judge: [{result: {done: true}}]\n")
    code, out, _ = run_cli(str(tmp_path / "flow.yaml"), "--script", str(tmp_path / "done.yaml"))
    assert code == 0


def test_invalid_documents_are_refused_with_their_diagnostics(tmp_path):
    (tmp_path / "bad.yaml").write_text("name: bad\nsteps:\n  - id: a\n    dependsOn: [ghost]\n")
    code, out, err = run_cli(str(tmp_path / "bad.yaml"))
    assert code == 1 and out == ""
    assert "missing_dep" in err


def test_budget_flags_reach_the_run(tmp_path):
    code, out, _ = run_cli(str(SPEC / "examples/simple-chain.yaml"), "--max-steps", "1", "--json")
    end = json.loads(out.splitlines()[-1])
    assert code == 1 and end["data"]["code"] == "budget:max_steps"
