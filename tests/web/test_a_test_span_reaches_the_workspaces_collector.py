"""The settings' "Send a test span": one span sent now to the workspace's own collector with its headers; a
collector that refuses it is quoted (its status), one on a private address is not reached unless allowed, and the
headers' values are in no answer."""
import json

import pytest

from accounts.workspaces import create_team
from tests.fakes.otlp import FakeCollector

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "dGVzdC1zcGFuLXNlY3JldA=="


def put(client, workspace_id, body):
    answer = client.put(f"/api/v1/workspaces/{workspace_id}/tracing", data=json.dumps(body), content_type="application/json")
    assert answer.status_code == 200, answer.content


def send(client, workspace_id):
    return client.post(f"/api/v1/workspaces/{workspace_id}/tracing/test")


def test_a_test_span_arrives_with_the_header_or_says_why_not(owner, owner_client, settings):
    settings.TRACE_URLS_ALLOW_PRIVATE = True
    team = create_team(owner, "Team").pk
    with FakeCollector() as collector:
        refused = send(owner_client, team)
        assert refused.status_code == 400 and refused.json()["detail"].startswith("mode: ")
        put(owner_client, team, {"mode": "own", "endpoint": collector.url, "headers": f"Authorization=Basic {SECRET}",
                                 "link_template": "https://viewer.example.com/t/{trace_id}"})
        answer = send(owner_client, team)
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert body["ok"] is True and body["error"] is None
        assert body["trace_url"] == f"https://viewer.example.com/t/{body['trace_id']}"
        spans = collector.wait_for(lambda spans: any(s.trace_id == body["trace_id"] for s in spans))
        assert [s.name for s in spans] == ["loop-designer.test"]
        assert {k.lower(): v for k, v in collector.headers[0].items()}["authorization"] == f"Basic {SECRET}"

        put(owner_client, team, {"mode": "own", "endpoint": collector.url.replace("/v1/traces", "/v1/nowhere")})
        missed = send(owner_client, team).json()
        assert missed["ok"] is False and missed["error"].startswith("the collector answered 404")
        assert SECRET not in json.dumps(missed)

        put(owner_client, team, {"mode": "own", "endpoint": collector.url})
        settings.TRACE_URLS_ALLOW_PRIVATE = False  # saved while allowed: the check at connection still holds
        blocked = send(owner_client, team).json()
        assert blocked["ok"] is False and "private or local address" in blocked["error"]
        assert len(collector.headers) == 1  # neither the 404 (another path) nor the blocked one was taken
