"""Everything one run shares: injected dependencies, totals, and how to halt.

:class:`RunContext` holds what the outside world provides (emitter, providers,
resolver, clock, sleep, prices) apart from the run's own state (token and cost
totals, loop metadata, the halt reason). :class:`Scope` is one DAG being
scheduled: the top level, an include, or one loop iteration's inner steps.
"""
from __future__ import annotations

import asyncio
import contextvars
import mimetypes
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Never, TypeAlias, cast

from designer.documents import parse_duration
from runtime.engine.folder import FolderRefused, RunFolder
from runtime.engine.mail import RunMail
from runtime.engine.pricing import PriceBook
from runtime.engine.prompting import ContextFile, IterationRecord
from runtime.engine.registry import RunState
from runtime.engine.shapes import WorkflowDoc
from runtime.engine.state import FAILED, Budgets, Outcome, RunControl
from runtime.events import Emitter
from runtime.providers import Provider, Usage, catalog, split_model

if TYPE_CHECKING:
    from runtime.engine.policies import Policies

# What reads an included workflow: (reference, the including file's directory) -> (document, its directory),
# or an awaitable of that (runtime.engine.includes.FileResolver; a web run's, which also finds saved workflows).
Resolver: TypeAlias = Callable[[str, Path | None], "tuple[dict, Path | None] | Awaitable[tuple[dict, Path | None]]"]

DEFAULT_CONCURRENCY = 5
DEFAULT_MAX_TURNS = 50
MAX_INCLUDE_DEPTH = 5
MAX_FILE_BYTES = 10 * 1024 * 1024
DEFAULT_AGENT = {"description": "A capable general-purpose assistant that carries out the task it is given."}

# The step deadlines (``timeout``) around the running code, outermost first: a tool call waiting for a
# person holds them (see held_deadlines), because waiting time does not count against a step's timeout.
DEADLINES: contextvars.ContextVar[tuple[asyncio.Timeout, ...]] = contextvars.ContextVar("deadlines", default=())


@asynccontextmanager
async def held_deadlines() -> AsyncIterator[None]:
    """Stop every enclosing step deadline's clock for the duration of the block."""
    loop = asyncio.get_running_loop()
    held = [(t, t.when()) for t in DEADLINES.get() if t.when() is not None and not t.expired()]
    started = loop.time()
    for timeout, _ in held:
        timeout.reschedule(None)
    try:
        yield
    finally:
        waited = loop.time() - started
        for timeout, when in held:
            if not timeout.expired() and when is not None:
                timeout.reschedule(when + waited)


class StepError(Exception):
    """A problem that fails the current step with a readable message."""


@dataclass
class Scope:
    """One DAG: its steps, where its ids live, and what CEL and prompts see in it."""

    prefix: str                      # "" at top level; "parent", "loop[3]", "loop.2" ...
    steps: list[dict]
    base_dir: Path | None = None
    includes: dict = field(default_factory=dict)
    include_depth: int = 0
    variables: dict = field(default_factory=dict)   # item/index or iteration
    loop: Any = None                 # prompting.LoopView template for steps in a loop iteration
    concurrency: int = DEFAULT_CONCURRENCY
    outer_deps: list = field(default_factory=list)  # the loop step's dependency outputs, for entry steps

    def ns(self, step_id: str) -> str:
        return f"{self.prefix}.{step_id}" if self.prefix else step_id


def duration(value: Any) -> float | None:
    if value in (None, ""):
        return None
    return parse_duration(str(value))


class RunContext:
    def __init__(self, *, document: WorkflowDoc, run_id: str, emitter: Emitter, providers: dict[str, Provider],
                 default_provider: str, budgets: Budgets, control: RunControl, resolver: Resolver | None, base_dir: Path | None,
                 prices: PriceBook, folder: RunFolder | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.document = document
        self.run_id = run_id
        self.emitter = emitter
        self.providers = providers
        self.default_provider = default_provider
        self.model_override: str | None = None  # RunOptions.model_override
        self.thinking: str | None = None  # RunOptions.thinking
        self.pins: dict[str, dict] = {}  # RunOptions.pins: step paths whose agent is answered by a pinned output
        self.budgets = budgets
        self.control = control
        self.resolver = resolver
        self.base_dir = base_dir
        # Where every reference resolves, confined (runtime.engine.folder); the top file's directory by default.
        self.folder = folder if folder is not None else (RunFolder(base_dir) if base_dir is not None else None)
        self.prices = prices
        self.clock = clock
        self.pending: set[asyncio.Future] = set()
        self.sleep = sleep
        self.options = document.get("options") or {}
        self.on_failure = self.options.get("onStepFailure") or "cascade"
        self.step_timeout = duration(self.options.get("stepTimeout"))
        # The steps below the run read an agent as a plain dict (its keys: shapes.AgentDoc); cast, not copied.
        self.agents = cast("dict[str, dict]", dict(document.get("agents") or {}))
        self.goal = (document.get("description") or document.get("name") or "").strip()
        # Outcomes, loop histories and budgets spent: one record, the one a checkpoint is taken of.
        self.state = RunState()
        self.policies: Policies | None = None  # when the run has any
        self.tools: Any = None  # runtime.tools.session.RunTools, when the run gives its agents tools
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self._pending_warnings: list[str] = []
        self.halted = False
        self.halt_status = ""
        self.halt_reason = ""
        self.halt_code = ""
        self.root_task: asyncio.Task | None = None
        # Tasks that run beside the steps (the coordinator): a halt cancels them with the root task.
        self.companions: set[asyncio.Task] = set()
        # Messages between the step agents and the coordinator, and shared memory (runtime.engine.mail).
        self.mail = RunMail(emitter.emit)
        self.permit: Callable[[str], Awaitable[str | None]] | None = None  # RunOptions.permit
        self.debugger: Any = None  # RunOptions.debugger (runtime.engine.debugger.Debugger), when it has breakpoints
        self.started = clock()
        # A resumed run's steps that were open at its boundary: namespaced id -> when each first started (POSIX
        # seconds, and as its event wrote it) and the seconds it had worked, so that a loop going on over the
        # resume is timed with that work and without the time no worker ran it (runtime.engine.resume_points).
        self.first_started: dict[str, tuple[float, str, float | None]] = {}
        # The runner, passed in by run_workflow: loops and includes run their inner scopes and steps
        # through these, so they never import the scheduler or the step runner (no import circle).
        self.run_scope: Callable[..., Awaitable[Mapping[str, Outcome]]] = _not_wired
        self.run_step: Callable[..., Awaitable[Outcome]] = _not_wired

    def track(self, awaitable: Awaitable[object]) -> None:
        """Run an emit started from synchronous code (a control callback); the run awaits it before it ends."""
        task = asyncio.ensure_future(awaitable)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def active_time(self) -> float:
        """The clock less the time spent paused: what step and iteration durations are measured in."""
        return self.clock() - self.control.paused_seconds()

    def carried_over(self, path: str) -> tuple[float, str | None]:
        """A step starting now that had started before the resume: the seconds it had worked before (or, when the
        notice does not say, since it first started) and that start as text (taken once: a retry or a later run
        of the step is its own); (0, None) for any other."""
        first = self.first_started.pop(path, None)
        if first is None:
            return 0.0, None
        stamp, text, worked = first
        return (worked if worked is not None else max(0.0, self.emitter.clock() - stamp)), text

    async def until_resumed(self) -> None:
        """Return at once unless the run is paused; then wait for resume (or stop) with every enclosing step
        deadline's clock stopped. Every model call waits here first, so a pause holds: no new call starts. A halted
        run (stopped, or ended any other way) starts nothing either: the halt's cancellation reaches a task only at
        its next wait, and a loop whose last item ended with the stop would otherwise start the next one first."""
        if self.halted:
            raise asyncio.CancelledError
        if self.control.paused:
            async with held_deadlines():
                await self.control.wait_running()

    async def check_permit(self, provider: str) -> None:
        """Before a model call: stop the run, failed with the reason in words, when it may no longer call
        ``provider`` (RunOptions.permit); the halt cancels the calling task here. A run stopped (or halted any other
        way) since the call was announced sends nothing: the stop's cancellation reaches this task only at its next
        wait, which would otherwise be inside the provider's call, its request already on its way."""
        if self.halted:
            raise asyncio.CancelledError
        if self.permit is None:
            return
        refused = await self.permit(provider)
        if refused:
            reason = f"stopped before its next model call: {refused}"
            await self.emitter.emit("message", message=reason, data={"level": "error", "code": "permit"})
            self.halt(FAILED, reason, "permit")
            await asyncio.sleep(0)  # the halt cancels this task here

    # -- halting -------------------------------------------------------------

    def halt(self, status: str, reason: str, code: str) -> None:
        """End the run: record why and cancel everything still running."""
        if self.halted:
            return
        self.halted = True
        self.halt_status, self.halt_reason, self.halt_code = status, reason, code
        if self.root_task is not None and not self.root_task.done():
            self.root_task.cancel()
        for task in self.companions:
            task.cancel()
        self.mail.router.end_run(cancelled=True)  # nothing more is delivered: pending messages workflow-cancelled

    # -- providers, tokens, cost ----------------------------------------------
    @property
    def tokens(self) -> Usage:
        return self.state.tokens

    @property
    def cost_usd(self) -> float:
        return self.state.cost_usd

    @property
    def unpriced_models(self) -> set[str]:
        return self.state.unpriced_models

    def model_of(self, model: str) -> str:
        """The model a call uses: the run's override when it has one, else the one the document named."""
        return self.model_override or model

    def provider_for(self, model: str) -> tuple[Provider, str, str]:
        """(provider, model name for it, provider name) for an agent's ``model`` string."""
        prefix, name = split_model(model)
        if prefix and prefix in self.providers:
            return self.providers[prefix], name, prefix
        if prefix and prefix != self.default_provider:
            self.warn_once(f"provider:{prefix}", f"model {model!r}: provider {prefix!r} is not configured for "
                                                 f"this run; using {self.default_provider!r}")
        if not prefix:
            detected = self._detected(model)
            if detected:
                return self.providers[detected], model, detected
        # Not configured: the default provider gets the whole string (OpenRouter-style ids keep working).
        return self.providers[self.default_provider], model, self.default_provider

    def _detected(self, model: str) -> str | None:
        """For a bare model name of another family than the default provider's (``gemini-2.5-flash`` in an
        OpenAI run): the first provider of its family that has a key for this run (upstream detects the
        provider from the environment); None: the default provider's."""
        family = catalog.candidates(model)
        if not family or self.default_provider in family:
            return None
        for name in family:
            if getattr(self.providers.get(name), "api_key", None):
                return name
        return None

    def account(self, usage: Usage, model: str, provider: str) -> float | None:
        """Count a reply's tokens and cost (None: the model has no price, said on the run, never counted
        as $0); call it right before the ``agent_turn`` response that carries them."""
        cost = self.prices.cost(provider, model, usage.prompt, usage.completion)
        self.state.spend(usage, cost, model)
        b = self.budgets
        if b.max_tokens is not None and self.tokens.total > b.max_tokens:
            self.halt("failed", f"token budget exceeded: {self.tokens.total} of {b.max_tokens} tokens used",
                      "budget:max_tokens")
        elif b.max_cost_usd is not None and self.cost_usd > b.max_cost_usd:
            self.halt("failed", f"cost budget exceeded: ${self.cost_usd:.4f} of ${b.max_cost_usd:.4f} spent",
                      "budget:max_cost_usd")
        return cost

    async def count_step(self) -> None:
        """Called right before an agent step's first request; halts when ``max_steps`` would be crossed."""
        b = self.budgets
        if b.max_steps is not None and self.state.steps_started >= b.max_steps:
            self.halt("failed", f"step budget exhausted: {b.max_steps} steps started", "budget:max_steps")
            await asyncio.sleep(0)  # the halt cancels this task here
            raise StepError("step budget exhausted")
        self.state.steps_started += 1

    # -- messages --------------------------------------------------------------
    async def warn(self, text: str, **data: Any) -> None:
        self.warnings.append(text)
        await self.emitter.emit("message", message=text, data={"level": "warning", **data})

    def warn_once(self, key: str, text: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(text)
            self._pending_warnings.append(text)

    async def flush_warnings(self) -> None:
        while self._pending_warnings:
            text = self._pending_warnings.pop(0)
            await self.emitter.emit("message", message=text, data={"level": "warning"})

    # -- files -----------------------------------------------------------------
    def _read(self, ref: str, base_dir: Path | None, what: str) -> tuple[str, bytes]:
        if self.folder is None:
            raise StepError(f"{what}: {ref} cannot be read: the workflow has no folder (it is a single file)")
        try:
            return self.folder.read(base_dir, ref, what, max_bytes=MAX_FILE_BYTES)
        except FolderRefused as exc:
            raise StepError(str(exc)) from None

    def read_text_ref(self, value: str | None, base_dir: Path | None, what: str) -> str | None:
        """``@path`` -> the file's text (relative to the workflow file, inside its folder); anything else as is."""
        if not value or not value.startswith("@"):
            return value
        _, data = self._read(value[1:], base_dir, what)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise StepError(f"{what}: {value[1:]} is not UTF-8 text") from None

    def context_files(self, paths: list[str], base_dir: Path | None,
                      edited: Mapping[str, str] | None = None) -> list[ContextFile]:
        """``edited``: texts typed at a breakpoint for some of them, used instead of the file (the path is still
        confined as a read's is; nothing is read or written)."""
        files = []
        for rel in paths or []:
            if edited and rel in edited:
                files.append(self._edited_file(rel, base_dir, edited[rel]))
                continue
            path, data = self._read(rel, base_dir, "contextFiles")
            media = mimetypes.guess_type(path)[0] or ""
            text: str | None
            try:
                text = data.decode("utf-8")
                if "\x00" in text:
                    text = None
            except UnicodeDecodeError:
                text = None
            files.append(ContextFile(path=rel, text=text, size=len(data), media_type=media))
        return files

    def _edited_file(self, rel: str, base_dir: Path | None, text: str) -> ContextFile:
        if self.folder is None:
            raise StepError(f"contextFiles: {rel} cannot be read: the workflow has no folder (it is a single file)")
        try:
            path = self.folder.where(base_dir, rel, "contextFiles")
        except FolderRefused as exc:
            raise StepError(str(exc)) from None
        return ContextFile(path=rel, text=text, size=len(text.encode()), edited=True,
                           media_type=mimetypes.guess_type(path)[0] or "")


def iteration_record(number: int, outcome: Outcome, verdict: dict | None = None) -> IterationRecord:
    return IterationRecord(number=number, status=outcome.status, content=outcome.content,
                           result=outcome.result, verdict=verdict)


async def _not_wired(*args: object, **kwargs: object) -> Never:
    raise RuntimeError("the run context was not given its runner (run_workflow wires run_scope and run_step)")
