"""The tools agents can be given: names, what each does, and its parameters.

The names are the file format's contract (a workflow lists them in an agent's
``tools``), so they live here with the rest of what the designer knows about
the format: the validator warns about names outside this list, the editor
offers it (``GET /tools``), and the runtime implements each one
(:mod:`runtime.tools`). ``bash``, ``read``, ``write``, ``glob`` and ``grep``
are upstream's, with upstream's parameters and limits; ``edit`` is ours: a
workflow naming it still exports unchanged, but zenflow's runner refuses to
start it (``OURS`` says so in ``GET /tools`` and validation warns).
``send_message``, ``shared_memory_write`` and ``shared_memory_read`` are the
tools upstream's runner gives its step agents to talk to the coordinator and
share notes (:mod:`runtime.tools.messaging`): every step agent has
``send_message`` without listing it, and the shared-memory pair when the run
has shared memory on.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

UPSTREAM = ("bash", "read", "write", "glob", "grep", "send_message", "shared_memory_write", "shared_memory_read")
# Given by the engine, not by the workspace: no run needs a workspace for them (runtime.tools.messaging).
MESSAGING = ("send_message", "shared_memory_write", "shared_memory_read")


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
    "send_message": {
        "description": "Send a message to the run's coordinator (progress, findings, a question). It may forward "
                       "context to other steps; its answers reach you at the start of your next turn.",
        "parameters": _obj(["text"], text=_s("The message (not empty)")),
    },
    "shared_memory_write": {
        "description": "Store a string in the run's shared memory under your own namespace: key 'found' written "
                       "by agent 'auditor' is stored as 'auditor/found'. A later write replaces it.",
        "parameters": _obj(["key", "value"], key=_s("The key, without your agent name"), value=_s("The value")),
    },
    "shared_memory_read": {
        "description": "Read a string from the run's shared memory by its fully qualified key, '<agent>/<key>' "
                       "(any agent's).",
        "parameters": _obj(["key"], key=_s("The fully qualified key, such as 'auditor/found'")),
    },
}


# Our own tools, each with why a workflow naming it is tied to this server: said beside it in the editor's picker
# and in the validator's warning, so nobody learns it from the other runner's refusal.
OURS: dict[str, str] = {
    "edit": "Ours, not zenflow's: zenflow's runner refuses a workflow that lists it. Use `write` for a workflow that "
            "must run there too.",
}


def known_names(mcp_tools: Iterable[dict] = ()) -> list[str]:
    """Upstream's names first, in upstream's order, then ours, then the MCP tools given (as offered)."""
    builtins = [n for n in UPSTREAM if n in SPECS] + sorted(n for n in SPECS if n not in UPSTREAM)
    return builtins + [t["name"] for t in mcp_catalogue(mcp_tools)]


def catalogue(mcp_tools: Iterable[dict] = ()) -> list[dict]:
    """Every tool for the editor: name, description, and whether upstream has it too; then the MCP tools
    given (``{"name", "description", "server"}``, e.g. a user's servers' from their last check) as offered."""
    return ([{"name": n, "description": SPECS[n]["description"], "upstream": n in UPSTREAM,
              **({"automatic": True} if n in MESSAGING else {}), **({"note": OURS[n]} if n in OURS else {})}
             for n in known_names()]
            + mcp_catalogue(mcp_tools))


# -- MCP servers' tools: the naming rule (docs/tools.md, "MCP servers") ------------------------------------
PREFIX_SEPARATOR = "__"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def safe_name(name: str) -> str:
    """A tool name providers accept as a function name (letters, digits, '_' and '-', at most 64)."""
    return _UNSAFE.sub("_", name)[:64] or "tool"


def mcp_names(listed: dict[str, list[str]], builtins: Iterable[str] | None = None
              ) -> tuple[dict[tuple[str, str], str], list[str]]:
    """The offered name of each (server, MCP tool name), and notices about the names that changed.

    A tool keeps its MCP name unless a built-in tool or another listed server's tool has it: then every
    server involved offers it as ``<server>__<tool>``, whatever the servers' order.
    ``listed``: server name -> its tools' MCP names.
    """
    builtins = set(SPECS if builtins is None else builtins)
    owners: dict[str, list[str]] = {}
    for server, tools in listed.items():
        for tool in dict.fromkeys(tools):
            owners.setdefault(safe_name(tool), []).append(server)
    names: dict[tuple[str, str], str] = {}
    notices: list[str] = []
    taken = set(builtins)
    for server, tools in listed.items():
        for tool in dict.fromkeys(tools):
            plain = safe_name(tool)
            others = [s for s in owners[plain] if s != server]
            offered = plain
            if plain in builtins or others:
                offered = safe_name(f"{server}{PREFIX_SEPARATOR}{tool}")
                clash = "a built-in tool" if plain in builtins else \
                    "a tool of MCP server " + " and ".join(f"'{s}'" for s in others)
                notices.append(f"MCP server '{server}': its tool '{tool}' has the name of {clash}, so it is "
                               f"offered as '{offered}'")
            elif plain != tool:
                notices.append(f"MCP server '{server}': its tool '{tool}' is offered as '{offered}' "
                               "(tool names may hold only letters, digits, '_' and '-')")
            if offered in taken:
                notices.append(f"MCP server '{server}': its tool '{tool}' is left out: the name '{offered}' "
                               "is already taken")
                continue
            taken.add(offered)
            names[(server, tool)] = offered
    return names, notices


def mcp_catalogue(mcp_tools: Iterable[dict]) -> list[dict]:
    """MCP tools (``{"name", "description", "server"}``) under the names a run offers them."""
    tools = [t for t in mcp_tools if t.get("name") and t.get("server")]
    listed: dict[str, list[str]] = {}
    for tool in tools:
        listed.setdefault(str(tool["server"]), []).append(str(tool["name"]))
    names, _ = mcp_names(listed)
    return [{"name": names[(str(t["server"]), str(t["name"]))], "description": str(t.get("description") or ""),
             "upstream": False, "mcp_server": str(t["server"]), "mcp_name": str(t["name"])}
            for t in tools if (str(t["server"]), str(t["name"])) in names]


def provided_after_all(diagnostic: object, document: Any, names: Iterable[str]) -> bool:
    """Whether an ``unknown_tool`` diagnostic (``/agents/<agent>/tools/<i>``) is about one of ``names``: the
    validator knows only the built-in tools; a run also has its owner's MCP tools (:func:`known_names`)."""
    if getattr(diagnostic, "code", None) != "unknown_tool" or not isinstance(document, dict):
        return False
    parts = [p.replace("~1", "/").replace("~0", "~") for p in str(getattr(diagnostic, "path", "")).split("/")[1:]]
    if len(parts) != 4 or parts[0] != "agents" or parts[2] != "tools" or not parts[3].isdigit():
        return False
    agent = (document.get("agents") or {}).get(parts[1])
    tools = agent.get("tools") if isinstance(agent, dict) else None
    index = int(parts[3])
    return isinstance(tools, list) and index < len(tools) and tools[index] in set(names)
