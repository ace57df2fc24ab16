"""Every event the engine emits keeps the one contract (runtime/contract.py): the envelope, each type's data,
the structured `where` of namespaced step ids, and `durationMs` beside every duration."""
from pathlib import Path

import pytest

from designer.documents import load_source
from runtime.contract import EVENT_DATA, Event, check, locate
from tests.support.engine_runs import run
from tests.support.upstream_spec import SPEC

EXAMPLES = sorted((SPEC / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
async def test_every_event_of_every_upstream_example_keeps_the_contract(path: Path):
    loaded = load_source(path.read_text(), filename=str(path))
    _, sink = await run(loaded.document, base_dir=path.parent)
    for event in sink.events:
        check(event)
        if "duration" in event:
            assert isinstance(event["durationMs"], float), event
        if event.get("stepId"):
            assert event.get("where") == locate(event["stepId"])
    assert {e["type"] for e in sink.events} <= set(EVENT_DATA)


@pytest.mark.parametrize("step_id, where", [
    ("plan", None),
    ("refine.2", {"loop": "refine", "iteration": 2}),
    ("refine.2.draft", {"loop": "refine", "iteration": 2, "inner": "draft"}),
    ("refine.0.untilAgent", {"loop": "refine", "iteration": 0, "inner": "untilAgent"}),
    ("deploy-each[3]", {"loop": "deploy-each", "item": 3}),
    ("deploy-each[3].verify", {"loop": "deploy-each", "item": 3, "inner": "verify"}),
    ("deploy-staging.run-deploy", {"include": "deploy-staging", "inner": "run-deploy"}),
])
def test_a_namespaced_step_id_is_located_once_for_every_reader(step_id, where):
    assert locate(step_id) == where


def test_an_event_outside_the_contract_is_refused():
    good = {"type": "step_end", "seq": 1, "timestamp": "2026-11-23T10:00:00.000Z", "runId": "r", "stepId": "a",
            "data": {"status": "completed"}}
    check(good)
    with pytest.raises(ValueError):
        check({**good, "data": {"status": "finished"}})  # not a status
    with pytest.raises(ValueError):
        check({**good, "stepid": "a"})  # not an envelope field
    with pytest.raises(ValueError):
        Event.model_validate({**good, "type": "step_done"})
