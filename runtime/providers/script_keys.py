"""Which keys of a simulated script name something in the workflow, so a typo is said before the run, not found
after it as placeholder replies.

A call looks up its namespaced id (``rounds.2.draft``, ``each[4].fetch``, ``rounds.1.untilAgent``), its step id,
its agent's name (``default`` for a step without one), then ``*``; the coordinator only ``coordinator``
(runtime.providers.simulated.script_keys). A key matches when it could be one of those. Steps inside an included
workflow are not in the document, so any path under an include step matches.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any

# Keys every workflow has: the catch-all, the coordinator, a step without an agent, a loop's judge by its inner id.
ALWAYS = ("*", "coordinator", "default", "untilAgent")
# A namespaced id's parts: ids, `.N` for a round, `[N]` for an item (a single-step forEach's item is `each[4]`).
_PARTS = re.compile(r"\[(\d+)\]|([^.\[]+)")


def _steps(steps: Any) -> Iterator[dict]:
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict):
            yield step
            loop = step.get("loop")
            if isinstance(loop, dict):
                yield from _steps(loop.get("steps"))


def _ids(document: Any) -> tuple[list[str], list[str], set[str]]:
    """(step ids, agent names, include step ids) of the document, in the order written."""
    steps = list(_steps(document.get("steps") if isinstance(document, dict) else None))
    ids = [s["id"] for s in steps if isinstance(s.get("id"), str)]
    agents_field = document.get("agents") if isinstance(document, dict) else None
    agents = [str(a) for a in agents_field] if isinstance(agents_field, dict) else []
    includes = {s["id"] for s in steps if isinstance(s.get("id"), str) and "include" in s}
    return ids, agents, includes


def known_keys(document: Any) -> list[str]:
    """The plain keys a script may use for the document: its step ids, its agents' names, then the fixed ones."""
    ids, agents, _ = _ids(document)
    return list(dict.fromkeys([*ids, *agents, *ALWAYS]))


def _matches(key: str, ids: set[str], plain: set[str], includes: set[str]) -> bool:
    if key in plain:
        return True
    parts = [index or name for index, name in _PARTS.findall(key)]
    if len(parts) < 2 or parts[0] not in ids:
        return False
    if parts[0] in includes:
        return True
    return all(p.isdigit() or p in ids or p == "untilAgent" for p in parts[1:])


def unmatched(replies: Any, document: Any) -> list[str]:
    """The keys of a script's ``replies`` that name no step, agent or coordinator of ``document``, in the order written."""
    if not isinstance(replies, dict):
        return []
    ids, _agents, includes = _ids(document)
    plain = set(known_keys(document))
    return [str(k) for k in replies if not _matches(str(k), set(ids), plain, includes)]


def warnings(script: Any, document: Any) -> list[str]:
    """One sentence per unmatched key, naming it and the keys the workflow has (a close one first when there is)."""
    replies = script.get("replies") if isinstance(script, dict) else None
    missing = unmatched(replies, document)
    if not missing:
        return []
    known = known_keys(document)
    out = []
    for key in missing:
        close = _close(key, known)
        out.append(f"script key `{key}` names no step, agent or coordinator of this workflow, so its replies are never used"
                   f"{f' (did you mean `{close}`?)' if close else ''}; the workflow's keys: {', '.join(known)}, "
                   "or a namespaced id such as `loop.2.step` or `loop[0].step`")
    return out


def _close(key: str, known: list[str]) -> str | None:
    found = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return found[0] if found else None
