"""A provider's base URL is shown to everyone in its workspace and named in errors, so it may hold no secret: a
user:password@, a query string or a fragment is refused when saved (over the API and on the account page),
naming the field; one stored before the rule is shown without them."""
from __future__ import annotations

import json

import pytest

from accounts.models import ProviderKey
from accounts.provider_keys import provider_key, store_provider_key
from accounts.workspaces import personal

pytestmark = pytest.mark.django_db

SECRET = "sk-base-url-0042"
REFUSED = [
    ("https://someone:hunter2@api.example.com/v1", "must not hold a user name or password"),
    ("https://hunter2@api.example.com/v1", "must not hold a user name or password"),
    ("https://api.example.com/v1?key=hunter2", "must not have a query string"),
    ("https://api.example.com/v1?", "must not have a query string"),
    ("https://api.example.com/v1#hunter2", "must not have a fragment"),
]


def put_key(client, workspace_id: int, base_url: str):
    return client.put(f"/api/v1/workspaces/{workspace_id}/keys", content_type="application/json",
                      data=json.dumps({"provider": "openai", "api_key": SECRET, "base_url": base_url}))


@pytest.mark.parametrize(("url", "words"), REFUSED)
def test_the_api_refuses_a_base_url_with_credentials_a_query_or_a_fragment_naming_the_field(
        owner_client, owner, url, words, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True  # the rule holds whatever addresses are allowed
    answer = put_key(owner_client, personal(owner).pk, url)
    assert answer.status_code == 400, answer.content
    detail = answer.json()["detail"]
    assert detail.startswith("base_url: ") and words in detail
    assert "hunter2" not in detail
    assert not ProviderKey.objects.exists()


@pytest.mark.parametrize("url", ["ftp://api.example.com/v1", "api.example.com/v1", "https:///v1", "http://h:port/"])
def test_the_api_refuses_a_base_url_that_is_not_an_http_url(owner_client, owner, url, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    answer = put_key(owner_client, personal(owner).pk, url)
    assert answer.status_code == 400 and answer.json()["detail"].startswith("base_url: ")
    assert not ProviderKey.objects.exists()


@pytest.mark.parametrize(("url", "words"), REFUSED)
def test_the_account_page_refuses_them_too_naming_the_field(owner_client, owner, url, words, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    page = owner_client.post("/account/", {"action": "set_key", "provider": "openai", "api_key": SECRET,
                                           "base_url": url})
    text = page.content.decode()
    assert page.status_code == 200 and "base_url: the base URL " + words in text
    assert not ProviderKey.objects.exists()


def test_a_plain_base_url_is_still_saved(owner_client, owner, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    assert put_key(owner_client, personal(owner).pk, "http://127.0.0.1:8792/v1").status_code == 200
    assert provider_key(personal(owner).pk, "openai") == (SECRET, "http://127.0.0.1:8792/v1")
    owner_client.post("/account/", {"action": "set_key", "provider": "anthropic", "api_key": SECRET,
                                    "base_url": "http://127.0.0.1:8793/"})
    assert provider_key(personal(owner).pk, "anthropic") == (SECRET, "http://127.0.0.1:8793/")


def test_a_base_url_stored_before_the_rule_is_shown_without_its_secrets(owner_client, owner):
    workspace = personal(owner)
    store_provider_key(workspace, owner, "openai", SECRET, "https://someone:hunter2@api.example.com/v1?key=hunter2#x")
    listed = owner_client.get(f"/api/v1/workspaces/{workspace.pk}/keys")
    assert listed.status_code == 200
    assert listed.json()[0]["base_url"] == "https://api.example.com/v1"
    assert "hunter2" not in listed.content.decode()
    page = owner_client.get("/account/").content.decode()
    assert "https://api.example.com/v1" in page and "hunter2" not in page
