"""Iteration rows derived from events that arrive split across several persisted batches."""
from __future__ import annotations

from designer import workflows
from runtime.contract import locate
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent, RunIteration

DOCUMENT = {"name": "rows", "description": "Rows.", "steps": [{"id": "dev", "instructions": "Write.", "loop": {"maxIterations": 3}}]}


def _run(owner) -> Run:
    workflow = workflows.create(owner, source=None, document=DOCUMENT)
    return Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.versions.get(),
                              provider="simulated")


def _event(seq: int, type: str, step_id: str, **fields) -> dict:
    """An event as the emitter makes it (runtime.contract), ``where`` included."""
    where = {"where": locate(step_id)} if locate(step_id) else {}
    return {"type": type, "seq": seq, "timestamp": f"2026-11-22T10:00:{seq:02d}.000Z", "runId": "r", "stepId": step_id,
            **where, **fields}


def test_rows_started_in_one_batch_are_completed_by_events_of_later_batches(owner):
    run = _run(owner)
    persist_events(run.pk, [
        _event(1, "iteration_start", "dev", data={"iteration": 0}),
        _event(2, "iteration_start", "fan", data={"index": 4, "item": {"name": "x"}}),
    ])
    persist_events(run.pk, [
        _event(3, "agent_turn", "dev.0", tokens={"prompt": 7, "completion": 5, "total": 12}, data={"phase": "response"}),
        _event(4, "judge_verdict", "dev", data={"iteration": 0, "done": False, "reason": "too short", "failed_open": False}),
    ])
    persist_events(run.pk, [
        _event(5, "iteration_end", "dev", duration="1.5s", durationMs=1500.0,
               data={"iteration": 0, "status": "completed", "content": "draft <b>1</b>", "result": {"score": 0.5, "tags": ["a"]}}),
        _event(6, "iteration_end", "fan", data={"index": 4, "status": "failed", "content": "", "result": None}),
        _event(7, "iteration_start", "dev", data={"iteration": 1}),
    ])

    rows = {(r.step_id, r.iteration, r.index): r for r in RunIteration.objects.filter(run=run)}
    assert set(rows) == {("dev", 0, None), ("dev", 1, None), ("fan", None, 4)}
    first = rows[("dev", 0, None)]
    assert (first.status, first.content, first.tokens, first.duration_ms) == ("completed", "draft <b>1</b>", 12, 1500.0)
    assert first.result == {"score": 0.5, "tags": ["a"]}
    assert first.verdict == {"done": False, "reason": "too short", "failed_open": False}
    item = rows[("fan", None, 4)]
    assert (item.status, item.item, item.result) == ("failed", {"name": "x"}, None)
    assert rows[("dev", 1, None)].status == "running"
    assert list(RunEvent.objects.filter(run=run).values_list("seq", flat=True)) == [1, 2, 3, 4, 5, 6, 7]
    assert Run.objects.get(pk=run.pk).last_seq == 7


def test_an_end_whose_start_was_never_stored_still_gets_a_row(owner):
    run = _run(owner)
    persist_events(run.pk, [_event(9, "iteration_end", "dev", data={"iteration": 2, "status": "completed", "content": "late"})])
    row = RunIteration.objects.get(run=run)
    assert (row.step_id, row.iteration, row.status, row.content) == ("dev", 2, "completed", "late")
