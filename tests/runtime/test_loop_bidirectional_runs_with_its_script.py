"""Upstream's loop-bidirectional.yaml (read where it lives) with our script for it: each round's worker reports to
the coordinator, which narrates and forwards context into the next round's running worker, namespaced and bare;
its synthesis is the run's summary."""
from pathlib import Path

from designer.documents import load_source
from runtime.coordinator import CoordinatorSettings
from runtime.providers.script import load_script_file
from tests.support.engine_runs import run
from tests.support.upstream_spec import SPEC

EXAMPLE = SPEC / "examples" / "loop-bidirectional.yaml"
SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "scripts" / "loop-bidirectional.script.yaml"


async def run_it():
    loaded = load_source(EXAMPLE.read_text(), filename=str(EXAMPLE))
    assert loaded.valid
    return await run(loaded.document, load_script_file(SCRIPT), base_dir=EXAMPLE.parent,
                     coordinator=CoordinatorSettings())


async def test_a_message_forwarded_into_round_one_is_drained_there():
    result, sink = await run_it()
    assert result.status == "completed", result.reason
    forwards = [(e["data"]["to"], e["data"]["kind"]) for e in sink.of_type("coordinator_message")]
    assert forwards == [("loop-stages.1.worker", "context_update"), ("loop-stages.2.worker", "context_update")]
    drained = {e["stepId"]: e["data"] for e in sink.of_type("agent_inbox_drain")}
    assert set(drained) == {"loop-stages.1.worker", "loop-stages.2.worker"}  # the second forward was by bare id
    assert drained["loop-stages.1.worker"]["text"] == "Stage 1 finished the parse task at metric 0.91; build on it."
    assert drained["loop-stages.1.worker"]["sender"] == "coordinator"
    assert sink.of_type("message_dropped") == []


async def test_every_stage_is_sent_to_the_coordinator_and_narrated_once():
    _result, sink = await run_it()
    sent = [(e["stepId"], e["data"]["text"].split(":")[0]) for e in sink.of_type("message_sent")]
    assert sent == [("loop-stages.0.worker", "STAGE_1"), ("loop-stages.1.worker", "STAGE_2"),
                    ("loop-stages.2.worker", "STAGE_3")]
    narrations = [e["data"]["text"] for e in sink.of_type("coordinator_narration")]
    assert [n.split(":")[0] for n in narrations] == ["Stage 1 is done", "Stage 2 is done", "Stage 3 is done"]


async def test_the_synthesis_is_the_runs_summary():
    result, sink = await run_it()
    [synthesis] = sink.of_type("coordinator_synthesis")
    assert synthesis["data"]["source"] == "finalize"
    assert result.summary == synthesis["data"]["summary"]
    assert result.summary.startswith("Three stages ran in turn")
    assert sink.events[-1]["type"] == "workflow_end" and sink.events[-1]["data"]["summary"] == result.summary
