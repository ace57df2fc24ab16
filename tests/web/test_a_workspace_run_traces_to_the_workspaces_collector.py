"""A run started over HTTP sends its spans where its workspace's settings say: workspace A's own collector, with
A's header, and A's link template on the run page; workspace B (no settings) the server's collector and link. A
workspace with its own collector traces its runs on a server without one; a workspace with traces off has none.
The header's value is in none of the run's events or answers."""
import json

import pytest

from accounts.workspaces import create_team, personal
from runtime.live import tracing
from tests.fakes.otlp import FakeCollector
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "d29ya3NwYWNlLWEtc2VjcmV0"
FLOW = """name: traced per workspace
agents:
  writer: {description: writes}
steps:
  - {id: draft, agent: writer, instructions: Draft.}
"""


def start(client, workspace_id):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW, "workspace_id": workspace_id}).json()["id"]
    answer = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "coordinator": "off"})
    assert answer.status_code == 201, answer.content
    run = wait_for(client, answer.json()["id"])
    assert run["status"] == "completed", run["reason"]
    return run


def set_tracing(client, workspace_id, body):
    answer = client.put(f"/api/v1/workspaces/{workspace_id}/tracing", data=json.dumps(body),
                        content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert SECRET not in answer.content.decode()


def flow_of(trace_id):
    return lambda spans: any(s.name == "zenflow.flow" and s.trace_id == trace_id for s in spans)


@pytest.fixture
def process_traces(monkeypatch):
    """This process's traces made anew for the test (to the server's collector at ``endpoint``), shut down after."""
    made = []

    def make(endpoint=None):
        made.append(tracing.Tracing(endpoint, schedule_delay_ms=50))
        monkeypatch.setattr(tracing, "_configured", made[-1])

    yield make
    for traces in made:
        traces.shutdown(2)


@pytest.fixture
def workspaces(owner, settings):
    settings.TRACE_URLS_ALLOW_PRIVATE = True  # the collectors listen on loopback
    return create_team(owner, "Team A").pk, personal(owner).pk


def test_workspace_a_goes_to_its_collector_and_b_to_the_servers(owner_client, workspaces, settings, process_traces):
    team_a, workspace_b = workspaces
    with FakeCollector() as server, FakeCollector() as collector_a:
        settings.OTEL_TRACING = True
        settings.OTEL_TRACE_LINK_TEMPLATE = "http://jaeger.example:16686/trace/{trace_id}"
        process_traces(server.url)
        set_tracing(owner_client, team_a, {"mode": "own", "endpoint": collector_a.url,
                                           "headers": f"Authorization=Basic {SECRET}",
                                           "link_template": "https://langfuse.example/project/p/traces/{trace_id}"})
        run_a = start(owner_client, team_a)
        run_b = start(owner_client, workspace_b)
        spans_a = collector_a.wait_for(flow_of(run_a["trace_id"]))
        spans_b = server.wait_for(flow_of(run_b["trace_id"]))
    assert {s.trace_id for s in spans_a} == {run_a["trace_id"]}
    assert {s.trace_id for s in spans_b} == {run_b["trace_id"]}
    assert all({k.lower(): v for k, v in h.items()}.get("authorization") == f"Basic {SECRET}" for h in collector_a.headers)
    assert not any("authorization" in {k.lower() for k in h} for h in server.headers)
    assert run_a["trace_url"] == f"https://langfuse.example/project/p/traces/{run_a['trace_id']}"
    assert run_b["trace_url"] == f"http://jaeger.example:16686/trace/{run_b['trace_id']}"
    events = owner_client.get(f"/api/v1/runs/{run_a['id']}/events").content.decode()
    shown = owner_client.get(f"/api/v1/runs/{run_a['id']}").content.decode()
    assert SECRET not in events and SECRET not in shown


def test_a_workspace_collector_works_without_the_servers_and_off_means_no_trace(owner_client, workspaces, settings,
                                                                                  process_traces):
    team_a, workspace_b = workspaces
    with FakeCollector() as collector_a:
        settings.OTEL_TRACING = False  # the server sends no traces of its own
        process_traces()
        set_tracing(owner_client, team_a, {"mode": "own", "endpoint": collector_a.url})
        run_a = start(owner_client, team_a)
        assert run_a["trace_id"] and run_a["trace_url"] is None  # no template, here or on the server
        collector_a.wait_for(flow_of(run_a["trace_id"]))
        assert start(owner_client, workspace_b)["trace_id"] is None
        settings.OTEL_TRACING = True
        set_tracing(owner_client, workspace_b, {"mode": "off"})
        assert start(owner_client, workspace_b)["trace_id"] is None
