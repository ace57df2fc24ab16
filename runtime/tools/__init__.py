"""The tools agents call, as a registry: a name maps to a :class:`Tool` in its own module.

What each tool is (name, description, parameters) is the designer's truth
(:mod:`designer.tool_specs`); this registry holds how each one runs. A tool gets its arguments and a
:class:`~runtime.tools.workspace.Workspace` and answers with text the model
reads; a :class:`ToolError` reaches the model as ``error: ...``. Tools know
nothing of the engine: :mod:`runtime.engine.toolcalls` offers them, gates them,
runs them concurrently and emits their events.

A run may add tools of its own (its MCP servers', :mod:`runtime.tools.mcp`):
:func:`use_run_tools` registers them for the current task and the tasks it
starts, so concurrent runs in one process never see each other's.
"""
from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from designer.tool_specs import MESSAGING, SPECS, UPSTREAM
from runtime.tools.workspace import Workspace


class ToolError(Exception):
    """A failure the model reads (as ``error: <message>``) and may recover from."""


@dataclass
class ToolResult:
    output: str
    truncated: bool = False


@dataclass
class ToolSettings:
    """What the deployment decides for every tool call (not the workflow author)."""

    sandbox: str = "bwrap"       # "bwrap", or "off" (AGENT_SANDBOX=off: commands run unsandboxed)
    network: bool = False        # AGENT_NETWORK=1
    bwrap: str = "bwrap"
    cpu_seconds: int | None = None     # AGENT_CPU_SECONDS: per process of a command
    memory_mb: int | None = None       # AGENT_MEMORY_MB: address space per process
    file_mb: int | None = None         # AGENT_FILE_MB: the largest file a command may write
    workspace_mb: int | None = None    # AGENT_WORKSPACE_MB: past it, tools that write refuse until files go
    tmp_mb: int | None = None          # AGENT_TMP_MB: the size of a sandboxed command's private /tmp (memory)


class Tool(ABC):
    name: str = ""

    @property
    def description(self) -> str:
        return str(SPECS.get(self.name, {}).get("description", ""))

    @property
    def parameters(self) -> dict[str, Any]:
        return dict(SPECS.get(self.name, {}).get("parameters") or {"type": "object", "properties": {}})

    @abstractmethod
    async def run(self, args: dict, workspace: Workspace, settings: ToolSettings) -> ToolResult:
        """Carry out one call; raise :class:`ToolError` for what the model should read as an error."""

    def spec(self) -> dict:
        """The function-tool shape providers send to the model."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


_REGISTRY: dict[str, str | Tool] = {
    "bash": "runtime.tools.bash:BashTool",
    "read": "runtime.tools.files:ReadTool",
    "write": "runtime.tools.files:WriteTool",
    "glob": "runtime.tools.files:GlobTool",
    "grep": "runtime.tools.files:GrepTool",
    "edit": "runtime.tools.files:EditTool",
}


# The current run's own tools (name -> Tool), set by RunTools.open() in the run's task.
_RUN_TOOLS: ContextVar[dict[str, Tool] | None] = ContextVar("run_tools", default=None)


def use_run_tools(tools: dict[str, Tool]) -> None:
    """Register a run's own tools for the current task and every task it starts from now on."""
    _RUN_TOOLS.set(dict(tools))


def run_tools() -> dict[str, Tool]:
    return _RUN_TOOLS.get() or {}


def register(name: str, tool: str | Tool) -> None:
    """Register a tool instance (or ``"module:Class"``) under ``name``."""
    _REGISTRY[name] = tool


def names() -> list[str]:
    """Registered names, upstream's first (in upstream's order), then ours alphabetically, then the run's own."""
    builtins = [n for n in UPSTREAM if n in _REGISTRY] + sorted(n for n in _REGISTRY if n not in UPSTREAM)
    return builtins + [n for n in (_RUN_TOOLS.get() or {}) if n not in _REGISTRY]


def get(name: str) -> Tool:
    own = (_RUN_TOOLS.get() or {}).get(name)
    if own is not None and name not in _REGISTRY:
        return own
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}") from None
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)()
        _REGISTRY[name] = target
    if not isinstance(target, Tool):
        raise TypeError(f"tool {name!r} is registered as {type(target).__name__}, not a Tool")
    return target


def agent_tool_names(agent: dict) -> list[str]:
    """An agent's tools: its ``tools`` allowlist (absent = every registered tool) minus ``disallowedTools``.

    ``submit_result`` is the engine's, never listed here; so are the messaging tools
    (:mod:`runtime.tools.messaging` adds them). Names no registered tool has are kept
    (see :func:`unknown_tools`): the run refuses to start on them rather than silently dropping them.
    """
    listed = agent.get("tools")
    chosen = list(listed) if isinstance(listed, list) else names()
    denied = set(agent.get("disallowedTools") or [])
    return [n for n in dict.fromkeys(chosen) if n not in denied and n != "submit_result" and n not in MESSAGING]


def unknown_tools(agents: dict) -> list[tuple[str, str]]:
    """(agent, tool) for each tool an agent lists that no registered tool has."""
    # The engine's own: submit_result, and the messaging tools (runtime.tools.messaging), which need no workspace.
    known = set(_REGISTRY) | set(_RUN_TOOLS.get() or {}) | {"submit_result", *MESSAGING}
    return [(name, tool) for name, agent in (agents or {}).items() if isinstance(agent, dict)
            for tool in (agent.get("tools") or []) if isinstance(tool, str) and tool not in known]
