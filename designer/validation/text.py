"""Text that shows one thing and says another: bidirectional override characters are refused.

The embedding and override characters U+202A..U+202E and the isolates U+2066..U+2069
reorder how text is displayed, so an instruction can read as harmless in an editor or a
review while the model is sent something else. zenflow's parser refuses them ("unicode-unsafe")
in the workflow's ``name`` and ``description``, step ids and ``instructions``, and agent
``prompt`` texts; so do we, in every scope (steps inside loops too), and in agent
``description`` texts as well, which this runtime puts into the agent's prompt.

Each one found is an error naming the field (its JSON pointer, and so its line), the
character and where in the text it stands. Other control characters are not refused: the
runtime strips them before a prompt is built (:mod:`runtime.engine.prompting`).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from designer.diagnostics import Diagnostic, pointer

BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def text_diagnostics(document: Any) -> list[Diagnostic]:
    if not isinstance(document, dict):
        return []
    out = []
    for path, text in _texts(document):
        if text.isascii():
            continue
        found = BIDI_CONTROLS.search(text)
        if found:
            out.append(_refused(path, text, found.start()))
    return out


def _texts(document: dict) -> Iterator[tuple[list, str]]:
    for field in ("name", "description"):
        if isinstance(document.get(field), str):
            yield [field], document[field]
    agents = document.get("agents")
    if isinstance(agents, dict):
        for name, agent in agents.items():
            if isinstance(agent, dict):
                for field in ("description", "prompt"):
                    if isinstance(agent.get(field), str):
                        yield ["agents", name, field], agent[field]
    scopes: list[tuple[list, Any]] = [(["steps"], document.get("steps"))]
    while scopes:
        base, steps = scopes.pop()
        if not isinstance(steps, list):
            continue
        for i, step in enumerate(steps):
            if not isinstance(step, dict):
                continue
            for field in ("id", "instructions"):
                if isinstance(step.get(field), str):
                    yield [*base, i, field], step[field]
            loop = step.get("loop")
            if isinstance(loop, dict):
                scopes.append(([*base, i, "loop", "steps"], loop.get("steps")))


def _refused(path: list, text: str, at: int) -> Diagnostic:
    char = text[at]
    code_point = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "bidirectional control")
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    where = f"character {at + 1}" + (f" (line {line}, column {column} of the text)" if "\n" in text else "")
    more = len(BIDI_CONTROLS.findall(text)) - 1
    also = (f"; {more} more such characters follow" if more > 1 else "; one more follows") if more else ""
    field = _field_name(path)
    return Diagnostic(
        code="unicode_unsafe",
        path=pointer(*path),
        message=f"{field} holds a bidirectional control character, {code_point} {name}, at {where}{also}: "
                "it can make the text display differently from what it says",
        hint="delete it; right-to-left words need no override characters",
    )


def _field_name(path: list) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return f"`{out}`"
