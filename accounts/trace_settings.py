"""A workspace's own trace settings: an OTLP/HTTP endpoint with its headers, or the server's, or none; and the
link from a run's page to its trace.

The endpoint is the traces URL itself (``https://collector.example/v1/traces``, as
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``: nothing is added to it). It is shown to everyone in the workspace, so it
holds no secret (no ``user:password@``, no query, no fragment): those go in the headers, written in the format of
``OTEL_EXPORTER_OTLP_HEADERS`` (``Name=value,Name2=value2``, values percent-encoded or not) and encrypted like
provider keys. The headers are write-only: their names are shown, never their values. Like a provider's base URL,
the endpoint may reach public addresses only unless an administrator allows private ones
(``TRACE_URLS_ALLOW_PRIVATE``, by default as ``PROVIDER_URLS_ALLOW_PRIVATE``), checked when saved and again by
the exporter at every connection (runtime/live/tracing.py).

Owners and admins change them; every member sees them (without the header values). The runtime asks
:func:`for_run` what a run of the workspace does.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from django.conf import settings

from accounts import audit
from accounts.models import TraceSettings
from accounts.provider_keys import base_url_problem, decrypt_values, encrypt_values
from accounts.workspaces import Need, require
from common.addresses import AddressRefused, check_public_url
from common.errors import BadRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_HEADERS = 20
HEADER_NAME = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")   # an HTTP token (RFC 9110)
# Headers the exporter sets itself, or that would make the request something else.
RESERVED = frozenset({"content-type", "content-length", "content-encoding", "host", "transfer-encoding", "connection"})


@dataclass(frozen=True)
class RunTracing:
    """What a run of a workspace does with its spans: ``mode`` "server" (the server's collector, if any), "own"
    (``endpoint`` with ``headers``) or "off"; ``link_template``: the workspace's link to a trace ('' : the server's)."""

    mode: str = TraceSettings.Mode.SERVER
    endpoint: str = ""
    headers: dict[str, str] = field(default_factory=dict, repr=False)  # secrets: never in a repr or a log
    link_template: str = ""


def endpoint_problem(url: str) -> str | None:
    """What keeps ``url`` from being a workspace's traces endpoint, in words (None: nothing): the rules of a
    provider's base URL, which is shown to everyone in the workspace too; credentials go in the headers."""
    return base_url_problem(url, secrets_go="the headers", example="the traces URL, like http://collector:4318/v1/traces")


def template_problem(template: str) -> str | None:
    """What keeps ``template`` from being a link to a trace, in words (None: nothing)."""
    if "{trace_id}" not in template:
        return "must contain {trace_id} (e.g. http://jaeger:16686/trace/{trace_id})"
    filled = template.replace("{trace_id}", "0" * 32)
    try:
        parts = urlsplit(filled)
    except ValueError:
        return "is not a URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host name"
    return None


def parse_headers(text: str) -> dict[str, str]:
    """``Name=value,Name2=value2`` (the format of OTEL_EXPORTER_OTLP_HEADERS: values percent-decoded) as a dict;
    ValueError, in words, when it is not that."""
    headers: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, equals, value = item.partition("=")
        name, value = name.strip(), unquote(value.strip())
        if not equals or not name:
            raise ValueError(f"{_shown_item(name)} is not Name=value (pairs are separated by commas)")
        if not HEADER_NAME.match(name):
            raise ValueError(f"{_shown_item(name)} is not a header name (write Name=value pairs, separated by commas)")
        if name.lower() in RESERVED:
            raise ValueError(f"{name!r} is set by the exporter itself")
        if not value:
            raise ValueError(f"{_shown_item(name)} has no value")
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise ValueError(f"the value of {_shown_item(name)} holds a control character")
        if name.lower() in (n.lower() for n in headers):
            raise ValueError(f"{_shown_item(name)} is given twice")
        headers[name] = value
    if len(headers) > MAX_HEADERS:
        raise ValueError(f"at most {MAX_HEADERS} headers")
    return headers


def _shown_item(name: str) -> str:
    """A header's name in an error, without what may be a secret in it (a value written without its name): its
    first characters at most."""
    return repr(name[:12] + "…") if len(name) > 12 else repr(name)




def shown(user: User, workspace_id: int) -> dict[str, Any]:
    """The settings as every member sees them: the header names, never their values."""
    require(user, workspace_id, Need.READ, "workspace")
    found = TraceSettings.objects.filter(workspace_id=workspace_id).first() or TraceSettings(workspace_id=workspace_id)
    return {"mode": found.mode, "endpoint": found.endpoint, "header_names": list(found.header_names or []),
            "link_template": found.link_template,
            "server_collector": bool(getattr(settings, "OTEL_TRACING", False)),
            "server_link_template": getattr(settings, "OTEL_TRACE_LINK_TEMPLATE", "") or ""}


def save(by: User, workspace_id: int, *, mode: str, endpoint: str, headers: str | None,
         link_template: str) -> dict[str, Any]:
    """Change the workspace's trace settings (owners and admins). ``headers``: None keeps the stored ones, ''
    clears them. A BadRequest names the field that is wrong."""
    require(by, workspace_id, Need.MANAGE, "workspace")
    endpoint, link_template = endpoint.strip(), link_template.strip()
    if mode not in TraceSettings.Mode.values:
        raise BadRequest(f"mode: one of {', '.join(TraceSettings.Mode.values)}")
    if endpoint and (problem := endpoint_problem(endpoint)):
        raise BadRequest(f"endpoint: {problem}")
    if mode == TraceSettings.Mode.OWN and not endpoint:
        raise BadRequest("endpoint: give the collector's traces URL to send this workspace's traces to it")
    if endpoint and not getattr(settings, "TRACE_URLS_ALLOW_PRIVATE", False):
        try:
            check_public_url(endpoint)
        except AddressRefused as exc:
            raise BadRequest(f"endpoint: {exc}; only public addresses are allowed (an administrator can allow "
                             "private ones with TRACE_URLS_ALLOW_PRIVATE=1)") from None
    if link_template and (problem := template_problem(link_template)):
        raise BadRequest(f"link_template: {problem}")
    parsed = None
    if headers is not None:
        try:
            parsed = parse_headers(headers)
        except ValueError as exc:
            raise BadRequest(f"headers: {exc}") from None
    found = TraceSettings.objects.filter(workspace_id=workspace_id).first() or TraceSettings(workspace_id=workspace_id)
    found.mode, found.endpoint, found.link_template, found.updated_by = mode, endpoint, link_template, by
    if parsed is not None:
        found.encrypted_headers, found.header_names = encrypt_values(parsed), list(parsed)
    found.save()
    audit.record(workspace_id, by, "tracing_changed", mode=mode, endpoint=endpoint,
                 headers=", ".join(found.header_names or []) or "none", link_template=link_template)
    return shown(by, workspace_id)


def for_run(workspace_id: int | None) -> RunTracing:
    """What a run in the workspace does with its spans, headers decrypted (for the runtime, never for a page)."""
    found = TraceSettings.objects.filter(workspace_id=workspace_id).first() if workspace_id is not None else None
    if found is None:
        return RunTracing()
    return RunTracing(mode=found.mode, endpoint=found.endpoint,
                      # A secret changed since: no headers, so the collector refuses (counted as failed exports).
                      headers=decrypt_values(found.encrypted_headers) if found.mode == TraceSettings.Mode.OWN else {},
                      link_template=found.link_template)
