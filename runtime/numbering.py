"""How the runner names a loop's rounds and items in words people read (run reasons, messages, errors): the one
numbering rule, the same as every page's (frontend/src/run/labels.ts, docs/format.md "Numbering").

Events, ids and API fields count from 0, as the format writes ids (``write.2``, ``each[305]``); people read
rounds and items counted from 1, with the id beside when it helps find the events: "item 306 (each[305])".
"""
from __future__ import annotations

from runtime.contract import locate


def ordinal(key: int) -> int:
    """A 0-based round or item number as people count it."""
    return key + 1


def iteration_id(loop: str, key: int, kind: str) -> str:
    """The id the format gives an iteration: ``write.2`` (a repeat-until round), ``each[305]`` (a forEach item)."""
    return f"{loop}[{key}]" if kind in ("forEach", "item") else f"{loop}.{key}"


def iteration_words(loop: str, key: int, kind: str) -> str:
    """"item 306 (each[305])", "round 3 (write.2)": the 1-based word with the id beside."""
    noun = "item" if kind in ("forEach", "item") else "round"
    return f"{noun} {ordinal(key)} ({iteration_id(loop, key, kind)})"


def step_words(path: str) -> str:
    """A step by its namespaced id: "step plan", "step draft of round 3 of write", "step check of item 2 of each"."""
    where = locate(path) or {}
    if not where.get("loop") or not where.get("inner"):
        return f"step {path}"
    kind = "item" if "item" in where else "round"
    return f"step {where['inner']} of {kind} {ordinal(int(where.get('item', where.get('iteration')) or 0))} of {where['loop']}"


def place_words(place: dict | None) -> str:
    """A boundary or a fork point (``{kind, step, iteration?}``) in words: "round 3 of write", "item 2 of each",
    "step plan"; "its start" for none."""
    if not place:
        return "its start"
    if place.get("iteration") is None:
        return step_words(str(place["step"]))
    noun = "item" if place.get("kind") == "item" else "round"
    return f"{noun} {ordinal(int(place['iteration']))} of {place['step']}"
