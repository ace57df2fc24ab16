"""What a run is given besides its document: :class:`RunOptions`, the second argument of
:func:`runtime.engine.run_workflow`.

Only ``run_id`` and ``sink`` are required; every other field has the default a plain run needs (the
simulated provider, no budgets, no tools). ``run_workflow`` reads the options once, as the run starts.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runtime.coordinator import CoordinatorSettings
from runtime.engine.checkpoints import Checkpoint
from runtime.engine.context import Resolver
from runtime.engine.debugger import Debugger
from runtime.engine.policies import Policies
from runtime.engine.pricing import PriceBook
from runtime.engine.state import Budgets, RunControl
from runtime.events import Sink
from runtime.providers import Provider
from runtime.providers.script import Script
from runtime.tools.session import RunTools


@dataclass(kw_only=True)
class RunOptions:
    """How to run one document: ``run_workflow(document, RunOptions(run_id=..., sink=..., ...))``."""

    # The run's id: every event carries it as ``runId``.
    run_id: str
    # Where the events go, stamped and in order (runtime.events: a ListSink, an NdjsonSink, the server's Recorder).
    sink: Sink
    # Provider names to configured instances. The default provider is created when missing (``simulated`` with
    # ``script``).
    providers: dict[str, Provider] | None = None
    # Scripted replies for the simulated provider (a Script or its plain data), used when ``providers`` has
    # no ``simulated`` of its own.
    script: Script | dict | None = None
    # The run's limits (tokens, cost, duration, agent steps); None: no limit.
    budgets: Budgets | None = None
    # Pause, resume and stop from outside the run; None: a control of its own nobody else holds.
    control: RunControl | None = None
    # ``resolver(ref, base_dir)`` loads includes, returning ``(document, its directory)`` or an awaitable of
    # that (runtime.engine.context.Resolver). Default: files relative to ``base_dir``, read inside ``folder``.
    resolver: Resolver | None = None
    # The workflow file's directory: context files, ``@`` files and includes are relative to it.
    base_dir: Path | None = None
    # The directory every context file, ``@`` file and include must resolve in (runtime.engine.folder);
    # nothing outside it is read. Default: ``base_dir``.
    folder: Path | None = None
    # A PriceBook, or its overrides: model names to USD per million prompt and completion tokens.
    prices: PriceBook | dict | None = None
    # The provider of bare model names, announced in ``workflow_start``.
    default_provider: str = "simulated"
    # The run's clock (default: time.monotonic), injectable for tests.
    clock: Callable[[], float] | None = None
    # What loop ``delay`` sleeps with (default: asyncio.sleep), injectable for tests.
    sleep: Callable[[float], Awaitable[None]] | None = None
    # Run-level stop rules and the iteration error policy (runtime.engine.policies), or their plain data.
    policies: Policies | dict[str, Any] | None = None
    # The agents' tools and the run's workspace (runtime.tools.session.RunTools); without it agents get none.
    tools: RunTools | None = None
    # Called at every step and iteration boundary with the run's state at that event
    # (runtime.engine.checkpoints); it must not block.
    on_boundary: Callable[[Checkpoint], None] | None = None
    # Start from this checkpoint (of a run of this document, or of one edited after it): its finished steps
    # and loop rounds are not run again and its spend counts against the budgets; a loop goes on at its next
    # round with the earlier ones in its history.
    start: Checkpoint | None = None
    # The seq of the last event already stored for this run (a resumed run, or a fork that inherited its
    # parent's events), so that its events go on from there in one stream.
    first_seq: int = 0
    # ``{reason, attempt, of, from_seq, after, started}``: this is a run going on after its worker was lost (where, and
    # when the steps open there first started: runtime.engine.resume_points); a ``message``
    # event right after ``workflow_start`` says so, for everyone watching.
    resumed: dict | None = None
    # ``await permit(provider)`` before every model call: None while the run may call that provider, else why
    # not, in words (runtime.runs.permits: a key removed, a grant revoked, the owner removed); the run then
    # stops there, failed with that reason. None: always permitted.
    permit: Callable[[str], Awaitable[str | None]] | None = None
    # The run's coordinator (runtime.coordinator: its mode, model and wake-cycle cap); None: no coordinator, as
    # upstream's ``--quiet`` (``send_message`` answers ``dropped: no-coordinator``). The engine's default is
    # none, so a run as a library call spends nothing it was not asked to; the API and the CLI default to
    # upstream's ``narrate``.
    coordinator: CoordinatorSettings | None = None
    # Shared memory for the step agents (``shared_memory_write`` / ``shared_memory_read``). It is also on when
    # an agent of the document lists one of those tools.
    shared_memory: bool = False
    # Every agent's, step's and judge's ``model`` replaced by this one for this run only (upstream's ``--model``);
    # the coordinator's too unless it was given its own. None: each uses its own, as the document says.
    model_override: str | None = None
    # The reasoning level asked of every agent and judge (runtime.providers.thinking.LEVELS: upstream's
    # ``--thinking``), as each provider's own setting; None: nothing sent, the provider's default.
    thinking: str | None = None
    # The run's breakpoints and stepping (runtime.engine.debugger); None: no breakpoint, and the engine's boundaries
    # cost one attribute test each.
    debugger: Debugger | None = None
    # Pinned outputs (issue #33): an agent execution's place (``step_path``: ``draft``, ``write.2``,
    # ``write.2.untilAgent``) to ``{"content": str, "result"?: Any}``. That execution takes them as its reply without
    # calling its provider; its agent_turn events carry ``pinned: true`` and no tokens. None: nothing is pinned.
    pins: dict[str, dict] | None = None
