"""A fork starts with the run's messaging as it stood at the fork point: shared memory written before it, a message
sent to the coordinator that it had not read yet (read once, in the fork), and the coordinator's conversation and
wake count, which the fork's coordinator goes on from."""
import json

from runtime.coordinator import CoordinatorSettings
from runtime.durability.continuation import replay_coordinator
from runtime.engine.checkpoints import Checkpoint
from runtime.engine.fork_points import locate
from runtime.providers import get_provider
from runtime.providers.script import parse_script
from tests.support.checkpoints import Counting, assert_fold_matches_engine
from tests.support.conversations import HAND_OVER, HAND_OVER_SCRIPT, delivered, narrations, tool_output, wake_cycles
from tests.support.engine_runs import doc, run_with_checkpoints


async def hand_over(start: Checkpoint | None = None, first_seq: int = 0):
    provider = Counting(get_provider("simulated", script=parse_script(HAND_OVER_SCRIPT)))
    replay_coordinator(provider.inner.script, start)
    result, sink, taken = await run_with_checkpoints(doc(HAND_OVER), providers={"simulated": provider}, shared_memory=True,
                                                     coordinator=CoordinatorSettings(), start=start, first_seq=first_seq)
    assert_fold_matches_engine(sink.events, taken, start)
    return result, sink, provider.calls


async def test_a_fork_at_a_step_inherits_shared_memory_a_waiting_message_and_the_conversation():
    parent, parent_sink, _ = await hand_over()
    assert parent.status == "completed", parent.reason
    assert tool_output(parent_sink.events, "use", "shared_memory_read") == "42 widgets"

    point = locate(parent_sink.events, "use")
    mail = point.checkpoint.mail
    assert mail["memory"] == {"default/found": "42 widgets"}
    [waiting] = mail["router"]["pending"]["coordinator"]
    assert (waiting["sender"], waiting["content"]) == ("note", "found 42 widgets")
    assert {"message": waiting["id"]} in mail["coordinator"]["inbox"]
    carried = mail["coordinator"]
    assert carried["cycles"] == 1 and carried["turns"] == 1  # in its first wake, its model answered once

    start = Checkpoint.from_dict(json.loads(json.dumps(point.checkpoint.as_dict())))
    fork, sink, calls = await hand_over(start, point.seq)
    assert fork.status == "completed", fork.reason
    assert "note" not in calls  # inherited, not asked again
    # Shared memory as it stood: `use` reads what `note` wrote in the parent.
    assert tool_output(sink.events, "use", "shared_memory_read") == "42 widgets"
    # The waiting message is read once, by the fork's coordinator.
    assert delivered(sink.events)[waiting["id"]] == 1
    inherited_reads = delivered(point.events)
    assert inherited_reads[waiting["id"]] == 0
    # Its conversation went on: no narration of the parent's said again, wakes numbered on from the parent's.
    assert "note 1" in narrations(point.events) and "note 1" not in narrations(sink.events)
    assert narrations(sink.events)[:1] == ["note 2"]
    assert wake_cycles(sink.events)[0] == carried["cycles"] + 1
    ask = next(e for e in sink.events if e["type"] == "agent_turn" and e.get("agent") == "coordinator")
    assert ask["data"]["turn"] == 2 and "prompt" not in ask["data"]


async def test_a_fork_of_a_run_without_messaging_has_no_mail_in_its_checkpoint():
    _, sink, _ = await run_with_checkpoints(doc("name: quiet\nsteps:\n  - {id: a, instructions: A}\n  - {id: b, dependsOn: [a], instructions: B}\n"),
                                            {"replies": {"*": ["fine"]}})
    point = locate(sink.events, "b")
    assert point.checkpoint.mail == {} and "mail" not in point.checkpoint.as_dict()
