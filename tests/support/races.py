"""Many requests at once: each thread waits at a barrier, then asks; every answer is returned in order."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

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
