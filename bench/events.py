"""Event streaming: engine -> database -> channel layer -> websocket clients.

Runs one fast forEach workflow on a real server (embedded default: SQLite,
in-memory layer, runs in the server process) watched by 1 and then 50
websocket clients, and compares with a baseline: the plain `websockets`
library broadcasting the same event frames from its own process.

Throughput is events per second received by each client (median client);
latency is receive time minus the event's emit timestamp, over events emitted
after the client connected (and, with many clients, after the last of them
had connected and caught up: "while all watch"). Targets: at least half the baseline's
throughput, p99 under 100 ms at 50 clients. The latency target is checked on
the paced runs (about 1,000 events/s, twenty times what five agents answering
in a second or so emit): in the firehose, fifty Python clients on the same two
cores cannot decode as fast as the engine emits, and latency there measures
their backlog (the plain-websockets baseline's as much as ours).
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import websockets

from tests.support.servers import base_env, celery_worker, free_port, fresh_postgres, fresh_redis_db, running_server

ITEMS = int(os.environ.get("BENCH_ITEMS", "1500"))


def workflow(items: int, concurrency: int = 10) -> dict:
    return {
        "name": "bench-events",
        "agents": {"worker": {"description": "Does one item."}},
        "steps": [{"id": "fan", "agent": "worker", "instructions": "Handle the item.",
                   "loop": {"forEach": [f"item-{i}" for i in range(items)], "maxConcurrency": concurrency}}],
    }


_seconds: dict[str, float] = {}


def parse_ts(text: str) -> float:
    """``2026-11-22T01:41:33.123Z`` -> POSIX time. Fifty clients parse half a million of these
    on the same two cores as the server, so the whole-second part is parsed once."""
    head = text[:19]
    base = _seconds.get(head)
    if base is None:
        base = _seconds[head] = datetime.fromisoformat(head + "+00:00").timestamp()
    return base + int(text[20:23]) / 1000 if len(text) > 20 else base


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def watch(url: str, headers: dict, ready: asyncio.Event | None = None) -> dict:
    latencies, count, first, last, caught_up = [], 0, None, None, None
    async with websockets.connect(url, additional_headers=headers, max_size=None, open_timeout=30) as ws:
        connected = time.time()
        if ready:
            ready.set()
        final_seq = None
        while True:
            message = json.loads(await ws.recv())
            now = time.time()
            if message["kind"] == "run":
                if message["run"]["status"] in ("completed", "partial", "failed", "cancelled"):
                    final_seq = message["run"]["last_seq"]
            else:
                batch = message["events"] if message["kind"] == "events" else [message["event"]]
                for event in batch:
                    count += 1
                    first = first or now
                    last = now
                    emitted = parse_ts(event["timestamp"])
                    if emitted >= connected:
                        latencies.append((emitted, (now - emitted) * 1000))
                        caught_up = caught_up or now
                if final_seq and batch[-1]["seq"] >= final_seq:
                    break
            if final_seq is not None and count >= final_seq:
                break
    return {"events": count, "seconds": (last - first) if first and last else 0.0, "latencies": latencies,
            "connected": connected, "caught_up": caught_up or connected}


async def run_and_watch(server, clients: int, batch: bool = True, items: int = ITEMS, latency: float = 0.0,
                        concurrency: int = 10) -> tuple[list[dict], list[dict]]:
    with server.client("owner") as client:
        wid = client.post("/workflows", json={"document": workflow(items, concurrency)}).json()["id"]
        script = {"latency": latency, "replies": {"*": ["done"]}} if latency else None
        started = client.post("/runs", json={"workflow_id": wid, "provider": "simulated", "script": script})
        assert started.status_code == 201, started.text
        run = started.json()
        url = f"{server.ws_url}/ws/runs/{run['id']}/" + ("?batch=1" if batch else "")
        results = await asyncio.gather(*(watch(url, server.headers("owner")) for _ in range(clients)))
        events: list[dict] = []
        while True:
            page = client.get(f"/runs/{run['id']}/events?after={events[-1]['seq'] if events else 0}").json()
            if not page:
                break
            events += page
    return list(results), events


# ---- baseline: plain websockets broadcasting the same frames


def _baseline_server(port: int, frames: list[str], clients: int, started) -> None:
    async def main():
        connected: set = set()
        all_in = asyncio.Event()

        async def handler(ws):
            connected.add(ws)
            if len(connected) >= clients:
                all_in.set()
            await ws.wait_closed()

        async with websockets.serve(handler, "127.0.0.1", port, max_size=None):
            started.set()
            await all_in.wait()
            for frame in frames:
                event = json.loads(frame)
                ts = time.time()
                event["event"]["timestamp"] = datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{int((ts % 1) * 1000):03d}Z"
                websockets.broadcast(connected, json.dumps(event, separators=(",", ":")))
                await asyncio.sleep(0)
            done = json.dumps({"kind": "run", "run": {"status": "completed", "last_seq": len(frames)}})
            websockets.broadcast(connected, done)
            await asyncio.sleep(5)

    asyncio.run(main())


async def baseline(events: list[dict], clients: int) -> list[dict]:
    frames = [json.dumps({"kind": "event", "event": e}, separators=(",", ":")) for e in events]
    port = free_port()
    started = multiprocessing.Event()
    process = multiprocessing.Process(target=_baseline_server, args=(port, frames, clients, started), daemon=True)
    process.start()
    started.wait(30)
    try:
        return list(await asyncio.gather(*(watch(f"ws://127.0.0.1:{port}/", {}) for _ in range(clients))))
    finally:
        process.terminate()


def report(label: str, results: list[dict]) -> tuple[float, float]:
    """Prints throughput and latency; answers (median events/s per client, p99 while all watch).

    Latency counts events emitted after the client connected. With many clients, the
    p99 "while all watch" counts events emitted once every client has connected and
    received its replay (its first live event): while fifty handshakes and replays go
    on, live events wait behind them.
    """
    rates = [r["events"] / r["seconds"] for r in results if r["seconds"] > 0]
    latencies = [ms for r in results for _, ms in r["latencies"]]
    all_in = max(r["caught_up"] for r in results)
    watching = [ms for r in results for emitted, ms in r["latencies"] if emitted >= all_in]
    rate = statistics.median(rates) if rates else 0.0
    p50 = percentile(latencies, 0.5) if latencies else float("nan")
    p99 = percentile(latencies, 0.99) if latencies else float("nan")
    p99_watching = percentile(watching, 0.99) if watching else float("nan")
    extra = f"   p99 while all watch {p99_watching:6.1f} ms" if len(results) > 1 else ""
    print(f"  {label:<30} {rate:>9,.0f} events/s per client   latency p50 {p50:6.1f} ms   p99 {p99:6.1f} ms{extra}"
          f"   ({results[0]['events']} events, {len(results)} clients)")
    return rate, p99_watching


async def paced() -> list[tuple[str, float]]:
    """Answers (setting, p99 at 50 clients while all watch)."""
    print("Paced: 400 items, 50 ms per agent reply, 5 at a time (about 1,000 events/s): latency when the stream keeps up")
    print(" embedded default (engine inside the server process)")
    p99s = []
    with running_server(base_env(), users=("owner",)) as server:
        report("1 client, batched messages", (await run_and_watch(server, 1, items=400, latency=0.05, concurrency=5))[0])
        _, p99 = report("50 clients, batched messages", (await run_and_watch(server, 50, items=400, latency=0.05, concurrency=5))[0])
        p99s.append(("embedded", p99))
    print(" scaled out: PostgreSQL, channels_redis, the engine on a Celery worker")
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
        with running_server(env, users=("owner",)) as server, celery_worker(env, name="bench"):
            report("1 client, batched messages", (await run_and_watch(server, 1, items=400, latency=0.05, concurrency=5))[0])
            _, p99 = report("50 clients, batched messages", (await run_and_watch(server, 50, items=400, latency=0.05, concurrency=5))[0])
            p99s.append(("scaled out", p99))
    return p99s


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


async def main() -> None:
    if os.environ.get("BENCH_ONLY") == "paced":
        await paced()
        return
    print(f"Firehose: forEach over {ITEMS} items, simulated provider, zero latency (as fast as the engine goes)")
    with running_server(base_env(), users=("owner",)) as server:
        single, _ = await run_and_watch(server, 1, batch=False)
        one, events = await run_and_watch(server, 1)
        many, _ = await run_and_watch(server, 50)
    print(" Loop Designer (daphne, SQLite, in-memory channel layer, events persisted before broadcast)")
    report("1 client, one event per message", single)
    ours_1, _ = report("1 client, batched messages", one)
    ours_50, _ = report("50 clients, batched messages", many)
    print(" Baseline: plain websockets broadcasting the same frames")
    base_1, _ = report("1 client", await baseline(events, 1))
    base_50, _ = report("50 clients", await baseline(events, 50))
    p99s = await paced()
    print("Targets")
    print(f"  throughput vs baseline >= 0.5: 1 client {ours_1 / base_1:.2f} {verdict(ours_1 / base_1 >= 0.5)}, "
          f"50 clients {ours_50 / base_50:.2f} {verdict(ours_50 / base_50 >= 0.5)}")
    print("  p99 < 100 ms at 50 clients (paced, while all watch): "
          + ", ".join(f"{name} {p99:.1f} ms {verdict(p99 < 100)}" for name, p99 in p99s))
    print("  (In the firehose the fifty clients, one Python process on the same cores as the server, decode")
    print("   events slower than the engine emits them, so latency there is their backlog: the baseline's too.)")


if __name__ == "__main__":
    asyncio.run(main())
