"""runworkflow --coordinator MODE: upstream's loop-bidirectional example with our script shows the round trips in the
live view (sent, received, narrated, the synthesis); off runs none; an unknown mode is refused."""
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.support.upstream_spec import SPEC

EXAMPLE = str(SPEC / "examples" / "loop-bidirectional.yaml")
SCRIPT = str(Path(__file__).resolve().parents[2] / "docs" / "scripts" / "loop-bidirectional.script.yaml")


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, out.getvalue(), err.getvalue()


def test_the_live_view_shows_messages_narration_and_the_synthesis(tmp_path):
    code, out, _ = run_cli(EXAMPLE, "--script", SCRIPT, "--workdir", str(tmp_path / "ws"))
    assert code == 0, out
    assert "⇠ [loop-stages.0.worker] sent to coordinator: STAGE_1" in out
    assert "⇠ [coordinator] sent to loop-stages.1.worker: Stage 1 finished" in out
    assert "⇢ [loop-stages.1.worker] received from coordinator: Stage 1 finished" in out
    assert "≋ [coordinator] Stage 1 is done" in out
    assert "∑ [coordinator] Three stages ran in turn" in out


def test_off_runs_without_a_coordinator(tmp_path):
    code, out, _ = run_cli(EXAMPLE, "--script", SCRIPT, "--coordinator", "off", "--json", "--workdir", str(tmp_path / "ws"))
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert not [e for e in events if e.get("agent") == "coordinator" or e["type"].startswith("coordinator")]


def test_an_unknown_mode_is_refused():
    with pytest.raises(Exception, match="invalid choice: 'loud'"):
        call_command("runworkflow", EXAMPLE, "--coordinator", "loud")
