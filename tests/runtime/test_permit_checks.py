"""A run's permit as its model calls ask it (runtime/execution/permit_checks.py): calls made together share one
reading, an answer is kept for a second, and a pause or resume forgets it."""
from __future__ import annotations

import asyncio

from runtime.execution.permit_checks import PermitChecks


class Reader:
    def __init__(self, answers: list[str | None]) -> None:
        self.answers = answers
        self.asked = 0
        self.gate = asyncio.Event()

    async def __call__(self, provider: str) -> str | None:
        self.asked += 1
        await self.gate.wait()
        return self.answers[min(self.asked, len(self.answers)) - 1]


def test_calls_made_together_share_one_reading():
    async def go():
        reader = Reader([None])
        checks = PermitChecks(reader)
        waiting = [asyncio.create_task(checks("openai")) for _ in range(100)]
        await asyncio.sleep(0)
        reader.gate.set()
        answers = await asyncio.gather(*waiting)
        return reader.asked, answers
    asked, answers = asyncio.run(go())
    assert asked == 1 and answers == [None] * 100


def test_an_answer_is_kept_while_fresh_then_read_again():
    now = [0.0]
    async def go():
        reader = Reader([None, "the key was removed"])
        reader.gate.set()
        checks = PermitChecks(reader, fresh_s=1.0, clock=lambda: now[0])
        first = await checks("openai")
        now[0] = 0.9
        kept = await checks("openai")
        asked_while_fresh = reader.asked
        now[0] = 1.0
        return first, kept, asked_while_fresh, await checks("openai"), reader.asked
    assert asyncio.run(go()) == (None, None, 1, "the key was removed", 2)


def test_a_pause_or_resume_forgets_every_answer_and_providers_are_apart():
    async def go():
        reader = Reader([None, None, "no longer a member"])
        reader.gate.set()
        checks = PermitChecks(reader, fresh_s=60.0)
        await checks("openai")
        await checks("anthropic")  # another provider: its own reading
        checks.forget("resume")
        return await checks("openai"), reader.asked
    assert asyncio.run(go()) == ("no longer a member", 3)


def test_one_caller_cancelled_does_not_cancel_the_others_reading():
    async def go():
        reader = Reader(["refused"])
        checks = PermitChecks(reader)
        first = asyncio.create_task(checks("openai"))
        second = asyncio.create_task(checks("openai"))
        await asyncio.sleep(0)
        first.cancel()
        reader.gate.set()
        return await second, reader.asked
    assert asyncio.run(go()) == ("refused", 1)
