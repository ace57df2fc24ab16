"""How a message's ``to`` finds a mailbox among the run's step executions.

Step ids are namespaced at run time: a repeat-until round's inner step is ``loop.N.inner`` (a
single-step round is ``loop.N``), a forEach item's ``loop[i].inner`` (single-step: ``loop[i]``), an
included step ``include_step.inner``. As upstream's coordinator does, ``to`` may be:

* the exact namespaced id of a running execution (or ``coordinator``): delivered there;
* a loop or include container's own id: refused, because no agent reads a container's mailbox (the
  answer names what runs inside it, so the sender can pick one);
* the id of an execution that has finished: ``target-terminal``;
* a bare id (``worker``) naming exactly one running execution by its own step id: delivered there.
  Naming several (two forEach items running at once) is ambiguous and, like an id nobody has, refused
  as ``unknown-step`` with the ids that can be targeted now. A bare id whose executions have all
  finished is ``target-terminal``.

A step id is never a number, so the bare id of ``loop.3`` (a single-step round) is ``loop``.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from runtime.messaging.messages import COORDINATOR

_INDEX = re.compile(r"\[\d+\]$")

Outcome = Literal["open", "container", "terminal", "unknown", "ambiguous"]


def bare_id(path: str) -> str:
    """The step id an execution was written with: ``a[2].b.3.c`` -> ``c``, ``loop.3`` -> ``loop``,
    ``deploy[0]`` -> ``deploy``, ``deploy-staging.run-tests`` -> ``run-tests``."""
    parts = path.split(".")
    last = parts[-1]
    if last.isdigit() and len(parts) > 1:  # a single-step repeat-until round: the loop's own id
        last = parts[-2]
    return _INDEX.sub("", last)


def inside(path: str, container: str) -> bool:
    """``path`` runs inside ``container`` (``loop`` holds ``loop.1.a`` and ``loop[0]``, not ``loops.a``)."""
    return path.startswith((container + ".", container + "["))


@dataclass(frozen=True)
class Resolution:
    """Where a ``to`` leads. ``target``: the mailbox (``open``, ``terminal``) or ``to`` as written;
    ``candidates``: the ids a refusal offers (the matches when ambiguous, what runs inside a container,
    every running step when unknown), sorted."""

    outcome: Outcome
    target: str
    candidates: tuple[str, ...] = ()


def resolve(to: str, running: Collection[str], finished: Sequence[str], containers: Collection[str]) -> Resolution:
    """Resolve ``to`` against the running executions, the finished ones (oldest first) and the containers."""
    if to in running:
        return Resolution("open", to)
    if to in containers:
        return Resolution("container", to, tuple(sorted(p for p in running if inside(p, to))))
    if to in finished:
        return Resolution("terminal", to)
    if bare_id(to) == to and to != COORDINATOR:
        matches = sorted(p for p in running if p != COORDINATOR and bare_id(p) == to)
        if len(matches) == 1:
            return Resolution("open", matches[0])
        if matches:
            return Resolution("ambiguous", to, tuple(matches))
        ended = [p for p in finished if bare_id(p) == to]
        if ended:
            return Resolution("terminal", ended[-1])
    return Resolution("unknown", to, targetable(running))


def targetable(running: Collection[str]) -> tuple[str, ...]:
    """The step ids a message can be forwarded to now (the coordinator is reached by ``send_message``)."""
    return tuple(sorted(p for p in running if p != COORDINATOR))
