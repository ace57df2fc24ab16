"""Imported documents survive the editor's round trip and run to completion in the runtime.

The editor's server surface is POST /api/v1/validate (document in, canonical
YAML out) and POST /api/v1/render; reloading the canonical text must give the
same document back, still valid.
"""
import asyncio
import json

import pytest

from designer.documents import dump_yaml, load_source
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from tests.support.imported_seeds import COQUI_SEEDS, RUNSIGHT_SEEDS, import_seed

CASES = [("runsight", p) for p in RUNSIGHT_SEEDS] + [("coqui", p) for p in COQUI_SEEDS]


@pytest.mark.parametrize("kind,path", CASES, ids=lambda c: getattr(c, "name", c))
def test_canonical_yaml_of_an_import_loads_back_to_the_same_valid_document(kind, path):
    document = import_seed(kind, path.name).document
    loaded = load_source(dump_yaml(document))
    assert loaded.valid, [d.message for d in loaded.report.diagnostics]
    assert loaded.document == document


@pytest.mark.django_db
@pytest.mark.parametrize("kind,name", [("runsight", "basic_loop.yaml"), ("coqui", "harness.json")])
def test_an_import_round_trips_through_the_editor_api(client, kind, name):
    document = import_seed(kind, name).document
    first = client.post("/api/v1/validate", data=json.dumps({"document": document}), content_type="application/json").json()
    assert first["valid"] is True and first["errors"] == [] and first["warnings"] == []
    again = client.post("/api/v1/validate", data=json.dumps({"source": first["canonical"]}),
                        content_type="application/json").json()
    assert again["valid"] is True
    assert again["document"] == document
    assert again["canonical"] == first["canonical"]
    rendered = client.post("/api/v1/render", data=json.dumps({"document": document, "format": "json"}),
                           content_type="application/json").json()
    assert json.loads(rendered["text"]) == document


def run(document, script):
    sink = ListSink()
    result = asyncio.run(run_workflow(document, RunOptions(run_id="import-e2e", sink=sink, script=script)))
    return result, sink


def test_the_imported_runsight_loop_runs_until_the_gate_judge_passes():
    document = import_seed("runsight", "basic_loop.yaml").document
    script = {"replies": {
        "draft": ["First draft.", "Second draft, tighter."],
        "review": [{"content": "FAIL: too long", "result": {"done": False, "reason": "too long"}},
                   {"content": "PASS", "result": {"done": True, "reason": "reads well"}}],
        "done": '{"final": "Second draft, tighter."}',
    }}
    result, sink = run(document, script)
    assert result.status == "completed", result.reason
    assert result.loops["refine"]["rounds_completed"] == 2
    assert result.loops["refine"]["break_reason"] == "judge"
    assert [e["stepId"] for e in sink.of_type("step_end")][-1] == "done"


def test_the_imported_runsight_break_condition_stops_on_the_structured_verdict():
    document = import_seed("runsight", "break_condition.yaml").document
    script = {"replies": {
        "draft": "A draft.",
        "review": [{"content": "no", "result": {"verdict": "rework"}},
                   {"content": "yes", "result": {"verdict": "approved"}}],
    }}
    result, _ = run(document, script)
    assert result.status == "completed", result.reason
    assert result.loops["refine"]["rounds_completed"] == 2


def test_the_imported_coqui_harness_runs_until_the_reviewer_approves():
    document = import_seed("coqui", "harness.json").document
    script = {"replies": {
        "plan": "A plan.",
        "implement": "Code.",
        "evaluate": ["Not approved: tests missing.", "Approved: all criteria met."],
    }}
    result, _ = run(document, script)
    assert result.status == "completed", result.reason
    assert result.loops["harness"]["rounds_completed"] == 2
