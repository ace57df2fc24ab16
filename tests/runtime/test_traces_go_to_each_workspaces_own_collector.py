"""Runs whose workspace has a collector of its own send their spans there, with its headers, through the same
exporter process as the server's (runtime/live/tracing.py): the server's OTEL_EXPORTER_OTLP_HEADERS (its
collector's credentials) never go to a workspace's endpoint; one that may reach public addresses only gets nothing
on loopback (counted as failed); and the exporters kept at once are bounded."""
from runtime.events import ListSink
from runtime.live import tracing
from runtime.live.tracing import Tracing, destination
from tests.fakes.otlp import FakeCollector
from tests.support.engine_runs import doc, run, script

FLOW = doc("""
    name: traced
    version: 1
    agents:
      worker: {description: works}
    steps:
      - {id: draft, agent: worker, instructions: Draft.}
""")
REPLIES = script("""
    replies:
      draft: [done]
""")


async def traced_run(traces: Tracing, where=None) -> str:
    sink = traces.sink(ListSink(), where=where)
    result, _ = await run(FLOW, REPLIES, sink=sink)
    sink.close()
    assert result.status == "completed", result.reason
    return sink.trace_id_hex


def lowered(headers: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def flow_of(trace_id):
    return lambda spans: any(s.name == "zenflow.flow" and s.trace_id == trace_id for s in spans)


async def test_each_run_goes_to_its_workspaces_collector_with_its_headers_and_never_the_servers(monkeypatch):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-server-secret=the-servers-own")
    with FakeCollector() as server, FakeCollector() as mine:
        traces = Tracing(server.url, schedule_delay_ms=50)  # the exporter process inherits the variable above
        where = destination(mine.url, {"Authorization": "Basic d29ya3NwYWNl"}, public_only=False)
        workspace_trace = await traced_run(traces, where)
        server_trace = await traced_run(traces)
        assert traces.flush(30)
        got_mine = mine.wait_for(flow_of(workspace_trace))
        got_server = server.wait_for(flow_of(server_trace))
    assert {s.trace_id for s in got_mine} == {workspace_trace}
    assert {s.trace_id for s in got_server} == {server_trace}
    assert all(lowered(h).get("authorization") == "Basic d29ya3NwYWNl" for h in mine.headers)
    assert not any("x-server-secret" in lowered(h) for h in mine.headers)
    assert all(lowered(h).get("x-server-secret") == "the-servers-own" for h in server.headers)
    assert traces.failed == 0 and traces.dropped == 0
    traces.shutdown()


async def test_a_public_only_collector_on_loopback_gets_nothing_and_the_run_does_not_mind():
    with FakeCollector() as local:
        traces = Tracing(timeout_s=2, schedule_delay_ms=50)
        await traced_run(traces, destination(local.url, {}, public_only=True))
        traces.flush(30)
        assert local.spans == [] and local.headers == []
        assert traces.failed > 0 and traces.exported == 0
        traces.shutdown()


async def test_the_exporters_kept_at_once_are_bounded(monkeypatch):
    monkeypatch.setattr(tracing, "MAX_DESTINATIONS", 2)
    with FakeCollector() as a, FakeCollector() as b, FakeCollector() as c:
        traces = Tracing(schedule_delay_ms=50, out_of_process=False)
        ids = [await traced_run(traces, destination(collector.url, {}, public_only=False)) for collector in (a, b, c)]
        assert traces.flush(30)
        for collector, trace_id in zip((a, b, c), ids, strict=True):
            assert {s.trace_id for s in collector.wait_for(flow_of(trace_id))} == {trace_id}
        assert traces._local is not None and len(traces._local.open) == 2
        traces.shutdown()
