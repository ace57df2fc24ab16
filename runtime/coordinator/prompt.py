"""What the coordinator is told: our own words, written to upstream's documented behaviour.

Upstream's coordinator narrates once per significant event and never repeats itself, addresses steps
with the ids it saw in the events, stops when nothing new happens, and gets a fresh list of the step ids
it can target with every continuation turn. :func:`system_prompt` says the first three;
:func:`wake_prompt` carries each wake's news with that list; :func:`final_prompt` asks for the synthesis
once the steps have ended.
"""
from __future__ import annotations

from collections.abc import Sequence

from runtime.coordinator.modes import Mode
from runtime.messaging import InboxItem

_ROLE = """You are the coordinator of a running workflow named {name!r}. {goal}
Step agents do the work; you watch them. You are woken whenever something happens: a step starts, ends, is \
skipped or fails, or a step agent sends you a message. Each wake lists what happened since the last one.

How to work:
- Step ids inside loops and includes are namespaced: round N of repeat-until loop `loop` runs `loop.N.inner`, \
item N of a forEach runs `loop[N].inner`, an included step is `include.inner`. Address steps only with ids you \
were shown, preferably from the list of targetable ids of your latest wake; a step that has ended or not yet \
started cannot be reached, and a loop or include itself has no agent to read a message.
- Forward a message (forward_to_agent) only when it helps a running step do its task: context another step \
produced, a correction, or a cancel. Do not echo a step's own message back to it.
{narrate}- When a wake brings nothing new or significant, answer with a short plain reply and call no tool.
- When you are told the run's steps have all ended, call finalize once with the synthesis: what was done, \
what came out of it, and what is left open."""

_NARRATE = """- Narrate (narrate) once per significant event, for the people watching: one or two plain \
sentences on what happened and why it matters. Never repeat or paraphrase an earlier narration, and do not \
narrate routine starts one by one.
"""

_SUMMARY_ONLY = """- You do not narrate: the people watching read only your final synthesis.
"""


def system_prompt(mode: Mode, name: str, goal: str) -> str:
    goal_text = f"Its goal: {goal}" if goal else ""
    return _ROLE.format(name=name or "workflow", goal=goal_text,
                        narrate=_NARRATE if mode == "narrate" else _SUMMARY_ONLY)


def _item_line(item: InboxItem) -> str:
    if item.source == "message":
        kind = "" if item.kind == "info" else f" ({item.kind})"
        return f"- message {item.id} from {item.sender}{kind}: {item.text}"
    return f"- {item.text}"


def targets_line(targets: Sequence[str]) -> str:
    return ("Step ids you can target now: " + ", ".join(targets)) if targets else \
        "No step is running now: there is nobody to forward to."


def wake_prompt(cycle: int, items: Sequence[InboxItem], targets: Sequence[str]) -> str:
    """One wake's news, oldest first, and the ids that can be targeted now."""
    lines = [f"Wake {cycle}: what happened since your last wake:", *(_item_line(i) for i in items),
             "", targets_line(targets)]
    return "\n".join(lines)


def final_prompt(cycle: int, items: Sequence[InboxItem], status: str) -> str:
    """The last wake: what was still pending, and the request for the synthesis."""
    news = [f"Wake {cycle}: what happened since your last wake:", *(_item_line(i) for i in items), ""] if items else []
    return "\n".join([*news, f"The run's steps have all ended (status: {status}). Nothing can be forwarded any "
                              "more. Call finalize once now with your synthesis of the run."])
