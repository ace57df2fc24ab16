"""A simulated script's key that names no step, agent or coordinator (a typo) is warned, naming the key, a close
one and the workflow's keys: by POST /runs/script-check as the dialogs type, and in `script_warnings` of the
answer to POST /runs and to a fork. Namespaced ids (`write.3`, `write.9.untilAgent`, `each[2].fetch`, a single-step
forEach's item `solo[4]`), `*`,
`coordinator` and any path under an include step are keys, never warned."""
import pytest

from runtime.providers import script_keys
from tests.support.api_calls import post, wait_for
from tests.support.checkpoints import TEN_ROUNDS, TEN_SCRIPT

pytestmark = pytest.mark.django_db(transaction=True)

DOC = {
    "name": "keys",
    "agents": {"reviewer": {"description": "Reviews."}, "judge": {"description": "Judges."}},
    "steps": [
        {"id": "draft", "instructions": "Draft."},
        {"id": "each", "instructions": "Each.", "loop": {"forEach": ["a", "b"], "steps": [{"id": "fetch", "agent": "reviewer"}]}},
        {"id": "deploy", "include": "workflows/deploy.yaml"},
        {"id": "solo", "instructions": "Each alone.", "loop": {"forEach": ["a", "b"]}},
    ],
}


def test_every_kind_of_key_the_provider_looks_up_is_known():
    replies = {k: ["x"] for k in ("draft", "reviewer", "*", "coordinator", "default", "untilAgent", "each[1].fetch",
                                  "each.0.untilAgent", "deploy.build", "fetch", "solo[1]")}
    assert script_keys.unmatched(replies, DOC) == []


def test_typos_are_named_with_a_close_key_and_the_known_ones():
    replies = {"reviwer": ["x"], "draft": ["y"], "each[1].fecth": ["z"], "nobody.1": ["w"], "nobody[1]": ["v"]}
    assert script_keys.unmatched(replies, DOC) == ["reviwer", "each[1].fecth", "nobody.1", "nobody[1]"]
    first = script_keys.warnings({"replies": replies}, DOC)[0]
    assert first.startswith("script key `reviwer` names no step, agent or coordinator of this workflow")
    assert "(did you mean `reviewer`?)" in first
    assert "the workflow's keys: draft, each, fetch, deploy, solo, reviewer, judge, *, coordinator, default, untilAgent" in first


def test_the_dialogs_check_answers_warnings_and_the_keys(owner_client):
    answer = post(owner_client, "/api/v1/runs/script-check", {"script": "replies:\n  reviwer: [ok]\n", "document": DOC})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert len(body["warnings"]) == 1 and "`reviwer`" in body["warnings"][0]
    assert body["keys"][:3] == ["draft", "each", "fetch"]
    refused = post(owner_client, "/api/v1/runs/script-check", {"script": "replies:\n  draft: [{contnt: x}]\n", "document": DOC})
    assert refused.status_code == 400 and refused.json()["detail"] == "script: replies.draft[0]: unknown reply field(s) contnt"
    assert post(owner_client, "/api/v1/runs/script-check", {"script": "replies: {draft: [x]}", "document": DOC}).json()["warnings"] == []


def test_a_run_and_a_fork_say_which_keys_name_nothing(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": TEN_ROUNDS}).json()["id"]
    typo = {**TEN_SCRIPT, "replies": {**TEN_SCRIPT["replies"], "jugde": ["x"]}}
    created = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow, "script": typo})
    assert created.status_code == 201, created.content
    warned = created.json()["script_warnings"]
    assert len(warned) == 1 and warned[0].startswith("script key `jugde`") and "did you mean `judge`?" in warned[0]
    run = wait_for(owner_client, created.json()["id"])

    clean = post(owner_client, f"/api/v1/runs/{run['id']}/fork", {"at": {"step": "write", "iteration": 5}, "script": TEN_SCRIPT})
    assert clean.status_code == 201, clean.content
    assert clean.json()["script_warnings"] == []
    kept = post(owner_client, f"/api/v1/runs/{run['id']}/fork", {"at": {"step": "write", "iteration": 5}})
    assert "`jugde`" in kept.json()["script_warnings"][0]  # the parent's script, kept, still has the typo
    wait_for(owner_client, clean.json()["id"])
    wait_for(owner_client, kept.json()["id"])
