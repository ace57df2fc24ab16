"""Upstream's three messaging examples (read where they live) with our scripts (docs/scripts/): every message is
delivered where the comments in those files say it goes, none is dropped, and the synthesis is the run's summary."""
from pathlib import Path

import pytest

from designer.documents import load_source
from runtime.coordinator import CoordinatorSettings
from runtime.providers.script import load_script_file
from tests.support.engine_runs import run
from tests.support.upstream_spec import SPEC

SCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "scripts"
# Where each forwarded message is read (the step, the start of its text), per example.
DELIVERIES = {
    "messaging-demo": [("expert-1", "QUESTION_1"), ("asker-2", "ANSWER_1"), ("expert-2", "QUESTION_2"),
                       ("asker-3", "ANSWER_2"), ("expert-3", "QUESTION_3")],
    "loop-bidirectional": [("loop-stages.1.worker", "Stage 1"), ("loop-stages.2.worker", "Stages 1 and 2")],
    "loop-parallel-bidirectional": [("loop-stages[0].worker", "You have the parse task"),
                                    ("loop-stages[1].worker", "You have the index task"),
                                    ("loop-stages[2].worker", "You have the report task")],
}
SENDERS = {
    "messaging-demo": ["asker-1", "expert-1", "asker-2", "expert-2", "asker-3", "expert-3"],
    "loop-bidirectional": ["loop-stages.0.worker", "loop-stages.1.worker", "loop-stages.2.worker"],
    "loop-parallel-bidirectional": ["loop-stages[0].worker", "loop-stages[1].worker", "loop-stages[2].worker"],
}


@pytest.mark.parametrize("name", sorted(DELIVERIES))
async def test_every_message_goes_where_the_example_says(name):
    path = SPEC / "examples" / f"{name}.yaml"
    loaded = load_source(path.read_text(), filename=str(path))
    result, sink = await run(loaded.document, load_script_file(SCRIPTS / f"{name}.script.yaml"), base_dir=path.parent,
                             coordinator=CoordinatorSettings())
    assert result.status == "completed", result.reason
    drained = sorted((e["stepId"], e["data"]["text"]) for e in sink.of_type("agent_inbox_drain"))
    expected = sorted(DELIVERIES[name])
    assert [step for step, _ in drained] == [step for step, _ in expected]
    assert all(text.startswith(start) for (_, text), (_, start) in zip(drained, expected, strict=True))
    assert sorted(e["stepId"] for e in sink.of_type("message_sent")) == sorted(SENDERS[name])
    assert sink.of_type("message_dropped") == []
    assert result.summary and result.summary == sink.of_type("coordinator_synthesis")[-1]["data"]["summary"]
