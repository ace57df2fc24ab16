"""Re-run from here: a new run that starts where a finished run was at a step or a loop iteration.

:func:`fork` checks who asks (the runner role in the parent's workspace; someone outside it gets a 404),
finds the point in the parent's events (:mod:`runtime.engine.fork_points`: the cut and the state there), applies
the edits, and stores a queued run whose ``start_checkpoint`` is that state, ``start_seq``/``last_seq``
the point's seq, with ``parent`` and ``fork_point`` set. The parent's events up to the point are copied
into the new run under their own ``seq``, each marked ``"inherited": true``, with the iteration rows
they make (:func:`runtime.live.recorder.persist_events`, as any recorded batch); nothing before the point is
run or billed again. The engine then goes on from the checkpoint and numbers its events after it.

Edits:

* ``document`` (a whole new document) or ``patch`` (a JSON Patch, RFC 6902: ``add``, ``remove``,
  ``replace``, ``test``, on the parent's document) saves a new version of the workflow through
  :func:`designer.workflows.save_version` (so it needs the editor role) and the fork runs that version;
  an edited document that has errors or cannot run is refused with its diagnostics, and saves nothing.
* ``input``: ``{"item": ...}`` replaces a forEach item, ``{"previous_output": "..."}`` what round k sees
  as round k-1's output (its content in the loop's history and cumulative output).
* ``provider``, ``model``, ``script``: as for a new run; by default the parent's. Budgets, run
  policies and the tools that ask first are the parent's.

The fork's files start as the parent's workspace was at the point (its last snapshot there:
``workspace_seed = {from_run, snapshot}``), or as the parent's own started when it kept none.
"""
from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q, QuerySet

from accounts import mcp_servers
from accounts.workspaces import Need
from common.types import RunId
from designer import tool_specs, workflows
from designer.errors import BadRequest
from designer.models import WorkflowVersion
from runtime.durability import run_files
from runtime.engine.checkpoints import Checkpoint
from runtime.engine.fork_points import ForkPoint, ForkPointError, locate, resolve, with_input
from runtime.live.recorder import event_json, persist_events
from runtime.models import Run, RunEvent, RunStatus
from runtime.numbering import iteration_id, place_words
from runtime.runs import access, create

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FINISHED = (RunStatus.COMPLETED, RunStatus.PARTIAL, RunStatus.FAILED, RunStatus.CANCELLED)
COPY_BATCH = 2000


def fork(user: User, run_id: RunId, *, at: Any, document: Any = None, patch: Any = None, input: Any = None,
         provider: str | None = None, model: str | None = None, script: Any = None, dispatch: bool = True) -> Run:
    """A new run of the parent ``run_id`` from the point ``at`` (``{step, iteration?}``), with the edits given."""
    parent = access.reachable(user, run_id, Need.RUN)
    if parent.workflow.workspace_id != parent.workspace_id:
        # A fork runs in its workflow's workspace (create.insert_run): after a move that is one this check never saw.
        raise BadRequest(f"run {parent.id}'s workflow has moved to another workspace since; start a new run of it "
                         "there instead", status=409)
    if parent.status not in FINISHED:
        raise BadRequest(f"run {parent.id} is {parent.status}; only a finished, failed or cancelled run can be forked",
                         status=409)
    step, iteration = checked_at(at)
    if document is not None and patch is not None:
        raise BadRequest("give `document` or `patch`, not both")
    point, checkpoint = point_of(parent, step, iteration, input)
    provider = provider or parent.provider
    key_source = create.provider_key(parent.workspace, provider, user=user, workflow=parent.workflow.name)
    checked_script = create.check_script(script) if script is not None else parent.script
    version = parent.version
    if document is not None or patch is not None:
        version = edited_version(user, parent, document, patch)
    else:  # the parent's own version, held to today's rules: it may have started before they held
        create.check_runnable(version.document, f"version {version.number}", _mcp_tools(user), folder=version)
    edits = [name for name, value in (("document", document), ("patch", patch), ("input", input), ("provider", provider
             if provider != parent.provider else None), ("model", model), ("script", script)) if value is not None]
    fork_point = {**point.as_dict(), "inherited_events": len(point.events), **({"edited": edits} if edits else {})}

    def inherit(run: Run) -> None:
        copy_events(run, point.events, point.texts)
        Run.objects.filter(pk=run.pk).update(last_seq=point.seq)

    return create.insert_run(user, parent.workflow, version, provider=provider, key_source=key_source, fields={
        "model": (parent.model if model is None else model)[:200], "script": checked_script, "budgets": parent.budgets or {},
        "policies": parent.policies, "ask_before": parent.ask_before or [],
        # A fork naming its own model keeps the parent's override of it; one clearing the model has none.
        "model_override": parent.model_override and (model is None or bool(model)),
        "thinking": parent.thinking,
        "coordinator": parent.coordinator, "permissions": parent.permissions or {},
        "shared_memory": parent.shared_memory, "workspace_seed": workspace_at(parent, point.seq),
        "pins": parent.pins or {},  # a fork answers as its parent did: the same pins, or none when they were off
        "parent": parent, "fork_point": fork_point, "start_seq": point.seq, "last_seq": point.seq,
        "start_checkpoint": checkpoint.as_dict(),
    }, prepare=inherit, audit_extra={"forked_from": str(parent.id), "at": fork_point_label(point)}, dispatch=dispatch)


def checked_at(at: Any) -> tuple[str, int | None]:
    """``{step, iteration?}``, each refused naming its field."""
    if not isinstance(at, dict):
        raise BadRequest("`at` must be an object: {\"step\": \"<step id>\", \"iteration\": <number, optional>}")
    unknown = [k for k in at if k not in ("step", "iteration")]
    if unknown:
        raise BadRequest(f"at.{unknown[0]}: unknown field (known: step, iteration)")
    step = at.get("step")
    if not isinstance(step, str) or not step.strip():
        raise BadRequest("at.step: a step id is required (a top-level id, or a namespaced one like `write.3.draft`)")
    if len(step) > 300:
        raise BadRequest("at.step: too long (at most 300 characters)")
    iteration = at.get("iteration")
    if iteration is not None and (isinstance(iteration, bool) or not isinstance(iteration, int) or not 0 <= iteration < 2**31):
        raise BadRequest("at.iteration: a whole number of at least 0 (the round or the item index)")
    return step.strip(), iteration


def point_of(parent: Run, step: str, iteration: int | None, input: Any = None) -> tuple[ForkPoint, Checkpoint]:
    """The fork point in ``parent`` and the checkpoint the fork starts from (with ``input`` applied)."""
    rows = RunEvent.objects.filter(run=parent, superseded=False)
    bound = _last_needed(rows, step, iteration)
    if bound is not None:  # a fork early in a long run reads only the events before its point
        rows = rows.filter(seq__lte=bound)
    texts = list(rows.order_by("seq").values_list("event_json", flat=True))
    events = [json.loads(t) for t in texts]
    start = Checkpoint.from_dict(parent.start_checkpoint) if parent.start_checkpoint else None
    try:
        point = locate(events, step, iteration, start=start, start_seq=parent.start_seq)
        stored = dict(zip((e["seq"] for e in events), texts, strict=True))
        point.texts = [stored[e["seq"]] for e in point.events]
        return point, with_input(point, input)
    except ForkPointError as exc:
        raise BadRequest(f"{'input' if exc.field == 'input' else 'at.' + exc.field}: {exc}") from None


def _last_needed(rows: QuerySet[RunEvent], step: str, iteration: int | None) -> int | None:
    """The last seq :func:`runtime.engine.fork_points.locate` needs to see; None: all of them (a point it will refuse)."""
    step, iteration = resolve(step, iteration)
    if iteration is None:
        first = rows.filter(Q(step_id=step) | Q(step_id__startswith=step + ".") | Q(step_id__startswith=step + "[")) \
            .order_by("seq").values_list("seq", flat=True).first()
        return first
    marks = [(seq, kind, json.loads(text).get("data") or {}) for seq, kind, text in rows.filter(
        step_id=step, type__in=("iteration_start", "loop_end")).order_by("seq").values_list("seq", "type", "event_json")]
    starts = [(seq, data) for seq, kind, data in marks if kind == "iteration_start"]
    if not starts:
        return None
    if starts[0][1].get("iteration") is not None:
        mine = [seq for seq, data in starts if data.get("iteration") == iteration]
        return mine[-1] if mine else None
    ends = [seq for seq, kind, _ in marks if kind == "loop_end"]
    return ends[-1] if ends and any(data.get("index") == iteration for _, data in starts) else None


def edited_version(user: User, parent: Run, document: Any, patch: Any) -> WorkflowVersion:
    """A new version of the parent's workflow holding the edited document (checked before it is saved)."""
    if document is None:
        try:
            document = apply_patch(parent.version.document, patch)
        except PatchError as exc:
            raise BadRequest(f"patch: {exc}") from None
    if not isinstance(document, dict):
        raise BadRequest("`document` must be an object (a workflow document)")
    # The edited version keeps the files of the workflow's latest version (workflows.save_version): its references
    # resolve there.
    create.check_runnable(document, "the edited workflow", _mcp_tools(user), folder=parent.workflow.latest())
    with transaction.atomic():
        workflow = workflows.save_version(user, parent.workflow_id, source=None, document=document)
        return workflow.latest()


def _mcp_tools(user: User) -> list[str]:
    return tool_specs.known_names(mcp_servers.tool_catalogue(user))


def copy_events(run: Run, events: list[dict], texts: list[str] | None = None) -> None:
    """The parent's events (and their stored texts) into ``run``, same seq, marked inherited, with the
    iteration rows they make."""
    run_id = str(run.id)
    for at in range(0, len(events), COPY_BATCH):
        originals = events[at:at + COPY_BATCH]
        batch = [{**e, "runId": run_id, "inherited": True} for e in originals]
        stored = texts[at:at + COPY_BATCH] if texts is not None else [None] * len(batch)
        persist_events(run.pk, batch, [_text(e, o, t, run_id) for e, o, t in zip(batch, originals, stored, strict=True)])


def _text(event: dict, original: dict, text: str | None, run_id: str) -> str:
    """An inherited event's text: the parent's stored text with the envelope's runId swapped (the envelope's
    keys come before ``data``), which parses to the same event as encoding it again, without encoding it."""
    old = '"runId":' + json.dumps(original.get("runId"))
    if text is None or original.get("runId") is None or old not in text[:300]:
        return event_json(event)
    return text.replace(old, f'"runId":"{run_id}","inherited":true', 1)


def workspace_at(parent: Run, seq: int) -> dict | None:
    """What the fork's files start from: the parent's workspace as its last own snapshot at or before the point
    left it (``{from_run, snapshot}``); at a point the parent itself inherited (a fork of a fork), its parent's
    at that point; else what the parent's own files started from."""
    number = run_files.snapshot_at(parent.id, seq)
    if number is not None:
        return {"from_run": str(parent.id), "snapshot": number}
    if parent.parent_id is not None and seq <= parent.start_seq and (grandparent := parent.parent) is not None:
        # Inherited events carry the grandparent's snapshot numbers: its files, not the parent's, were at that point.
        return workspace_at(grandparent, seq)
    return parent.workspace_seed


def fork_point_label(point: ForkPoint) -> str:
    return _label(point.as_dict())


def fork_point_label_of(run: Run) -> str:
    """Where a fork started, in words: ``write round 5``, ``each item 2``, ``publish``."""
    return _label(run.fork_point or {})


def _label(point: dict) -> str:
    """"round 4 of write (write.3)", "item 2 of each (each[1])", "step plan": 1-based, the id beside."""
    if point.get("kind") in ("round", "item") and isinstance(point.get("iteration"), int):
        return f"{place_words(point)} ({iteration_id(str(point.get('step')), point['iteration'], point['kind'])})"
    return f"step {point.get('step') or ''}"


# ---------------------------------------------------------------- JSON Patch (RFC 6902), the operations an edit needs

class PatchError(ValueError):
    pass


PATCH_OPS = ("add", "remove", "replace", "test")


def apply_patch(document: Any, patch: Any) -> Any:
    """``document`` with the JSON Patch ``patch`` applied (a copy; the original is left alone)."""
    if not isinstance(patch, list):
        raise PatchError("a JSON Patch is a list of operations, e.g. "
                         "[{\"op\": \"replace\", \"path\": \"/steps/0/instructions\", \"value\": \"...\"}]")
    doc = copy.deepcopy(document)
    for number, op in enumerate(patch):
        where = f"operation {number}"
        if not isinstance(op, dict) or op.get("op") not in PATCH_OPS:
            raise PatchError(f"{where}: `op` must be one of {', '.join(PATCH_OPS)}")
        if not isinstance(op.get("path"), str):
            raise PatchError(f"{where}: `path` must be a JSON Pointer such as /steps/0/instructions")
        if op["op"] != "remove" and "value" not in op:
            raise PatchError(f"{where}: `{op['op']}` needs a `value`")
        doc = _apply_one(doc, op, where)
    return doc


def _apply_one(doc: Any, op: dict, where: str) -> Any:
    tokens = _pointer(op["path"], where)
    if not tokens:
        if op["op"] == "test":
            if doc != op["value"]:
                raise PatchError(f"{where}: test failed at the document root")
            return doc
        if op["op"] == "remove":
            raise PatchError(f"{where}: cannot remove the whole document")
        return copy.deepcopy(op["value"])
    container = doc
    for token in tokens[:-1]:
        container = _child(container, token, op["path"], where)
    last = tokens[-1]
    kind = op["op"]
    if isinstance(container, dict):
        if kind in ("remove", "replace", "test") and last not in container:
            raise PatchError(f"{where}: {op['path']} does not exist")
        if kind == "test":
            if container[last] != op["value"]:
                raise PatchError(f"{where}: test failed at {op['path']}")
        elif kind == "remove":
            del container[last]
        else:
            container[last] = copy.deepcopy(op["value"])
        return doc
    if isinstance(container, list):
        index = _index(container, last, op["path"], where, appending=kind == "add")
        if kind == "add":
            container.insert(index, copy.deepcopy(op["value"]))
        elif kind == "remove":
            del container[index]
        elif kind == "replace":
            container[index] = copy.deepcopy(op["value"])
        elif container[index] != op["value"]:
            raise PatchError(f"{where}: test failed at {op['path']}")
        return doc
    raise PatchError(f"{where}: {op['path']} goes inside a value that is neither an object nor a list")


def _pointer(path: str, where: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"{where}: `path` must start with / (a JSON Pointer), got {path[:80]!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _child(container: Any, token: str, path: str, where: str) -> Any:
    if isinstance(container, dict):
        if token not in container:
            raise PatchError(f"{where}: {path} does not exist ({token!r} is missing)")
        return container[token]
    if isinstance(container, list):
        return container[_index(container, token, path, where)]
    raise PatchError(f"{where}: {path} goes inside a value that is neither an object nor a list")


def _index(container: list, token: str, path: str, where: str, appending: bool = False) -> int:
    if appending and token == "-":  # noqa: S105 - a JSON Pointer's token, not a password
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise PatchError(f"{where}: {path}: {token!r} is not a list index")
    index = int(token)
    if index > len(container) or (index == len(container) and not appending):
        raise PatchError(f"{where}: {path}: index {index} is past the end of a list of {len(container)}")
    return index
