"""``python manage.py runworkflow PATH``: run a workflow file from the terminal.

Validates the file with the designer's rules first (an invalid document is
refused with its diagnostics), then runs it with the chosen provider.
``--json`` prints the NDJSON event stream; otherwise a readable live view.
Exit status 0 when the run completed, 1 otherwise (partial, failed or cancelled: workflow_end says which).

``runworkflow --from-run ID --at STEP[.N]`` re-runs a stored run from a step, a
round (``write.5``) or a forEach item (``each[2]``) instead (runtime.runs.forks): the
fork is stored like one started from the web, on behalf of the stored run's
owner unless ``--user`` names someone else (whose role is checked as the API
checks it), executed in this process, and its own events are printed (the
inherited ones are in the database, not printed again).
"""
from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandParser
from django.http import Http404

from common.errors import BadRequest, Forbidden, LimitReached
from common.orm import off_loop
from designer import tool_specs
from designer.documents import load_source
from designer.errors import DocumentInvalid
from runtime.coordinator import DEFAULT_MODE, MODES, CoordinatorSettings
from runtime.durability import run_files
from runtime.engine import Budgets, FileResolver, RunOptions, RunResult, run_workflow
from runtime.engine.shapes import WorkflowDoc
from runtime.events import NdjsonSink, PrintSink, Sink
from runtime.execution.worker import coordinator_settings, execute_run
from runtime.live import tracing
from runtime.models import Run, RunEvent
from runtime.providers import close_all, configured_providers, names
from runtime.providers.script import Script, ScriptError, load_script_file
from runtime.providers.thinking import LEVELS
from runtime.runs import forks
from runtime.tools import permissions as tool_permissions
from runtime.tools.approvals import Approvals, AskHook, Decision
from runtime.tools.session import RunTools


class Command(BaseCommand):
    help = "Run a zenflow v1 workflow file (simulated by default; no network)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="workflow file (YAML or JSON); leave out with --from-run")
        parser.add_argument("--from-run", help="re-run this stored run (its id) from --at, as a new stored run (a fork)")
        parser.add_argument("--at", help="with --from-run: where the fork starts: a step id, a round (write.5) "
                                         "or a forEach item (each[2])")
        parser.add_argument("--user", help="with --from-run: who starts the fork (a username; needs the runner "
                                           "role in the run's workspace); default: the stored run's owner")
        parser.add_argument("--provider", default=None, choices=names(),
                            help="default provider for bare model names (default: settings.DEFAULT_PROVIDER)")
        parser.add_argument("--model", help="use this model for every agent, step and judge of the run, whatever the "
                                                 "workflow names (as upstream's --model; the file is not changed)")
        parser.add_argument("--trace", action="store_true",
                            help="export OpenTelemetry spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (default "
                                 "http://localhost:4318) as upstream's --trace; on anyway when that variable is set")
        parser.add_argument("--thinking", choices=LEVELS, help="reasoning level asked of every agent and judge, as "
                                                              "each provider's own setting (upstream's --thinking)")
        parser.add_argument("--allow", default="", help="comma-separated tools that run without asking (upstream's --allow)")
        parser.add_argument("--deny", default="", help="comma-separated tools that never run (upstream's --deny)")
        parser.add_argument("--strict", action="store_true", help="only the --allow tools run; any other call fails")
        parser.add_argument("--sandbox", action="store_true",
                            help="only read, write, grep and glob run, never bash (upstream's --sandbox)")
        parser.add_argument("--yolo", action="store_true", help="every tool call runs without asking, --ask-before too")
        parser.add_argument("--script", help="scripted replies for the simulated provider (YAML or JSON)")
        parser.add_argument("--json", action="store_true", help="print NDJSON events instead of the live view")
        parser.add_argument("--verbose-prompts", action="store_true", help="live view: print each agent's prompt")
        parser.add_argument("--max-tokens", type=int, help="stop the run past this many tokens")
        parser.add_argument("--max-cost", type=float, help="stop the run past this cost in USD")
        parser.add_argument("--max-duration", type=float, help="stop the run after this many seconds")
        parser.add_argument("--max-steps", type=int, help="stop the run before starting more agent steps than this")
        parser.add_argument("--run-id", help="run id for the events (default: random)")
        parser.add_argument("--workdir", help="the agents' workspace directory (default: a fresh one under "
                                              "WORKSPACES_DIR, printed at the start)")
        parser.add_argument("--folder", help="the directory context files, @ files and includes may be read from "
                                             "(default: the workflow file's directory); it must hold the file, and "
                                             "widening it is said on the terminal")
        parser.add_argument("--ask-before", default="", help="comma-separated tools whose calls wait for your "
                                                             "answer on this terminal, e.g. bash,write")
        parser.add_argument("--coordinator", default=DEFAULT_MODE, choices=MODES,
                            help="the run's coordinator, as upstream's CLI: narrate (default: narration, forwarding, "
                                 "a final synthesis), summary-only (no narration), off (none, as --quiet)")
        parser.add_argument("--shared-memory", action="store_true",
                            help="give the step agents shared_memory_write / shared_memory_read")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts.get("from_run"):
            self._fork(opts)
        if not opts.get("path"):
            self.stderr.write("give a workflow file, or --from-run ID --at STEP[.N]")
            sys.exit(1)
        path = Path(opts["path"])
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            self.stderr.write(f"cannot read {path}: {exc.strerror or exc}")
            sys.exit(1)
        loaded = load_source(text, filename=str(path))
        if not loaded.valid:
            self.stderr.write(f"{path} is not a valid workflow:")
            for d in loaded.report.errors:
                where = f"{d.line}:{d.column} " if d.line else ""
                self.stderr.write(f"  {where}{d.path or '/'}: {d.code}: {d.message}")
            sys.exit(1)
        for d in loaded.report.warnings:
            self.stderr.write(f"warning: {d.path or '/'}: {d.code}: {d.message}")
        folder = self._folder(path, opts.get("folder"))
        script = None
        if opts.get("script"):
            try:
                script = load_script_file(opts["script"])
            except (OSError, ScriptError) as exc:
                self.stderr.write(f"script {opts['script']}: {exc}")
                sys.exit(1)
        provider = opts.get("provider") or getattr(settings, "DEFAULT_PROVIDER", "simulated") or "simulated"
        budgets = Budgets(max_tokens=opts.get("max_tokens"), max_cost_usd=opts.get("max_cost"),
                          max_duration_s=opts.get("max_duration"), max_steps=opts.get("max_steps"))
        sink = NdjsonSink(self.stdout) if opts["json"] else PrintSink(self.stdout, verbose=opts["verbose_prompts"])
        run_id = opts.get("run_id") or uuid.uuid4().hex[:12]
        ask_before = [t.strip() for t in (opts.get("ask_before") or "").split(",") if t.strip()]
        unknown = [t for t in ask_before if t not in tool_specs.known_names()]
        if unknown:
            self.stderr.write(f"--ask-before: unknown tool(s) {', '.join(unknown)} "
                              f"(known: {', '.join(tool_specs.known_names())})")
            sys.exit(1)
        try:
            permissions = tool_permissions.parse(
                {"allow": _names(opts.get("allow")), "deny": _names(opts.get("deny")), "strict": bool(opts.get("strict")),
                 "sandbox": bool(opts.get("sandbox")), "yolo": bool(opts.get("yolo"))}, known=tool_specs.known_names())
        except tool_permissions.PermissionsError as exc:
            # Upstream's CLI exits 3 for flags that exclude each other; so do we, naming them.
            self.stderr.write(str(exc).replace("permissions.", "--").replace("permissions: ", ""))
            sys.exit(3)
        workdir = Path(opts["workdir"]) if opts.get("workdir") else Path(settings.WORKSPACES_DIR) / f"cli-{run_id}"
        if not opts.get("workdir"):
            self.stderr.write(f"workspace: {workdir}")
        tools = RunTools(workdir, settings=run_files.tool_settings(),
                         isolation=(loaded.document.get("options") or {}).get("isolation") or "run",
                         ask_before=ask_before, permissions=permissions)
        tools.approvals = Approvals(on_ask=self._asker(tools))
        coordinator = coordinator_settings(opts.get("coordinator") or DEFAULT_MODE)
        traces = tracing.configured() or (tracing.Tracing(service_name=settings.OTEL_SERVICE_NAME)
                                           if opts.get("trace") else None)
        traced = traces.sink(sink, traces.new_trace_id()) if traces is not None else None
        try:
            result = asyncio.run(self._run(loaded.document, path, folder, provider, script, budgets, traced or sink,
                                           run_id, tools, coordinator, bool(opts.get("shared_memory")),
                                           opts.get("model") or None, opts.get("thinking") or None))
        finally:
            if traces is not None and traced is not None:
                traced.close()
                self._flush(traces, traced.trace_id_hex or "")
        sys.exit(0 if result.status == "completed" else 1)

    def _flush(self, traces: tracing.Tracing, trace_id: str) -> None:
        """Send the run's spans before the process ends, waiting at most a few seconds for the collector."""
        sent = traces.flush(5.0)
        url = tracing.trace_url(trace_id, settings.OTEL_TRACE_LINK_TEMPLATE)
        lost = traces.failed + traces.dropped
        self.stderr.write(f"trace: {trace_id}" + (f" {url}" if url else "")
                          + ("" if sent and not lost else f" ({lost} spans not delivered: is the collector up?)"))
        traces.shutdown(0.5)

    def _asker(self, tools: RunTools) -> AskHook:
        """Ask on the terminal: y approves, anything else denies (and is the reason the model reads)."""
        async def ask(call_id: str, tool: str, arguments: object, step_id: str) -> None:
            def read() -> None:
                self.stderr.write(f"\n{step_id} wants to run {tool} {json.dumps(arguments)}\nallow? [y/N or a reason] ")
                answer = (sys.stdin.readline() or "").strip()
                decision = Decision(True, actor="terminal") if answer.lower() in ("y", "yes") else \
                    Decision(False, answer if answer.lower() not in ("", "n", "no") else "", actor="terminal")
                loop.call_soon_threadsafe(tools.approvals.decide, call_id, decision)

            loop = asyncio.get_running_loop()
            loop.run_in_executor(None, read)
        return ask

    def _folder(self, path: Path, widened: str | None) -> Path:
        """What the run may read: the workflow file's directory, or (said aloud) a directory above it."""
        home = path.resolve().parent
        if not widened:
            return home
        folder = Path(widened).resolve()
        if not folder.is_dir() or not home.is_relative_to(folder):
            self.stderr.write(f"--folder {widened}: must be a directory that holds {path}")
            sys.exit(1)
        if folder != home:
            self.stderr.write(f"--folder: context files, @ files and includes may be read anywhere under {folder} "
                              f"(not only {home})")
        return folder

    async def _run(self, document: WorkflowDoc, path: Path, folder: Path, provider: str, script: Script | None,
                   budgets: Budgets, sink: Sink, run_id: str, tools: RunTools,
                   coordinator: CoordinatorSettings | None = None, shared_memory: bool = False,
                   model_override: str | None = None, thinking: str | None = None) -> RunResult:
        providers = configured_providers(provider, settings=settings, script=script)
        try:
            return await run_workflow(document, RunOptions(
                run_id=run_id, sink=sink, providers=providers, budgets=budgets, resolver=FileResolver(folder),
                base_dir=path.resolve().parent, folder=folder, prices=getattr(settings, "MODEL_PRICES", {}),
                default_provider=provider, tools=tools, coordinator=coordinator, shared_memory=shared_memory,
                model_override=model_override, thinking=thinking))
        finally:
            await close_all(providers)

    def _fork(self, opts: dict[str, Any]) -> None:
        if not opts.get("at"):
            self.stderr.write("--from-run needs --at STEP[.N] (a step id, a round like write.5, an item like each[2])")
            sys.exit(1)
        try:
            parent = Run.objects.select_related("owner").get(pk=opts["from_run"])
        except (Run.DoesNotExist, ValidationError, ValueError):
            self.stderr.write(f"--from-run: no stored run {opts['from_run']!r}")
            sys.exit(1)
        user = parent.owner
        if opts.get("user"):
            named = get_user_model().objects.filter(username=opts["user"]).first()
            if named is None:
                self.stderr.write(f"--user: no user {opts['user']!r}")
                sys.exit(1)
            user = named
        script = None
        if opts.get("script"):
            try:
                script = load_script_file(opts["script"])
            except (OSError, ScriptError) as exc:
                self.stderr.write(f"script {opts['script']}: {exc}")
                sys.exit(1)
        try:
            fork = forks.fork(user, parent.pk, at={"step": opts["at"]}, provider=opts.get("provider"), script=script,
                              dispatch=False)
        except (BadRequest, Forbidden, LimitReached, Http404, DocumentInvalid) as exc:
            self.stderr.write(f"cannot fork run {parent.pk}: {exc}")
            sys.exit(1)
        self.stderr.write(f"run {fork.pk}: a fork of {parent.pk} at {forks.fork_point_label_of(fork)}; "
                          f"{fork.start_seq} events inherited")
        sink = NdjsonSink(self.stdout) if opts["json"] else PrintSink(self.stdout, verbose=opts["verbose_prompts"])
        status = asyncio.run(self._run_stored(str(fork.pk), fork.start_seq, sink))
        sys.exit(0 if status == "completed" else 1)

    async def _run_stored(self, run_id: str, after: int, sink: Sink) -> str | None:
        """Execute the stored run here, printing its events as they are stored."""
        task = asyncio.create_task(execute_run(run_id, worker="cli"))
        while True:
            finished = task.done()
            for event in await off_loop(_events_after)(run_id, after):
                await sink.emit(event)
                after = event["seq"]
            if finished:
                return task.result()
            await asyncio.sleep(0.1)


def _events_after(run_id: str, after: int) -> list[dict]:
    texts = RunEvent.objects.filter(run_id=run_id, seq__gt=after).order_by("seq").values_list("event_json", flat=True)
    return [json.loads(t) for t in texts]


def _names(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]
