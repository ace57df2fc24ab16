"""Runs checked boundary by boundary: the engine's own checkpoint at every step and iteration boundary equals the
fold of the events up to it. Ten judged rounds, and a forEach of five items, to resume and fork from."""
from __future__ import annotations

import json

from runtime.engine.checkpoints import Checkpoint, Fold, boundaries, fold
from runtime.providers import get_provider
from runtime.providers.script import parse_script
from tests.support.engine_runs import doc, run_with_checkpoints


def assert_fold_matches_engine(events: list[dict], taken: list[Checkpoint], start: Checkpoint | None = None) -> None:
    assert taken, "the run had no boundary"
    assert [c.seq for c in taken] == [b.seq for b in boundaries(events)]
    incremental = Fold.starting_from(start) if start else Fold()
    remaining = iter(events)
    for checkpoint in taken:
        assert fold(events, upto=checkpoint.seq, start=start) == checkpoint, f"differs at seq {checkpoint.seq}"
        for event in remaining:  # the same fold, fed piece by piece up to this boundary
            incremental.apply(event)
            if event["seq"] == checkpoint.seq:
                break
        assert incremental.checkpoint() == checkpoint
        assert json.loads(json.dumps(checkpoint.as_dict())) == checkpoint.as_dict()  # plain JSON


JUDGE = """
  judge:
    description: "Decides if the cycle is done."
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {type: boolean}
        reason: {type: string}
"""


class Counting:
    """A provider that counts the calls it passes on, by the step they were for."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.calls: list[str] = []

    async def chat(self, request, on_delta=None):
        self.calls.append(request.step_path)
        return await self.inner.chat(request, on_delta)

    def __getattr__(self, name):
        return getattr(self.inner, name)


TEN_ROUNDS = f"""
name: ten rounds
agents:
  {JUDGE}
steps:
  - id: plan
    instructions: "Plan."
  - id: write
    dependsOn: [plan]
    instructions: "Write."
    loop:
      maxIterations: 10
      untilAgent: judge
      outputMode: cumulative
  - id: publish
    dependsOn: [write]
    instructions: "Publish."
"""
# Replies keyed by the namespaced id, so a round gets the same answer whichever run asks.
TEN_SCRIPT = {
    "replies": {**{f"write.{i}": [f"draft {i}"] for i in range(10)},
                "judge": [{"content": "again", "result": {"done": False, "reason": "more"}}],
                "write.9.untilAgent": [{"content": "good", "result": {"done": True, "reason": "enough"}}]},
    "tokens": {"prompt": 11, "completion": 4},
}


async def counted_run(document: dict, replies: dict, start: Checkpoint | None = None):
    """(result, sink, the steps the provider was called for); the engine's checkpoints checked on the way."""
    provider = Counting(get_provider("simulated", script=parse_script(replies)))
    result, sink, taken = await run_with_checkpoints(document, providers={"simulated": provider}, start=start)
    assert_fold_matches_engine(sink.events, taken, start)
    return result, sink, provider.calls


async def ten_rounds(start=None):
    return await counted_run(doc(TEN_ROUNDS), TEN_SCRIPT, start)


EACH = """
name: fan
steps:
  - id: each
    instructions: "Handle."
    loop: {forEach: [a, b, c, d, e], maxConcurrency: 2, outputMode: cumulative}
  - id: sum
    dependsOn: [each]
    instructions: "Sum up."
"""
EACH_SCRIPT = {"replies": {**{f"each[{i}]": [f"item {i}"] for i in range(5)}, "sum": ["total"]}}
