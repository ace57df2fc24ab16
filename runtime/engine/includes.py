"""Include steps: run a sub-workflow as a scope of the parent.

A resolver turns an include reference into ``(document, base_dir)``. The CLI
uses :class:`FileResolver` (paths relative to the including file); the web app
passes one that reads saved workflows. The sub-workflow's agents merge into
the run's (the same name with a different definition is an error), its step
ids become ``<include-step>.<inner>``, and includes nest at most 5 deep.

What the include step ends with, as upstream's runner gives it: the outputs of
its own ``dependsOn`` reach the prompts of the included workflow's root steps
(those without ``dependsOn``); its ``content`` and ``result`` are those of the
included workflow's last completed step (document order), the result with
``innerSteps`` added: ``{"<include>.<inner>": {content, status}}`` for every
step of the included workflow (ids as the include step's own scope writes them) (a result that is not an object is kept under
``result``; a failed include has no result). Its ``step_end`` carries what the
included workflow's steps spent (each of them records its whole subtree's).
"""
from __future__ import annotations

import inspect
from pathlib import Path

from designer.documents import MAX_DOCUMENT_BYTES, load_source
from runtime.engine.context import MAX_INCLUDE_DEPTH, RunContext, Scope, StepError
from runtime.engine.folder import FolderRefused, Missing, RunFolder
from runtime.engine.prompting import StepOutput
from runtime.engine.state import COMPLETED, Outcome
from runtime.engine.summary import last_completed, summarize
from runtime.engine.toolcalls import unknown_tools_message, warn_untooled


class MissingInclude(StepError):
    """The included file is not in the folder (a web run then looks for a saved workflow of that name)."""


class FileResolver:
    """Reads included files relative to the including file, inside the run's folder; refuses invalid documents.

    ``folder``: the directory nothing is read outside of (default: the directory of the first file resolved)."""

    def __init__(self, folder: RunFolder | Path | None = None) -> None:
        self.folder = folder if isinstance(folder, RunFolder) or folder is None else RunFolder(folder)

    def __call__(self, ref: str, base_dir: Path | None) -> tuple[dict, Path]:
        if base_dir is None:
            raise StepError(f"include {ref!r}: the workflow has no base directory to resolve it from")
        folder = self.folder or RunFolder(base_dir)
        try:
            path, data = folder.read(base_dir, ref, f"include {ref!r}", max_bytes=MAX_DOCUMENT_BYTES)
        except Missing as exc:
            raise MissingInclude(str(exc)) from None
        except FolderRefused as exc:
            raise StepError(str(exc)) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise StepError(f"include {ref!r}: {path} is not UTF-8 text") from None
        loaded = load_source(text, filename=path)
        if not loaded.valid or not isinstance(loaded.document, dict):
            first = loaded.report.errors[0] if loaded.report.errors else None
            detail = f"{first.code}: {first.message}" if first else "not a workflow document"
            raise StepError(f"include {ref!r} is invalid ({detail})")
        return loaded.document, folder.directory(path)


async def resolve(ctx: RunContext, ref: str, base_dir: Path | None) -> tuple[dict, Path | None]:
    if ctx.resolver is None:
        raise StepError(f"include {ref!r}: this run has no include resolver")
    found = ctx.resolver(ref, base_dir)
    if inspect.isawaitable(found):
        found = await found
    return found


async def run_include(ctx: RunContext, scope: Scope, step: dict, path: str,
                      deps: list[StepOutput]) -> tuple[Outcome, dict]:
    """Run the included workflow as a scope under ``path``; ``deps``: the outputs of the step's ``dependsOn``.
    Returns its outcome and what its steps spent (``{"tokens", "cost_usd"}``)."""
    ref = step["include"]
    depth = scope.include_depth + 1
    if depth > MAX_INCLUDE_DEPTH:
        raise StepError(f"include {ref!r}: includes nest deeper than {MAX_INCLUDE_DEPTH}")
    target = (scope.includes or {}).get(ref, ref)
    document, base_dir = await resolve(ctx, target, scope.base_dir)
    added = {}
    for name, agent in (document.get("agents") or {}).items():
        known = ctx.agents.get(name)
        if known is not None and known != agent:
            raise StepError(f"include {ref!r}: agent {name!r} clashes with an agent of the same name")
        if known is None:
            added[name] = agent
        ctx.agents[name] = agent
    problem = unknown_tools_message(added)
    if problem:
        raise StepError(f"include {ref!r}: {problem}")
    await warn_untooled(ctx, added)
    sub = Scope(prefix=path, steps=document.get("steps") or [], base_dir=base_dir,
                includes=document.get("includes") or {}, include_depth=depth, variables={},
                concurrency=scope.concurrency, outer_deps=deps)
    outcomes = await ctx.run_scope(ctx, sub)
    outcome = summarize(sub.steps, outcomes)
    spent = ctx.state.spent_by([sub.ns(s["id"]) for s in sub.steps])  # steps a checkpoint brought included
    if outcome.status != COMPLETED:
        return outcome, spent
    inner_steps = {f"{step['id']}.{s['id']}": {"content": outcomes[s["id"]].content, "status": outcomes[s["id"]].status}
                   for s in sub.steps if s["id"] in outcomes}
    last = last_completed(sub.steps, outcomes)
    own = last.result if last is not None else None
    result = {**own, "innerSteps": inner_steps} if isinstance(own, dict) else \
        {**({"result": own} if own is not None else {}), "innerSteps": inner_steps}
    return Outcome(COMPLETED, outcome.content, result), spent
