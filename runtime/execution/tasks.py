"""Celery tasks: thin wrappers over the execution service."""
from __future__ import annotations

import asyncio
import socket

from celery import shared_task

from runtime.execution.worker import execute_run_in_worker
from runtime.models import Run


@shared_task(name="runtime.execute_run", acks_late=True)
def execute_run_task(run_id: str) -> str | None:
    return asyncio.run(execute_run_in_worker(run_id, worker=f"celery@{socket.gethostname()}", requeue=_requeue))


def _requeue(run: Run) -> None:
    """A run this worker handed back while stopping goes to the queue at once, for another worker."""
    execute_run_task.delay(str(run.id))
