"""`version: 0` is read as version 1, as zenflow's runner reads it, with a warning that schema validators differ.

Ports upstream's internal/exec/parse_yaml_edge_cases_test.go, TestEdge_Version0AppliesDefault: an explicit
`version: 0` cannot be told from an absent version by the Go parser, which runs the workflow as version 1.
The format's schema says `minimum: 1` (and the spec's schema-based case version-zero.yaml refuses it), so we
accept and run it, and warn (`version_zero`) that schema-based validators will refuse the file. Other
versions below 1 and above 1 stay errors.
"""
import json
import time

import pytest

from designer.documents import load_source
from designer.writer import canonical, dump_yaml

SOURCE = "name: ver0\nversion: 0\nsteps:\n  - id: step1\n    instructions: \"do\"\n"


def test_version_zero_is_valid_with_a_warning_at_its_line():
    loaded = load_source(SOURCE)
    assert loaded.valid and loaded.report.runnable
    [warning] = loaded.report.warnings
    assert (warning.code, warning.path, warning.line) == ("version_zero", "/version", 2)
    assert "read as version 1" in warning.message and "schema" in warning.message


@pytest.mark.parametrize("version, code", [(-1, "invalid_version"), (2, "unknown_version")])
def test_other_versions_stay_errors(version, code):
    loaded = load_source(SOURCE.replace("version: 0", f"version: {version}"))
    assert [d.code for d in loaded.report.errors] == [code]


@pytest.mark.django_db(transaction=True)
def test_a_version_zero_workflow_validates_and_runs_over_http(client, django_user_model):
    body = client.post("/api/v1/validate", data=json.dumps({"source": SOURCE}), content_type="application/json").json()
    assert body["valid"] is True and [w["code"] for w in body["warnings"]] == ["version_zero"]
    client.force_login(django_user_model.objects.create_user("owner", password="owner-pass-123"))
    saved = client.post("/api/v1/workflows", data=json.dumps({"source": SOURCE}), content_type="application/json").json()
    created = client.post("/api/v1/runs", data=json.dumps({"workflow_id": saved["id"], "provider": "simulated"}),
                          content_type="application/json")
    assert created.status_code == 201, created.content
    deadline = time.time() + 30
    while (run := client.get(f"/api/v1/runs/{created.json()['id']}").json())["status"] not in ("completed", "failed"):
        assert time.time() < deadline
        time.sleep(0.05)
    assert run["status"] == "completed", run["reason"]


def test_a_version_zero_document_is_exported_as_version_one():
    exported = dump_yaml(canonical({"version": 0, "name": "v0", "steps": [{"id": "a", "instructions": "Go."}]}))
    assert "version: 1" in exported and "version: 0" not in exported
