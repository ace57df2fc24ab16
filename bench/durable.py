"""State reconstruction: ``python bench/durable.py`` (from the repo root).

A run of at least 10,000 events (a forEach of items with two inner steps, then a
judged repeat-until loop, simulated provider) is recorded as the database stores
it, one JSON text per event. Figures, median and p95 of each:

1. the baseline: ``json.loads`` of every stored event (what reading the run costs anyway);
2. the fold of the parsed events into the run's final checkpoint (:func:`runtime.engine.checkpoints.fold`);
3. the fold up to the middle boundary (a checkpoint to resume or fork from);
4. both together: stored text to checkpoint.

Target: the fold (2) of a 10,000-event run in at most 200 ms.

Then forks (``runtime.runs.forks``), in a throw-away SQLite data folder with the inline backend: a stored
run of a judged 1,000-round loop is forked at round 500. Figures: the time from ``fork()`` to the
new run's first own event (its events up to round 500 copied, its checkpoint folded, then dispatched),
beside the baseline of starting a fresh run of the same workflow to its first event, and the provider
calls the fork made for rounds before 500. Target: at most 1 s, and 0 calls before round 500.

Last, resume after a crash, with real processes (PostgreSQL, Redis, daphne, Celery workers; heartbeats every
1 s, a run silent for 3 s is lost, the reaper looks every 0.5 s): a Celery worker is SIGKILLed mid-round while
another stands by. Figure: the time from the kill to the run's next event (the resumed run's first), beside the
baseline of a new run's time from creation to its first event on an idle worker. Target: at most 5 s.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import summary, timings  # noqa: E402
from runtime.engine import RunOptions, run_workflow  # noqa: E402
from runtime.engine.checkpoints import boundaries, fold  # noqa: E402
from runtime.events import ListSink  # noqa: E402

TARGET_EVENTS = 10_000


def event_json(event: dict) -> str:
    # As runtime.live.recorder.event_json stores it (that module needs Django set up; the fold does not).
    return json.dumps(event, separators=(",", ":"), default=str)

TARGET_MS = 200.0
FORK_TARGET_S = 1.0
FORK_ROUNDS, FORK_AT = 1_000, 500


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
    result = await run_workflow(document(items, rounds), RunOptions(run_id="bench", sink=sink))
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


def fork_document() -> dict:
    judge = {"description": "Decides when it is done.",
             "resultSchema": {"type": "object", "required": ["done"], "properties": {"done": {"type": "boolean"}}}}
    return {"name": "bench-fork", "description": "Benchmark.", "agents": {"worker": {"description": "Works."}, "judge": judge},
            "steps": [{"id": "refine", "agent": "worker", "instructions": "Refine.",
                       "loop": {"maxIterations": FORK_ROUNDS, "untilAgent": "judge", "outputMode": "last"}}]}


def fork_bench(repeat: int = 3) -> None:
    """Fork start at round 500 of a 1,000-round loop, against a fresh run's start (see the module docstring)."""
    import tempfile
    import time

    os.environ["DESIGNER_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-fork-")
    os.environ["RUNTIME_BACKEND"] = "inline"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per poll would bury the figures
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from designer import workflows
    from runtime.live.recorder import persist_events
    from runtime.models import Run, RunEvent
    from runtime.runs import create, forks

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    workflow = workflows.create(user, source=None, document=fork_document())
    parent = Run.objects.create(owner=user, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                                provider="simulated", status="completed")
    sink = ListSink()
    asyncio.run(run_workflow(fork_document(), RunOptions(run_id=str(parent.pk), sink=sink)))
    for at in range(0, len(sink.events), 2000):
        persist_events(parent.pk, sink.events[at:at + 2000])
    print(f"fork: a stored run of {len(sink.events)} events ({FORK_ROUNDS} judged rounds), forked at round {FORK_AT} "
          f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")

    def first_own_event(start) -> tuple[float, Run]:
        began = time.perf_counter()
        run = start()
        while not RunEvent.objects.filter(run=run, seq__gt=run.start_seq).exists():
            time.sleep(0.01)
        return time.perf_counter() - began, run

    def wait_end(run: Run) -> Run:
        while Run.objects.get(pk=run.pk).status not in forks.FINISHED:
            time.sleep(0.05)
        return Run.objects.get(pk=run.pk)

    fresh, forked, early_calls = [], [], []
    for _ in range(repeat):
        took, run = first_own_event(lambda: create.create_run(user, workflow_id=workflow.pk, version=None, provider="simulated",
                                                            budgets={"max_steps": 3}))
        fresh.append(took)
        wait_end(run)
        took, run = first_own_event(lambda: forks.fork(user, parent.pk, at={"step": "refine", "iteration": FORK_AT}))
        forked.append(took)
        run = wait_end(run)
        own = [json.loads(t) for t in RunEvent.objects.filter(run=run, seq__gt=run.start_seq, type="agent_turn")
               .values_list("event_json", flat=True)]
        early_calls.append(sum(1 for e in own if e["data"].get("phase") == "request"
                               and int(e["stepId"].split(".")[1]) < FORK_AT))
    print(f"  {'baseline: a fresh run, create_run to its first event':58s} median {statistics.median(fresh) * 1000:8.1f} ms"
          f"   max {max(fresh) * 1000:8.1f} ms")
    print(f"  {'fork at round 500: fork() to its first own event':58s} median {statistics.median(forked) * 1000:8.1f} ms"
          f"   max {max(forked) * 1000:8.1f} ms")
    print(f"  provider calls before round {FORK_AT} in the forks: {early_calls}")
    ok = statistics.median(forked) <= FORK_TARGET_S and not any(early_calls)
    print(f"  target: fork start <= {FORK_TARGET_S:.0f} s with 0 calls before round {FORK_AT}: {'PASS' if ok else 'FAIL'}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


RESUME_TARGET_S = 5.0


def resume_bench(repeat: int = 3) -> None:
    """Resume latency after a worker SIGKILL, against a fresh run's dispatch (see the module docstring)."""
    import time

    from tests.live.runs import start_run, wait_status
    from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, kill_hard, running_server

    liveness = {"RUN_HEARTBEAT_S": 1, "RUN_LOST_AFTER_S": 3, "RUN_REAPER_INTERVAL_S": 0.5, "RUN_MAX_RESUMES": 10}
    fresh, resumed = [], []
    print(f"resume: a Celery worker SIGKILLed mid-round, another standing by (load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, **liveness)
        with running_server(env, users=("owner",)) as server, server.client("owner") as client:
            def first_event(run_id: str, after: int) -> float:
                began = time.perf_counter()
                while client.get(f"/runs/{run_id}").json()["last_seq"] <= after:
                    time.sleep(0.02)
                return time.perf_counter() - began

            for i in range(repeat):
                with celery_worker(env, name=f"doomed{i}") as doomed:
                    began = time.perf_counter()
                    run = start_run(client, iterations=40, latency=0.2, done_at=40)
                    while client.get(f"/runs/{run['id']}").json()["last_seq"] < 1:
                        time.sleep(0.02)
                    fresh.append(time.perf_counter() - began)
                    with celery_worker(env, name=f"standby{i}") as _standby:
                        while client.get(f"/runs/{run['id']}").json()["last_seq"] < 20:
                            time.sleep(0.05)
                        kill_hard(doomed)
                        seen = client.get(f"/runs/{run['id']}").json()["last_seq"]
                        resumed.append(first_event(run["id"], seen))
                        client.post(f"/runs/{run['id']}/stop")
                        wait_status(client, run["id"], ("cancelled", "completed", "failed"), timeout=60)
    print(f"  {'baseline: a new run, created to its first event':58s} median {statistics.median(fresh) * 1000:8.1f} ms"
          f"   max {max(fresh) * 1000:8.1f} ms")
    print(f"  {'a SIGKILLed worker: kill to the resumed next event':58s} median {statistics.median(resumed) * 1000:8.1f} ms"
          f"   max {max(resumed) * 1000:8.1f} ms")
    ok = max(resumed) <= RESUME_TARGET_S
    print(f"  target: <= {RESUME_TARGET_S:.0f} s with 1 s heartbeats: {'PASS' if ok else 'FAIL'}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
    fork_bench()
    resume_bench()
