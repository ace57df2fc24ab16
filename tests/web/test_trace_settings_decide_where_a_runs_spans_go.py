"""The services behind a workspace's trace settings: headers read as OTEL_EXPORTER_OTLP_HEADERS reads them, and
what a run of the workspace does with its spans (runtime/live/run_traces.py): the workspace's choice wins over the
server's, OTEL_SDK_DISABLED over both."""
from __future__ import annotations

import pytest

from accounts import trace_settings
from accounts.workspaces import create_team
from runtime.live.run_traces import _where
from runtime.live.tracing import destination

pytestmark = pytest.mark.django_db

ENDPOINT = "https://collector.example.com/v1/traces"


def test_headers_are_read_as_the_otlp_variable_reads_them():
    parsed = trace_settings.parse_headers(" Authorization=Basic%20dXNlcjpwYXNz== , x-langfuse-project = loops,")
    assert parsed == {"Authorization": "Basic dXNlcjpwYXNz==", "x-langfuse-project": "loops"}
    assert trace_settings.parse_headers("") == {}
    with pytest.raises(ValueError, match="given twice"):
        trace_settings.parse_headers("a=1,A=2")
    with pytest.raises(ValueError, match="at most 20"):
        trace_settings.parse_headers(",".join(f"h{i}=v" for i in range(21)))


@pytest.fixture
def team(owner, settings):
    settings.TRACE_URLS_ALLOW_PRIVATE = True
    settings.OTEL_SDK_DISABLED = False
    return create_team(owner, "Team")


def save(owner, team, **values):
    trace_settings.save(owner, team.pk, **{"mode": "server", "endpoint": "", "headers": None, "link_template": "",
                                            **values})


def test_a_workspace_without_settings_follows_the_server(owner, team, settings):
    settings.OTEL_TRACING = False
    assert _where(team.pk) == (False, None, "")
    settings.OTEL_TRACING = True
    assert _where(team.pk) == (True, None, "")
    save(owner, team, link_template="https://viewer.example.com/{trace_id}")
    assert _where(team.pk) == (True, None, "https://viewer.example.com/{trace_id}")


def test_its_own_endpoint_wins_and_off_turns_traces_off(owner, team, settings):
    settings.OTEL_TRACING = True
    save(owner, team, mode="own", endpoint=ENDPOINT, headers="Authorization=Bearer t0ken")
    assert _where(team.pk) == (True, destination(ENDPOINT, {"Authorization": "Bearer t0ken"}, public_only=False), "")
    settings.TRACE_URLS_ALLOW_PRIVATE = False
    assert _where(team.pk)[1] == destination(ENDPOINT, {"Authorization": "Bearer t0ken"}, public_only=True)
    settings.OTEL_TRACING = False
    assert _where(team.pk)[0] is True  # the server has no collector: the workspace's still gets its runs
    save(owner, team, mode="off")
    settings.OTEL_TRACING = True
    assert _where(team.pk) == (False, None, "")


def test_otel_sdk_disabled_turns_every_trace_off(owner, team, settings):
    save(owner, team, mode="own", endpoint=ENDPOINT)
    settings.OTEL_SDK_DISABLED = True
    assert _where(team.pk) == (False, None, "")


def test_the_headers_are_in_no_repr():
    assert "t0ken" not in repr(trace_settings.RunTracing(mode="own", endpoint=ENDPOINT, headers={"a": "t0ken"}))
