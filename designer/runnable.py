"""Whether a document may run: the one check behind the Run button, every route that starts work, and the worker.

A document runs when it is valid, nothing in it blocks a run (a tool nobody provides, ...), and, for a folder
workflow, every include, ``@`` file and context file it names resolves inside its folder. The editor shows the
same answer (``runnable`` from POST /validate); this is what the API and the runtime enforce, so a request that
skips the editor, a fork's edited document and a run resumed on another worker are held to it too.
"""
from __future__ import annotations

from typing import Any

from designer import services, tool_specs
from designer.bundles import stored_problems
from designer.errors import DocumentInvalid
from designer.models import WorkflowVersion


def check_runnable(document: Any, what: str, *, folder: WorkflowVersion | None = None,
                   mcp_tools: list[str] | None = None, in_worker: bool = False) -> None:
    """Raise :class:`DocumentInvalid` with the diagnostics when ``document`` cannot run (``what``: "version 3" ...).

    ``folder``: the version whose files the document's references resolve in (a folder workflow's); ``mcp_tools``:
    the run owner's MCP tools, which the validator does not know. ``in_worker``: the check where a run starts or
    resumes, of a document a route already checked: in this thread (a busy offload pool must not fail a run), and
    without the tool check (the engine refuses a tool nobody provides itself, once the run's MCP servers are up)."""
    # Otherwise in a worker process with a time bound, as every document check is: a run request never stalls the server.
    report = services.load_input(None, document).report if in_worker else services.check(None, document).report
    if not report.valid:
        raise DocumentInvalid(f"{what} has errors; fix them before running", [d.as_dict() for d in report.errors])
    blocking = [d for d in report.diagnostics if d.blocks_run
                and not (in_worker and d.code == "unknown_tool")
                and not tool_specs.provided_after_all(d, document, mcp_tools or [])]
    if folder is not None:
        blocking += [d for d in stored_problems(document, folder) if d.severity == "error"]
    if blocking:
        first = blocking[0]
        raise DocumentInvalid(f"{what} cannot run: {first.path} {first.message}", [d.as_dict() for d in blocking])
