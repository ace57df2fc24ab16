"""State reconstruction: ``python bench/durable.py`` (from the repo root).

A run of at least 10,000 events (a forEach of items with two inner steps, then a
judged repeat-until loop, simulated provider) is recorded as the database stores
it, one JSON text per event. Figures, median and p95 of each:

1. the baseline: ``json.loads`` of every stored event (what reading the run costs anyway);
2. the fold of the parsed events into the run's final checkpoint (:func:`runtime.checkpoints.fold`);
3. the fold up to the middle boundary (a checkpoint to resume or fork from);
4. both together: stored text to checkpoint.

Target: the fold (2) of a 10,000-event run in at most 200 ms.
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import summary, timings  # noqa: E402
from runtime.checkpoints import boundaries, fold  # noqa: E402
from runtime.engine import run_workflow  # noqa: E402
from runtime.events import ListSink  # noqa: E402

TARGET_EVENTS = 10_000


def event_json(event: dict) -> str:
    # As runtime.recorder.event_json stores it (that module needs Django set up; the fold does not).
    return json.dumps(event, separators=(",", ":"), default=str)

TARGET_MS = 200.0


def document(items: int, rounds: int) -> dict:
    judge = {"description": "Decides when it is done.",
             "resultSchema": {"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}}}}
    return {
        "name": "bench-durable", "description": "Benchmark.",
        "agents": {"worker": {"description": "Works."}, "judge": judge},
        "steps": [
            {"id": "each", "loop": {"forEach": list(range(items)), "maxConcurrency": 10,
                                    "steps": [{"id": "draft", "agent": "worker", "instructions": "Draft."},
                                              {"id": "check", "agent": "worker", "dependsOn": ["draft"],
                                               "instructions": "Check."}]}},
            {"id": "refine", "dependsOn": ["each"], "agent": "worker", "instructions": "Refine.",
             "loop": {"maxIterations": rounds, "untilAgent": "judge", "outputMode": "cumulative"}},
        ],
    }


async def record(items: int, rounds: int) -> list[dict]:
    sink = ListSink()
    result = await run_workflow(document(items, rounds), run_id="bench", sink=sink)
    assert result.status in ("completed", "failed"), result.reason
    return sink.events


def main(repeat: int = 20) -> None:
    print(f"state reconstruction benchmark (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores)")
    items, rounds = 500, 50
    events = asyncio.run(record(items, rounds))
    while len(events) < TARGET_EVENTS:
        items += 100
        events = asyncio.run(record(items, rounds))
    texts = [event_json(e) for e in events]
    parsed = [json.loads(t) for t in texts]
    middle = boundaries(parsed)[len(boundaries(parsed)) // 2].seq
    final = fold(parsed)
    print(f"run: {len(events)} events, {len(boundaries(parsed))} boundaries, {len(final.steps)} steps, "
          f"{sum(len(loop['iterations']) for loop in final.loops.values())} iterations; "
          f"{sum(len(t) for t in texts) / 1e6:.1f} MB stored")

    baseline = timings(lambda: [json.loads(t) for t in texts], repeat)
    whole = timings(lambda: fold(parsed), repeat)
    half = timings(lambda: fold(parsed, upto=middle), repeat)
    both = timings(lambda: fold(json.loads(t) for t in texts), repeat)
    for label, samples in [("1. baseline: json.loads of every event", baseline), ("2. fold to the last event", whole),
                           (f"3. fold to the middle boundary (seq {middle})", half),
                           ("4. stored text to checkpoint (1 + 2)", both)]:
        print(f"  {label:46s} {summary(samples)}")
    median = statistics.median(whole) * 1000
    print(f"  target: fold of {len(events)} events <= {TARGET_MS:.0f} ms: "
          f"{'PASS' if median <= TARGET_MS else 'FAIL'} ({median:.1f} ms median)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
