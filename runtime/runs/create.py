"""Starting a run: its document checked runnable, its script, budgets, policies and gated tools checked, its
key found, stored within the workspace's limits, then dispatched. Deleting a finished one."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.http import Http404

from accounts import audit, mcp_servers
from accounts.models import Workspace
from accounts.workspaces import Need
from common.errors import LimitReached
from common.types import RunId
from designer import breakpoints as breakpoint_rules
from designer import runnable, tool_specs
from designer.errors import BadRequest
from designer.models import Workflow, WorkflowVersion
from designer.source import parse_text
from designer.workflows import reachable as reachable_workflow
from runtime.coordinator import DEFAULT_MODE, Mode, parse_mode
from runtime.durability import run_files
from runtime.engine.policies import Policies
from runtime.execution import dispatch as executions
from runtime.execution import server_loop
from runtime.models import ACTIVE_STATUSES, Run
from runtime.providers import keys, script_keys
from runtime.providers import names as provider_names
from runtime.providers.script import ScriptError, parse_script
from runtime.providers.thinking import check_level
from runtime.runs import limits, pins
from runtime.runs.access import reachable
from runtime.tools import permissions as tool_permissions

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_BUDGET = 10**15  # more than any run spends; keeps the numbers storable everywhere
BUDGET_FIELDS = {"max_tokens": int, "max_cost_usd": float, "max_duration_s": float, "max_steps": int}


# Runs started over HTTP (the run dialog among them) get upstream's default coordinator, as the command line does:
# the run page shows its lane (narration, forwards, the synthesis as the run's summary).
API_DEFAULT_MODE: Mode = DEFAULT_MODE


def _budgets(raw: Any) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BadRequest("`budgets` must be an object")
    out = {}
    for key, value in raw.items():
        if key not in BUDGET_FIELDS:
            raise BadRequest(f"unknown budget `{key}` (known: {', '.join(BUDGET_FIELDS)})")
        if value is None:
            continue
        try:
            number = BUDGET_FIELDS[key](value)
        except (TypeError, ValueError, OverflowError):
            raise BadRequest(f"budget `{key}` must be a number") from None
        if isinstance(number, float) and not math.isfinite(number):
            raise BadRequest(f"budget `{key}` must be a finite number")
        if number > MAX_BUDGET:
            raise BadRequest(f"budget `{key}` is too large (at most {MAX_BUDGET:.0e})")
        if isinstance(value, bool) or number <= 0:
            raise BadRequest(f"budget `{key}` must be positive")
        out[key] = number
    return out


def _script(raw: Any) -> dict | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):

        parsed = parse_text(raw)
        if parsed.diagnostics:
            first = parsed.diagnostics[0]
            where = f" (line {first.line})" if first.line else ""
            raise BadRequest(f"script: {first.message}{where}")
        raw = parsed.document
    data = raw
    try:
        parse_script(data)
    except ScriptError as exc:
        raise BadRequest(f"script: {exc}") from None
    except (AttributeError, TypeError, ValueError, KeyError):
        raise BadRequest("script: expected a mapping with `replies` (key -> list of replies), and optional `latency` and `tokens`") from None
    return data


def check_script(raw: Any) -> dict | None:
    """A script for the simulated provider, checked (YAML or JSON text, or its mapping); None for none."""
    return _script(raw)


def script_warnings(run: Run) -> list[str]:
    """What a started run's script says nothing about: keys naming no step, agent or coordinator of its version."""
    if run.provider != "simulated" or not run.script or run.version is None:
        return []
    return script_keys.warnings(run.script, run.version.document)


def check_script_against(script: Any, document: Any) -> dict[str, list[str]]:
    """A script checked (a 400 naming its fault) and its keys matched against ``document``, before any run."""
    checked = _script(script)
    return {"warnings": script_keys.warnings(checked, document) if checked else [], "keys": script_keys.known_keys(document)}


def create_run(user: User, *, workflow_id: int, version: int | None, provider: str, model: str | None = None,
               script: Any = None, budgets: Any = None, policies: Any = None, ask_before: Any = None,
               workspace_upload: str | None = None, workspace_from_run: str | None = None,
               coordinator: str = API_DEFAULT_MODE, shared_memory: bool = False, model_override: bool = False,
               permissions: Any = None, thinking: Any = None, breakpoints: Any = None,
               breakpoints_off: bool = False, use_pins: bool = True) -> Run:
    """Check and store a run, then dispatch it. ``use_pins``: the workflow's pinned outputs answer their executions
    (runtime.runs.pins); False runs every step as if nothing were pinned."""
    workflow = reachable_workflow(user, workflow_id, Need.RUN)
    workspace = workflow.workspace
    number = version or workflow.current_version
    found = WorkflowVersion.objects.filter(workflow=workflow, number=number).first()
    if found is None:
        raise Http404(f"workflow {workflow_id} has no version {number}")
    mcp_tools = tool_specs.known_names(mcp_servers.tool_catalogue(user))
    check_runnable(found.document, f"version {number}", mcp_tools, folder=found)
    key_source = provider_key(workspace, provider, user=user, workflow=workflow.name)
    checked_budgets, checked_script, checked_policies = _budgets(budgets), _script(script), _policies(policies)
    gated = _ask_before(ask_before, mcp_tools)
    try:
        checked_permissions = tool_permissions.parse(permissions, known=mcp_tools).as_dict()
    except tool_permissions.PermissionsError as exc:
        raise BadRequest(str(exc)) from None
    if model_override and not (model or "").strip():
        raise BadRequest("model_override: name the model that replaces every agent's (model is empty)")
    try:
        level = check_level(thinking)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    try:
        mode = parse_mode(coordinator)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    earlier = None
    if workspace_from_run:
        try:
            earlier = reachable(user, workspace_from_run)
        except Http404:
            raise BadRequest(f"workspace_from_run: run {workspace_from_run!r} not found") from None
    seed = run_files.checked_seed(user, workspace_upload, earlier)
    held = _breakpoints(workflow.breakpoints if not breakpoints_off else [], breakpoints, found.document)
    return insert_run(user, workflow, found, provider=provider, key_source=key_source, fields={
        "model": (model or "")[:200], "script": checked_script, "budgets": checked_budgets, "policies": checked_policies,
        "ask_before": gated, "workspace_seed": seed, "coordinator": mode, "shared_memory": bool(shared_memory),
        "model_override": bool(model_override), "permissions": checked_permissions, "thinking": level or "",
        "breakpoints": held, "pins": pins.for_run(workflow) if use_pins else {}})


def _breakpoints(saved: list[dict], given: Any, document: dict) -> list[dict]:
    """The run's breakpoints: the workflow's (unless turned off for this run) and those the request adds, each
    named in its errors as ``breakpoints[n]``; a saved one whose step this version lacks is left out."""
    added = breakpoint_rules.clean(given, document)
    kept = []
    for bp in saved:
        try:
            kept.extend(breakpoint_rules.clean([bp], document))
        except BadRequest:
            continue  # set on a step this version does not have
    taken = {bp["id"] for bp in added}
    return [*added, *(bp for bp in kept if bp["id"] not in taken)]


def check_runnable(document: Any, what: str, mcp_tools: list[str] | None = None,
                   folder: WorkflowVersion | None = None) -> None:
    """Refuse a document that cannot run, with its diagnostics (designer.runnable: the Run button's check)."""
    runnable.check_runnable(document, what, folder=folder, mcp_tools=mcp_tools)


def provider_key(workspace: Workspace, provider: str, *, user: User | None = None, workflow: str = "") -> str | None:
    """Where the provider's key comes from for a run in ``workspace`` (None: it needs none); refuses an
    unknown provider, and a keyed one without a key (written to the audit log, as a limit's refusal is)."""
    if provider not in provider_names():
        raise BadRequest(f"unknown provider `{provider}` (known: {', '.join(provider_names())})")
    key_source = keys.resolve(workspace, provider).source if keys.holder(provider) else None
    if keys.needs_key(provider) and key_source is None:
        # Refused before it starts: never billed silently to the server, and a run without a key would only fail later.
        audit.record(workspace.pk, user, "run_refused", workflow=workflow, provider=provider, reason="no key")
        raise BadRequest(keys.why_missing(workspace, provider))
    return key_source


def insert_run(user: User, workflow: Workflow, version: WorkflowVersion, *, provider: str, key_source: str | None, fields: dict,
               prepare: Callable[[Run], None] | None = None, audit_extra: dict | None = None,
               dispatch: bool = True) -> Run:
    """Store a checked run (``fields``: the Run's other columns, budgets not yet capped) within the workspace's
    limits, and dispatch it. ``prepare(run)`` runs in the same transaction, before anyone can claim the run."""
    workspace = workflow.workspace
    try:
        with transaction.atomic():
            # One start at a time per workspace, so two requests cannot both take the last free slot.
            Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
            caps = limits.check_start(workspace, fields.get("budgets") or {})
            run = Run.objects.create(
                owner=user, workspace=workspace, workflow=workflow, version=version, provider=provider,
                backend=server_loop.backend_name(), **{**fields, "budgets": limits.capped(fields.get("budgets") or {}, caps)},
            )
            if prepare is not None:
                prepare(run)
    except LimitReached as exc:
        audit.record(workspace.pk, user, "run_refused", workflow=workflow.name, limit=exc.limit)
        raise
    audit.record(workspace.pk, user, "run_started", run=str(run.id), workflow=workflow.name, provider=provider,
                 **({"key": key_source} if key_source else {}), **(audit_extra or {}))
    if dispatch:
        executions.dispatch(run)
    return run


def _ask_before(raw: Any, known: list[str]) -> list[str]:
    if raw in (None, []):
        return []
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise BadRequest("`ask_before` must be a list of tool names")
    unknown = [n for n in raw if n not in known]
    if unknown:
        raise BadRequest(f"ask_before: unknown tool(s) {', '.join(unknown)} (known: {', '.join(known)})")
    return list(dict.fromkeys(raw))


def delete_run(user: User, run_id: RunId) -> None:
    """Delete a finished run with its events, snapshots and workspace files."""
    run = reachable(user, run_id, Need.EDIT)
    if run.status in ACTIVE_STATUSES:
        raise BadRequest(f"run {run.id} is still {run.status}; stop it first", status=409)
    run.delete()  # the workspace directory goes with it (runtime.signals)


def _policies(raw: Any) -> dict | None:
    if raw in (None, {}):
        return None
    if not isinstance(raw, dict):
        raise BadRequest("`policies` must be an object")


    try:
        Policies.from_dict(raw)
    except (ValueError, TypeError) as exc:
        raise BadRequest(f"policies: {exc}") from None
    return raw
