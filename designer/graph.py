"""Dependency graphs of one scope: topological order and cycles.

A scope is a list of steps (the top level, one ``loop.steps``, an included
file). Ties are broken by document order, so the order is deterministic and
a linear chain comes out as written.
"""
from __future__ import annotations

import heapq
from typing import Any


def _deps(step: Any) -> list[str]:
    deps = step.get("dependsOn") if isinstance(step, dict) else None
    return [d for d in deps if isinstance(d, str)] if isinstance(deps, list) else []


def _ids(steps: list) -> list[str]:
    return [s["id"] for s in steps if isinstance(s, dict) and isinstance(s.get("id"), str)]


def topo_order(steps: list) -> list[str]:
    """Step ids in an order where every step follows its dependencies.

    Dependencies on unknown ids are ignored; steps on a cycle are left out
    (the validator reports cycles separately).
    """
    ids = _ids(steps)
    position = {step_id: i for i, step_id in enumerate(ids)}
    pending: dict[str, int] = {}
    dependents: dict[str, list[str]] = {step_id: [] for step_id in ids}
    for step in steps:
        if not isinstance(step, dict) or not isinstance(step.get("id"), str) or step["id"] not in position:
            continue
        known = {d for d in _deps(step) if d in position}
        pending[step["id"]] = len(known)
        for dep in known:
            dependents[dep].append(step["id"])
    ready = [(position[s], s) for s, n in pending.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, step_id = heapq.heappop(ready)
        order.append(step_id)
        for child in dependents[step_id]:
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(ready, (position[child], child))
    return order


def find_cycles(steps: list) -> list[list[str]]:
    """Each distinct cycle once, as the ids along it (first id repeated at the end)."""
    graph: dict[str, list[str]] = {}
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("id"), str):
            graph.setdefault(step["id"], []).extend(_deps(step))
    color: dict[str, int] = {}
    cycles: list[list[str]] = []
    seen: set[frozenset] = set()
    for start in graph:
        if color.get(start):
            continue
        stack = [(start, iter(graph.get(start, [])))]
        path = [start]
        color[start] = 1
        while stack:
            node, children = stack[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if color.get(child) == 1:
                    cycle = [*path[path.index(child):], child]
                    key = frozenset(cycle)
                    if key not in seen:
                        seen.add(key)
                        cycles.append(cycle)
                elif not color.get(child):
                    color[child] = 1
                    path.append(child)
                    stack.append((child, iter(graph.get(child, []))))
                    advanced = True
                    break
            if not advanced:
                color[node] = 2
                path.pop()
                stack.pop()
    return cycles


def terminal_ids(steps: list) -> list[str]:
    """The steps no other step of the scope depends on, in document order.

    Their outputs are the scope's output: a loop iteration's content is their
    contents joined (one terminal: its result too), and so is an include's.
    """
    used = {d for step in steps for d in _deps(step)}
    return [step_id for step_id in _ids(steps) if step_id not in used]


def iteration_outputs(document: Any) -> dict[str, list[str]]:
    """For each loop step with inner steps, by its JSON pointer: the inner step its iterations' output comes from
    (when it completes; else the one before it)."""
    out: dict[str, list[str]] = {}

    def walk(steps: Any, base: str) -> None:
        if not isinstance(steps, list):
            return
        for i, step in enumerate(steps):
            loop = step.get("loop") if isinstance(step, dict) else None
            if isinstance(loop, dict) and isinstance(loop.get("steps"), list) and loop["steps"]:
                # The engine's rule (upstream's): the last inner step, in the order written, that completed.
                out[f"{base}/{i}"] = _ids(loop["steps"])[-1:]
                walk(loop["steps"], f"{base}/{i}/loop/steps")

    if isinstance(document, dict):
        walk(document.get("steps"), "/steps")
    return out
