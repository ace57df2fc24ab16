"""OpenTelemetry traces' cost to a run: ``python bench/tracing.py`` (from the repo root).

The fan-out of bench/runtime.py (1,000 forEach items at maxConcurrency 100 against the loopback fake OpenAI
server answering in 50 ms) with traces off, on to a live collector (tests/fakes/otlp.py in a process of its own,
decoding every request), and on to a dead one (a closed port): target within 5 % of traces off. Then the
engine's own cost per iteration with a zero-latency provider (10,000 items), off and on: what making the spans
costs on the event loop. Each figure is the best of ``--repeat`` runs; the load average is printed first, and the
spans delivered, failed and dropped after each traced run. A traced run's spans are flushed before the next run
starts: its wall time leaves the flush out, its CPU (every thread of the process) counts it.
"""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.support.settings")

import django  # noqa: E402

django.setup()

from bench.runtime import foreach_doc, pin, start_fake_openai  # noqa: E402
from runtime.engine import RunOptions, run_workflow  # noqa: E402
from runtime.events import NullSink  # noqa: E402
from runtime.live.tracing import Tracing  # noqa: E402
from runtime.providers import get_provider  # noqa: E402
from tests.fakes.otlp import closed_port_url  # noqa: E402
from tests.support.servers import free_port  # noqa: E402


def start_collector() -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from tests.fakes.otlp import main; main()", "--port", str(port)],  # noqa: S603
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    pin(proc.pid, 1)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"http://127.0.0.1:{port}/v1/traces"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the collector did not start")


async def timed(document: dict, tracing: Tracing | None, **kw) -> tuple[float, float]:
    sink = NullSink()
    traced = tracing.sink(sink, tracing.new_trace_id()) if tracing is not None else None
    cpu = time.process_time()
    started = time.perf_counter()
    result = await run_workflow(document, RunOptions(run_id="bench", sink=traced or sink, **kw))
    wall = time.perf_counter() - started
    if traced is not None:
        traced.close()
        # Its spans go out before the next run starts (not in its wall time; in its CPU, which counts every thread):
        # otherwise a run's export would fall on the next run measured.
        tracing.flush(30)
    assert result.status == "completed", result.reason
    return wall, time.process_time() - cpu


async def best(repeat: int, document: dict, tracing: Tracing | None, **kw) -> tuple[float, float]:
    runs = [await timed(document, tracing, **kw) for _ in range(repeat)]
    return min(runs)


def counts(tracing: Tracing) -> str:
    tracing.flush(15)
    return f"spans delivered {tracing.exported}, failed {tracing.failed}, dropped {tracing.dropped}"


async def main(repeat: int) -> None:
    print(f"tracing benchmarks (best of {repeat}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    collector, url = start_collector()
    live = Tracing(url)
    dead = Tracing(closed_port_url(), timeout_s=2)
    latency, n, concurrency = 0.05, 1_000, 100
    proc, port = start_fake_openai(latency)
    pin(0, 0)
    try:
        provider = get_provider("openai", base_url=f"http://127.0.0.1:{port}/v1", api_key="bench",
                                max_connections=concurrency)
        kw = {"providers": {"openai": provider}, "default_provider": "openai"}
        document = foreach_doc(n, concurrency, "openai/bench")
        await timed(foreach_doc(concurrency, concurrency, "openai/bench"), None, **kw)  # open the connections
        await timed(foreach_doc(concurrency, concurrency, "openai/bench"), live, **kw)  # warm the exporter
        off = on = gone = (float("inf"), 0.0)
        for _ in range(repeat):  # interleaved, so that a change of load falls on all three alike
            off = min(off, await timed(document, None, **kw))
            on = min(on, await timed(document, live, **kw))
            gone = min(gone, await timed(document, dead, **kw))
        await provider.aclose()
    finally:
        proc.terminate()
        proc.wait(5)
    ideal = n / concurrency * latency
    print(f"1. forEach {n} items, maxConcurrency {concurrency}, loopback fake OpenAI server at {latency * 1000:.0f} ms "
          f"(ideal {ideal:.3f} s)")
    print(f"   traces off:           wall {off[0]:.3f} s, CPU {off[1] / n * 1e6:.0f} µs per request")
    over = (on[0] / off[0] - 1) * 100
    print(f"   on, live collector:   wall {on[0]:.3f} s, CPU {on[1] / n * 1e6:.0f} µs per request, {over:+.1f} % "
          f"(target within 5 %): {'PASS' if over <= 5 else 'FAIL'}; {counts(live)}")
    over = (gone[0] / off[0] - 1) * 100
    print(f"   on, dead collector:   wall {gone[0]:.3f} s, CPU {gone[1] / n * 1e6:.0f} µs per request, {over:+.1f} % (target within 5 %): "
          f"{'PASS' if over <= 5 else 'FAIL'}; {counts(dead)}")

    items = 10_000
    await timed(foreach_doc(200, 100), live)
    off = await best(repeat, foreach_doc(items, 100), None)
    on = await best(repeat, foreach_doc(items, 100), live)
    print(f"2. forEach {items} items, maxConcurrency 100, zero-latency simulated provider: the engine's own cost")
    print(f"   per iteration: off wall {off[0] / items * 1e6:.0f} µs (CPU {off[1] / items * 1e6:.0f} µs), "
          f"on wall {on[0] / items * 1e6:.0f} µs (CPU {on[1] / items * 1e6:.0f} µs); {counts(live)}")
    collector.terminate()
    collector.wait(5)
    live.shutdown(1)
    dead.shutdown(0.1)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    asyncio.run(main(parser.parse_args().repeat))
