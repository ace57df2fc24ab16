"""Provider keys: stored encrypted, used for the owner's real-provider runs, never shown anywhere."""
import json
import time

import pytest
from django.test import Client

from accounts.models import ApiToken, ProviderKey
from accounts.provider_keys import provider_key, store_provider_key
from accounts.workspaces import personal
from runtime.models import RunEvent
from tests.fakes.openai import FakeOpenAI

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "sk-test-0123456789abcdef-secret"
DOC = "name: real\nagents:\n  writer: {description: Writes., model: openai/gpt-test}\nsteps:\n  - id: draft\n    agent: writer\n    instructions: Write.\n"


def test_a_key_is_encrypted_at_rest_and_reads_back(owner):
    store_provider_key(personal(owner), owner, "openai", SECRET, "http://127.0.0.1:9/v1")
    stored = ProviderKey.objects.get(user=owner, provider="openai")
    assert SECRET not in stored.encrypted_key
    assert provider_key(personal(owner).pk, "openai") == (SECRET, "http://127.0.0.1:9/v1")


def test_a_run_uses_the_owners_key_and_it_never_reaches_events_or_answers(owner, owner_client, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True  # the fake provider listens on loopback
    with FakeOpenAI(default={"content": "hello from the fake"}) as fake:
        store_provider_key(personal(owner), owner, "openai", SECRET, fake.url + "/v1")
        wid = owner_client.post("/api/v1/workflows", data=json.dumps({"source": DOC}), content_type="application/json").json()["id"]
        run = owner_client.post("/api/v1/runs", data=json.dumps({"workflow_id": wid, "provider": "openai"}), content_type="application/json").json()
        deadline = time.time() + 30
        while owner_client.get(f"/api/v1/runs/{run['id']}").json()["status"] not in ("completed", "failed") and time.time() < deadline:
            time.sleep(0.05)
        final = owner_client.get(f"/api/v1/runs/{run['id']}")
        assert final.json()["status"] == "completed", final.json()["reason"]
        assert fake.requests and fake.requests[0].headers.get("authorization") == f"Bearer {SECRET}"
        # gpt-test has no known price: the run says so rather than costing $0.
        assert final.json()["unpriced_models"] == ["openai/gpt-test"]
    events = owner_client.get(f"/api/v1/runs/{run['id']}/events")
    assert "hello from the fake" in events.content.decode()
    for text in (events.content.decode(), final.content.decode(), owner_client.get("/account/").content.decode(),
                 "".join(RunEvent.objects.values_list("event_json", flat=True))):
        assert SECRET not in text


def test_the_account_page_saves_a_key_without_echoing_it(owner_client, owner):
    response = owner_client.post("/account/", {"action": "set_key", "provider": "anthropic", "api_key": SECRET, "base_url": ""})
    assert response.status_code == 302
    page = owner_client.get("/account/").content.decode()
    assert "key set" in page and SECRET not in page
    assert provider_key(personal(owner).pk, "anthropic")[0] == SECRET


def test_tokens_are_created_once_shown_and_revocable(owner_client, owner):
    page = owner_client.post("/account/", {"action": "create_token", "name": "ci"}).content.decode()
    token = page.split('id="new-token">')[1].split("<")[0]
    assert token.startswith("ld_")
    assert owner_client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}").json() == {"username": "owner"}
    assert token not in owner_client.get("/account/").content.decode()
    owner_client.post("/account/", {"action": "revoke", "token_id": ApiToken.objects.get(user=owner).pk})
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_revoking_with_a_malformed_token_id_changes_nothing(owner_client, owner, owner_token):
    for bad in ("abc", "1.5", "1 OR 1", "", "-1"):
        response = owner_client.post("/account/", {"action": "revoke", "token_id": bad})
        assert response.status_code == 302
    assert ApiToken.objects.filter(user=owner).count() == 1


def _finished(client, run_id) -> dict:
    deadline = time.time() + 30
    while time.time() < deadline:
        run = client.get(f"/api/v1/runs/{run_id}").json()
        if run["status"] in ("completed", "partial", "failed", "cancelled"):
            return run
        time.sleep(0.05)
    raise AssertionError("the run did not finish")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8792/v1", "http://10.1.2.3/v1", "http://169.254.169.254/latest",
                                 "http://[::1]:8080/v1", "http://localhost:11434/v1"])
def test_a_base_url_on_a_private_or_local_address_is_refused_when_saved(owner_client, owner, url):
    page = owner_client.post("/account/", {"action": "set_key", "provider": "openai", "api_key": SECRET, "base_url": url})
    text = page.content.decode()
    assert page.status_code == 200 and "private or local address" in text and "PROVIDER_URLS_ALLOW_PRIVATE" in text
    assert not ProviderKey.objects.filter(user=owner).exists()


def test_an_administrator_can_allow_private_base_urls(owner_client, owner, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    owner_client.post("/account/", {"action": "set_key", "provider": "openai", "api_key": SECRET, "base_url": "http://127.0.0.1:8792/v1"})
    assert provider_key(personal(owner).pk, "openai") == (SECRET, "http://127.0.0.1:8792/v1")


def test_a_stored_private_base_url_is_refused_at_connection_and_nothing_is_sent(owner, owner_client):
    # Saved before the rule existed, or a name that resolved elsewhere when it was saved.
    with FakeOpenAI(default={"status": 403, "message": "INTERNAL-ONLY-DATA"}) as internal:
        store_provider_key(personal(owner), owner, "openai", SECRET, internal.url + "/v1")
        wid = owner_client.post("/api/v1/workflows", data=json.dumps({"source": DOC}), content_type="application/json").json()["id"]
        run = owner_client.post("/api/v1/runs", data=json.dumps({"workflow_id": wid, "provider": "openai"}), content_type="application/json").json()
        final = _finished(owner_client, run["id"])
        assert internal.requests == []
    assert final["status"] == "failed" and "private or local address" in final["reason"]
    events = owner_client.get(f"/api/v1/runs/{run['id']}/events").content.decode()
    assert "INTERNAL-ONLY-DATA" not in events and SECRET not in events
