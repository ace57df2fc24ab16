"""Engine runs for tests: documents and scripts from YAML, a run with a ListSink (and the engine's checkpoints), what its events say."""
from __future__ import annotations

import asyncio
import textwrap

from ruamel.yaml import YAML

from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink


def doc(text: str) -> dict:
    return YAML(typ="safe", pure=True).load(textwrap.dedent(text))


def script(text: str) -> dict:
    return YAML(typ="safe", pure=True).load(textwrap.dedent(text))


class InstantSleep:
    """A sleep for loop ``delay`` that records what it was asked and returns at once."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        await asyncio.sleep(0)


async def run(document: dict, script=None, **kw):
    sink = kw.pop("sink", None) or ListSink()
    kw.setdefault("sleep", InstantSleep())
    options = RunOptions(run_id=kw.pop("run_id", "test-run"), sink=sink, script=script, **kw)
    result = await run_workflow(document, options)
    return result, sink


def ids_of(sink: ListSink, type_: str) -> list[str]:
    return [e.get("stepId") for e in sink.events if e["type"] == type_]


def step_end(sink: ListSink, step_id: str) -> dict:
    return next(e for e in sink.events if e["type"] == "step_end" and e.get("stepId") == step_id)


def prompts(sink: ListSink, step_id: str) -> list[str]:
    return [e["data"]["prompt"]["user"] for e in sink.events
            if e["type"] == "agent_turn" and e.get("stepId") == step_id and "prompt" in e.get("data", {})]


async def run_with_checkpoints(document: dict, script=None, **kw):
    """``run``, keeping the engine's own checkpoint at every boundary: (result, sink, checkpoints)."""
    taken: list = []
    result, sink = await run(document, script, on_boundary=taken.append, **kw)
    return result, sink, taken
