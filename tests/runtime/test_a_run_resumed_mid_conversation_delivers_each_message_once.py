"""A run cut short at a boundary while messages wait (for the coordinator, and forwarded to a running step) goes on
from that checkpoint: each waiting message is read exactly once, after the cut; the coordinator goes on with its
conversation, its wake count and its script where they were, so nothing is narrated twice. (The same through a real
SIGKILL of a server: tests/live/test_a_killed_server_resumes_its_conversation.py.)"""
import json

from runtime.coordinator import CoordinatorSettings
from runtime.durability.continuation import replay_coordinator
from runtime.engine.checkpoints import Checkpoint, fold
from runtime.providers import get_provider
from runtime.providers.script import parse_script
from tests.support.checkpoints import assert_fold_matches_engine
from tests.support.conversations import TALKING, delivered, dropped, narrations, queued, talking_script, wake_cycles
from tests.support.engine_runs import doc, run_with_checkpoints

SCRIPT = talking_script(listening=4.0, stage=0.3, coordinator=0.6)


def waiting(checkpoint: Checkpoint) -> dict[str, list[str]]:
    pending = (checkpoint.mail.get("router") or {}).get("pending") or {}
    return {box: [m["id"] for m in messages] for box, messages in pending.items()}


async def talk(start: Checkpoint | None = None):
    provider = get_provider("simulated", script=parse_script(SCRIPT))
    replay_coordinator(provider.script, start)
    return await run_with_checkpoints(doc(TALKING), providers={"simulated": provider}, coordinator=CoordinatorSettings(),
                                      start=start, first_seq=start.seq if start is not None else 0)


async def test_a_resumed_run_reads_each_waiting_message_once_and_the_coordinator_goes_on():
    first, sink, taken = await talk()
    assert first.status == "completed", first.reason
    assert_fold_matches_engine(sink.events, taken)
    # The cut: the first boundary where a forward waits for the listener and a report waits for the coordinator.
    cut = next((c for c in taken if waiting(c).get("listener") and waiting(c).get("coordinator")), None)
    assert cut is not None, [waiting(c) for c in taken]
    assert fold(sink.events, upto=cut.seq) == cut
    start = Checkpoint.from_dict(json.loads(json.dumps(cut.as_dict())))  # as a stored run keeps it
    before = [e for e in sink.events if e["seq"] <= cut.seq]

    resumed, resumed_sink, resumed_taken = await talk(start)
    assert resumed.status == "completed", resumed.reason
    assert_fold_matches_engine(resumed_sink.events, resumed_taken, start)
    after = resumed_sink.events
    assert after[0]["seq"] == cut.seq + 1
    stream = before + after

    # Every message queued in the one stream was read once, none dropped; the ones waiting at the cut, after it.
    reads = delivered(stream)
    assert queued(stream) and all(reads[i] == 1 for i in queued(stream)), (queued(stream), reads)
    assert sum(dropped(stream).values()) == 0
    waited = [i for ids in waiting(cut).values() for i in ids]
    assert set(waited) <= set(queued(before))
    assert waited and all(delivered(after)[i] == 1 and delivered(before)[i] == 0 for i in waited)
    forwarded = next(e for e in after if e["type"] == "agent_inbox_drain" and e["stepId"] == "listener")
    assert forwarded["data"]["text"] == "stage 0 is in" and forwarded["data"]["sender"] == "coordinator"

    # The coordinator went on: no narration said twice, its wakes numbered on, its conversation carried.
    said = narrations(stream)
    assert len(said) == len(set(said)) and said == [f"note {n}" for n in range(1, len(said) + 1)]
    cycles = wake_cycles(stream)
    assert cycles == list(range(1, len(cycles) + 1))
    carried = cut.mail["coordinator"]
    assert carried["cycles"] >= 1 and carried["turns"] >= 1
    first_ask = next(e for e in after if e["type"] == "agent_turn" and e.get("agent") == "coordinator")
    assert first_ask["data"]["turn"] == carried["turns"] + 1 and "prompt" not in first_ask["data"]
    assert first_ask["data"]["wake"]["cycle"] == carried["cycles"] + 1


async def test_the_checkpoint_keeps_the_coordinators_conversation_as_its_model_was_sent_it():
    _, sink, taken = await talk()
    last = taken[-1].mail["coordinator"]
    messages = last["messages"]
    assert messages[0]["role"] == "system" and "coordinator" in messages[0]["content"]
    assistants = [m for m in messages if m["role"] == "assistant"]
    responses = [e for e in sink.events if e["type"] == "agent_turn" and e.get("agent") == "coordinator"
                 and e["data"]["phase"] == "response" and e["seq"] <= taken[-1].seq]
    assert len(assistants) == len(responses) == last["turns"]
    asked = [c["arguments"]["text"] for m in assistants for c in m["tool_calls"] if c["name"] == "narrate"]
    said = narrations([e for e in sink.events if e["seq"] <= taken[-1].seq])
    assert asked[:len(said)] == said and len(asked) - len(said) <= 1  # the last may be under way at the boundary
    # Each tool call is answered by a tool message with its id, right after the reply that made it.
    for i, message in enumerate(messages):
        for j, call in enumerate(message.get("tool_calls") or []):
            if i + 1 + j < len(messages):
                answer = messages[i + 1 + j]
                assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"]
