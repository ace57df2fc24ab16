"""POST /runs/{id}/fork of a run that talked: the fork starts with the shared memory written before the point, the
message the coordinator had not read there (read once, by the fork's coordinator), and the coordinator's
conversation, so the fork's coordinator (and its script, replayed by the worker) goes on where the parent's was."""
import pytest

from tests.support.api_calls import post, wait_for
from tests.support.conversations import HAND_OVER, HAND_OVER_SCRIPT, delivered, narrations, tool_output, wake_cycles

pytestmark = pytest.mark.django_db(transaction=True)


def events_of(client, run_id) -> list[dict]:
    return client.get(f"/api/v1/runs/{run_id}/events").json()


def test_a_fork_at_a_step_goes_on_with_the_parents_messages_memory_and_coordinator(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": HAND_OVER}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "script": HAND_OVER_SCRIPT,
                                                  "coordinator": "narrate", "shared_memory": True})
    assert created.status_code == 201, created.content
    parent = wait_for(owner_client, created.json()["id"])
    assert parent["status"] == "completed", parent["reason"]
    parent_events = events_of(owner_client, parent["id"])
    waiting = next(e["data"]["id"] for e in parent_events if e["type"] == "message_sent")

    answer = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "use"}})
    assert answer.status_code == 201, answer.content
    fork = answer.json()
    assert fork["coordinator"] == "narrate" and fork["shared_memory"] is True
    done = wait_for(owner_client, fork["id"])
    assert done["status"] == "completed", done["reason"]
    events = events_of(owner_client, fork["id"])
    inherited, own = [e for e in events if e["seq"] <= fork["start_seq"]], [e for e in events if e["seq"] > fork["start_seq"]]

    assert not any(e["type"] == "agent_turn" and e.get("stepId") == "note" for e in own)  # inherited, not run again
    assert tool_output(own, "use", "shared_memory_read") == "42 widgets"
    assert delivered(inherited)[waiting] == 0 and delivered(own)[waiting] == 1
    assert "note 1" in narrations(inherited) and narrations(own)[:1] == ["note 2"]
    assert wake_cycles(own)[0] == wake_cycles(inherited)[-1] + 1
    assert done["summary"] == "ok"  # the last wake's reply stands in: the script never finalizes
