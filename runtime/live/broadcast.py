"""Group names and messages for the channel layer (at-most-once; the database is the truth)."""
from __future__ import annotations

import contextlib

from channels.layers import get_channel_layer

from common.types import RunId


def run_group(run_id: RunId) -> str:
    return f"run.{run_id}"


def workspace_runs_group(workspace_id: int) -> str:
    return f"runs.workspace.{workspace_id}"


async def send_events(run_id: RunId, first: int, last: int, texts: list[str]) -> None:
    """Events ``first``..``last`` (consecutive seqs) as their JSON texts.

    Strings in a tuple: the in-memory layer deep-copies every message for every
    member of the group, and copying strings costs nothing.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    with contextlib.suppress(Exception):  # a full or unreachable layer loses live messages, never the run: clients refill by seq
        await layer.group_send(run_group(run_id), {"type": "run.events", "first": first, "last": last, "texts": tuple(texts)})


async def send_run_status(run_id: RunId, workspace_id: int, run: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.status", "run": run}
    for group in (run_group(run_id), workspace_runs_group(workspace_id)):
        with contextlib.suppress(Exception):  # as for events: clients read the run's status again when they reconnect
            await layer.group_send(group, message)
