"""Every permission flag of runworkflow, as upstream's CLI: --deny, --allow (the rest asks on this terminal),
--strict, --sandbox and --yolo, each on a real run printed with --json; flags that exclude each other, or name a
tool this server lacks, exit 3 naming the flag."""
import io
import json
import sys

import pytest
from django.core.management import call_command

FLOW = """name: modes
agents:
  worker: {description: works, tools: [bash, read, write, edit, grep]}
steps:
  - {id: work, agent: worker, instructions: Work.}
"""
SCRIPT = """replies:
  work:
    - tool_calls:
        - {id: b, name: bash, arguments: {command: echo hi}}
        - {id: w, name: write, arguments: {path: a.txt, content: x}}
        - {id: e, name: edit, arguments: {path: a.txt, old_string: x, new_string: y}}
        - {id: g, name: grep, arguments: {pattern: x}}
    - done
"""
ONE_CALL = """replies:
  work:
    - tool_calls: [{id: b, name: bash, arguments: {command: echo hi}}]
    - done
"""
REFUSED = "error: not run: "


@pytest.fixture
def flow(tmp_path):
    (tmp_path / "flow.yaml").write_text(FLOW)
    (tmp_path / "script.yaml").write_text(SCRIPT)
    (tmp_path / "one.yaml").write_text(ONE_CALL)
    return tmp_path


def run_cli(folder, *flags, script="script.yaml"):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", str(folder / "flow.yaml"), "--script", str(folder / script), "--json",
                     "--coordinator", "off", "--workdir", str(folder / "ws"), *flags, stdout=out, stderr=err)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    ends = {e["data"]["tool_call_id"]: e["data"]["output"] for e in events
            if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    asked = {e["data"]["tool_call_id"] for e in events if e["type"] == "tool_approval" and e["data"]["phase"] == "asked"}
    return exit_.value.code, ends, asked, err.getvalue()


def test_deny_never_runs_the_tool(flow):
    code, ends, asked, err = run_cli(flow, "--deny", "bash,edit")
    assert code == 0, err
    assert ends["b"] == REFUSED + "'bash' is denied for this run (permissions: deny)"
    assert ends["e"] == REFUSED + "'edit' is denied for this run (permissions: deny)"
    assert not ends["w"].startswith("error") and not asked


def test_strict_runs_only_the_allow_list(flow):
    code, ends, asked, err = run_cli(flow, "--strict", "--allow", "write,grep")
    assert code == 0, err
    assert ends["b"].startswith(REFUSED + "'bash' is not on this run's allow list (grep, write), and the run is strict")
    assert ends["e"].startswith(REFUSED + "'edit' is not on this run's allow list")
    assert not ends["w"].startswith("error") and not ends["g"].startswith("error") and not asked


def test_sandbox_runs_read_write_grep_and_glob_only(flow):
    code, ends, asked, err = run_cli(flow, "--sandbox")
    assert code == 0, err
    assert ends["b"].startswith(REFUSED + "this run is in sandbox mode") and ends["e"].startswith(REFUSED + "this run is in sandbox mode")
    assert not asked
    assert not ends["w"].startswith("error") and not ends["g"].startswith("error")
    assert (flow / "ws" / "a.txt").read_text() == "x"


def test_yolo_runs_what_ask_before_holds_without_asking(flow):
    code, ends, asked, err = run_cli(flow, "--yolo", "--ask-before", "bash,edit")
    assert code == 0, err
    # The edit was let through (it may run before the write it edits: one turn's calls run at once).
    assert ends["b"].strip() == "hi" and not ends["e"].startswith(REFUSED) and not asked


def test_an_allow_list_asks_on_the_terminal_for_the_rest(flow, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("not on my machine\n"))
    code, ends, asked, err = run_cli(flow, "--allow", "write", script="one.yaml")
    assert code == 0, err
    assert asked == {"b"}
    assert "work wants to run bash" in err
    assert "not on my machine" in ends["b"]


def test_an_allowed_tool_runs_without_asking_even_on_the_ask_before_list(flow):
    code, ends, asked, err = run_cli(flow, "--allow", "bash", "--ask-before", "bash", script="one.yaml")
    assert code == 0, err
    assert ends["b"].strip() == "hi" and not asked


@pytest.mark.parametrize(("flags", "words"), [
    (("--sandbox", "--yolo"), "sandbox and yolo exclude each other"),
    (("--allow", "bash", "--deny", "bash"), "bash cannot be both allowed and denied"),
    (("--deny", "rm"), "--deny: unknown tool 'rm'"),
])
def test_flags_that_cannot_be_exit_3_naming_the_flag(flow, flags, words):
    code, ends, _, err = run_cli(flow, *flags)
    assert code == 3
    assert words in err and not ends
