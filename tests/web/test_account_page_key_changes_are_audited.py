"""Storing and deleting a provider key on the account page is written to the audit log of the personal workspace,
one row each, exactly as the API's PUT and DELETE /workspaces/{id}/keys write it; a delete that removed nothing
writes nothing, and no row holds the key."""
from __future__ import annotations

import json

import pytest

from accounts.models import AuditEntry, ProviderKey
from accounts.workspaces import personal

pytestmark = pytest.mark.django_db

SECRET = "sk-audited-page-0042"


def log(client, workspace_id: int) -> list[tuple[str, str, dict]]:
    """The workspace's key rows, oldest first, as its admins read them (signing in is logged too: left out)."""
    rows = client.get(f"/api/v1/workspaces/{workspace_id}/audit").json()
    return [(row["actor"], row["action"], row["detail"]) for row in reversed(rows)
            if row["action"] in ("key_stored", "key_deleted")]


def test_the_account_page_records_a_stored_and_a_deleted_key_with_who_did_it(owner_client, owner):
    workspace = personal(owner).pk
    stored = owner_client.post("/account/", {"action": "set_key", "provider": "openai", "api_key": SECRET})
    assert stored.status_code == 302 and ProviderKey.objects.filter(workspace_id=workspace).exists()
    deleted = owner_client.post("/account/", {"action": "delete_key", "provider": "openai"})
    assert deleted.status_code == 302 and not ProviderKey.objects.exists()
    assert log(owner_client, workspace) == [("owner", "key_stored", {"provider": "openai"}),
                                            ("owner", "key_deleted", {"provider": "openai"})]
    assert SECRET not in json.dumps(list(AuditEntry.objects.values_list("detail", flat=True)))


def test_a_delete_that_removed_nothing_and_a_refused_key_are_not_recorded(owner_client, owner):
    owner_client.post("/account/", {"action": "delete_key", "provider": "anthropic"})
    owner_client.post("/account/", {"action": "delete_key", "provider": "no-such-provider"})
    refused = owner_client.post("/account/", {"action": "set_key", "provider": "openai", "api_key": SECRET,
                                              "base_url": "https://u:p@api.example.com/v1"})
    assert refused.status_code == 200 and not ProviderKey.objects.exists()
    assert not AuditEntry.objects.filter(action__in=("key_stored", "key_deleted")).exists()


def test_the_page_and_the_api_write_the_same_rows(owner_client, owner):
    workspace = personal(owner).pk
    owner_client.post("/account/", {"action": "set_key", "provider": "anthropic", "api_key": SECRET})
    owner_client.post("/account/", {"action": "delete_key", "provider": "anthropic"})
    by_page = log(owner_client, workspace)
    AuditEntry.objects.filter(action__in=("key_stored", "key_deleted")).delete()
    put = owner_client.put(f"/api/v1/workspaces/{workspace}/keys", content_type="application/json",
                           data=json.dumps({"provider": "anthropic", "api_key": SECRET}))
    assert put.status_code == 200
    assert owner_client.delete(f"/api/v1/workspaces/{workspace}/keys/anthropic").status_code == 204
    by_api = log(owner_client, workspace)
    assert by_page == by_api == [("owner", "key_stored", {"provider": "anthropic"}),
                                      ("owner", "key_deleted", {"provider": "anthropic"})]
