"""A worker that uses up its CPU time dies by its own timer; one that does not answer in time is
killed by the caller; one killed from outside while idle is noticed at the next request. Each time
the pool lets it go, forks a new one, and the next evaluation works."""
import os
import signal
import time

import pytest

from designer.cel import CelCostExceeded
from designer.cel_pool import Limits, Pool

QUADRATIC = "size(L.map(a, L.map(b, a))) > 0"
L = list(range(380))


def evaluate(pool: Pool, expression: str, variables: dict, wall_s: float = 3) -> object:
    reply = pool.request(("evaluate", expression, variables, wall_s, 0.05), phase_ms=50, parse=False)
    assert reply.kind == "ok", reply
    return reply.payload


@pytest.fixture
def pool():
    """A wall-clock bound of 3 s: short enough to wait out, long enough for a loaded machine (load 20) to answer."""
    p = Pool("test", 1, Limits(parse_ms=50, eval_ms=50, wall_ms=3000, memory_mb=512))
    yield p
    p.close()


@pytest.fixture
def cpu_pool():
    """The CPU limit alone: a loaded machine's wall clock (a minute here) must not run out first."""
    p = Pool("test", 1, Limits(parse_ms=50, eval_ms=50, wall_ms=60_000, memory_mb=512))
    yield p
    p.close()


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_worker_past_its_cpu_time_is_replaced_and_the_next_evaluation_works(cpu_pool):
    pool = cpu_pool
    assert evaluate(pool, "1 + 1", {}, wall_s=60) == 2
    [first] = pool.workers()
    with pytest.raises(CelCostExceeded) as err:
        evaluate(pool, QUADRATIC, {"L": L}, wall_s=60)
    assert err.value.code == "cel_budget_exceeded" and err.value.limit == "more than 50 ms of CPU time"
    assert gone(first) and pool.replaced == 1
    assert evaluate(pool, "L.size()", {"L": L}, wall_s=60) == 380
    [second] = pool.workers()
    assert second != first


def test_a_worker_that_does_not_answer_in_time_is_killed_and_replaced(pool):
    assert evaluate(pool, "true", {}) is True
    [stuck] = pool.workers()
    os.kill(stuck, signal.SIGSTOP)  # its CPU timer cannot fire: only the caller's wall-clock bound is left
    with pytest.raises(CelCostExceeded) as err:
        evaluate(pool, "true", {})
    assert err.value.limit == "no answer within 3000 ms of wall-clock time"
    assert gone(stuck) and pool.replaced == 1
    assert evaluate(pool, "'still' + ' here'", {}) == "still here"


async def test_the_async_door_replaces_a_killed_worker_too(cpu_pool):
    pool = cpu_pool
    message = ("evaluate", QUADRATIC, {"L": L}, 60, 0.05)
    assert (await pool.request_async(("evaluate", "2 * 21", {}, 60, 0.05), phase_ms=50, parse=False)).payload == 42
    [first] = pool.workers()
    with pytest.raises(CelCostExceeded):
        await pool.request_async(message, phase_ms=50, parse=False)
    assert gone(first)
    assert (await pool.request_async(("evaluate", "[1, 2].size()", {}, 60, 0.05), phase_ms=50, parse=False)).payload == 2


def test_a_worker_killed_while_idle_is_replaced_without_the_caller_noticing(pool):
    assert evaluate(pool, "1", {}) == 1
    [victim] = pool.workers()
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not _ended(victim) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert evaluate(pool, "'fine'", {}) == "fine"
    assert pool.workers() != [victim] and pool.replaced == 1


def test_an_expression_too_costly_to_parse_is_stopped_by_the_parse_timer(cpu_pool):
    pool = cpu_pool
    deep = "(" * 1300 + "1" + ")" * 1300 + " == 1"  # about 0.1 s of parsing; the bound here is 5 ms
    with pytest.raises(CelCostExceeded) as err:
        pool.request(("check", deep, 0.005), phase_ms=5, parse=True)
    assert err.value.code == "cel_parse_budget_exceeded" and err.value.limit == "more than 5 ms of CPU time"
    assert str(err.value) == "expression is too costly to parse (cel_parse_budget_exceeded: more than 5 ms of CPU time)"
    assert evaluate(pool, "true", {}, wall_s=60) is True


def _ended(pid: int) -> bool:
    """Dead (a zombie until the zygote reaps it) or gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
