"""A provider request leaves when it is made (runtime/providers/eager_writes.py).

On Python 3.11 aiohttp sends a request's body from a task that waits for the
loop's next pass; a fan-out's requests then wait for a whole burst of answers to
be processed. The eager start sends it in the step that made it."""
import asyncio
import contextvars
import time

import pytest

from runtime.providers import ChatRequest, eager_writes, get_provider
from tests.fakes import FakeOpenAI

steps: list[str] = []
where = contextvars.ContextVar("where", default="outside")


async def finishes_at_once(value):
    steps.append(f"ran in {where.get()}")
    where.set("inside")
    return value


async def waits_once(future):
    steps.append("first step")
    got = await future
    steps.append(f"resumed with {got}")
    return got * 2


async def fails_at_once():
    raise ValueError("no good")


async def catches_cancellation(future):
    try:
        await future
    except asyncio.CancelledError:
        steps.append("cancelled inside")
        raise


@pytest.fixture(autouse=True)
def clean_steps(monkeypatch):
    steps.clear()
    monkeypatch.setattr(eager_writes, "NEEDED", True)  # what is tested here is the 3.11 path, on any Python


async def test_a_coroutine_that_does_not_wait_has_run_when_create_task_returns():
    eager_writes.install(codes={finishes_at_once.__code__})
    where.set("caller")
    task = asyncio.get_running_loop().create_task(finishes_at_once(7))
    assert steps == ["ran in caller"] and task.done() and task.result() == 7
    assert where.get() == "caller"  # it ran in a copy of the caller's context, as a task does


async def test_one_that_waits_runs_its_first_step_now_and_the_rest_when_its_future_is_done():
    eager_writes.install(codes={waits_once.__code__})
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    task = loop.create_task(waits_once(future))
    assert steps == ["first step"] and not task.done()
    future.set_result(21)
    assert await task == 42
    assert steps == ["first step", "resumed with 21"]


async def test_a_failure_in_the_first_step_is_the_tasks_failure():
    eager_writes.install(codes={fails_at_once.__code__})
    task = asyncio.get_running_loop().create_task(fails_at_once())
    with pytest.raises(ValueError, match="no good"):
        await task


async def test_cancelling_the_rest_throws_the_cancellation_into_the_coroutine():
    eager_writes.install(codes={catches_cancellation.__code__})
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    task = loop.create_task(catches_cancellation(future))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert steps == ["cancelled inside"] and future.cancelled()


async def test_other_tasks_still_wait_for_the_loop():
    eager_writes.install(codes={waits_once.__code__})
    task = asyncio.get_running_loop().create_task(finishes_at_once(1))
    assert steps == [] and not task.done()
    assert await task == 1


async def test_installing_twice_keeps_one_factory_and_an_earlier_factory_still_makes_the_other_tasks():
    loop = asyncio.get_running_loop()
    made: list[str] = []

    def earlier(loop, coro, **kw):
        made.append(coro.cr_code.co_name)
        return asyncio.Task(coro, loop=loop, **kw)

    loop.set_task_factory(earlier)
    eager_writes.install()
    factory = loop.get_task_factory()
    eager_writes.install()
    assert loop.get_task_factory() is factory
    assert await loop.create_task(finishes_at_once(3)) == 3
    assert made == ["finishes_at_once"]


async def test_a_request_is_on_the_wire_before_the_loop_runs_anything_queued_after_it():
    """The loop is blocked for 0.3 s right after the request's step: the body must arrive before that."""
    with FakeOpenAI() as server:
        server.add({"content": "warm"}, {"content": "measured"})
        provider = get_provider("openai", base_url=server.url + "/v1", api_key="k", backoff=0.001)
        try:
            await provider.chat(ChatRequest(model="m", messages=[{"role": "user", "content": "open a connection"}]))
            loop = asyncio.get_running_loop()
            started = time.monotonic()
            # The request's first step (it finds the open connection and sends), then 0.3 s of other work
            # queued in the same pass of the loop.
            task = loop.create_task(provider.chat(ChatRequest(model="m", messages=[{"role": "user", "content": "go"}])))
            loop.call_soon(time.sleep, 0.3)
            reply = await task
        finally:
            await provider.aclose()
    assert reply.content == "measured"
    assert server.requests[-1].received_at - started < 0.2
