"""Celery tasks: thin wrappers over the execution service."""
from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
from concurrent.futures import ThreadPoolExecutor

from billiard.exceptions import WorkerLostError
from celery import shared_task
from celery.signals import task_failure
from kombu.exceptions import ChannelError

from runtime.durability import continuation
from runtime.execution.worker import execute_run_in_worker
from runtime.live.announce import announce_status_sync
from runtime.models import Run, RunStatus

log = logging.getLogger(__name__)


def process_label(pid: int | None = None) -> str:
    """The run's ``worker`` while a Celery pool process executes it: the host and that process's id, so that the
    worker's main process can tell, when the process dies, whether the run was still its (:func:`_process_lost`)."""
    return f"celery@{socket.gethostname()}:{pid or os.getpid()}"


class _KeptExecutor(ThreadPoolExecutor):
    """The threads a pool process's runs do their database work on (``off_loop``), kept from one task to the next.
    Each task's event loop shuts its default executor down when it ends; with a new one per task, every task left
    its threads' database connections open behind it (Django keeps one per thread for CONN_MAX_AGE): a soak of a
    few hundred runs held hundreds and PostgreSQL refused new ones. Kept, a process holds at most one per thread."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        return None  # the next task's loop uses it again; the process's end takes the threads


_executor: _KeptExecutor | None = None  # made in the pool process, after the fork, at its first task


def _task_loop() -> asyncio.AbstractEventLoop:
    global _executor
    if _executor is None:
        _executor = _KeptExecutor(thread_name_prefix="run-orm")
    loop = asyncio.new_event_loop()
    loop.set_default_executor(_executor)
    return loop


@shared_task(name="runtime.execute_run", acks_late=True)
def execute_run_task(run_id: str) -> str | None:
    with asyncio.Runner(loop_factory=_task_loop) as runner:
        return runner.run(execute_run_in_worker(run_id, worker=process_label(), requeue=_requeue))


@task_failure.connect
def _process_lost(sender: object = None, exception: BaseException | None = None, args: tuple = (), **_: object) -> None:
    """In the worker's main process: the pool process executing a run died (the out-of-memory killer's SIGKILL, a
    crash). Its run resumes at once from its last boundary, or fails past its resumes, with a reason saying how the
    process ended, instead of waiting RUN_LOST_AFTER_S to be found silent by the reaper."""
    if getattr(sender, "name", None) != execute_run_task.name or not isinstance(exception, WorkerLostError) or not args:
        return
    try:
        process_died(str(args[0]), str(exception))
    except Exception:
        log.exception("run %s: its lost process could not be handled; the reaper finds it", args[0])


def _requeue(run: Run) -> None:
    """A run this worker handed back while stopping goes to the queue at once, for another worker."""
    send(str(run.id))


def send(run_id: str) -> bool:
    """Queue the run's task; False, logged, when the broker cannot take it (it is down or restarting): the run stays
    queued in the database and the reaper sends it again once the broker is back (runtime.execution.reaper)."""
    try:
        execute_run_task.delay(run_id)  # a blip is retried a few times within a second
    except Exception as exc:  # kombu's and redis's connection errors have no common base but Exception
        log.warning("run %s: the broker did not take its task (%s); it is sent again when the broker is back", run_id,
                    type(exc).__name__)
        return False
    return True


def broker_waiting() -> int | None:
    """How many task messages wait in the broker's queue (not yet taken by a worker); None when it cannot be asked."""
    app = execute_run_task.app
    try:
        with app.connection_for_read() as connection:
            connection.ensure_connection(max_retries=1)
            try:
                return connection.default_channel.queue_declare(app.conf.task_default_queue, passive=True).message_count
            except ChannelError:
                return 0  # no such queue: a broker that restarted empty has none until a task is sent
    except Exception as exc:
        log.warning("the broker could not be asked how many tasks wait (%s)", type(exc).__name__)
        return None


def process_died(run_id: str, how: str) -> str:
    """A Celery pool process of this host died while executing ``run_id`` (``how``: billiard's "Worker exited
    prematurely: signal 9 (SIGKILL) ..."). When the run is still that process's, it resumes now or fails past its
    resumes, the reason in words. Returns resume_or_fail's answer, or "alive" when the run is not that process's."""
    run = Run.objects.filter(pk=run_id).values("status", "worker").first()
    if run is None or run["status"] not in (RunStatus.RUNNING, RunStatus.PAUSED):
        return "gone"
    pid = run["worker"].rpartition(":")[2]
    if not pid.isdigit() or run["worker"] != process_label(int(pid)) or _alive(int(pid)):
        return "alive"  # another host's process, or one that still runs: its heartbeat tells
    outcome = continuation.resume_or_fail(run_id, f"worker lost: {_death(how)}", worker=run["worker"])
    if outcome == "resumed":
        send(run_id)
    if outcome != "gone":
        log.warning("run %s: %s (%s)", run_id, _death(how), outcome)
        announce_status_sync(run_id)
    return outcome


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"  # a zombie is dead, only not yet reaped
    except OSError:
        return False


def _death(how: str) -> str:
    """How a pool process ended, in words, from billiard's message."""
    killed = re.search(r"signal (\d+) \((\w+)\)", how)
    if killed and killed.group(2) == "SIGKILL":
        return ("its process was killed (SIGKILL), as the out-of-memory killer does when the machine runs short of "
                "memory")
    if killed:
        return f"its process was killed by signal {killed.group(1)} ({killed.group(2)})"
    code = re.search(r"exitcode (\d+)", how)
    return f"its process exited with code {code.group(1)}" if code else "its process ended unexpectedly"
