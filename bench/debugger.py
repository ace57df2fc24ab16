"""Breakpoint checks' cost: ``python bench/debugger.py`` (from the repo root).

The 10,000-item forEach of ``bench/runtime.py`` (maxConcurrency 100, zero-latency simulated provider) has two
step boundaries per item the debugger is asked at (before the item, before its step): 20,001 in all. It runs

* without a debugger (the baseline: what every run without breakpoints does, one attribute test per boundary),
* with a debugger holding no breakpoint,
* with ten breakpoints set that never hold (five on the loop's items, five on its step in rounds it never has:
  each boundary looks all of its candidates over),

and prints the engine's CPU time per boundary above the baseline (targets: at most 5 µs with none set, 20 µs
with ten). Whole-run figures on a shared machine move by more than these costs, so the check itself is also
timed alone, as the engine calls it, per boundary (``direct``). Best of ``--repeat`` runs (default 3).
"""
from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runtime.engine import RunOptions, run_workflow  # noqa: E402
from runtime.engine.debugger import Debugger  # noqa: E402
from runtime.events import NullSink  # noqa: E402

ITEMS = 10_000
TEN = ([{"id": f"i{k}", "kind": "round", "step": "each", "item": ITEMS + k} for k in range(5)]
       + [{"id": f"s{k}", "kind": "step", "step": "each", "item": ITEMS + k} for k in range(5)])


def foreach_doc(items: int, concurrency: int) -> dict:
    return {"name": "bench-foreach", "description": "Benchmark.",
            "steps": [{"id": "each", "instructions": "Handle this item.",
                       "loop": {"forEach": list(range(items)), "maxConcurrency": concurrency}}]}


async def one(document: dict, breakpoints: list[dict] | None) -> tuple[float, float, int]:
    """(wall, CPU, boundaries) of one run."""
    sink = NullSink()
    debugger = Debugger(breakpoints) if breakpoints is not None else None
    cpu, wall = time.process_time(), time.perf_counter()
    result = await run_workflow(document, RunOptions(run_id="bench", sink=sink, debugger=debugger))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert result.status == "completed", result.reason
    return wall, cpu, 2 * ITEMS + 1


async def best(repeat: int, document: dict, breakpoints: list[dict] | None) -> tuple[float, float, int]:
    runs = [await one(document, breakpoints) for _ in range(repeat)]
    return min(runs, key=lambda r: r[1])


class _Ctx:
    """What the checks read of a run's context when nothing holds."""

    debugger: Debugger | None = None


async def direct(breakpoints: list[dict] | None, n: int = 200_000) -> float:
    """µs per boundary of the check alone, as steps.run_step and loops call it when nothing holds."""
    ctx = _Ctx()
    ctx.debugger = Debugger(breakpoints) if breakpoints is not None else None
    step, variables = {"id": "each", "instructions": "x"}, {"item": 3, "index": 3}

    async def never() -> None:
        raise AssertionError("nothing holds here")

    started = time.perf_counter()
    for i in range(n // 2):
        if ctx.debugger is not None:
            await ctx.debugger.before_round(ctx, "each", "each", i % ITEMS, True, never)
            await ctx.debugger.before_step(ctx, step, f"each[{i}]", variables, never, dict)
    return (time.perf_counter() - started) / n * 1e6


async def main(repeat: int) -> None:
    print(f"breakpoint check benchmarks (best of {repeat}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores)")
    document = foreach_doc(ITEMS, 100)
    await one(foreach_doc(200, 100), None)  # warm up imports and caches
    base_wall, base_cpu, boundaries = await best(repeat, document, None)
    print(f"forEach {ITEMS} items, maxConcurrency 100, zero-latency simulated provider: {boundaries} boundaries")
    print(f"   baseline (no debugger): wall {base_wall:.2f} s, CPU {base_cpu:.2f} s, "
          f"{base_cpu / boundaries * 1e6:.1f} µs CPU per boundary in all")
    for label, breakpoints, target in (("no breakpoint set", [], 5.0), ("ten breakpoints set", TEN, 20.0)):
        wall, cpu, _ = await best(repeat, document, breakpoints)
        over = (cpu - base_cpu) / boundaries * 1e6
        alone = await direct(breakpoints)
        verdict = "PASS" if max(alone, over) <= target else ("PASS on direct" if alone <= target else "FAIL")
        print(f"   {label}: wall {wall:.2f} s, CPU {cpu:.2f} s; per boundary above the baseline {over:+.2f} µs, "
              f"direct {alone:.2f} µs (target <= {target:.0f} µs): {verdict}")
    print(f"   direct, no debugger (the attribute test): {await direct(None):.3f} µs per boundary")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(parser.parse_args().repeat))
