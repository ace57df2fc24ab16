"""The run dialog's list of providers says which have a key and from where (never the key), and a run
on a provider with no key is refused before it starts, saying how to add one."""
import json

import pytest

from accounts.provider_keys import store_provider_key
from accounts.workspaces import personal
from runtime.models import Run

pytestmark = pytest.mark.django_db

SECRET = "sk-availability-secret-0001"
DOC = "name: real\nsteps:\n  - id: draft\n    instructions: Write.\n"


def providers(client) -> dict:
    answer = client.get("/api/v1/providers")
    assert answer.status_code == 200
    return {p["name"]: p for p in answer.json()}


def test_without_keys_only_the_simulated_provider_is_ready(owner_client, settings):
    settings.OPENAI_API_KEY = None
    settings.ANTHROPIC_API_KEY = None
    found = providers(owner_client)
    assert found["simulated"]["ready"] is True
    assert found["openai"] == {"name": "openai", "label": "OpenAI", "ready": False, "key_source": None, "needs_key": True}
    assert found["anthropic"]["ready"] is False


def test_a_stored_key_comes_from_the_workspace_and_the_servers_only_where_granted(owner, owner_client, settings):
    settings.OPENAI_API_KEY = None
    settings.ANTHROPIC_API_KEY = "sk-server-key"
    store_provider_key(personal(owner), owner, "openai", SECRET)
    answer = owner_client.get("/api/v1/providers")
    found = {p["name"]: p for p in answer.json()}
    assert found["openai"]["key_source"] == "workspace" and found["openai"]["ready"]
    # Not granted the server's keys (a new workspace never is): the server's key is not offered.
    assert found["anthropic"]["key_source"] is None and not found["anthropic"]["ready"]
    workspace = personal(owner)
    workspace.server_keys = True
    workspace.save()
    answer = owner_client.get("/api/v1/providers")
    found = {p["name"]: p for p in answer.json()}
    assert found["anthropic"]["key_source"] == "server" and found["anthropic"]["ready"]
    assert SECRET not in answer.content.decode() and "sk-server-key" not in answer.content.decode()


def test_a_run_without_a_key_is_refused_before_it_starts_saying_how_to_add_one(owner_client, settings):
    settings.OPENAI_API_KEY = None
    wid = owner_client.post("/api/v1/workflows", data=json.dumps({"source": DOC}), content_type="application/json").json()["id"]
    answer = owner_client.post("/api/v1/runs", data=json.dumps({"workflow_id": wid, "provider": "openai"}), content_type="application/json")
    assert answer.status_code == 400
    assert "No OpenAI API key" in answer.content.decode() and "/account/" in answer.content.decode()
    assert Run.objects.count() == 0


def test_providers_need_a_login(client):
    assert client.get("/api/v1/providers").status_code == 401
