"""Faults in the real parts of the scaled-out stack, for the live fault tests (tests/live/test_faults_*.py).

A private Redis and a private PostgreSQL cluster that a test may restart (the shared ones on 6379 and 5432 serve
every other test on the machine: restarting them would fail those), watchers that reconnect from their last seq as
the browser does, and the checks every run must pass after a fault: it ended (completed, or failed with a reason in
words), its stored events are one contiguous stream, and every watcher saw that stream in order, nothing twice.
"""
from __future__ import annotations

import asyncio
import atexit
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import redis
import websockets

from tests.support.servers import free_port, outliving_nothing

FINAL = ("completed", "partial", "failed", "cancelled")


def wait_until(condition: Callable[[], object], timeout: float, what: str, every: float = 0.1) -> object:
    """``condition()``'s first truthy answer within ``timeout`` seconds; fails naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = condition()
        except Exception:  # a part that is down answers with errors until it is back
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


# -- Redis ----------------------------------------------------------------------------------------------------------

@dataclass
class PrivateRedis:
    """A redis-server of the test alone, configured as the machine's (no RDB, no AOF: a restart loses everything)."""

    port: int
    folder: Path
    process: subprocess.Popen | None = None
    restarts: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = open(self.folder / "redis.log", "a")  # noqa: SIM115 - the process keeps it
        self.process = subprocess.Popen(
            outliving_nothing([shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no", "--dir", str(self.folder)]),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(lambda: redis.Redis(port=self.port, socket_timeout=1).ping(), 30, "redis to start")

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """A crash by default (SIGKILL): what was in memory is lost, as with the machine's Redis."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(15)
        self.process = None

    def restart(self, down_s: float = 3.0) -> None:
        self.stop()
        time.sleep(down_s)  # the outage itself: what the stack must ride out
        self.start()
        self.restarts += 1


@contextmanager
def private_redis():
    folder = Path(tempfile.mkdtemp(prefix="faults-redis-"))
    server = PrivateRedis(port=free_port(), folder=folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


# -- PostgreSQL -----------------------------------------------------------------------------------------------------

def _pg_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(found[-1]) if found else (shutil.which(name) or name)


def _as_postgres(argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: its commands run as the postgres account then."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of the test alone (initdb in a temporary folder, its own port): restarting it fails no
    other test on the machine."""

    port: int
    folder: Path
    restarts: int = 0

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _ctl(self, *args: str, timeout: float = 120) -> None:
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(self.data), "-w", "-t", str(int(timeout)), *args]),
                       check=True, capture_output=True, timeout=timeout + 30)

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]),
                       check=True, capture_output=True, timeout=180)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
        self._ctl("-o", options, "-l", str(self.folder / "postgres.log"), "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: sessions are ended (57P01) and the cluster shut down cleanly; ``immediate``: as a crash."""
        if (self.data / "postmaster.pid").exists():
            self._ctl("-m", mode, "stop")

    def restart(self, down_s: float = 3.0, mode: str = "fast") -> None:
        self.stop(mode)
        time.sleep(down_s)  # the outage itself
        self.start()
        self.restarts += 1

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def private_postgres():
    folder = Path(tempfile.mkdtemp(prefix="faults-pg-"))
    cluster = PrivatePostgres(port=free_port(), folder=folder)
    cluster.init()
    cluster.start()

    def gone() -> None:
        with suppress(Exception):
            cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(gone)  # even when the test process is interrupted between start and finally
    try:
        yield cluster
    finally:
        gone()
        atexit.unregister(gone)


# -- Watchers -------------------------------------------------------------------------------------------------------

@dataclass
class Watch:
    """One watcher's view of one run: every event it was sent, and what went wrong on the way."""

    run_id: str
    seqs: list[int] = field(default_factory=list)
    connections: int = 0
    errors: list[str] = field(default_factory=list)
    final: dict | None = None
    done: bool = False

    @property
    def last(self) -> int:
        return self.seqs[-1] if self.seqs else 0


class Watchers:
    """Websocket watchers on their own thread and loop, each reconnecting with ``?after=<last seq>`` whenever its
    socket drops or its server goes away, until its run is final and its last event arrived. ``url()`` answers
    the server's current websocket address (a restarted server may listen elsewhere)."""

    def __init__(self, url: Callable[[], str], headers: dict, deadline_s: float = 600) -> None:
        self.url, self.headers, self.deadline_s = url, headers, deadline_s
        self.loop = asyncio.new_event_loop()
        self.watches: dict[str, Watch] = {}
        self.thread = threading.Thread(target=self.loop.run_forever, name="watchers", daemon=True)
        self.thread.start()
        self.futures: list = []

    def watch(self, run_id: str) -> Watch:
        found = self.watches[run_id] = Watch(run_id)
        self.futures.append(asyncio.run_coroutine_threadsafe(self._follow(found), self.loop))
        return found

    def connected(self) -> bool:
        return all(w.connections > 0 for w in self.watches.values())

    def wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for future in self.futures:
            future.result(timeout=max(1.0, deadline - time.monotonic()))

    def close(self) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(cancel_all(), self.loop).result(30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    async def _follow(self, watch: Watch) -> None:
        deadline = time.monotonic() + self.deadline_s
        while not watch.done and time.monotonic() < deadline:
            try:
                async with websockets.connect(f"{self.url()}/ws/runs/{watch.run_id}/?after={watch.last}",
                                              additional_headers=self.headers, open_timeout=20, max_size=2**24) as ws:
                    watch.connections += 1
                    await self._read(ws, watch)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
                # Refused (the server is restarting), dropped, or silent: reconnect from the last seq, as the page does.
                if not watch.done:
                    watch.errors.append(type(exc).__name__)
                    await asyncio.sleep(0.5)
        if not watch.done:
            watch.errors.append("deadline")

    async def _read(self, ws, watch: Watch) -> None:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            if message["kind"] == "event":
                watch.seqs.append(message["event"]["seq"])
            elif message["kind"] == "events":
                watch.seqs.extend(e["seq"] for e in message["events"])
            elif message["kind"] == "run" and message["run"]["status"] in FINAL:
                watch.final = message["run"]
            if watch.final is not None and watch.last >= watch.final["last_seq"]:
                watch.done = True
                return


# -- Checks ---------------------------------------------------------------------------------------------------------

def all_events(client: httpx.Client, run_id: str) -> list[dict]:
    events: list[dict] = []
    while True:
        page = client.get(f"/runs/{run_id}/events", params={"after": events[-1]["seq"] if events else 0})
        assert page.status_code == 200, page.text
        if not page.json():
            return events
        events.extend(page.json())


def wait_final(client: httpx.Client, run_ids: list[str], timeout: float) -> dict[str, dict]:
    """Every run's final record; fails naming the runs still active at the deadline (a hang is a failure)."""
    finals: dict[str, dict] = {}
    deadline = time.monotonic() + timeout
    while len(finals) < len(run_ids):
        for run_id in run_ids:
            if run_id in finals:
                continue
            try:
                body = client.get(f"/runs/{run_id}").json()
            except (httpx.HTTPError, ValueError):
                continue  # a part restarting
            if body.get("status") in FINAL:
                finals[run_id] = body
        if time.monotonic() > deadline:
            stuck = {r: client.get(f"/runs/{r}").json().get("status") for r in run_ids if r not in finals}
            raise AssertionError(f"{len(stuck)} run(s) never ended: {stuck}")
        time.sleep(0.5)
    return finals


def check_run(client: httpx.Client, final: dict) -> list[dict]:
    """A run after a fault: completed, or failed with a reason in words; its stored events one stream 1..last_seq."""
    assert final["status"] in ("completed", "failed"), final
    if final["status"] == "failed":
        reason = final.get("reason") or ""
        assert len(reason) > 10 and " " in reason and "internal error" not in reason, f"run {final['id']}: {reason!r}"
    events = all_events(client, final["id"])
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1)), f"run {final['id']}: stored events not one stream: {_gaps(seqs)}"
    assert (seqs[-1] if seqs else 0) == final["last_seq"], (final["id"], seqs[-1:], final["last_seq"])
    ends = [e for e in events if e["type"] == "workflow_end"]
    # Once: a run executed twice at the same time (a worker thought lost that was not) would end twice.
    assert len(ends) == (1 if final["status"] == "completed" else len(ends[:1])), f"run {final['id']} ended {len(ends)} times"
    return events


def check_watch(watch: Watch, final: dict) -> None:
    """A watcher's stream: every event from its first to the run's last, in order, none twice, whatever the
    reconnects."""
    assert watch.done, f"watcher of {watch.run_id} never saw the end ({watch.errors}, last {watch.last} of {final['last_seq']})"
    seqs = watch.seqs
    assert seqs, f"watcher of {watch.run_id} saw nothing"
    assert seqs == list(range(seqs[0], final["last_seq"] + 1)), f"watcher of {watch.run_id}: {_gaps(seqs)}"


def _gaps(seqs: list[int]) -> str:
    dupes = sorted({s for s in seqs if seqs.count(s) > 1})
    missing = sorted(set(range(min(seqs, default=1), max(seqs, default=0) + 1)) - set(seqs))
    out_of_order = [b for a, b in itertools.pairwise(seqs) if b < a]
    return f"duplicated {dupes[:10]}, missing {missing[:10]}, out of order at {out_of_order[:10]} (of {len(seqs)})"


# -- The out-of-memory killer -------------------------------------------------------------------------------------

def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        line = next(x for x in status if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def oom_kill(worker: subprocess.Popen) -> tuple[int, float]:
    """What the kernel's out-of-memory killer does when the machine runs short of memory: SIGKILL, without warning,
    to the process using the most memory, here the Celery pool process executing a run (its main process, small,
    lives on and forks another). Answers (pid, its resident MB when killed)."""
    pool = children(worker.pid)
    assert pool, "the worker has no pool process"
    sizes = {pid: rss_mb(pid) for pid in pool}
    victim = max(sizes, key=sizes.__getitem__)
    os.kill(victim, signal.SIGKILL)
    return victim, sizes[victim]
