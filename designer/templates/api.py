"""GET /api/v1/templates and /api/v1/templates/{slug}: the gallery for the editor.

The detail answer carries the document (parsed and as YAML with its comments)
and the simulated-run script (parsed and as text), ready for "open template,
press run": POST /workflows with ``source`` = ``document_yaml``, then
POST /runs with ``provider: "simulated"`` and ``script`` = ``script_yaml``.
"""
from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from ninja import Router, Schema
from ruamel.yaml import YAML

from designer.templates import get_template, list_templates


class TemplateSummaryOut(Schema):
    slug: str
    title: str
    description: str
    pattern: str
    origin: str


class TemplateOut(TemplateSummaryOut):
    document: dict[str, Any]
    document_yaml: str
    script: dict[str, Any]
    script_yaml: str


def _parse(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def make_router() -> Router:
    router = Router(tags=["templates"])

    @router.get("/templates", response=list[TemplateSummaryOut], auth=None, summary="List the loop templates")
    def templates(request: HttpRequest) -> list[dict[str, Any]]:
        return [t.summary() for t in list_templates()]

    @router.get("/templates/{slug}", response=TemplateOut, auth=None, summary="One template with its script")
    def template(request: HttpRequest, slug: str) -> dict[str, Any]:
        try:
            found = get_template(slug)
        except KeyError:
            raise Http404(f"no template '{slug}'") from None
        return {**found.as_dict(), "document": _parse(found.document_yaml), "script": _parse(found.script_yaml)}

    return router


router = make_router()
