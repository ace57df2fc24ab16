"""Event streaming: engine -> database -> channel layer -> websocket clients.

Runs one fast forEach workflow on a real server (embedded default: SQLite,
in-memory layer, runs in the server process) watched by 1 and then 50
websocket clients, and compares with a baseline: the plain `websockets`
library broadcasting the same event frames from its own process.

Throughput is events per second received by each client (median client);
latency is receive time minus the event's emit timestamp, over events emitted
after the client connected. Targets: at least half the baseline's throughput,
p99 under 100 ms at 50 clients.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import websockets  # noqa: E402

from tests.support.servers import base_env, celery_worker, free_port, fresh_postgres, fresh_redis_db, running_server  # noqa: E402

ITEMS = int(os.environ.get("BENCH_ITEMS", "1500"))


def workflow(items: int, concurrency: int = 10) -> dict:
    return {
        "name": "bench-events",
        "agents": {"worker": {"description": "Does one item."}},
        "steps": [{"id": "fan", "agent": "worker", "instructions": "Handle the item.", "loop": {"forEach": [f"item-{i}" for i in range(items)], "maxConcurrency": concurrency}}],
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
    latencies, count, first, last = [], 0, None, None
    async with websockets.connect(url, additional_headers=headers, max_size=None, open_timeout=30) as ws:
        connected = time.time()
        if ready:
            ready.set()
        final_seq = None
        while True:
            message = json.loads(await ws.recv())
            now = time.time()
            if message["kind"] == "run":
                if message["run"]["status"] in ("completed", "failed", "cancelled"):
                    final_seq = message["run"]["last_seq"]
            else:
                batch = message["events"] if message["kind"] == "events" else [message["event"]]
                for event in batch:
                    count += 1
                    first = first or now
                    last = now
                    emitted = parse_ts(event["timestamp"])
                    if emitted >= connected:
                        latencies.append((now - emitted) * 1000)
                if final_seq and batch[-1]["seq"] >= final_seq:
                    break
            if final_seq is not None and count >= final_seq:
                break
    return {"events": count, "seconds": (last - first) if first and last else 0.0, "latencies": latencies}


async def run_and_watch(server, clients: int, batch: bool = True, items: int = ITEMS, latency: float = 0.0, concurrency: int = 10) -> tuple[list[dict], list[dict]]:
    with server.client("owner") as client:
        wid = client.post("/workflows", json={"document": workflow(items, concurrency)}).json()["id"]
        script = {"latency": latency, "replies": {"*": ["done"]}} if latency else None
        run = client.post("/runs", json={"workflow_id": wid, "provider": "simulated", "script": script}).json()
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
                event["event"]["timestamp"] = datetime.utcfromtimestamp(ts).strftime("%Y-%m-%dT%H:%M:%S.") + f"{int((ts % 1) * 1000):03d}Z"
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


def report(label: str, results: list[dict]) -> float:
    rates = [r["events"] / r["seconds"] for r in results if r["seconds"] > 0]
    latencies = [x for r in results for x in r["latencies"]]
    rate = statistics.median(rates) if rates else 0.0
    p50 = percentile(latencies, 0.5) if latencies else float("nan")
    p99 = percentile(latencies, 0.99) if latencies else float("nan")
    print(f"  {label:<38} {rate:>9,.0f} events/s per client   latency p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   ({results[0]['events']} events, {len(results)} clients)")
    return rate


async def paced() -> None:
    print("Paced: 400 items, 50 ms per agent reply, 5 at a time (about 1,000 events/s): latency when the stream keeps up")
    print(" embedded default (engine inside the server process)")
    with running_server(base_env(), users=("owner",)) as server:
        report("1 client, batched messages", (await run_and_watch(server, 1, items=400, latency=0.05, concurrency=5))[0])
        report("50 clients, batched messages", (await run_and_watch(server, 50, items=400, latency=0.05, concurrency=5))[0])
    print(" scaled out: PostgreSQL, channels_redis, the engine on a Celery worker")
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
        with running_server(env, users=("owner",)) as server, celery_worker(env, name="bench"):
            report("1 client, batched messages", (await run_and_watch(server, 1, items=400, latency=0.05, concurrency=5))[0])
            report("50 clients, batched messages", (await run_and_watch(server, 50, items=400, latency=0.05, concurrency=5))[0])


async def main() -> None:
    if os.environ.get("BENCH_ONLY") == "paced":
        await paced()
        return
    print(f"forEach over {ITEMS} items, simulated provider, zero latency")
    with running_server(base_env(), users=("owner",)) as server:
        single, _ = await run_and_watch(server, 1, batch=False)
        one, events = await run_and_watch(server, 1)
        many, _ = await run_and_watch(server, 50)
    print("Loop Designer (daphne, SQLite, in-memory channel layer, events persisted before broadcast)")
    report("1 client, one event per message", single)
    ours_1 = report("1 client, batched messages", one)
    ours_50 = report("50 clients, batched messages", many)
    print("Baseline: plain websockets broadcasting the same frames")
    base_1 = report("1 client", await baseline(events, 1))
    base_50 = report("50 clients", await baseline(events, 50))
    await paced()
    print(f"Ratio to baseline: 1 client {ours_1 / base_1:.2f}, 50 clients {ours_50 / base_50:.2f} (target >= 0.5)")


if __name__ == "__main__":
    asyncio.run(main())
