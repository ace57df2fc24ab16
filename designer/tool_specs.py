"""The tools agents can be given: names, what each does, and its parameters.

The names are the file format's contract (a workflow lists them in an agent's
``tools``), so they live here with the rest of what the designer knows about
the format: the validator warns about names outside this list, the editor
offers it (``GET /tools``), and the runtime implements each one
(:mod:`runtime.tools`). ``bash``, ``read``, ``write``, ``glob`` and ``grep``
are upstream's, with upstream's parameters and limits; ``edit`` is ours (a
workflow naming it still exports unchanged; other runners may lack it).
"""
from __future__ import annotations

UPSTREAM = ("bash", "read", "write", "glob", "grep")


def _obj(required: list[str], **properties: dict) -> dict:
    return {"type": "object", "properties": properties, "required": required}


def _s(description: str) -> dict:
    return {"type": "string", "description": description}


def _b(description: str) -> dict:
    return {"type": "boolean", "description": description}


REL = "relative to the workspace"

SPECS: dict[str, dict] = {
    "bash": {
        "description": "Run a bash command in the workspace (the working directory) and get its combined output. "
                       "No network unless the server allows it. Output is capped at 1 MB.",
        "parameters": _obj(["command"], command=_s("The bash command to run"),
                           timeout_seconds={"type": "integer", "description": "Time limit in seconds (default 30, at most 300)"},
                           working_directory=_s("Ignored: commands run in the workspace")),
    },
    "read": {
        "description": "Read a text file in the workspace. Output is capped at 1 MB.",
        "parameters": _obj(["path"], path=_s(f"File path, {REL}")),
    },
    "write": {
        "description": "Write a file in the workspace (replacing it), creating parent directories.",
        "parameters": _obj(["path", "content"], path=_s(f"File path, {REL}"), content=_s("The whole new content")),
    },
    "glob": {
        "description": "List files in the workspace matching a glob pattern such as '**/*.py'.",
        "parameters": _obj(["pattern"], pattern=_s(f"Glob pattern, {REL}")),
    },
    "grep": {
        "description": "Search files in the workspace for a fixed string (or an extended regex when regex is true); "
                       "answers 'file:line:text' lines.",
        "parameters": _obj(["pattern", "path"], pattern=_s("Text to find (a regex when regex is true)"),
                           path=_s(f"File or directory, {REL} ('.' for all)"),
                           regex=_b("Treat pattern as an extended regular expression (default false)")),
    },
    "edit": {
        "description": "Replace an exact string in a file in the workspace. old_string must occur exactly once "
                       "unless replace_all is true.",
        "parameters": _obj(["path", "old_string", "new_string"], path=_s(f"File path, {REL}"),
                           old_string=_s("The exact text to replace"), new_string=_s("The replacement text"),
                           replace_all=_b("Replace every occurrence (default false)")),
    },
}


def known_names() -> list[str]:
    """Upstream's names first, in upstream's order, then ours."""
    return [n for n in UPSTREAM if n in SPECS] + sorted(n for n in SPECS if n not in UPSTREAM)


def catalogue() -> list[dict]:
    """Every tool for the editor: name, description, and whether upstream has it too."""
    return [{"name": n, "description": SPECS[n]["description"], "upstream": n in UPSTREAM} for n in known_names()]
