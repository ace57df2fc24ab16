"""Soak: ``python bench/soak.py [--minutes 30] [--runs 1000] [--watchers 50] [--quick]`` (from the repo root).

The scaled-out stack as deployed, with real processes: a PostgreSQL cluster of the bench's own (initdb in a
temporary folder), a Redis database, a daphne server and Celery workers (``--workers`` of ``--concurrency``
processes each; heartbeats every second, the reaper every 2 s). Runs of mixed loops go through it for ``--minutes``
or until ``--runs`` have been started, whichever comes first, ``--in-flight`` (50) queued or executing at a time:

- a judged repeat-until loop (draft, review, judge; six rounds),
- a forEach of twelve items, four at a time,
- an agent with tools on (``write``, ``read``, ``bash`` in its workspace: a file written, read back, listed),

all on the simulated provider, and ``--watchers`` websocket watchers, each following a live run to its end from
``?after=<last seq>`` (reconnecting if its socket drops), then the next.

Every ``--every`` seconds it prints, for the server and for the workers (each worker's main process and its pool
processes together): resident memory (MB) and open files; the database's size (MB); runs started, ended, failed;
the connections open to the database; the load average. Then the first sample after warm-up (the first fifth of the time) against the last: what memory,
open files and database size grew by, per run for the database. Flat after warm-up is the target for memory and open
files; the database grows with what it stores (events, snapshots), by about the same per run. Every run must end:
the bench fails naming any run still active 120 s after the last was started, or any watcher whose stream had a gap
or a duplicate.

``--quick``: 1 minute, 60 runs at most, 10 watchers, a sample every 10 s.
"""
from __future__ import annotations

import argparse
import itertools
import os
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402

from tests.support.documents import judge_loop  # noqa: E402
from tests.support.faults import FINAL, Watchers, children, private_postgres  # noqa: E402
from tests.support.servers import base_env, celery_worker, create_users, fresh_redis_db, migrated, server_process  # noqa: E402

FOR_EACH = """
name: soak-each
agents:
  worker: {description: Works.}
steps:
  - id: each
    agent: worker
    instructions: Handle one item.
    loop: {forEach: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], maxConcurrency: 4}
"""
TOOLS = """
name: soak-tools
agents:
  coder: {description: Writes and checks files., tools: [write, read, bash]}
steps:
  - id: build
    agent: coder
    instructions: Write the notes, read them back, list the folder.
"""


def scripts(latency: float) -> dict[str, dict]:
    verdicts = [{"content": f"round {i}", "result": {"done": i == 5, "reason": "r"}} for i in range(6)]
    return {
        "judge": {"latency": latency, "replies": {"draft": ["a draft"], "review": ["a review"], "judge": verdicts}},
        "each": {"latency": latency, "replies": {"each": ["done"]}},
        "tools": {"latency": latency, "replies": {"build": [
            {"tool_calls": [{"name": "write", "arguments": {"path": "notes/soak.txt", "content": "soak " * 200}}]},
            {"tool_calls": [{"name": "read", "arguments": {"path": "notes/soak.txt"}},
                            {"name": "bash", "arguments": {"command": "ls -la notes && wc -c notes/soak.txt"}}]},
            "built",
        ]}},
    }


def process_figures(pid: int, with_children: bool) -> tuple[float, int]:
    """(resident MB, open files) of ``pid`` and, with ``with_children``, of its children (a worker's pool)."""
    pids = [pid] + (children(pid) if with_children else [])
    rss, files = 0.0, 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as status:
                rss += int(next(x for x in status if x.startswith("VmRSS:")).split()[1]) / 1024
            files += len(os.listdir(f"/proc/{p}/fd"))
        except (OSError, StopIteration):
            continue  # a pool process being replaced
    return rss, files


def database_figures(url: str) -> tuple[float, int]:
    """(the database's size in MB, the connections open to it, this one left out)."""
    with psycopg.connect(url) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 2**20
        held = conn.execute("SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = current_database()").fetchone()[0]
    return size, held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--in-flight", type=int, default=50, help="runs queued or executing at once (each watched)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per simulated model call")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--quick", action="store_true", help="1 minute, 60 runs, 10 watchers, a sample every 10 s")
    args = parser.parse_args()
    if args.quick:
        args.minutes, args.runs, args.watchers, args.every = min(args.minutes, 1.0), min(args.runs, 60), min(args.watchers, 10), 10.0
        args.in_flight = min(args.in_flight, 20)
    # A SIGTERM (timeout, kill) unwinds like Ctrl+C, so the private PostgreSQL, workers and server are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    soak(args)


def soak(args: argparse.Namespace) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"soak: {args.minutes:g} min or {args.runs} runs, {args.in_flight} in flight, {args.watchers} watchers, "
          f"{args.workers} workers x {args.concurrency} (load average {load})", flush=True)
    with private_postgres() as cluster, fresh_redis_db() as redis_url:
        database_url = cluster.create_database("designer")
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url, RUN_HEARTBEAT_S=1, RUN_LOST_AFTER_S=30,
                       RUN_REAPER_INTERVAL_S=2)
        migrated(env)
        tokens = create_users(env, ("owner",))
        workers = []
        try:
            for i in range(args.workers):
                workers.append(celery_worker(env, name=f"soak{i}", concurrency=args.concurrency))
            procs = [w.__enter__() for w in workers]
            with server_process(env, tokens) as server, server.client("owner") as client:
                drive(args, server, client, procs, database_url)
        finally:
            for w in reversed(workers):
                w.__exit__(None, None, None)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def drive(args, server, client: httpx.Client, procs, database_url: str) -> None:
    kinds = scripts(args.latency)
    flows = {"judge": judge_loop("soak-judge", 6, review=True), "each": FOR_EACH, "tools": TOOLS}
    workflow_ids = {}
    for kind, source in flows.items():
        answer = client.post("/workflows", json={"source": source})
        assert answer.status_code == 201, answer.text
        workflow_ids[kind] = answer.json()["id"]
    watchers = Watchers(lambda: server.ws_url, server.headers("owner"), deadline_s=args.minutes * 60 + 600)
    started: dict[str, str] = {}       # run id -> kind
    ended: dict[str, dict] = {}
    live: set[str] = set()
    watched: set[str] = set()
    samples: list[dict] = []
    begin = time.monotonic()
    stop_at = begin + args.minutes * 60
    next_sample = begin
    drained_since: float | None = None  # when the last run was started
    order = itertools.cycle(["judge", "each", "tools"])
    header = (f"{'min':>5} {'started':>7} {'ended':>6} {'failed':>6} {'live':>5} {'server MB':>9} {'files':>5} "
              f"{'workers MB':>10} {'files':>5} {'db MB':>7} {'conns':>5} {'load':>5}")
    print(header, flush=True)
    try:
        while True:
            now = time.monotonic()
            if now < stop_at and len(started) < args.runs:
                while len(live) < args.in_flight and len(started) < args.runs:
                    kind = next(order)
                    answer = client.post("/runs", json={"workflow_id": workflow_ids[kind], "script": kinds[kind]})
                    assert answer.status_code == 201, answer.text
                    started[answer.json()["id"]] = kind
                    live.add(answer.json()["id"])
            else:
                drained_since = drained_since or now
                if not live:
                    break
                if now - drained_since > 120:
                    raise AssertionError(f"{len(live)} run(s) never ended: {sorted(live)[:10]}")
            # Watchers: keep --watchers following live runs, a new one as each run ends.
            following = sum(1 for r in watched if r in live)
            for run_id in random.sample(sorted(live - watched), k=min(len(live - watched), max(0, args.watchers - following))):
                watchers.watch(run_id)
                watched.add(run_id)
            for run_id in list(live):
                body = client.get(f"/runs/{run_id}").json()
                if body["status"] in FINAL:
                    live.discard(run_id)
                    ended[run_id] = body
            if time.monotonic() >= next_sample:
                samples.append(sample(args, begin, started, ended, live, server, procs, database_url))
                next_sample += args.every
            time.sleep(0.2)
        samples.append(sample(args, begin, started, ended, live, server, procs, database_url))
        watchers.wait(120)
    finally:
        watchers.close()
    report(args, samples, started, ended, watchers)


def sample(args, begin: float, started, ended, live, server, procs, database_url: str) -> dict:
    server_mb, server_files = process_figures(server.process.pid, with_children=False)
    worker_figures = [process_figures(p.pid, with_children=True) for p in procs]
    row = {
        "minutes": (time.monotonic() - begin) / 60, "started": len(started), "ended": len(ended),
        "failed": sum(1 for b in ended.values() if b["status"] != "completed"), "live": len(live),
        "server_mb": server_mb, "server_files": server_files,
        "workers_mb": sum(m for m, _ in worker_figures), "workers_files": sum(f for _, f in worker_figures),
        "load": os.getloadavg()[0],
    }
    row["db_mb"], row["db_connections"] = database_figures(database_url)
    print(f"{row['minutes']:5.1f} {row['started']:7d} {row['ended']:6d} {row['failed']:6d} {row['live']:5d} "
          f"{row['server_mb']:9.1f} {row['server_files']:5d} {row['workers_mb']:10.1f} {row['workers_files']:5d} "
          f"{row['db_mb']:7.1f} {row['db_connections']:5d} {row['load']:5.2f}", flush=True)
    return row


def report(args, samples: list[dict], started: dict, ended: dict, watchers: Watchers) -> None:
    failed = {r: b["reason"] for r, b in ended.items() if b["status"] != "completed"}
    kinds = {k: sum(1 for v in started.values() if v == k) for k in ("judge", "each", "tools")}
    print(f"runs: {len(started)} started ({', '.join(f'{n} {k}' for k, n in kinds.items())}), {len(ended)} ended, "
          f"{len(failed)} not completed")
    for run_id, reason in list(failed.items())[:10]:
        print(f"  {run_id}: {reason}")
    broken = []
    for watch in watchers.watches.values():
        final = ended.get(watch.run_id)
        if final is None or not watch.done:
            broken.append((watch.run_id, "never saw the end", watch.errors[-3:]))
        elif watch.seqs != list(range(watch.seqs[0], final["last_seq"] + 1)):
            broken.append((watch.run_id, "a gap or a duplicate", len(watch.seqs)))
    reconnects = sum(max(0, w.connections - 1) for w in watchers.watches.values())
    print(f"watchers: {len(watchers.watches)} streams followed, {len(broken)} broken, {reconnects} reconnects")
    for found in broken[:10]:
        print(f"  {found}")
    warm = next((s for s in samples if s["minutes"] >= samples[-1]["minutes"] / 5), samples[0])
    last = samples[-1]
    runs_between = max(1, last["ended"] - warm["ended"])
    print(f"after warm-up ({warm['minutes']:.1f} min) to the end ({last['minutes']:.1f} min), {runs_between} runs ended:")
    for key, label in (("server_mb", "server resident MB"), ("server_files", "server open files"),
                       ("workers_mb", "workers resident MB"), ("workers_files", "workers open files"),
                       ("db_mb", "database MB"), ("db_connections", "database connections")):
        print(f"  {label:22s} {warm[key]:9.1f} -> {last[key]:9.1f}   ({last[key] - warm[key]:+.1f})")
    print(f"  database per run ended  {(last['db_mb'] - warm['db_mb']) * 1024 / runs_between:.1f} KB")
    if failed or broken:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
