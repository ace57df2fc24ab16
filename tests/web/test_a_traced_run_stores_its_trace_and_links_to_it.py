"""With traces on (an OTLP endpoint set), a run started over HTTP exports its spans to the collector, stores its
trace id and shows it with a link from OTEL_TRACE_LINK_TEMPLATE; with traces off (the default) it has none, and
plan_ready is among its events either way."""
import pytest

from runtime.live import tracing
from tests.fakes.otlp import FakeCollector
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: traced over http
agents:
  writer: {description: writes}
steps:
  - {id: draft, agent: writer, instructions: Draft.}
  - {id: polish, agent: writer, instructions: Polish., dependsOn: [draft]}
"""


def start(client):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "coordinator": "off"})
    assert answer.status_code == 201, answer.content
    return wait_for(client, answer.json()["id"])


@pytest.fixture
def collector(settings, monkeypatch):
    with FakeCollector() as receiver:
        settings.OTEL_TRACING = True
        settings.OTEL_TRACE_LINK_TEMPLATE = "http://jaeger.example:16686/trace/{trace_id}"
        monkeypatch.setattr(tracing, "_configured", tracing.Tracing(receiver.url, schedule_delay_ms=50))
        yield receiver


def test_a_traced_run_stores_its_trace_id_and_links_to_it(owner_client, collector):
    run = start(owner_client)
    assert run["status"] == "completed", run["reason"]
    trace_id = run["trace_id"]
    assert trace_id and len(trace_id) == 32
    assert run["trace_url"] == f"http://jaeger.example:16686/trace/{trace_id}"
    spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans))
    assert {s.trace_id for s in spans} == {trace_id}
    assert sorted(s.attributes["zenflow.step.id"] for s in spans if s.name == "zenflow.step") == ["draft", "polish"]
    root = next(s for s in spans if s.name == "zenflow.flow")
    assert root.attributes["zenflow.run_id"] == run["id"]


def test_without_an_endpoint_a_run_has_no_trace(owner_client):
    run = start(owner_client)
    assert run["status"] == "completed", run["reason"]
    assert run["trace_id"] is None and run["trace_url"] is None
    types = [e["type"] for e in owner_client.get(f"/api/v1/runs/{run['id']}/events").json()]
    assert types[:2] == ["workflow_start", "plan_ready"] and types.count("plan_ready") == 1
