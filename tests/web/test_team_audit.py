"""The audit log of a team workspace records each action once, with who did it, and only admins read it."""
from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.audit import ACTIONS
from accounts.models import AuditEntry

pytestmark = pytest.mark.django_db(transaction=True)

DOC = "name: audited\nsteps:\n  - id: draft\n    instructions: Write.\n"


def call(client, method, path, body=None):
    kwargs = {"data": json.dumps(body), "content_type": "application/json"} if body is not None else {}
    return getattr(client, method)(path, **kwargs)


def test_each_action_is_recorded_once_with_its_actor(settings):
    settings.SIGNUP = "invite"
    User = get_user_model()
    User.objects.create_superuser("boss", password="boss-pass-123")
    owner = Client()
    assert owner.post("/login/", {"username": "boss", "password": "boss-pass-123"}).status_code == 302
    team = call(owner, "post", "/api/v1/workspaces", {"name": "Audited"}).json()
    tid = team["id"]
    invitation = call(owner, "post", f"/api/v1/workspaces/{tid}/invitations", {"role": "viewer"}).json()
    token = invitation["url"].rsplit("/join/", 1)[1].strip("/")
    joiner = Client()
    assert joiner.post(f"/signup/?invite={token}", {"username": "joiner", "password1": "a-long-pass-9x",
                                                      "password2": "a-long-pass-9x", "invite": token}).status_code == 302
    joiner_id = User.objects.get(username="joiner").pk
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/members/{joiner_id}", {"role": "runner"}).status_code == 200
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/keys", {"provider": "openai", "api_key": "sk-audit"}).status_code == 200
    assert call(owner, "delete", f"/api/v1/workspaces/{tid}/keys/openai").status_code == 204
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/server-keys", {"granted": True}).status_code == 200
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/server-keys", {"granted": False}).status_code == 200
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/limits", {"max_runs_per_day": 1}).status_code == 200
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/tracing", {"mode": "off"}).status_code == 200
    wid = call(owner, "post", "/api/v1/workflows", {"source": DOC, "workspace_id": tid}).json()["id"]
    run = call(joiner, "post", "/api/v1/runs", {"workflow_id": wid, "script": {"latency": 30, "replies": {"draft": ["x"]}}}).json()
    deadline = time.time() + 10
    while call(joiner, "get", f"/api/v1/runs/{run['id']}").json()["status"] != "running" and time.time() < deadline:
        time.sleep(0.05)
    for action in ("pause", "resume", "stop"):
        assert call(joiner, "post", f"/api/v1/runs/{run['id']}/{action}", {}).status_code == 200
    assert call(joiner, "post", "/api/v1/runs", {"workflow_id": wid}).status_code == 429
    # Refusals are actions too: a role too low (the joiner is a runner: no edits) and a missing key.
    assert call(joiner, "put", f"/api/v1/workspaces/{tid}/limits", {"max_runs_per_day": 9}).status_code == 403
    assert call(owner, "put", f"/api/v1/workspaces/{tid}/limits", {"max_runs_per_day": 5}).status_code == 200
    no_key = call(joiner, "post", "/api/v1/runs", {"workflow_id": wid, "provider": "openai"})
    assert no_key.status_code == 400
    assert call(owner, "post", f"/api/v1/workflows/{wid}/move", {"workspace_id": call(owner, "get", "/api/v1/workspaces").json()[0]["id"]}).status_code == 200
    assert call(owner, "delete", f"/api/v1/workspaces/{tid}/members/{joiner_id}").status_code == 204

    log = call(owner, "get", f"/api/v1/workspaces/{tid}/audit").json()
    counts = Counter((e["action"], e["actor"]) for e in log)
    expected = {
        ("workspace_created", "boss"), ("invitation_created", "boss"), ("signed_up", "joiner"), ("invitation_used", "joiner"),
        ("member_added", "joiner"), ("role_changed", "boss"), ("key_stored", "boss"), ("key_deleted", "boss"),
        ("server_keys_granted", "boss"), ("server_keys_revoked", "boss"), ("limits_changed", "boss"),
        ("run_started", "joiner"), ("run_paused", "joiner"), ("run_resumed", "joiner"), ("run_stopped", "joiner"),
        ("run_refused", "joiner"), ("workflow_moved", "boss"), ("member_removed", "boss"), ("action_refused", "joiner"),
        ("tracing_changed", "boss"),
    }
    # signed_up is written to the joiner's own workspace: everything else here, each once (a refused run and
    # a changed limit twice: the limit, then the missing key; the limit set, then raised again).
    twice = {("run_refused", "joiner"), ("limits_changed", "boss")}
    assert {k: v for k, v in counts.items() if k[0] != "signed_in"} == {
        k: 2 if k in twice else 1 for k in expected - {("signed_up", "joiner")}}
    refused = {e["detail"].get("reason") or e["detail"].get("limit") for e in log if e["action"] == "run_refused"}
    assert "no key" in refused and len(refused) == 2
    role = next(e["detail"] for e in log if e["action"] == "action_refused")
    assert role["role"] == "runner" and role["needs"] == "admin"
    assert AuditEntry.objects.filter(action="signed_up", actor_name="joiner").count() == 1
    # A sign-in is written to every workspace the user is in at that moment: the joiner's (after joining)
    # reaches the team; the owner's came before the team existed.
    assert counts[("signed_in", "joiner")] == 1 and counts[("signed_in", "boss")] == 0
    assert {a for a, _ in counts} <= set(ACTIONS)
    assert call(joiner, "get", f"/api/v1/workspaces/{tid}/audit").status_code == 404  # no longer a member
