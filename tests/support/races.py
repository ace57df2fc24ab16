"""Many requests at once: each thread waits at a barrier, then asks; every answer is returned in order. Room in the
server's document checks for all of them, when the race is about something else."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from common import offload

T = TypeVar("T")


def all_at_once(ask: Callable[[int], T], count: int, deadline_s: float = 120) -> list[T]:
    """``ask(i)`` for i in 0..count-1, released together; raises what a thread raised."""
    go = threading.Barrier(count, timeout=deadline_s)
    answers: dict[int, T] = {}
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            go.wait()
            answers[i] = ask(i)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(deadline_s)
    assert not any(t.is_alive() for t in threads), "a request did not finish within the deadline"
    if errors:
        raise errors[0]
    return [answers[i] for i in range(count)]


@contextmanager
def checks_for_all(count: int) -> Iterator[None]:
    """A request that checks a document (a run start does) takes one of the process's WORK_QUEUE slots (16) and is
    answered 503 when none is free (common/offload.py). Twenty starts released together on a slow machine all hold
    one at once, so a race about the workspace's limits met that bound instead (a 503 among the 429s). The slots are
    made once per process, so the test swaps in a larger set for the race and puts the old one back after it."""
    kept = offload._slots
    offload._slots = threading.BoundedSemaphore(count)
    try:
        yield
    finally:
        offload._slots = kept
