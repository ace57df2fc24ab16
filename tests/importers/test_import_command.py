"""python manage.py import --from runsight|coqui FILE: YAML out, report table, --json, exit 1 on bad input."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from designer.documents import load_source
from tests.support.imported_seeds import SEEDS


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("import", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_valid_yaml_and_the_report_on_stderr():
    out, err = run("--from", "runsight", str(SEEDS / "runsight" / "basic_loop.yaml"))
    loaded = load_source(out)
    assert loaded.valid and loaded.document["name"] == "Iterative Refinement"
    assert err.splitlines()[0].split() == ["OUTCOME", "FIELD", "TARGET", "NOTE"]
    assert "/blocks/refine/max_rounds" in err
    assert "carried" in err and "approximated" in err


def test_it_writes_the_yaml_to_a_file_and_the_report_to_stdout(tmp_path):
    target = tmp_path / "out.yaml"
    out, _ = run("--from", "coqui", str(SEEDS / "coqui" / "harness.json"), "-o", str(target))
    assert load_source(target.read_text()).valid
    assert "OUTCOME" in out and f"wrote {target}" in out


def test_json_output_holds_document_yaml_report_and_validity():
    out, _ = run("--from", "coqui", str(SEEDS / "coqui" / "investigate.json"), "--param", "subject=queues", "--json")
    data = json.loads(out)
    assert data["valid"] is True and data["diagnostics"] == []
    assert data["document"]["steps"][0]["loop"]["steps"][0]["instructions"].startswith("Investigate queues")
    assert load_source(data["yaml"]).document == data["document"]
    assert {"field", "outcome", "target", "note"} == set(data["report"][0])


def test_bad_input_exits_1_with_the_field_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("blocks:\n  a:\n    type: teleport\nworkflow: {name: x, entry: a}\n")
    with pytest.raises(CommandError) as err:
        run("--from", "runsight", str(bad))
    assert err.value.returncode == 1
    assert "/blocks/a/type" in str(err.value) and "line 3" in str(err.value)


def test_a_missing_file_exits_1():
    with pytest.raises(CommandError) as err:
        run("--from", "runsight", "/nonexistent/file.yaml")
    assert err.value.returncode == 1 and "no such file" in str(err.value)


def test_a_missing_required_parameter_exits_1_and_says_how_to_pass_it():
    with pytest.raises(CommandError, match="--param subject="):
        run("--from", "coqui", str(SEEDS / "coqui" / "investigate.json"))


def test_a_malformed_param_exits_1():
    with pytest.raises(CommandError, match="NAME=VALUE"):
        run("--from", "coqui", str(SEEDS / "coqui" / "harness.json"), "--param", "nonsense")
