"""Helpers shared by the benchmarks: documents of a given size, a real server, timing."""
from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent


def workflow(n_steps: int) -> dict:
    """A document of ``n_steps`` top-level steps; every tenth is a loop with inner steps."""
    agents = {
        "worker": {"description": "Does the work."},
        "judge": {
            "description": "Decides when the loop is done.",
            "resultSchema": {"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}, "reason": {"type": "string"}}},
        },
    }
    steps = []
    for i in range(n_steps):
        step = {"id": f"s{i}", "agent": "worker", "instructions": f"Do part {i} of the job."}
        if i:
            step["dependsOn"] = [f"s{i - 1}"]
        if i % 10 == 5:
            step["loop"] = {"forEach": ["a", "b", "c"], "maxConcurrency": 2}
        elif i % 10 == 9:
            step["loop"] = {
                "maxIterations": 5,
                "untilAgent": "judge",
                "until": "steps.review.content.contains('LGTM')",
                "steps": [
                    {"id": "impl", "agent": "worker", "instructions": "Implement."},
                    {"id": "review", "agent": "worker", "dependsOn": ["impl"], "instructions": "Review."},
                ],
            }
            step.pop("agent")
        steps.append(step)
    return {"name": f"bench-{n_steps}", "agents": agents, "steps": steps, "options": {"maxConcurrency": 4}}


def timings(fn, repeat: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered) * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms   (n={len(ordered)})"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(env: dict | None = None):
    """A real daphne server (manage.py runserver) on a free port, with its own data folder."""
    data_dir = tempfile.mkdtemp(prefix="designer-bench-")
    full_env = {**os.environ, "DESIGNER_DATA_DIR": data_dir, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO, env=full_env, check=True)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=REPO, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                httpx.get(base + "/api/v1/openapi.json", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise RuntimeError("server did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
