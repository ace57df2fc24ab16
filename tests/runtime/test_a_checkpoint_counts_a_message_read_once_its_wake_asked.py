"""The messaging part of a checkpoint, folded from events alone (runtime/engine/mail_fold.py): a message the
coordinator read counts as read only once its wake has asked its model; the conversation is the one its model was
sent, each tool call answered (as it ended, or as not run); ids go on from the highest; shared memory comes from
the writes that succeeded."""
from runtime.engine.checkpoints import Checkpoint, fold
from runtime.engine.mail_fold import NOT_RUN

COORD = {"agent": "coordinator", "agentId": "coordinator"}


def numbered(*events: dict) -> list[dict]:
    return [{**e, "seq": i} for i, e in enumerate(events, start=1)]


EVENTS = numbered(
    {"type": "step_start", "stepId": "a", "agent": "default", "data": {"index": 0, "total": 1}},
    {"type": "agent_turn", **COORD, "data": {"phase": "request", "turn": 1, "prompt": {"system": "You coordinate."},
                                             "input": ["Wake 1: a started"], "wake": {"cycle": 1, "through": 1}}},
    {"type": "agent_turn", "stepId": "a", "agent": "default", "data": {"phase": "request", "turn": 1}},
    {"type": "message_sent", "stepId": "a", "agent": "default",
     "data": {"id": "msg-send-1", "sender": "a", "to": "coordinator", "kind": "info", "text": "halfway"}},
    {"type": "agent_turn", **COORD, "tokens": {"prompt": 1, "completion": 1, "total": 2},
     "data": {"phase": "response", "turn": 1, "content": "", "tool_calls": [{"id": "c1", "name": "narrate"}]}},
    {"type": "tool_call", **COORD, "data": {"phase": "start", "tool_name": "narrate", "tool_call_id": "c1", "input": {"text": "a is under way"}}},
    {"type": "coordinator_narration", **COORD, "data": {"text": "a is under way", "cycle": 1}},
    {"type": "tool_call", **COORD, "data": {"phase": "end", "tool_name": "narrate", "tool_call_id": "c1", "output": "narrated"}},
    {"type": "agent_turn", **COORD, "data": {"phase": "request", "turn": 2, "input": ["narrated"]}},
    {"type": "agent_turn", **COORD, "tokens": {"prompt": 1, "completion": 1, "total": 2},
     "data": {"phase": "response", "turn": 2, "content": "ok", "tool_calls": []}},
    {"type": "tool_call", "stepId": "a", "agent": "default",
     "data": {"phase": "start", "tool_name": "shared_memory_write", "tool_call_id": "w1", "input": {"key": "found", "value": "42"}}},
    {"type": "tool_call", "stepId": "a", "agent": "default",
     "data": {"phase": "end", "tool_name": "shared_memory_write", "tool_call_id": "w1", "output": "written: default/found"}},
    {"type": "tool_call", "stepId": "a", "agent": "default", "error": "a person denied this call",
     "data": {"phase": "start", "tool_name": "shared_memory_write", "tool_call_id": "w2", "input": {"key": "no", "value": "x"}}},
    {"type": "tool_call", "stepId": "a", "agent": "default", "error": "a person denied this call",
     "data": {"phase": "end", "tool_name": "shared_memory_write", "tool_call_id": "w2", "output": "error: denied"}},
    {"type": "message_dropped", "stepId": "a", "data": {"id": "msg-fwd-7", "sender": "coordinator", "to": "ghost",
                                                         "kind": "info", "text": "?", "reason": "unknown-step"}},
    {"type": "step_end", "stepId": "a", "agent": "default", "data": {"status": "completed", "content": "done"}},
    {"type": "coordinator_inbox_message", "stepId": "a", **COORD,
     "data": {"source": "message", "sender": "a", "text": "halfway", "id": "msg-send-1", "cycle": 2}},
    {"type": "agent_turn", **COORD, "data": {"phase": "request", "turn": 3, "input": ["Wake 2: message msg-send-1 ..."],
                                             "wake": {"cycle": 2, "through": 16}}},
)


def at(seq: int) -> dict:
    checkpoint = fold(EVENTS, upto=seq)
    assert Checkpoint.from_dict(checkpoint.as_dict()) == checkpoint
    return checkpoint.mail


def test_a_message_read_by_a_wake_that_has_not_asked_still_waits():
    read_not_asked = at(17)
    assert [m["id"] for m in read_not_asked["router"]["pending"]["coordinator"]] == ["msg-send-1"]
    inbox = read_not_asked["coordinator"]["inbox"]
    assert {"message": "msg-send-1"} in inbox
    assert [e["notice"]["text"] for e in inbox if "notice" in e] == ["a completed: done"]
    assert read_not_asked["coordinator"]["cycles"] == 1
    asked = at(18)
    assert asked["router"]["pending"] == {} and asked["coordinator"]["inbox"] == []
    assert asked["coordinator"]["cycles"] == 2 and asked["coordinator"]["through"] == 16


def test_the_conversation_is_what_the_model_was_sent_with_every_call_answered():
    assert at(5)["coordinator"]["messages"][-2:] == [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "narrate", "arguments": None}]},
        {"role": "tool", "tool_call_id": "c1", "name": "narrate", "content": NOT_RUN}]
    assert at(8)["coordinator"]["messages"][-1]["content"] == "narrated"
    last = at(18)["coordinator"]
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert last["messages"][2]["tool_calls"][0]["arguments"] == {"text": "a is under way"}
    assert last["turns"] == 2


def test_ids_go_on_from_the_highest_seen_and_memory_keeps_only_writes_that_succeeded():
    mail = at(18)
    assert mail["router"]["sent"] == 7
    assert mail["memory"] == {"default/found": "42"}
    assert mail["router"]["finished"] == ["a"]
