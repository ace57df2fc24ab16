"""Where a run's spans go: its workspace's own collector, the server's, or nowhere.

The workspace's settings (accounts/trace_settings.py) win over the server's: "own" sends to the workspace's
endpoint with its headers (whether the server has a collector or not), "off" makes no trace, "server" follows the
server's ``OTEL_EXPORTER_OTLP_*`` (no trace when it has none). ``OTEL_SDK_DISABLED`` turns every trace off. The run's
trace id, and the workspace's link template at that moment, are stored as the run first starts: a resumed run goes
on in the same trace, and its page links where the trace was sent.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings

from accounts.models import TraceSettings
from accounts.trace_settings import for_run
from accounts.workspaces import Need, require
from common.errors import BadRequest
from common.orm import off_loop
from runtime.events import Sink
from runtime.live import tracing
from runtime.models import Run

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _where(workspace_id: int | None) -> tuple[bool, tracing.Destination | None, str]:
    """(traced?, where its spans go (None: the server's collector), the workspace's link template)."""
    if getattr(settings, "OTEL_SDK_DISABLED", False):
        return False, None, ""
    choice = for_run(workspace_id)
    if choice.mode == TraceSettings.Mode.OFF:
        return False, None, ""
    if choice.mode == TraceSettings.Mode.OWN and choice.endpoint:
        public_only = not getattr(settings, "TRACE_URLS_ALLOW_PRIVATE", False)
        return True, tracing.destination(choice.endpoint, choice.headers, public_only=public_only), choice.link_template
    return bool(getattr(settings, "OTEL_TRACING", False)), None, choice.link_template


async def traced_sink(run: Run, inner: Sink) -> tracing.TracedSink | None:
    """``inner`` with the run's events also made spans, sent where its workspace says; None: not traced."""
    traced, where, link_template = await off_loop(_where)(run.workspace_id)
    if not traced:
        return None
    traces = tracing.shared()
    if not run.trace_id:
        run.trace_id = traces.new_trace_id()
        run.trace_link_template = link_template
        await off_loop(Run.objects.filter(pk=run.pk).update)(trace_id=run.trace_id, trace_link_template=link_template)
    return traces.sink(inner, run.trace_id, where)


def send_test_span(user: User, workspace_id: int) -> dict[str, Any]:
    """Owners and admins: one span sent now to the workspace's own collector (as saved), with its headers; whether
    it took it, and why not in words."""
    require(user, workspace_id, Need.MANAGE, "workspace")
    choice = for_run(workspace_id)
    if choice.mode != TraceSettings.Mode.OWN or not choice.endpoint:
        raise BadRequest("mode: a test span goes to the workspace's own collector: choose it, give its endpoint and "
                         "save first")
    public_only = not getattr(settings, "TRACE_URLS_ALLOW_PRIVATE", False)
    trace_id, error = tracing.send_test_span(tracing.destination(choice.endpoint, choice.headers, public_only=public_only),
                                             getattr(settings, "OTEL_SERVICE_NAME", "loop-designer"))
    template = choice.link_template or getattr(settings, "OTEL_TRACE_LINK_TEMPLATE", "")
    return {"ok": error is None, "trace_id": trace_id, "trace_url": tracing.trace_url(trace_id, template) if error is None else None,
            "error": error}
