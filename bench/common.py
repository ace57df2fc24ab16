"""Helpers shared by the benchmarks: documents of a given size, a real server, timing."""
from __future__ import annotations

import statistics
import time
from contextlib import contextmanager

from tests.support.servers import base_env, running_server


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


@contextmanager
def live_server(env: dict | None = None):
    """A real daphne server (manage.py runserver) on a free port, with its own data folder: its base URL."""
    with running_server(base_env(**(env or {})), users=()) as server:
        yield server.url
