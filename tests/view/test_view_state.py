"""The server's view of a run: built live (a snapshot at any moment, then patches) it equals the view rebuilt
from the stored events, for every upstream example and for random loops with failures, retries, judges and
policies; and its size follows the run's shape, not its length."""
from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.documents import load_source
from runtime.engine.policies import Policies
from runtime.live.view.state import RunView
from tests.support.engine_runs import doc, run

SPEC = Path(__file__).resolve().parents[2].parent / "shared" / "zenflow-spec-v1"
EXAMPLES = sorted((SPEC / "examples").glob("*.yaml"))


def watched(events: list[dict], rng: random.Random) -> dict:
    """What a watcher holds: it connects at a random moment (a snapshot), then gets a patch at random flushes."""
    view = RunView()
    connect_at = rng.randrange(len(events) + 1)
    client = None
    for i, event in enumerate(events):
        if i == connect_at:
            view.patch()  # what was pending goes to the sockets already there; the newcomer gets a snapshot
            client = view.snapshot()
        view.apply(event)
        if client is not None and rng.random() < 0.3:
            patch = view.patch()
            if patch:
                RunView.merge(client, patch)
    if client is None:
        view.patch()
        client = view.snapshot()
    final = view.patch()
    if final:
        RunView.merge(client, final)
    return json.loads(json.dumps(client))


def rebuilt(events: list[dict]) -> dict:
    return json.loads(json.dumps(RunView.of(events).snapshot()))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
async def test_live_equals_rebuilt_for_every_upstream_example(path):
    loaded = load_source(path.read_text(), filename=str(path))
    _, sink = await run(loaded.document, base_dir=path.parent)
    events = json.loads(json.dumps(sink.events))
    for seed in range(5):
        assert watched(events, random.Random(seed)) == rebuilt(events)


LOOPS = """
    version: 1
    agents:
      w: {description: works}
      judge:
        description: judges
        resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, reason: {type: string}}}
    steps:
      - id: each
        agent: w
        loop: {forEach: [0, 1, 2, 3, 4, 5, 6, 7], maxConcurrency: 3}
      - id: refine
        agent: w
        dependsOn: [each]
        retries: 1
        loop: {maxIterations: 6, untilAgent: judge, until: steps.refine.content.contains("DONE")}
      - {id: after, agent: w, dependsOn: [refine]}
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["ok", "DONE", "fail"]), min_size=1, max_size=12),
       st.lists(st.booleans(), min_size=1, max_size=6), st.sampled_from(["abort", "skip", "retry"]),
       st.integers(0, 10_000))
def test_live_equals_rebuilt_for_random_loops_with_failures_retries_and_judges(replies, verdicts, on_error, seed):
    script = {"replies": {
        "each": [{"error": "boom"} if r == "fail" else r for r in replies],
        "refine": [{"error": "flaky"} if r == "fail" else r for r in reversed(replies)],
        "judge": [{"content": "v", "result": {"done": d, "reason": f"r{i}"}} for i, d in enumerate(verdicts)],
    }}
    policies = Policies.from_dict({"on_iteration_error": on_error})
    _, sink = asyncio.run(run(doc(LOOPS), script, policies=policies))
    events = json.loads(json.dumps(sink.events))
    view = rebuilt(events)
    assert watched(events, random.Random(seed)) == view
    # The view agrees with the run's own record at the end.
    end = events[-1]
    assert view["run"]["status"] == end["data"]["status"]
    assert view["run"]["tokens"] == end["tokens"]
    each = view["loops"]["each"]
    assert sum(each["counts"].values()) == len(view["items"]["each"].replace(".", "").replace("r", ""))


async def test_a_big_foreach_keeps_a_small_view():
    items = 3000
    document = {"version": 1, "name": "big", "steps": [
        {"id": "each", "instructions": "x", "loop": {"forEach": list(range(items)), "maxConcurrency": 50}}]}
    _, sink = await run(document, {"replies": {"each": ["done"]}})
    view = RunView.of(sink.events)
    snap = view.snapshot()
    assert snap["items"]["each"] == "c" * items
    assert snap["loops"]["each"]["counts"] == {"completed": items}
    chart = len(json.dumps(snap.pop("rounds")))
    assert chart < 60_000, chart  # at most 500 buckets, whatever the number of items
    size = len(json.dumps(snap))
    assert size < 80_000, size  # the grid string and a bounded rest, not one entry per event
    assert len(sink.events) > 5 * items
