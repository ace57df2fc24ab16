"""A workspace's trace settings over the API (accounts/trace_settings.py): owners and admins change them, everyone in
the workspace sees them; a wrong value is refused in words naming its field; the headers (a collector's credentials)
are write-only: stored encrypted, shown by name, never echoed, logged in the audit or kept in the clear."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from accounts.models import AuditEntry, Membership, TraceSettings
from accounts.trace_settings import for_run
from accounts.workspaces import create_team
from tests.support.api_calls import client_for

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "cGstbGYtMTIzOnNrLWxmLTQ1Ng=="
ENDPOINT = "https://collector.example.com/v1/traces"


@pytest.fixture
def team(db, settings):
    settings.TRACE_URLS_ALLOW_PRIVATE = True  # no name here resolves: the address rule has its own test below
    User = get_user_model()
    people = {role: User.objects.create_user(role) for role in ("owner", "admin", "editor", "viewer")}
    workspace = create_team(people["owner"], "Team")
    for role in ("admin", "editor", "viewer"):
        Membership.objects.create(workspace=workspace, user=people[role], role=role)
    return {"workspace": workspace, **{role: client_for(user) for role, user in people.items()}}


def put(client, workspace, body):
    return client.put(f"/api/v1/workspaces/{workspace.pk}/tracing", data=json.dumps(body), content_type="application/json")


def own(**extra):
    return {"mode": "own", "endpoint": ENDPOINT, "headers": f"Authorization=Basic%20{SECRET},x-project=loops",
            "link_template": "https://langfuse.example.com/trace/{trace_id}", **extra}


def test_an_admin_sets_an_endpoint_with_headers_that_are_never_shown_back(team):
    answer = put(team["admin"], team["workspace"], own())
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["mode"] == "own" and body["endpoint"] == ENDPOINT
    assert body["header_names"] == ["Authorization", "x-project"]
    assert body["link_template"] == "https://langfuse.example.com/trace/{trace_id}"
    assert SECRET not in answer.content.decode()
    # Every member sees the settings, the headers by name only.
    seen = team["viewer"].get(f"/api/v1/workspaces/{team['workspace'].pk}/tracing")
    assert seen.status_code == 200 and seen.json()["header_names"] == ["Authorization", "x-project"]
    assert SECRET not in seen.content.decode()
    # Stored encrypted; the audit says who changed what, never the values.
    stored = TraceSettings.objects.get(workspace=team["workspace"])
    assert SECRET not in stored.encrypted_headers and "loops" not in stored.encrypted_headers
    audit = json.dumps(list(AuditEntry.objects.filter(action="tracing_changed").values_list("detail", flat=True)))
    assert "Authorization" in audit and SECRET not in audit and "loops" not in audit
    # The runtime is handed them decrypted (percent-decoded, as OTEL_EXPORTER_OTLP_HEADERS).
    assert for_run(team["workspace"].pk).headers == {"Authorization": f"Basic {SECRET}", "x-project": "loops"}


def test_headers_left_out_are_kept_and_an_empty_text_clears_them(team):
    assert put(team["owner"], team["workspace"], own()).status_code == 200
    kept = put(team["owner"], team["workspace"], {"mode": "own", "endpoint": ENDPOINT + "/"})
    assert kept.status_code == 200 and kept.json()["header_names"] == ["Authorization", "x-project"]
    assert for_run(team["workspace"].pk).headers["Authorization"] == f"Basic {SECRET}"
    cleared = put(team["owner"], team["workspace"], {"mode": "own", "endpoint": ENDPOINT, "headers": ""})
    assert cleared.status_code == 200 and cleared.json()["header_names"] == []
    assert for_run(team["workspace"].pk).headers == {}


def test_only_owners_and_admins_change_them(team):
    for role in ("editor", "viewer"):
        refused = put(team[role], team["workspace"], own())
        assert refused.status_code == 403 and "manage" in refused.json()["detail"]
    assert not TraceSettings.objects.exists()
    stranger = client_for(get_user_model().objects.create_user("stranger"))
    assert put(stranger, team["workspace"], own()).status_code == 404
    assert stranger.get(f"/api/v1/workspaces/{team['workspace'].pk}/tracing").status_code == 404


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"endpoint": "ftp://collector.example.com/v1/traces"}, "endpoint", "http:// or https://"),
    ({"endpoint": "collector:4318"}, "endpoint", "http:// or https://"),
    ({"endpoint": "https://user:pw@collector.example.com/v1/traces"}, "endpoint", "user name or password"),
    ({"endpoint": "https://collector.example.com/v1/traces?token=abc"}, "endpoint", "query string"),
    ({"endpoint": ""}, "endpoint", "traces URL"),
    ({"headers": f"Authorization: Basic {SECRET}"}, "headers", "is not a header name"),
    ({"headers": "Authorization"}, "headers", "is not Name=value"),
    ({"headers": "Bad Name=x"}, "headers", "is not a header name"),
    ({"headers": "Content-Type=text/plain"}, "headers", "set by the exporter"),
    ({"headers": "x-empty="}, "headers", "has no value"),
    ({"link_template": "https://jaeger.example.com/trace/"}, "link_template", "{trace_id}"),
    ({"link_template": "javascript:alert({trace_id})"}, "link_template", "http:// or https://"),
])
def test_a_wrong_value_is_refused_naming_its_field(team, body, field, words):
    answer = put(team["owner"], team["workspace"], own(**body))
    assert answer.status_code == 400, answer.content
    detail = answer.json()["detail"]
    assert detail.startswith(f"{field}: ") and words in detail, detail
    assert SECRET not in detail  # a header that is not Name=value is named by its first characters at most
    assert not TraceSettings.objects.exists()


def test_an_endpoint_at_a_private_address_is_refused_unless_the_administrator_allows_it(team, settings):
    settings.TRACE_URLS_ALLOW_PRIVATE = False
    refused = put(team["owner"], team["workspace"], own(endpoint="http://127.0.0.1:4318/v1/traces"))
    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert detail.startswith("endpoint: ") and "private or local address" in detail and "TRACE_URLS_ALLOW_PRIVATE" in detail
    settings.TRACE_URLS_ALLOW_PRIVATE = True
    assert put(team["owner"], team["workspace"], own(endpoint="http://127.0.0.1:4318/v1/traces")).status_code == 200


def test_a_workspace_may_turn_traces_off_and_back_to_the_servers(team, settings):
    settings.OTEL_TRACING, settings.OTEL_TRACE_LINK_TEMPLATE = True, "http://jaeger.example.com/trace/{trace_id}"
    shown = team["viewer"].get(f"/api/v1/workspaces/{team['workspace'].pk}/tracing").json()
    assert shown == {"mode": "server", "endpoint": "", "header_names": [], "link_template": "",
                     "server_collector": True, "server_link_template": "http://jaeger.example.com/trace/{trace_id}"}
    off = put(team["owner"], team["workspace"], {"mode": "off"})
    assert off.status_code == 200 and off.json()["mode"] == "off"
    assert for_run(team["workspace"].pk).mode == "off"
    assert put(team["owner"], team["workspace"], {"mode": "server"}).json()["mode"] == "server"
