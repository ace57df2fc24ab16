"""A run's status as zenflow's runner gives it: ``completed`` (every step completed), ``partial`` (some steps
completed, some failed) or ``failed`` (none completed).

Ports upstream's rule in internal/exec/executor.go ``Executor.Run`` (the status derived from the steps' results:
a completed step beside a failed or cancelled one is ``StatusPartial``), which its CLI prints in the run summary and
``--json`` (../shared/notes/COORDINATOR.md): through the engine here, through ``runworkflow --json`` and over HTTP
with the runs list's filter below. Ours keeps ``cancelled`` for a run a user stopped.
"""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from tests.support.api_calls import post, wait_for
from tests.support.engine_runs import doc, run, script

TWO_BRANCHES = """
name: two-branches
steps:
  - id: fine
    instructions: "Fine."
  - id: broken
    instructions: "Breaks."
"""
ONE_STEP = """
name: one-step
steps:
  - id: broken
    instructions: "Breaks."
"""
BREAK = script("replies: {broken: [{error: 'disk full'}]}")


async def test_some_steps_completed_and_some_failed_is_partial():
    result, sink = await run(doc(TWO_BRANCHES), BREAK)
    assert {k: v.status for k, v in result.steps.items()} == {"fine": "completed", "broken": "failed"}
    assert result.status == "partial"
    # What failed is still said, with the same stable code as a failed run.
    assert result.code == "step_failed" and "broken" in result.reason and "disk full" in result.reason
    end = sink.events[-1]
    assert end["type"] == "workflow_end" and end["data"]["status"] == "partial"


async def test_no_step_completed_is_failed():
    result, _ = await run(doc(ONE_STEP), BREAK)
    assert result.status == "failed"


async def test_a_failure_that_fails_its_dependents_after_a_completed_step_is_partial():
    chain = doc("""
    name: chain
    steps:
      - id: first
        instructions: "First."
      - id: broken
        dependsOn: [first]
        instructions: "Breaks."
      - id: last
        dependsOn: [broken]
        instructions: "Never runs."
    """)
    result, _ = await run(chain, BREAK)
    assert {k: v.status for k, v in result.steps.items()} == {"first": "completed", "broken": "failed", "last": "failed"}
    assert result.status == "partial"


async def test_every_step_completed_is_completed():
    result, _ = await run(doc(TWO_BRANCHES), script("replies: {broken: ['mended']}"))
    assert result.status == "completed"


def test_runworkflow_json_says_partial_and_exits_one(tmp_path):
    (tmp_path / "two.yaml").write_text(TWO_BRANCHES)
    (tmp_path / "script.yaml").write_text("replies: {broken: [{error: 'disk full'}]}\n")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", str(tmp_path / "two.yaml"), "--json", "--script", str(tmp_path / "script.yaml"),
                     stdout=out, stderr=io.StringIO())
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert events[-1]["type"] == "workflow_end" and events[-1]["data"]["status"] == "partial"
    assert exit_.value.code == 1  # only a completed run exits 0


@pytest.mark.django_db(transaction=True)
def test_over_http_a_partial_run_is_partial_and_the_list_filters_by_it(owner_client):
    made = post(owner_client, "/api/v1/workflows", {"source": TWO_BRANCHES})
    assert made.status_code in (200, 201), made.content
    created = post(owner_client, "/api/v1/runs", {"workflow_id": made.json()["id"], "provider": "simulated",
                                                  "script": {"replies": {"broken": [{"error": "disk full"}]}}})
    assert created.status_code == 201, created.content
    finished = wait_for(owner_client, created.json()["id"], timeout=60)
    assert finished["status"] == "partial", finished
    assert "disk full" in finished["reason"]
    assert [r["id"] for r in owner_client.get("/api/v1/runs?status=partial").json()] == [finished["id"]]
    assert owner_client.get("/api/v1/runs?status=failed").json() == []
