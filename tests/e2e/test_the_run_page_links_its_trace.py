"""A server with OTEL_EXPORTER_OTLP_ENDPOINT set exports each run's spans to that collector (here one on loopback
that decodes them), and the run page shows the run's trace, linked through OTEL_TRACE_LINK_TEMPLATE."""
from __future__ import annotations

from tests.fakes.otlp import FakeCollector
from tests.support.browser import VIEWPORT, signed_in_context
from tests.support.live_runs import wait_status
from tests.support.servers import base_env, running_server

FLOW = """name: traced in the browser
agents:
  writer: {description: writes}
steps:
  - {id: draft, agent: writer, instructions: Draft.}
"""


def test_the_run_page_shows_the_trace_and_links_to_it(browser):
    with FakeCollector() as collector:
        env = base_env(OTEL_EXPORTER_OTLP_ENDPOINT=collector.url.removesuffix("/v1/traces"),
                       OTEL_TRACE_LINK_TEMPLATE="http://jaeger.example:16686/trace/{trace_id}", OTEL_BSP_SCHEDULE_DELAY="100")
        with running_server(env, users=("owner",)) as server, server.client("owner") as client:
            workflow = client.post("/workflows", json={"source": FLOW}).json()
            run = client.post("/runs", json={"workflow_id": workflow["id"], "provider": "simulated", "coordinator": "off"}).json()
            final = wait_status(client, run["id"], ("completed",), timeout=120)
            trace_id = final["trace_id"]
            assert trace_id and final["trace_url"] == f"http://jaeger.example:16686/trace/{trace_id}"
            spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans), timeout=120)
            assert {s.trace_id for s in spans} == {trace_id}
            assert any(s.name == "zenflow.step" and s.attributes["zenflow.step.id"] == "draft" for s in spans)
            context = signed_in_context(browser, server.url, "owner", viewport=VIEWPORT)
            try:
                page = context.new_page()
                page.set_default_timeout(45_000)
                page.goto(f"/runs/{run['id']}")
                page.wait_for_selector("[data-testid=run-status]:text('completed')")
                link = page.get_by_test_id("run-trace-link")
                assert link.get_attribute("href") == final["trace_url"]
                assert link.inner_text() == trace_id[:8]
                assert trace_id in page.get_by_test_id("run-trace").get_attribute("title")
            finally:
                context.close()
