"""Pinned outputs benchmark: ``python bench/pins.py`` (from the repo root).

A 1,000-round repeat-until whose provider answers in 50 ms per call (the simulated provider's ``latency``), run
as it is, then with every round pinned (issue #33: a pinned execution takes its output without calling the
provider). Printed: wall time, provider calls (requests that were not pinned) and time per round of each, and the
load average. Target: pinned rounds cost no provider time (zero calls; what is left is the engine's own work per
round, microseconds, beside the 50 ms a call costs).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runtime.engine import RunOptions, run_workflow  # noqa: E402

LATENCY = 0.05  # seconds per provider call


class CallCountingSink:
    """Counts events, and the agent requests that reached a provider (a pinned one does not)."""

    def __init__(self) -> None:
        self.count = 0
        self.calls = 0
        self.pinned = 0

    async def emit(self, event: dict) -> None:
        self.count += 1
        if event.get("type") == "agent_turn":
            data = event.get("data") or {}
            if data.get("phase") == "request":
                if data.get("pinned"):
                    self.pinned += 1
                else:
                    self.calls += 1


def loop_doc(rounds: int) -> dict:
    return {"name": "bench-pins", "description": "Benchmark.",
            "steps": [{"id": "again", "instructions": "One more round.", "loop": {"maxIterations": rounds}}]}


async def timed(rounds: int, pins: dict | None) -> tuple[float, CallCountingSink, str]:
    sink = CallCountingSink()
    script = {"latency": LATENCY, "replies": {"again": ["a round's text"]}}
    started = time.perf_counter()
    result = await run_workflow(loop_doc(rounds), RunOptions(run_id="bench", sink=sink, script=script, pins=pins))
    return time.perf_counter() - started, sink, result.status


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    rounds = args.rounds
    print(f"pinned outputs benchmark: {rounds} rounds, {LATENCY * 1000:.0f} ms per call (load average {load()})")
    pins = {f"again.{i}": {"content": "a pinned round's text"} for i in range(rounds)}
    rows = []
    for label, given in (("unpinned", None), ("pinned", pins)):
        wall, sink, status = asyncio.run(timed(rounds, given))
        rows.append((label, wall, sink, status))
        print(f"  {label:9} {wall:8.2f} s wall  {wall / rounds * 1e3:8.3f} ms/round  provider calls {sink.calls:5}  "
              f"pinned {sink.pinned:5}  events {sink.count}  ({status})")
    unpinned, pinned = rows[0], rows[1]
    saved = unpinned[1] - pinned[1]
    print(f"  provider time avoided: {saved:.2f} s ({saved / max(unpinned[1], 1e-9) * 100:.1f} % of the unpinned run); "
          f"pinned rounds called the provider {pinned[2].calls} times")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
