"""A small pool of persistent CEL worker processes, and the bounds around each request.

Workers are forked by a zygote process (see :mod:`designer.cel_worker`),
started lazily: the first request starts the zygote and one worker, contention
starts more, up to ``size``.

A request checks a worker out, sends, and waits for the reply at most the
wall-clock bound; past it the worker gets SIGKILL. A worker that ended itself
(its CPU timer fired) or was killed is reaped and let go, a new one is forked
when needed, and the caller gets :class:`CelCostExceeded` naming the limit.

Async callers never block their event loop: they wait on the socket with
``add_reader`` and start or reap workers in a thread. Sync callers
(validation, importers, management commands, tests) block their own thread
only, and while they wait on the socket they do not hold the GIL.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from designer.cel_language import CelError, CelUnavailable, over_budget
from designer.cel_worker import EVAL_SIGNAL, PARSE_SIGNAL, PID

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Limits:
    parse_ms: float
    eval_ms: float
    wall_ms: float
    memory_mb: int


@dataclass
class Reply:
    kind: str  # ok, error or cost
    payload: Any
    cpu_ms: float


class _Zygote:
    """The process that forks workers; one for the process, shared by the pools, started on first use."""

    def __init__(self) -> None:
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self.process = subprocess.Popen(  # noqa: S603 - this interpreter and this app's own module, no shell
                [sys.executable, "-m", "designer.cel_worker", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        self._lock = threading.Lock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def fork(self, memory_mb: int) -> tuple[int, Connection]:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs, self._lock:
            socket.send_fds(self.control, [b"fork %d" % memory_mb], [theirs.fileno()])
            pid = self._answer()
        return pid, Connection(ours.detach())

    def wait(self, pid: int) -> int | None:
        with self._lock:
            self.control.sendall(b"wait %d" % pid)
            return self._answer()

    def _answer(self) -> int:
        data = self.control.recv(PID.size)
        if len(data) != PID.size:
            raise OSError("the CEL zygote closed its socket")
        return PID.unpack(data)[0]

    def close(self) -> None:
        self.control.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_zygote: _Zygote | None = None
_zygote_lock = threading.Lock()


def zygote() -> _Zygote:
    """The running zygote; a new one if there is none yet or the last one died."""
    global _zygote
    with _zygote_lock:
        if _zygote is None or not _zygote.alive():
            if _zygote is not None:
                _zygote.close()
            _zygote = _Zygote()
        return _zygote


def forget_zygote() -> None:
    """In a forked child (Celery's prefork pool): the parent's zygote answers the parent, not us."""
    global _zygote
    _zygote = None


class _Worker:
    def __init__(self, zygote: _Zygote, memory_mb: int) -> None:
        self.zygote = zygote
        self.pid, self.conn = zygote.fork(memory_mb)
        self.poller = select.poll()  # kept: Connection.poll builds a selector on every call
        self.poller.register(self.conn.fileno(), select.POLLIN)

    def reap(self) -> int | None:
        """Kill (a no-op when it already ended) and reap: the exit code, negative for a signal."""
        # While the zygote lives it reaps only when asked, so the pid cannot have been reused. An orphan of a
        # dead zygote is not signalled (its pid may be someone else's by now): closing the socket ends it.
        if self.zygote.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        self.conn.close()
        try:
            return self.zygote.wait(self.pid)
        except OSError:
            return None


class Pool:
    def __init__(self, name: str, size: int, limits: Limits) -> None:
        self.name, self.size, self.limits = name, max(1, size), limits
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._live = 0  # started, starting or checked out
        self._waiters: deque[concurrent.futures.Future] = deque()
        self.replaced = 0  # workers that were killed or died and were let go (tests and the bench read it)

    # ------------------------------------------------------------------ requests

    def request(self, message: tuple, *, phase_ms: float, parse: bool) -> Reply:
        """Send ``message`` and wait for the reply, in this thread."""
        data = self._encode(message, parse)
        worker = None
        for _ in range(2):
            worker = self._checkout()
            if self._sent(worker, data):
                break
        else:
            raise CelUnavailable("the CEL evaluator is not answering")
        try:
            ready = bool(worker.poller.poll(self._wall_s(phase_ms) * 1000))
        except BaseException:
            self._discard(worker)
            raise
        return self._settle(worker, *self._read(worker, ready), phase_ms, parse)

    async def request_async(self, message: tuple, *, phase_ms: float, parse: bool) -> Reply:
        """Send ``message`` and await the reply without blocking the running event loop."""
        data = self._encode(message, parse)
        worker = None
        for _ in range(2):
            worker = await self._checkout_async()
            if self._sent(worker, data):
                break
        else:
            raise CelUnavailable("the CEL evaluator is not answering")
        loop = asyncio.get_running_loop()
        try:
            readable = loop.create_future()
            fd = worker.conn.fileno()
            loop.add_reader(fd, _resolve, readable)
            try:
                async with asyncio.timeout(self._wall_s(phase_ms)):
                    await readable
                ready = True
            except TimeoutError:
                ready = worker.conn.poll(0)  # the answer may have come in as the bound ran out
            finally:
                loop.remove_reader(fd)
        except BaseException:  # cancelled mid-request: the worker's next reply would be stale
            threading.Thread(target=self._discard, args=(worker,), daemon=True).start()
            raise
        status, reply = self._read(worker, ready)
        if status == "reply" and reply is not None and not reply[3]:
            return self._settle(worker, status, reply, phase_ms, parse)
        # Killing and reaping take a moment; the event loop has better things to do.
        return await asyncio.to_thread(self._settle, worker, status, reply, phase_ms, parse)

    def _encode(self, message: tuple, parse: bool) -> bytes:
        """The request as bytes, refused here when a worker could not even hold it."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        cap = self.limits.memory_mb * 1024 * 1024 // 8  # unpickled, then converted to CEL values: several times this
        if len(data) > cap:
            raise over_budget(f"its variables take {len(data) / 2**20:.1f} MiB, more than {cap / 2**20:.0f} MiB", parse=parse)
        return data

    def _sent(self, worker: _Worker, data: bytes) -> bool:
        """False when the worker died while idle (the OOM killer, an operator); it is let go."""
        try:
            worker.conn.send_bytes(data)
            return True
        except OSError:
            threading.Thread(target=self._discard, args=(worker,), daemon=True).start()
            return False

    def _wall_s(self, phase_ms: float) -> float:
        return max(self.limits.wall_ms, 2 * (self.limits.parse_ms + phase_ms)) / 1000

    @staticmethod
    def _read(worker: _Worker, ready: bool) -> tuple[str, tuple | None]:
        if not ready:
            return "timeout", None
        try:
            return "reply", worker.conn.recv()
        except (EOFError, OSError):
            return "died", None

    def _settle(self, worker: _Worker, status: str, reply: tuple | None, phase_ms: float, parse: bool) -> Reply:
        if status == "timeout":
            self._discard(worker)
            raise over_budget(f"no answer within {self._wall_s(phase_ms) * 1000:.0f} ms of wall-clock time", parse=parse)
        if status == "died":
            raise self._death(self._discard(worker), phase_ms, parse)
        if reply is None:  # status == "reply" always comes with one
            raise RuntimeError(f"CEL worker answered {status!r} without a reply")
        kind, payload, cpu_ms, retire = reply
        if retire:
            self._discard(worker)
        else:
            self._release(worker)
        if kind == "memory":
            raise over_budget(f"more than {self.limits.memory_mb} MiB of memory", parse=parse)
        return Reply(kind, payload, cpu_ms)

    def _death(self, code: int | None, phase_ms: float, parse: bool) -> CelError:
        if code == -PARSE_SIGNAL:
            return over_budget(f"more than {phase_ms if parse else self.limits.parse_ms:.0f} ms of CPU time", parse=True)
        if code == -EVAL_SIGNAL:
            return over_budget(f"more than {phase_ms:.0f} ms of CPU time")
        return CelUnavailable(f"the CEL evaluator stopped unexpectedly (exit code {code})")

    # ------------------------------------------------------------------ workers

    def _claim(self) -> tuple[_Worker | None, bool, concurrent.futures.Future | None]:
        with self._lock:
            if self._idle:
                return self._idle.pop(), False, None
            if self._live < self.size:
                self._live += 1
                return None, True, None
            waiter: concurrent.futures.Future = concurrent.futures.Future()
            self._waiters.append(waiter)
            return None, False, waiter

    def _checkout(self) -> _Worker:
        worker, start, waiter = self._claim()
        if worker is not None:
            return worker
        if start:
            return self._start()
        if waiter is None:  # neither an idle worker nor room to start one: _claim gave a place in the queue
            raise RuntimeError("CEL pool: no worker, no start and no place in the queue")
        return waiter.result()

    async def _checkout_async(self) -> _Worker:
        worker, start, waiter = self._claim()
        if worker is not None:
            return worker
        if start:
            # The first start also starts the zygote (an interpreter): never on the event loop.
            waiter = concurrent.futures.Future()
            threading.Thread(target=self._start_for, args=(waiter,), name=f"cel-{self.name}-start", daemon=True).start()
        if waiter is None:  # neither an idle worker nor room to start one: _claim gave a place in the queue
            raise RuntimeError("CEL pool: no worker, no start and no place in the queue")
        try:
            return await asyncio.wrap_future(waiter)
        except asyncio.CancelledError:
            # A worker handed over just as we were cancelled goes back to the pool.
            waiter.add_done_callback(self._return_unclaimed)
            raise

    def _return_unclaimed(self, waiter: concurrent.futures.Future) -> None:
        if not waiter.cancelled() and waiter.exception() is None:
            self._release(waiter.result())

    def _start_for(self, promise: concurrent.futures.Future) -> None:
        try:
            worker = self._start()
        except CelUnavailable as exc:
            if promise.set_running_or_notify_cancel():
                promise.set_exception(exc)
            return
        if promise.set_running_or_notify_cancel():
            promise.set_result(worker)
        else:
            self._release(worker)

    def _start(self) -> _Worker:
        try:
            return _Worker(zygote(), self.limits.memory_mb)
        except BaseException as exc:
            with self._lock:
                self._live -= 1  # the slot this start had claimed
            if isinstance(exc, (OSError, subprocess.SubprocessError)):  # no interpreter, no fork, a zygote gone
                raise CelUnavailable(f"the CEL evaluator could not start: {exc}") from None
            raise

    def _release(self, worker: _Worker) -> None:
        """Hand the worker to the first waiter still waiting, else back to the idle list."""
        while True:
            with self._lock:
                if not self._waiters:
                    self._idle.append(worker)
                    return
                waiter = self._waiters.popleft()
            # Outside the lock: a done callback may release a worker itself (_return_unclaimed).
            if waiter.set_running_or_notify_cancel():
                waiter.set_result(worker)
                return

    def _discard(self, worker: _Worker) -> int | None:
        """Kill (if need be) and reap a worker; start a replacement when someone is waiting."""
        code = worker.reap()
        with self._lock:
            self._live -= 1
            self.replaced += 1
            refill = bool(self._waiters)
            if refill:
                self._live += 1
        if refill:
            threading.Thread(target=self._refill, name=f"cel-{self.name}-refill", daemon=True).start()
        return code

    def _refill(self) -> None:
        try:
            worker = self._start()
        except CelUnavailable as exc:
            with self._lock:
                waiters, self._waiters = list(self._waiters), deque()
            for waiter in waiters:
                if waiter.set_running_or_notify_cancel():
                    waiter.set_exception(exc)
            return
        self._release(worker)

    def workers(self) -> list[int]:
        """Process ids of the idle workers (tests and the bench look at them)."""
        with self._lock:
            return [w.pid for w in self._idle]

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._live -= len(idle)
        for worker in idle:
            worker.reap()


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)
