"""Open a template, press run: each template runs to completion with its script in seconds."""
import asyncio
import tempfile
import time

import pytest

from designer.documents import load_source
from designer.templates import list_templates
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.providers.script import load_script
from runtime.tools.session import MemoryStore, RunTools

# how each template's loop is meant to end with its script
EXPECTED_LOOPS = {
    "harness": ("dev-cycle", 2, "until"),
    "research": ("research", 2, "until"),
    "goal-driven": ("work", 2, "judge"),
    "writer-critic": ("refine", 2, "until"),
    "react-tool-loop": ("react", 3, "until"),
    "fanout-deploy": ("deploy_each", 3, "items_exhausted"),
    "debate": ("rounds", 2, "judge"),
}


def run_template(template, workspace=None):
    document = load_source(template.document_yaml).document
    sink = ListSink()
    started = time.monotonic()
    tools = RunTools(workspace or tempfile.mkdtemp(prefix="template-"), store=MemoryStore())
    result = asyncio.run(run_workflow(document, RunOptions(run_id=f"template-{template.slug}", sink=sink,
                                                           script=load_script(template.script_yaml), tools=tools)))
    return result, sink, time.monotonic() - started


def test_every_template_has_an_expected_ending():
    assert set(EXPECTED_LOOPS) == {t.slug for t in list_templates()}


@pytest.mark.parametrize("template", list_templates(), ids=lambda t: t.slug)
def test_each_template_runs_to_completion_with_its_script(template):
    result, sink, seconds = run_template(template)
    assert result.status == "completed", result.reason
    assert not result.warnings
    loop_id, rounds, reason = EXPECTED_LOOPS[template.slug]
    assert result.loops[loop_id]["rounds_completed"] == rounds
    assert result.loops[loop_id]["break_reason"] == reason
    assert sink.events[0]["type"] == "workflow_start" and sink.events[-1]["type"] == "workflow_end"
    assert seconds < 10


def test_the_fanout_template_deploys_and_verifies_every_discovered_service():
    template = next(t for t in list_templates() if t.slug == "fanout-deploy")
    _, sink, _ = run_template(template)
    ended = {e["stepId"] for e in sink.of_type("step_end")}
    assert {f"deploy_each[{i}].verify" for i in range(3)} <= ended


def test_the_harness_and_react_templates_work_with_real_tools(tmp_path):
    by_slug = {t.slug: t for t in list_templates()}
    _, sink, _ = run_template(by_slug["harness"], tmp_path / "harness")
    ends = [e for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"]
    assert {e["data"]["tool_name"] for e in ends} >= {"write", "bash"}
    assert all(e.get("error") is None for e in ends), [e.get("error") for e in ends]
    assert "ok: burst" in ends[-1]["data"]["output"]
    assert (tmp_path / "harness" / "PLAN.md").read_text().startswith("Plan v2 (burst test added)")

    _, sink, _ = run_template(by_slug["react-tool-loop"], tmp_path / "react")
    outputs = [e["data"]["output"] for e in sink.of_type("tool_call") if e["data"]["phase"] == "end"]
    assert any(o.startswith("logs/week.log:1:billing ERROR timeout gateway") for o in outputs)
    assert any("2 billing" in o for o in outputs)
