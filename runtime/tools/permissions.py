"""A run's permission mode for tool calls, as zenflow's CLI flags: ``--allow``, ``--deny``, ``--strict``,
``--sandbox`` and ``--yolo``, with the run's ask-before list (our approval gate) beside them.

One decision per call (:meth:`Permissions.decide`), made where the call is carried out
(:mod:`runtime.engine.toolcalls`), in this order:

1. a tool on the deny list never runs;
2. ``sandbox``: only ``read``, ``write``, ``grep`` and ``glob`` run (never ``bash``, ``edit`` or an MCP tool);
3. ``yolo``: everything else runs without asking, the ask-before list included;
4. a tool on the allow list runs without asking;
5. ``strict``: a tool not on the allow list never runs;
6. a tool a person must approve asks: one on the ask-before list, or, when there is an allow list, one not on it.

``sandbox`` and ``yolo`` exclude each other, as upstream's CLI refuses them together. Upstream's messaging tools
(``send_message``, shared memory) are part of how agents talk, not tools of the workspace: only ``deny`` stops them.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

SANDBOX_TOOLS = frozenset({"read", "write", "grep", "glob"})
Verdict = Literal["run", "ask", "refuse"]


class PermissionsError(ValueError):
    """A permission mode that cannot be, naming the field."""


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    reason: str = ""


@dataclass(frozen=True)
class Permissions:
    allow: frozenset[str] = field(default_factory=frozenset)
    deny: frozenset[str] = field(default_factory=frozenset)
    strict: bool = False
    sandbox: bool = False
    yolo: bool = False
    ask_before: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.sandbox and self.yolo:
            raise PermissionsError("permissions: sandbox and yolo exclude each other (sandbox runs only read, write, "
                                   "grep and glob; yolo approves everything)")
        both = sorted(self.allow & self.deny)
        if both:
            raise PermissionsError(f"permissions: {', '.join(both)} cannot be both allowed and denied")

    def decide(self, tool: str, *, messaging: bool = False) -> Decision:
        if tool in self.deny:
            return Decision("refuse", f"{tool!r} is denied for this run (permissions: deny)")
        if messaging:
            return Decision("ask" if tool in self.ask_before and not self.yolo else "run")
        if self.sandbox and tool not in SANDBOX_TOOLS:
            return Decision("refuse", f"this run is in sandbox mode: only {', '.join(sorted(SANDBOX_TOOLS))} run, "
                                      f"not {tool!r} (permissions: sandbox)")
        if self.yolo or tool in self.allow:
            return Decision("run")
        if self.strict:
            listed = ", ".join(sorted(self.allow)) or "none"
            return Decision("refuse", f"{tool!r} is not on this run's allow list ({listed}), and the run is strict "
                                      "(permissions: strict)")
        if tool in self.ask_before or self.allow:
            return Decision("ask")
        return Decision("run")

    @property
    def is_default(self) -> bool:
        return not (self.allow or self.deny or self.strict or self.sandbox or self.yolo)

    def as_dict(self) -> dict[str, Any]:
        """What is stored on the run and shown (the ask-before list is stored on its own)."""
        out: dict[str, Any] = {}
        if self.allow:
            out["allow"] = sorted(self.allow)
        if self.deny:
            out["deny"] = sorted(self.deny)
        out.update({name: True for name in ("strict", "sandbox", "yolo") if getattr(self, name)})
        return out


def parse(raw: Any, *, known: Iterable[str] | None, ask_before: Iterable[str] = ()) -> Permissions:
    """``{allow?, deny?, strict?, sandbox?, yolo?}`` (None: the default), each field checked and named when wrong;
    tool names must be ones this server knows (``known``; None when reading what was checked as the run was made:
    an MCP server gone since must not make a stored run unreadable)."""
    if raw is None:
        return Permissions(ask_before=frozenset(ask_before))
    if not isinstance(raw, dict):
        raise PermissionsError("permissions: expected an object with allow, deny, strict, sandbox, yolo")
    extra = sorted(set(raw) - {"allow", "deny", "strict", "sandbox", "yolo"})
    if extra:
        raise PermissionsError(f"permissions.{extra[0]}: unknown field (known: allow, deny, strict, sandbox, yolo)")
    names = set(known) if known is not None else None
    lists: dict[str, frozenset[str]] = {}
    for key in ("allow", "deny"):
        value = raw.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PermissionsError(f"permissions.{key}: expected a list of tool names")
        unknown = sorted(set(value) - names) if names is not None else []
        if unknown and names is not None:
            raise PermissionsError(f"permissions.{key}: unknown tool {unknown[0]!r} (known: {', '.join(sorted(names))})")
        lists[key] = frozenset(value)
    flags: dict[str, bool] = {}
    for key in ("strict", "sandbox", "yolo"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise PermissionsError(f"permissions.{key}: expected true or false")
        flags[key] = value
    return Permissions(allow=lists["allow"], deny=lists["deny"], ask_before=frozenset(ask_before), **flags)
