"""runworkflow --trace (upstream's flag): the run's spans go over OTLP/HTTP to the collector the OTEL_* variables
name, the NDJSON carries plan_ready after workflow_start, and stderr says the trace id (with its link when
OTEL_TRACE_LINK_TEMPLATE is set); a collector that is not there still lets the run succeed, and says spans were lost."""
import io
import json

import pytest
from django.core.management import call_command

from tests.fakes.otlp import FakeCollector, closed_port_url

FLOW = """name: cli traced
agents:
  writer: {description: writes}
steps:
  - {id: draft, agent: writer, instructions: Draft.}
  - {id: polish, agent: writer, instructions: Polish., dependsOn: [draft]}
"""


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("runworkflow", *args, stdout=out, stderr=err)
    return exit_.value.code, out.getvalue(), err.getvalue()


def test_trace_sends_the_runs_spans_and_says_where_to_see_them(tmp_path, settings, monkeypatch):
    path = tmp_path / "flow.yaml"
    path.write_text(FLOW)
    settings.OTEL_TRACE_LINK_TEMPLATE = "http://jaeger.example/trace/{trace_id}"
    with FakeCollector() as collector:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.url)
        monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
        code, out, err = run_cli(str(path), "--trace", "--json", "--coordinator", "off", "--workdir", str(tmp_path / "ws"))
        assert code == 0, err
        spans = collector.wait_for(lambda spans: any(s.name == "zenflow.flow" for s in spans))
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["type"] for e in events[:2]] == ["workflow_start", "plan_ready"]
    assert events[1]["data"]["workflow"]["steps"] == ["draft", "polish"]
    trace_id = spans[0].trace_id
    assert f"trace: {trace_id} http://jaeger.example/trace/{trace_id}" in err
    assert sorted(s.attributes["zenflow.step.id"] for s in spans if s.name == "zenflow.step") == ["draft", "polish"]


def test_a_dead_collector_lets_the_run_succeed_and_says_spans_were_lost(tmp_path, monkeypatch):
    path = tmp_path / "flow.yaml"
    path.write_text(FLOW)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", closed_port_url())
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    code, _, err = run_cli(str(path), "--trace", "--coordinator", "off", "--workdir", str(tmp_path / "ws"))
    assert code == 0, err
    assert "not delivered" in err
