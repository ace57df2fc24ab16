"""Celery tasks: thin wrappers that call the engine's execution service."""
from __future__ import annotations

import asyncio
import socket

from celery import shared_task


@shared_task(name="runtime.execute_run", acks_late=True)
def execute_run_task(run_id: str) -> str | None:
    from runtime.execution import execute_run_in_worker

    return asyncio.run(execute_run_in_worker(run_id, worker=f"celery@{socket.gethostname()}"))
