"""Agent tools: ``python bench/tools.py`` (from the repo root).

Each figure is printed beside the same operation done directly, in this process:

1. A sandboxed ``bash -c true`` round trip (bubblewrap, through the ``bash``
   tool) beside ``bash -c true`` as a plain subprocess. Target: p50 <= 15 ms.
2. ``read`` and ``write`` of a 10 kB file through the tools beside
   ``Path.read_bytes`` / ``write_bytes``. Target: <= 1 ms.
3. The per-iteration workspace snapshot (1,000 files, 10 changed since the
   last one) beside the least work that finds those changes: a walk with
   ``stat`` of every file plus hashing the 10 changed. Target: <= 50 ms.
4. A 200-item forEach at maxConcurrency 20 whose agents each make 3 tool
   calls (write, read, glob) in their first turn and answer in their second,
   against the fake OpenAI server (a separate process) at 50 ms per answer.
   The ideal is 10 waves x 2 answers x 50 ms = 1.0 s. Beside it, the same
   forEach with no tools (1 answer per item; ideal 0.5 s). Target: within 20 %
   of the ideal. A variant whose third call is ``bash`` is printed too (each a
   sandbox process: 200 of them at ~8 ms each on two cores).

The machine is shared: the load average is printed before and after.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.runtime import pin, start_fake_openai  # noqa: E402
from runtime import tools as registry  # noqa: E402
from runtime.engine import RunOptions, run_workflow  # noqa: E402
from runtime.events import NullSink  # noqa: E402
from runtime.providers import get_provider  # noqa: E402
from runtime.tools import ToolSettings  # noqa: E402
from runtime.tools.session import MemoryStore, RunTools  # noqa: E402
from runtime.tools.workspace import Workspace  # noqa: E402


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def line(name: str, samples: list[float], base: list[float], target_ms: float | None = None) -> str:
    p50, base50 = pct(samples, 0.5), pct(base, 0.5)
    verdict = "" if target_ms is None else f"  target <= {target_ms:g} ms: {'PASS' if p50 <= target_ms else 'FAIL'}"
    return (f"   {name:<34} p50 {p50:7.2f} ms  p95 {pct(samples, 0.95):7.2f} ms   | directly: p50 {base50:7.2f} ms  "
            f"p95 {pct(base, 0.95):7.2f} ms{verdict}")


async def bash_round_trip(n: int) -> None:
    ws = Workspace(tempfile.mkdtemp(prefix="bench-bash-"))
    tool, settings = registry.get("bash"), ToolSettings()
    sandboxed, direct = [], []
    for _ in range(5):
        await tool.run({"command": "true"}, ws, settings)
    for _ in range(n):
        started = time.perf_counter()
        await tool.run({"command": "true"}, ws, settings)
        sandboxed.append(time.perf_counter() - started)
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec("bash", "-c", "true", cwd=ws.root)
        await proc.wait()
        direct.append(time.perf_counter() - started)
    print("1. bash -c true round trip")
    print(line("sandboxed (bwrap) via the tool", sandboxed, direct, 15))
    shutil.rmtree(ws.root, ignore_errors=True)


async def read_write(n: int) -> None:
    ws = Workspace(tempfile.mkdtemp(prefix="bench-rw-"))
    content = "x" * 10_000
    write, read, settings = registry.get("write"), registry.get("read"), ToolSettings()
    w, r, dw, dr = [], [], [], []
    target = ws.ensure() / "direct.txt"
    for _ in range(n):
        started = time.perf_counter()
        await write.run({"path": "f.txt", "content": content}, ws, settings)
        w.append(time.perf_counter() - started)
        started = time.perf_counter()
        await read.run({"path": "f.txt"}, ws, settings)
        r.append(time.perf_counter() - started)
        started = time.perf_counter()
        target.write_bytes(content.encode())
        dw.append(time.perf_counter() - started)
        started = time.perf_counter()
        target.read_bytes()
        dr.append(time.perf_counter() - started)
    print("2. 10 kB file through the tools (path checks, fd re-check, a worker thread)")
    print(line("write", w, dw, 1))
    print(line("read", r, dr, 1))
    shutil.rmtree(ws.root, ignore_errors=True)


async def snapshots(rounds: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-snap-"))
    for i in range(1000):
        folder = root / f"pkg{i % 20}"
        folder.mkdir(exist_ok=True)
        (folder / f"file{i}.py").write_text(f"# file {i}\n" + "x = 1\n" * 100)
    tools = RunTools(root, store=MemoryStore())
    await tools.snapshot("start")
    taken, direct = [], []
    for r in range(rounds):
        changed = [root / f"pkg{(r * 10 + k) % 20}" / f"file{(r * 10 + k) % 1000}.py" for k in range(10)]
        for path in changed:
            path.write_text(path.read_text() + f"# round {r}\n")
        started = time.perf_counter()
        record = await tools.snapshot(f"iteration {r}")
        taken.append(time.perf_counter() - started)
        assert record is not None and len(record.changes.modified) == 10, record
        started = time.perf_counter()
        for dirpath, _, names in os.walk(root):
            for name in names:
                os.stat(os.path.join(dirpath, name))
        for path in changed:
            hashlib.sha256(path.read_bytes()).hexdigest()
        direct.append(time.perf_counter() - started)
    print("3. workspace snapshot, 1,000 files with 10 changed (manifest, hashes, blobs kept)")
    print(line("snapshot", taken, direct, 50))
    shutil.rmtree(root, ignore_errors=True)


def fan_out_doc(items: int, concurrency: int, with_tools: bool) -> dict:
    agent = {"description": "Works on one item.", "model": "openai/gpt-bench"}
    agent["tools"] = ["write", "read", "glob", "bash"] if with_tools else []
    return {"version": 1, "name": "tools-bench", "agents": {"worker": agent},
            "steps": [{"id": "each", "agent": "worker", "instructions": "Handle ${item}.",
                       "loop": {"forEach": list(range(items)), "maxConcurrency": concurrency}}]}


async def fan_out(calls: list[dict] | None, items: int = 200, concurrency: int = 20, latency: float = 0.05) -> tuple[float, str]:
    proc, port = start_fake_openai(latency, calls)
    provider = get_provider("openai", base_url=f"http://127.0.0.1:{port}/v1", api_key="bench", max_connections=concurrency * 2)
    workdir = tempfile.mkdtemp(prefix="bench-fanout-")
    try:
        best = None
        for _ in range(3):
            tools = RunTools(workdir, store=MemoryStore()) if calls is not None else None
            started = time.perf_counter()
            result = await run_workflow(fan_out_doc(items, concurrency, calls is not None), RunOptions(
                run_id="bench", sink=NullSink(), providers={"openai": provider}, default_provider="openai", tools=tools))
            wall = time.perf_counter() - started
            assert result.status == "completed", result.reason
            best = wall if best is None else min(best, wall)
        return best or 0.0, result.status
    finally:
        await provider.aclose()
        proc.kill()
        proc.wait()
        shutil.rmtree(workdir, ignore_errors=True)


async def main() -> None:
    print(f"agent tools benchmarks (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    await bash_round_trip(200)
    await read_write(500)
    await snapshots(30)
    waves = -(-200 // 20)
    pin(os.getpid(), 0)  # the engine on one core, the fake server on the other (as bench/runtime.py does)
    plain, _ = await fan_out(None)
    cheap = [{"name": "write", "arguments": {"path": "out/item.txt", "content": "done"}},
             {"name": "read", "arguments": {"path": "out/item.txt"}}, {"name": "glob", "arguments": {"pattern": "out/*"}}]
    tooled, _ = await fan_out(cheap)
    # Sandboxed commands are processes of their own: give them both cores again.
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    with_bash, _ = await fan_out([*cheap[:2], {"name": "bash", "arguments": {"command": "ls out"}}])
    ideal_plain, ideal_tools = waves * 0.05, waves * 2 * 0.05
    print("4. forEach 200 items at maxConcurrency 20, fake OpenAI (separate process) at 50 ms per answer, best of 3")
    for name, wall, ideal, targeted in (("no tools (1 answer per item)", plain, ideal_plain, True),
                                        ("write + read + glob (2 answers)", tooled, ideal_tools, True),
                                        ("write + read + bash (2 answers)", with_bash, ideal_tools, False)):
        over = (wall / ideal - 1) * 100
        verdict = f"target within 20 %: {'PASS' if over <= 20 else 'FAIL'}" if targeted else \
            "no target: 200 sandbox processes on two cores"
        print(f"   {name:<34} wall {wall:6.3f} s   ideal {ideal:.2f} s   +{over:5.1f} %   {verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
