"""A worker's address space is capped (CEL_MEMORY_MB): an expression that allocates past it fails
with the memory budget error and its worker is let go; variables too big for a worker to hold are
refused before they are sent."""
import pytest

from designer.cel import CelCostExceeded
from designer.cel_pool import Limits, Pool


@pytest.fixture
def pool():
    p = Pool("memory", 1, Limits(parse_ms=300, eval_ms=1000, wall_ms=5000, memory_mb=80))
    yield p
    p.close()


def evaluate(pool: Pool, expression: str, variables: dict):
    reply = pool.request(("evaluate", expression, variables, 0.3, 1.0), phase_ms=1000, parse=False)
    assert reply.kind == "ok", reply
    return reply.payload


def test_an_expression_that_allocates_past_the_cap_fails_with_the_memory_error(pool):
    assert evaluate(pool, "s.size()", {"s": "x" * 1_000_000}) == 1_000_000
    with pytest.raises(CelCostExceeded) as err:
        evaluate(pool, "L.map(i, s + s).size()", {"s": "x" * 1_000_000, "L": list(range(60))})  # 120 MB of strings
    assert str(err.value) == "expression exceeded its evaluation budget (cel_budget_exceeded: more than 80 MiB of memory)"
    assert pool.replaced == 1
    assert evaluate(pool, "'after'", {}) == "after"


def test_variables_too_big_for_a_worker_are_refused_before_they_are_sent(pool):
    with pytest.raises(CelCostExceeded) as err:
        evaluate(pool, "s.size()", {"s": "y" * 30_000_000})
    assert err.value.limit == "its variables take 28.6 MiB, more than 10 MiB"
    assert pool.replaced == 0
    assert evaluate(pool, "s.size()", {"s": "y" * 5_000_000}) == 5_000_000
