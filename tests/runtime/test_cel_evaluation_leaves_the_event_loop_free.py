"""An evaluation runs in a worker process while the event loop goes on: a costly expression being
evaluated does not hold up a cheap one started after it (the old in-loop evaluation did)."""
import asyncio
import contextlib

import pytest

from designer import cel

QUADRATIC = "size(L.map(a, L.map(b, a))) > 0"


async def test_a_cheap_evaluation_finishes_while_a_costly_one_is_still_running():
    finished: list[str] = []

    async def costly():
        with contextlib.suppress(cel.CelCostExceeded):
            await cel.evaluate_async(QUADRATIC, {"L": list(range(380))}, timeout_ms=2000)
        finished.append("costly")

    async def cheap():
        await asyncio.sleep(0)  # let the costly one start first
        assert await cel.evaluate_async("steps.a.content.contains('ok')", {"steps": {"a": {"content": "ok"}}}) is True
        finished.append("cheap")

    await asyncio.gather(costly(), cheap())
    assert finished == ["cheap", "costly"]


async def test_a_timer_task_keeps_ticking_while_an_expression_is_evaluated():
    ticks = 0
    stop = asyncio.Event()

    async def ticker():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.001)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = ticks
    with pytest.raises(cel.CelCostExceeded):
        await cel.evaluate_async(QUADRATIC, {"L": list(range(380))}, timeout_ms=300)
    during = ticks - before
    stop.set()
    await task
    assert during > 1
