"""`manage.py validate` and `manage.py export`, run as a user runs them."""
import json
import subprocess
import sys
from pathlib import Path

from tests.support.upstream_spec import SPEC

REPO = Path(__file__).resolve().parents[2]


def manage(*args, stdin: bytes | None = None):
    return subprocess.run([sys.executable, str(REPO / "manage.py"), *args], input=stdin, capture_output=True, cwd=REPO, timeout=120)


def test_validate_exits_0_for_valid_files_and_1_when_any_is_invalid():
    good = SPEC / "examples" / "loop-foreach.yaml"
    bad = SPEC / "testcases" / "invalid" / "cycle.yaml"
    assert manage("validate", str(good)).returncode == 0
    result = manage("validate", str(good), str(bad))
    assert result.returncode == 1
    assert b"invalid" in result.stdout


def test_validate_json_format_lists_every_file_with_diagnostic_fields(tmp_path):
    doc = tmp_path / "w.yaml"
    doc.write_text("name: w\nsteps:\n  - id: a\n    dependsOn: [b]\n")
    result = manage("validate", "--format", "json", str(doc))
    assert result.returncode == 1
    out = json.loads(result.stdout)
    entry = out["files"][0]
    assert entry["path"] == str(doc) and entry["valid"] is False
    error = entry["errors"][0]
    assert {k: error[k] for k in ("code", "class", "path", "line")} == {
        "code": "missing_dep", "class": "missing_dep", "path": "/steps/0/dependsOn/0", "line": 4,
    }
    assert error["message"] and "column" in error and entry["warnings"] == []


def test_validate_reads_standard_input():
    result = manage("validate", "-", stdin=b"name: w\nsteps:\n  - id: a\n")
    assert result.returncode == 0, result.stdout


def test_validate_exits_2_on_a_missing_file_or_bad_usage():
    assert manage("validate", "/no/such/file.yaml").returncode == 2
    assert manage("validate", "--format", "xml", "x.yaml").returncode == 2


def test_resolve_reports_missing_includes_and_files(tmp_path):
    doc = tmp_path / "w.yaml"
    doc.write_text("name: w\nagents:\n  a:\n    description: d\n    prompt: '@prompts/missing.md'\n"
                   "steps:\n  - id: s\n    include: sub/none.yaml\n  - id: t\n    agent: a\n    contextFiles: [notes.txt]\n")
    assert manage("validate", str(doc)).returncode == 0
    result = manage("validate", "--resolve", "--format", "json", str(doc))
    assert result.returncode == 1
    codes = sorted(e["code"] for e in json.loads(result.stdout)["files"][0]["errors"])
    assert codes == ["file_not_found", "file_not_found", "include_not_found"]


def test_resolve_opens_upstream_includes_relative_to_the_file():
    result = manage("validate", "--resolve", str(SPEC / "examples" / "full-featured.yaml"), str(SPEC / "examples" / "include-reuse.yaml"))
    assert result.returncode == 0, result.stdout


def test_resolve_reports_problems_inside_an_included_file(tmp_path):
    (tmp_path / "sub.yaml").write_text("name: sub\nsteps:\n  - id: x\n    dependsOn: [nope]\n")
    doc = tmp_path / "w.yaml"
    doc.write_text("name: w\nsteps:\n  - id: s\n    include: sub.yaml\n")
    result = manage("validate", "--resolve", str(doc))
    assert result.returncode == 1
    assert b"in included sub.yaml" in result.stdout and b"missing_dep" in result.stdout


def test_export_prints_canonical_yaml_with_comments_and_json():
    path = SPEC / "examples" / "loop-repeat-until.yaml"
    result = manage("export", str(path))
    assert result.returncode == 0
    text = result.stdout.decode()
    assert text.startswith("#") or "# " in text
    as_json = manage("export", "--to", "json", str(path))
    assert json.loads(as_json.stdout)["name"] == "loop-repeat-until"


def test_export_refuses_an_invalid_document_on_stderr(tmp_path):
    doc = tmp_path / "w.yaml"
    doc.write_text("name: w\nsteps: []\n")
    result = manage("export", str(doc))
    assert result.returncode == 1
    assert result.stdout == b"" and b"empty_steps" in result.stderr
