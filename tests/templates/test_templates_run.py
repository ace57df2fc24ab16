"""Open a template, press run: each template runs to completion with its script in seconds."""
import asyncio
import time

import pytest

from designer.documents import load_source
from designer.templates import list_templates
from runtime.engine import run_workflow
from runtime.events import ListSink
from runtime.script import load_script

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


def run_template(template):
    document = load_source(template.document_yaml).document
    sink = ListSink()
    started = time.monotonic()
    result = asyncio.run(run_workflow(document, run_id=f"template-{template.slug}", sink=sink,
                                      script=load_script(template.script_yaml)))
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
