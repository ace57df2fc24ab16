"""`manage.py runworkflow PATH` reads context files, `@` files and includes inside the workflow file's directory
only; `--folder DIR` widens that to a directory above it, and says so on the terminal."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

MARKER = "CLI-SECRET-7d21"


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path):
    (tmp_path / "secret.txt").write_text(MARKER)
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows/flow.yaml").write_text(
        "name: cli-escape\nsteps:\n  - {id: peek, instructions: Read., contextFiles: [../secret.txt]}\n")
    return tmp_path


def test_a_context_file_above_the_workflows_directory_fails_its_step(project):
    code, out, _ = run_cli(str(project / "flows/flow.yaml"), "--json", "--workdir", str(project / "ws"))
    assert code == 1
    events = [json.loads(line) for line in out.splitlines()]
    peek = next(e for e in events if e["type"] == "step_end")
    assert "../secret.txt" in peek["error"] and "leaves the workflow's folder" in peek["error"]
    assert not [e for e in events if e["type"] == "agent_turn" and e.get("stepId")]  # its agent was never asked
    assert MARKER not in out


def test_an_absolute_context_file_fails_its_step(project):
    (project / "flows/abs.yaml").write_text(
        f"name: abs\nsteps:\n  - {{id: peek, instructions: Read., contextFiles: ['{project / 'secret.txt'}']}}\n")
    code, out, _ = run_cli(str(project / "flows/abs.yaml"), "--json", "--workdir", str(project / "ws"))
    assert code == 1 and "is absolute" in out and MARKER not in out


def test_folder_widens_what_the_run_may_read_and_says_so(project):
    code, out, err = run_cli(str(project / "flows/flow.yaml"), "--json", "--folder", str(project),
                             "--workdir", str(project / "ws"))
    assert code == 0, out
    assert f"anywhere under {project}" in err
    assert MARKER in out  # the widened folder holds it: read, and shown in the prompt


def test_folder_must_hold_the_workflow(project, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    code, _, err = run_cli(str(project / "flows/flow.yaml"), "--folder", str(elsewhere))
    assert code == 1 and "must be a directory that holds" in err
