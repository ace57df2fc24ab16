"""CEL worker processes: the zygote that forks them, and what one worker does.

The zygote (``python -m designer.cel_worker FD``) is a fresh
interpreter that imports cel-python and lark once (about 0.3 s of CPU), then
forks a worker whenever the parent asks, handing it the socket the parent
passed along. So a worker never inherits the web server's threads, sockets or
database connections, and replacing a killed worker costs a fork, not an
interpreter start. On the control socket the parent sends ``fork MEMORY_MB``
(with the worker's socket as ancillary data; answer: its pid) and ``wait PID`` (answer:
its exit code once it has ended, negative for a signal; the parent kills
before it asks).

A worker answers requests one at a time, and the kernel holds its limits, not
this code. Before parsing the worker arms ``ITIMER_VIRTUAL``, before
evaluating ``ITIMER_PROF``; both signals keep their default action, which ends
the process, so an expression that uses up its CPU time dies wherever it is
(in lark, in celpy, in C code) and no ``except`` can swallow it. The exit
signal tells which phase broke. Turning the variables into CEL values and the
result back costs time in proportion to the data (100,000 integers: about
0.6 s), not to the expression, so it runs outside the CPU timers, bounded by
the size cap on variables and the caller's wall-clock bound. ``RLIMIT_AS``
caps memory. Workers run at niceness 10, below the server.

Requests: ``("check", expression, parse_s)`` answers the :class:`Inspection`;
``("evaluate", expression, variables, parse_s, eval_s)`` answers the value.
Replies: ``(kind, payload, cpu_ms, retire)`` with kind ``ok``, ``error``,
``cost`` or ``memory``; ``retire`` asks the parent to let this worker go
(after a ``MemoryError`` its heap is not worth keeping).
"""
from __future__ import annotations

import os
import pickle
import resource
import signal
import socket
import struct
import sys
import time
from multiprocessing.connection import Connection
from typing import Any, Literal

from designer import cel_language

PARSE_SIGNAL = signal.SIGVTALRM
EVAL_SIGNAL = signal.SIGPROF
PID = struct.Struct("!q")


NICENESS = 10


def zygote(control: socket.socket) -> None:
    # Ctrl-C on a dev server reaches the whole process group; the parent decides when workers end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Workers inherit it: when the machine is busy, requests win the CPU over expressions. Their limits are
    # CPU time, so a lower priority makes no expression fail; it only waits longer.
    os.nice(NICENESS)
    # Built here, once, so a forked worker inherits it rather than building it inside its CPU budget.
    cel_language.warm()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 64, 1)
        except OSError:
            return
        if not message:  # the parent is gone
            return
        if message.startswith(b"fork ") and fds:
            pid = os.fork()
            if pid == 0:
                control.close()
                try:
                    serve(Connection(fds[0]), int(message[5:]))
                finally:
                    os._exit(0)
            os.close(fds[0])
            control.sendall(PID.pack(pid))
        elif message.startswith(b"wait "):
            try:
                _, status = os.waitpid(int(message[5:]), 0)
                code = os.waitstatus_to_exitcode(status)
            except (ChildProcessError, ValueError):
                code = 0
            control.sendall(PID.pack(code))
        else:
            for fd in fds:
                os.close(fd)


def serve(conn: Connection, memory_mb: int) -> None:
    signal.signal(PARSE_SIGNAL, signal.SIG_DFL)
    signal.signal(EVAL_SIGNAL, signal.SIG_DFL)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            raw = conn.recv_bytes()
        except (EOFError, OSError):  # the parent is gone
            return
        try:
            request = pickle.loads(raw)  # noqa: S301 - requests come from the parent process over a private socketpair
        except MemoryError:
            reply = ("memory", None, 0.0, True)
        else:
            del raw
            reply = answer(request)
        conn.send(reply)
        if reply[3]:
            return


def answer(request: tuple) -> tuple:
    started = time.process_time()
    retire = False
    payload: Any
    try:
        if request[0] == "check":
            _, expression, parse_s = request
            with _cpu_limit(signal.ITIMER_VIRTUAL, parse_s):
                payload = cel_language.inspect(expression)
        else:
            _, expression, variables, parse_s, eval_s = request
            with _cpu_limit(signal.ITIMER_VIRTUAL, parse_s):
                compiled = cel_language.program(expression)
            bound = cel_language.activation(variables)
            with _cpu_limit(signal.ITIMER_PROF, eval_s):
                value = cel_language.evaluate(compiled, bound)
            payload = cel_language.to_python(value)
        kind = "ok"
    except cel_language.CelCostExceeded as exc:
        kind, payload = "cost", exc
    except cel_language.CelError as exc:
        kind, payload = "error", str(exc)
    except MemoryError:
        kind, payload, retire = "memory", None, True
    return kind, payload, (time.process_time() - started) * 1000, retire


class _cpu_limit:
    """Arm a one-shot CPU timer for the block; disarm it on the way out, however the block ends."""

    def __init__(self, which: int, seconds: float) -> None:
        self.which, self.seconds = which, seconds

    def __enter__(self) -> None:
        signal.setitimer(self.which, self.seconds)

    def __exit__(self, *exc: object) -> Literal[False]:
        signal.setitimer(self.which, 0)
        return False


if __name__ == "__main__":
    zygote(socket.socket(fileno=int(sys.argv[1])))
