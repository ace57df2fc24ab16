"""``python manage.py runworkflow PATH``: run a workflow file from the terminal.

Validates the file with the designer's rules first (an invalid document is
refused with its diagnostics), then runs it with the chosen provider.
``--json`` prints the NDJSON event stream; otherwise a readable live view.
Exit status 0 when the run completed, 1 otherwise.
"""
from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from designer import tool_specs
from designer.documents import load_source
from runtime import run_files
from runtime.engine import Budgets, FileResolver, run_workflow
from runtime.events import NdjsonSink, PrintSink
from runtime.providers import close_all, configured_providers, names
from runtime.script import ScriptError, load_script_file
from runtime.tools.approvals import Approvals, Decision
from runtime.tools.session import RunTools


class Command(BaseCommand):
    help = "Run a zenflow v1 workflow file (simulated by default; no network)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="workflow file (YAML or JSON)")
        parser.add_argument("--provider", default=None, choices=names(),
                            help="default provider for bare model names (default: settings.DEFAULT_PROVIDER)")
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
        parser.add_argument("--ask-before", default="", help="comma-separated tools whose calls wait for your "
                                                             "answer on this terminal, e.g. bash,write")

    def handle(self, *args, **opts):
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
        workdir = Path(opts["workdir"]) if opts.get("workdir") else Path(settings.WORKSPACES_DIR) / f"cli-{run_id}"
        if not opts.get("workdir"):
            self.stderr.write(f"workspace: {workdir}")
        tools = RunTools(workdir, settings=run_files.tool_settings(),
                         isolation=(loaded.document.get("options") or {}).get("isolation") or "run",
                         ask_before=ask_before)
        tools.approvals = Approvals(on_ask=self._asker(tools))
        result = asyncio.run(self._run(loaded.document, path, provider, script, budgets, sink, run_id, tools))
        sys.exit(0 if result.status == "completed" else 1)

    def _asker(self, tools: RunTools):
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

    async def _run(self, document, path, provider, script, budgets, sink, run_id, tools):
        providers = configured_providers(provider, settings=settings, script=script)
        try:
            return await run_workflow(document, run_id=run_id, sink=sink,
                                      providers=providers, budgets=budgets, resolver=FileResolver(),
                                      base_dir=path.resolve().parent, prices=getattr(settings, "MODEL_PRICES", {}),
                                      default_provider=provider, tools=tools)
        finally:
            await close_all(providers)
