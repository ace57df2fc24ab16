"""Execute one stored run: the same code for the in-process and the Celery backend.

``execute_run`` claims the run (queued -> running, atomically, so a
redelivered task never runs it twice), builds its providers, runs the engine
with a :class:`~runtime.live.recorder.Recorder` as sink, beats a heartbeat, applies
pause/resume/stop requests, and records the outcome.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import signal
import socket
import threading
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.orm import off_loop
from common.storage_errors import StorageFailure, storage_failure
from common.types import RunId
from designer.errors import BadRequest, DocumentInvalid
from designer.runnable import check_runnable
from designer.workflows import saved_include
from runtime.coordinator import CoordinatorSettings, parse_mode
from runtime.durability import continuation, endings, run_files
from runtime.engine import Budgets, RunControl, RunOptions, RunResult, run_workflow
from runtime.engine.context import StepError
from runtime.engine.debugger import Debugger
from runtime.engine.folder import RunFolder
from runtime.engine.includes import FileResolver, MissingInclude
from runtime.engine.shapes import AgentDoc, WorkflowDoc
from runtime.execution import holds, permits, tool_decisions
from runtime.execution.permit_checks import PermitChecks
from runtime.live import tracing
from runtime.live.announce import announce_status, executing_here
from runtime.live.recorder import Recorder
from runtime.live.run_traces import traced_sink
from runtime.live.view.hub import store_view
from runtime.models import ACTIVE_STATUSES, Run, RunStatus
from runtime.providers import Provider, catalog, close_all, configured_providers, keys
from runtime.tools.approvals import Approvals
from runtime.tools.session import RunTools

log = logging.getLogger(__name__)

CONTROL_POLL_SECONDS = 0.25
T = TypeVar("T")


@transaction.atomic
def claim(run_id: RunId, worker: str) -> Run | None:
    """Move a queued run to running for this worker; None when someone else has it."""
    # The run's row alone, and as an update of no key: locking the joined rows too (its owner's, its workspace's)
    # deadlocked with a start in the same workspace, which locks the workspace and then, committing, checks its
    # foreign keys against the owner's row (PostgreSQL's KEY SHARE).
    run = (Run.objects.select_for_update(of=("self",), no_key=True).select_related("version", "owner", "workflow", "workspace")
           .filter(pk=run_id).first())
    if run is None or run.status != RunStatus.QUEUED:
        return None
    now = timezone.now()
    # A resumed run keeps the time it first started: its clock and its duration budget go on from there.
    run.status, run.worker, run.started_at, run.heartbeat_at = RunStatus.RUNNING, worker[:200], run.started_at or now, now
    run.save(update_fields=["status", "worker", "started_at", "heartbeat_at"])
    return run


def _paused_fields(run_id: RunId, paused: bool, now: datetime) -> dict[str, datetime | int | None]:
    """``paused_at`` and ``paused_ms`` once the run is paused (or no longer) at ``now``: a pause that
    ends adds its length, so the page's clock can leave paused time out. Call it in a transaction."""
    row = Run.objects.select_for_update().filter(pk=run_id).values("paused_at", "paused_ms").first()
    since = row["paused_at"] if row else None
    if paused:
        return {"paused_at": since or now}
    if row is None or since is None:
        return {}
    return {"paused_at": None, "paused_ms": row["paused_ms"] + max(0, round((now - since).total_seconds() * 1000))}


@transaction.atomic
def _set_status(run_id: RunId, status: str) -> None:
    fields = _paused_fields(run_id, status == RunStatus.PAUSED, timezone.now())
    Run.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(status=status, **fields)


async def apply_control(run_id: RunId, control: RunControl, action: str, actor: str | None = None) -> None:
    """Apply pause/resume/stop, asked for by ``actor``, to a live run and record the new status."""
    if action == "pause" and control.state == "running":
        control.request("pause", actor)
        await off_loop(_set_status)(run_id, RunStatus.PAUSED)
    elif action == "resume" and control.state == "paused":
        control.request("resume", actor)
        await off_loop(_set_status)(run_id, RunStatus.RUNNING)
    elif action == "stop":
        control.request("stop", actor)  # the status changes when the run ends, and is announced then
        return
    else:
        return
    await announce_status(run_id)


@transaction.atomic
def _hold_status(run_id: RunId, hold: dict | None, paused: bool) -> None:
    """A breakpoint's hold stored for the API, the run paused while it lasts (running again once it ends, unless
    someone's own pause goes on: ``paused``)."""
    paused = paused or hold is not None
    fields = _paused_fields(run_id, paused, timezone.now())
    Run.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(
        debug_hold=hold, status=RunStatus.PAUSED if paused else RunStatus.RUNNING, **fields)


async def _store_hold(run_id: RunId, hold: dict | None, control: RunControl) -> None:
    await patiently(_hold_status, run_id, hold, control.paused)
    await announce_status(run_id)


def _beat_and_read_request(run_id: RunId, beat: bool, attempt: int | None = None) -> tuple[str, str] | None:
    """Beat (when ``beat``) and read a pending control request; None when the run is no longer this attempt's
    (``attempt``: its resumes when claimed): it was found lost and resumed, or failed, while this one executed."""
    if beat:
        mine = Run.objects.filter(pk=run_id)
        if attempt is not None:
            mine = mine.filter(resumes=attempt, status__in=(RunStatus.RUNNING, RunStatus.PAUSED))
        if not mine.update(heartbeat_at=timezone.now()):
            return None
    request, actor = Run.objects.filter(pk=run_id).values_list("control_request", "control_by").first() or ("", "")
    if request:
        Run.objects.filter(pk=run_id, control_request=request).update(control_request="", control_by="")
    return request, actor


async def _watch(run_id: RunId, control: RunControl, approvals: Approvals | None = None, attempt: int | None = None,
                 on_superseded: Callable[[], None] | None = None, debugger: Debugger | None = None) -> None:
    """Heartbeat, and pick up control requests and tool-call decisions written to the database by the API. A
    database out of reach for a while (a restart) does not end it: it beats again as soon as it can, else the run
    would be found lost and resumed elsewhere while it still executes here."""
    loop = asyncio.get_running_loop()
    last_beat = loop.time() - settings.RUN_HEARTBEAT_S
    failing = False
    while True:
        beat = loop.time() - last_beat >= settings.RUN_HEARTBEAT_S
        try:
            found = await off_loop(_beat_and_read_request)(run_id, beat, attempt)
            if found is None:
                if on_superseded is not None:
                    on_superseded()
                return
            request, actor = found
            if request:
                await apply_control(run_id, control, request, actor or None)
            if approvals is not None and approvals.pending():
                await off_loop(tool_decisions.deliver)(run_id, approvals)
            if debugger is not None:
                await holds.deliver(run_id, debugger)
        except Exception as exc:
            outage = storage_failure(exc)
            if outage is None:
                raise
            if not failing:  # once per outage: it is retried every poll
                log.warning("run %s: no heartbeat while the database is out of reach (%s)", run_id, outage.cause)
            failing = True
        else:
            failing = False
            if beat:
                last_beat = loop.time()
        await asyncio.sleep(CONTROL_POLL_SECONDS)


async def patiently(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` off the loop, asked again while the database is out of reach (a restart, a failover: not a full
    disk nor a read-only database) for at most RUN_DATABASE_WAIT_S; then its error is raised."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.RUN_DATABASE_WAIT_S
    while True:
        try:
            return await off_loop(fn)(*args)
        except Exception as exc:
            failure = storage_failure(exc)
            if failure is None or failure.unsaved or loop.time() >= deadline:
                raise
        await asyncio.sleep(0.5)


async def _check_permit(permit: permits.Permit, provider: str) -> str | None:
    """The permit, checked before a model call (RunOptions.permit): a database out of reach is waited for; one that
    stays out of reach fails the run in words rather than as an internal error."""
    try:
        return await patiently(permits.still_holds, permit, provider)
    except Exception as exc:
        failure = storage_failure(exc)
        if failure is None:
            raise
        log.error("run %s: its permit could not be checked (%s)", permit.run_id, failure.cause, exc_info=exc)
        return f"the run could not check that it may still call its model ({failure.cause}); {failure.advice}"


def providers_for(run: Run, script: Any = None) -> dict[str, Provider]:
    """The run's providers, with the keys :func:`runtime.providers.keys.resolve` picks for its workspace (the simulated
    one scripted with ``script``, default the run's: the playground tries a step with a script of its own)."""
    config: dict[str, Any] = {}
    overrides: dict[str, dict] = {}
    for name in keys.KEYED:
        prefix = catalog.setting_prefix(name)
        found = keys.resolve(run.workspace, name)
        key, base_url = found.api_key, found.base_url
        # Only the key resolve() chose: "" (not None) so that no provider falls back to the server's environment.
        config[f"{prefix}_API_KEY"] = key or ""
        config[f"{prefix}_BASE_URL"] = getattr(settings, f"{prefix}_BASE_URL", None)
        if found.source == "workspace" and base_url:
            config[f"{prefix}_BASE_URL"] = base_url
            # The administrator's URLs are trusted; a user's reaches public addresses only.
            overrides[name] = {"public_only": not settings.PROVIDER_URLS_ALLOW_PRIVATE}
    return configured_providers(run.provider, settings=SimpleNamespace(**config), script=run.script if script is None else script,
                                **overrides)


def _still_runnable(run: Run) -> None:
    """Checked again where the work starts or resumes (a Celery worker, a resume, a hand-back), not only by the
    route that queued it: the rules, the owner's MCP tools or the run itself may have changed since."""
    check_runnable(run.version.document, f"version {run.version.number}", folder=run.version, in_worker=True)


def _tools_for(run: Run, document: WorkflowDoc) -> RunTools:
    """The run's workspace (seeded from its upload or an earlier run) and tools; records the sandbox in use."""
    tools = run_files.build_run_tools(run, document)
    Run.objects.filter(pk=run.pk).update(sandbox=tools.settings.sandbox)
    return tools


def coordinator_settings(mode: str) -> CoordinatorSettings | None:
    """A stored run's coordinator, with the deployment's wake-cycle cap (None: ``off``)."""
    chosen = parse_mode(mode or "off")
    if chosen == "off":
        return None
    return CoordinatorSettings(mode=chosen, max_wake_cycles=settings.COORDINATOR_MAX_WAKE_CYCLES)


@transaction.atomic
def _finish(run_id: RunId, result: RunResult, attempt: int | None = None) -> None:
    now = timezone.now()
    fields = {**endings.final_fields(result, now),
              **_paused_fields(run_id, False, now)}  # stopped while paused: that pause ends too
    # A run already marked lost keeps that verdict, and one resumed elsewhere meanwhile is not this attempt's to end.
    mine = Run.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES)
    if attempt is not None:
        mine = mine.filter(resumes=attempt)
    mine.update(**fields)


HANDED_BACK = "handed back"
SUPERSEDED = "superseded"
# Runs executing in this process: run id -> (its task, its recorder); and the seq a hand-back drew its line at.
_executing: dict[str, tuple[asyncio.Task, Recorder]] = {}
_handing_back: dict[str, int] = {}
# Attempts executing here whose run was resumed elsewhere meanwhile (this process was thought lost): their tasks.
_superseded: set[asyncio.Task] = set()


def _give_up(run_id: RunId, task: asyncio.Task | None, recorder: Recorder) -> None:
    """This attempt is no longer the run's (it was found lost and resumed or failed while it still executed, say
    through a database outage longer than RUN_LOST_AFTER_S): it stops at once, storing and announcing nothing more.
    The attempt, not the run: on the inline backend the one that took the run over may execute in this process too."""
    if task is None or task in _superseded or task.done() or _handing_back.get(str(run_id)) is not None:
        return
    log.warning("run %s was resumed elsewhere while it still executed here: this attempt stops", run_id)
    _superseded.add(task)
    recorder.stop_after(0)
    task.cancel()


async def execute_run(run_id: RunId, *, worker: str | None = None, control: RunControl | None = None,
                      on_start: Callable[[RunControl], None] | None = None,
                      requeue: Callable[[Run], None] | None = None) -> str | None:
    """Run a queued run to its end. Returns the final status, or None when not claimed, or "handed back" when
    this worker gave it back while stopping (``requeue``: how to queue it for another worker at once)."""
    worker = worker or f"inline@{socket.gethostname()}"
    run = await off_loop(claim)(run_id, worker)
    if run is None:
        log.info("run %s not claimed by %s (already taken or finished)", run_id, worker)
        return None
    control = control or RunControl()
    if on_start:
        on_start(control)
    key = str(run_id)
    with executing_here(run_id):
        try:
            return await _execute(run, control)
        except asyncio.CancelledError:
            if asyncio.current_task() in _superseded:
                _superseded.discard(asyncio.current_task())
                return SUPERSEDED
            if key not in _handing_back:
                raise
            upto = _handing_back.pop(key)
            if await off_loop(continuation.hand_back)(run_id, "its worker was shutting down", upto) and requeue is not None:
                requeue(run)
            await announce_status(run_id)
            return HANDED_BACK
        finally:
            if _executing.get(key, (None,))[0] is asyncio.current_task():
                _executing.pop(key, None)


def request_hand_back(run_id: RunId) -> bool:
    """Give a run executing here back (call on its loop): it stops at once and is queued to go on from its last
    boundary, on another worker or when the server starts again. False when it is not executing here."""
    key = str(run_id)
    entry = _executing.get(key)
    if entry is None or key in _handing_back:
        return False
    task, recorder = entry
    _handing_back[key] = recorder.last_seq  # what was emitted before the stop
    recorder.stop_after(recorder.last_seq)  # what the stop itself emits is not kept
    task.cancel()
    return True


async def hand_back_all(timeout: float = 10.0) -> list[str]:
    """Give back every run executing in this process (a server or worker shutting down) and wait for them to stop."""
    given = {key: entry[0] for key, entry in list(_executing.items()) if request_hand_back(key)}
    if given:
        await asyncio.wait(list(given.values()), timeout=timeout)
    return list(given)


async def execute_run_in_worker(run_id: RunId, worker: str, requeue: Callable[[Run], None] | None = None) -> str | None:
    """A Celery worker's run: SIGTERM (a deploy, a scale-down) hands it back to the queue instead of losing it."""
    loop = asyncio.get_running_loop()
    # Signals reach only a loop in the main thread (a prefork worker's task is); elsewhere a SIGTERM is not ours to
    # catch, and the run is found lost and resumed instead.
    handles_signals = threading.current_thread() is threading.main_thread()
    if handles_signals:
        loop.add_signal_handler(signal.SIGTERM, request_hand_back, run_id)
    try:
        return await execute_run(run_id, worker=worker, requeue=requeue)
    finally:
        if handles_signals:
            loop.remove_signal_handler(signal.SIGTERM)


async def _execute(run: Run, control: RunControl) -> str:
    run_id = run.id
    await announce_status(run_id)

    def unstorable(failure: StorageFailure) -> None:
        # A run whose events cannot be stored would go on spending tokens on work no one can see: it stops, and
        # ends failed with the reason below.
        control.request("stop")

    task = asyncio.current_task()
    recorder = Recorder(run.id, on_storage_failure=unstorable, attempt=run.resumes,
                        on_superseded=lambda: _give_up(run_id, task, recorder))
    if task is not None:
        _executing[str(run_id)] = (task, recorder)
    document = with_case_items(run.version.document, run.case_items)
    tools = None
    watcher = None
    providers = None
    traced: tracing.TracedSink | None = None
    try:
        await off_loop(_still_runnable)(run)
        permit = await off_loop(permits.take)(run)  # who started it may still run here, with the key it had
        checks = PermitChecks(lambda provider: _check_permit(permit, provider))
        control.on_change(checks.forget)
        tools = await off_loop(_tools_for)(run, document)
        debugger = await holds.debugger_for(run, lambda hold: _store_hold(run_id, hold, control))
        watcher = asyncio.create_task(_watch(run.id, control, tools.approvals, run.resumes, lambda: _give_up(run_id, task, recorder),
                                             debugger))
        providers = await off_loop(providers_for)(run)
        if run.model and not run.model_override:
            document = _with_default_model(document, run.model)
        start, resumed = continuation.start_of(run)
        if run.control_request == "pause":  # paused while queued, or resumed as it was left: before its first step
            await apply_control(run.id, control, "pause", run.control_by or None)
        if start is not None and "simulated" in providers:
            await off_loop(continuation.replay_script)(providers["simulated"], run)
        saved = SavedWorkflowResolver(run.workspace_id)
        base_dir = await off_loop(run_files.source_dir)(run)
        traced = await traced_sink(run, recorder)  # runtime.live.run_traces: the workspace's collector or the server's
        result = await run_workflow(document, RunOptions(
            run_id=str(run.id), sink=traced or recorder, providers=providers, script=run.script, base_dir=base_dir,
            folder=run_files.workspace_dir(run.id) if base_dir else None,
            budgets=Budgets.from_dict(run.budgets), control=control,
            resolver=FolderResolver(run_files.workspace_dir(run.id), saved) if base_dir else saved,
            prices=getattr(settings, "MODEL_PRICES", {}), default_provider=run.provider, policies=run.policies,
            tools=tools, start=start, first_seq=run.last_seq if start is not None else 0, resumed=resumed,
            permit=checks,
            coordinator=coordinator_settings(run.coordinator), shared_memory=run.shared_memory,
            model_override=run.model if run.model_override else None, thinking=run.thinking or None,
            debugger=debugger,
            pins=run.pins or None,
        ))
    except permits.PermitRefused as exc:
        result = RunResult(status="failed", reason=f"the run could not start: {exc}", code="permit")
    except BadRequest as exc:  # the files it should start from are gone or refused
        result = RunResult(status="failed", reason=f"the run could not start: {exc}", code="workspace")
    except DocumentInvalid as exc:
        result = RunResult(status="failed", reason=f"the run could not start: {exc}", code="not_runnable")
    except Exception as exc:  # the engine reports step errors itself; this is a bug or an infrastructure failure
        failure = storage_failure(exc)
        if failure is not None:
            log.error("run %s stopped: %s", run_id, failure.cause, exc_info=exc)
            result = RunResult(status="failed", reason=failure.run_reason, code="storage")
        else:
            log.exception("run %s crashed", run_id)
            result = RunResult(status="failed", reason=f"internal error: {type(exc).__name__}", code="internal")
    finally:
        if traced is not None:
            traced.close()  # what a stop or a hand back left open ends here; the export is the SDK's thread's
        if watcher is not None:
            watcher.cancel()
        if task not in _superseded:  # the calls waiting then are the attempt's that took the run over
            await _unless_storage_fails(run_id, "its waiting tool calls could not be cancelled",
                                        off_loop(tool_decisions.cancel_waiting)(run.id))
        await recorder.close()
        if providers:
            await close_all(providers)
    if recorder.storage_failure is not None:
        result = dataclasses.replace(result, status="failed", reason=recorder.storage_failure.run_reason, code="storage")
    if not await _unless_storage_fails(run_id, f"its end ({result.status}: {result.reason or 'no reason'}) could not be stored",
                                       off_loop(_finish)(run.id, result, run.resumes)):
        # Nothing more can be recorded: the run stays "running" in the database until the reaper finds it lost.
        return result.status
    await announce_status(run.id)
    try:  # after the announcement: watchers learn the end first; the stored view serves later visits
        await off_loop(store_view)(run.id)
    except Exception:
        log.exception("run %s: its view could not be stored", run.id)
    return result.status


async def _unless_storage_fails(run_id: RunId, what: str, work: Awaitable[object]) -> bool:
    """Await ``work``; False, logged, when it fails because the database cannot be written (a bug still raises)."""
    try:
        await work
    except Exception as exc:
        failure = storage_failure(exc)
        if failure is None:
            raise
        log.error("run %s: %s (%s)", run_id, what, failure.cause, exc_info=exc)
        return False
    return True


def _with_default_model(document: WorkflowDoc, model: str) -> WorkflowDoc:
    """The run's model applies to agents that do not name their own."""
    agents: dict[str, AgentDoc] = {name: ({**agent, "model": agent.get("model") or model} if isinstance(agent, dict) else agent)
              for name, agent in (document.get("agents") or {}).items()}
    return {**document, "agents": agents}


def with_case_items(document: WorkflowDoc, items: dict | None) -> WorkflowDoc:
    """An experiment's case (runtime.evals) gives forEach steps their items: those steps' ``forEach`` replaced by the
    case's list, wherever they sit; the version's document itself is unchanged."""
    if not items:
        return document

    def steps(listed: list) -> list:
        out = []
        for step in listed:
            if isinstance(step, dict) and isinstance(step.get("loop"), dict):
                loop = dict(step["loop"])
                if step.get("id") in items and "forEach" in loop:
                    loop["forEach"] = list(items[step["id"]])
                if isinstance(loop.get("steps"), list):
                    loop["steps"] = steps(loop["steps"])
                step = {**step, "loop": loop}
            out.append(step)
        return out

    return {**document, "steps": steps(document.get("steps") or [])}


class FolderResolver:
    """Includes of a folder workflow: the file next to the including one when the folder has it (read confined to
    the run's workspace, runtime.engine.folder), else a saved workflow of that name."""

    def __init__(self, root: Path, saved: SavedWorkflowResolver) -> None:
        self.files = FileResolver(RunFolder(root))
        self.saved = saved

    def __call__(self, ref: str, base_dir: Path | None) -> tuple[dict, Path | None] | Awaitable[tuple[dict, None]]:
        if base_dir is not None:
            try:
                return self.files(ref, base_dir)
            except MissingInclude:
                pass
        return self.saved(ref, base_dir)


class SavedWorkflowResolver:
    """Includes in the web app name saved workflows of the run's workspace (by name or file stem)."""

    def __init__(self, workspace_id: int) -> None:
        self.workspace_id = workspace_id

    def __call__(self, ref: str, base_dir: Path | None) -> Awaitable[tuple[dict, None]]:
        return off_loop(self._load)(ref)

    def _load(self, ref: str) -> tuple[dict, None]:
        found = saved_include(self.workspace_id, ref)
        if found is None:
            stem = ref.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            raise StepError(f"include {ref!r}: no saved workflow named {stem!r}")
        version = found.latest()
        if not version.valid:
            raise StepError(f"include {ref!r}: the saved workflow {found.name!r} has errors")
        return version.document, None
