"""A workspace stores a key and base URL for any of upstream's providers, as for OpenAI's and Anthropic's: the
run dialog's list says which are ready (Ollama needs none), a run without one is refused naming the provider's own
environment variables, and a real run (through the worker) sends the stored key to that provider's fake server:
Gemini's ``x-goog-api-key``, Bedrock's SigV4, Azure's ``api-key`` for both ``azure/`` and ``azure-deployment/``."""
from __future__ import annotations

import pytest

from accounts.provider_keys import store_provider_key
from accounts.workspaces import personal
from tests.fakes import FakeAzure, FakeBedrock, FakeGemini
from tests.support.api_calls import client_for, post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: upstream-names
agents:
  g: {description: Gemini., model: google/gemini-2.5-flash}
  b: {description: Bedrock., model: "bedrock/anthropic.claude-sonnet-4-6"}
  a: {description: Azure., model: azure/gpt-5}
  d: {description: Azure deployment., model: azure-deployment/my-gpt}
steps:
  - {id: one, agent: g, instructions: One.}
  - {id: two, agent: b, instructions: Two.}
  - {id: three, agent: a, instructions: Three.}
  - {id: four, agent: d, instructions: Four.}
"""
GEMINI_KEY = "AIza-stored-workspace-key-1"
ACCESS, SECRET = "AKIDSTOREDKEY0001", "stored-secret-access-key-2"
AZURE_KEY = "azure-stored-key-3333"


@pytest.fixture
def allow_loopback(settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    for name in ("GOOGLE", "BEDROCK", "AZURE", "OPENAI"):
        setattr(settings, f"{name}_API_KEY", "")


def test_the_keys_api_takes_every_key_holder_and_the_list_says_who_is_ready(owner, allow_loopback):
    client = client_for(owner)
    workspace = personal(owner)
    stored = client.put(f"/api/v1/workspaces/{workspace.pk}/keys", data={"provider": "bedrock", "api_key": f"{ACCESS}:{SECRET}",
                        "base_url": "https://bedrock-runtime.eu-west-1.amazonaws.com"}, content_type="application/json")
    assert stored.status_code == 200, stored.content
    assert {k["provider"] for k in stored.json()} >= {"google", "vertex", "bedrock", "azure", "mistral", "ollama"}
    assert SECRET not in stored.content.decode()
    found = {p["name"]: p for p in client.get("/api/v1/providers").json()}
    assert found["bedrock"]["ready"] and found["bedrock"]["key_source"] == "workspace"
    assert found["ollama"]["ready"] and not found["ollama"]["needs_key"]
    assert not found["google"]["ready"] and found["google"]["label"] == "Google Gemini"
    refused = client.put(f"/api/v1/workspaces/{workspace.pk}/keys", data={"provider": "nope", "api_key": "x"},
                         content_type="application/json")
    assert refused.status_code == 422


def test_a_run_without_the_providers_key_is_refused_naming_its_variables(owner, allow_loopback):
    client = client_for(owner)
    wid = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(client, "/api/v1/runs", {"workflow_id": wid, "provider": "google", "coordinator": "off"})
    assert answer.status_code == 400
    assert "No Google Gemini API key" in answer.content.decode() and "GEMINI_API_KEY" in answer.content.decode()


def test_stored_keys_reach_each_providers_wire_in_a_real_run(owner, allow_loopback):
    client = client_for(owner)
    workspace = personal(owner)
    with FakeGemini(key=GEMINI_KEY) as gemini, FakeBedrock(credentials={ACCESS: SECRET}) as bedrock, \
            FakeAzure(key=AZURE_KEY) as azure:
        store_provider_key(workspace, owner, "google", GEMINI_KEY, gemini.url + "/v1beta")
        store_provider_key(workspace, owner, "bedrock", f"{ACCESS}:{SECRET}", bedrock.url)
        store_provider_key(workspace, owner, "azure", AZURE_KEY, azure.url)
        wid = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
        created = post(client, "/api/v1/runs", {"workflow_id": wid, "provider": "google", "coordinator": "off"})
        assert created.status_code == 201, created.content
        run = wait_for(client, created.json()["id"], timeout=120)
        assert run["status"] == "completed", run
        assert [r.headers["x-goog-api-key"] for r in gemini.requests] == [GEMINI_KEY]
        assert len(bedrock.requests) == 1 and "Credential=AKIDSTOREDKEY0001/" in bedrock.requests[0].headers["authorization"]
        assert sorted(r.path for r in azure.requests) == [
            "/openai/deployments/my-gpt/chat/completions?api-version=2024-10-21", "/openai/v1/chat/completions"]


def test_the_model_picker_offers_the_models_of_the_providers_with_a_key_and_their_prices(owner, allow_loopback):
    client = client_for(owner)
    assert [m for m in client.get("/api/v1/models").json() if m["provider"] != "ollama"] == []
    store_provider_key(personal(owner), owner, "google", GEMINI_KEY)
    offered = {m["model"]: m for m in client.get("/api/v1/models").json()}
    flash = offered["google/gemini-2.5-flash"]
    assert flash["provider"] == "google" and flash["input_usd_per_mtok"] > 0 and flash["output_usd_per_mtok"] > 0
    assert not any(m.startswith(("openai/", "bedrock/", "vertex/")) for m in offered)
    assert not any("embed" in m for m in offered)
    assert client.get("/api/v1/models?workspace=999999").status_code == 404
