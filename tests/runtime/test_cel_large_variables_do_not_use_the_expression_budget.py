"""Turning variables into CEL values costs time in proportion to the data (100,000 integers take about
0.6 s), not to the expression, so it does not count against the 50 ms an evaluation may use: a forEach
over a big step result still evaluates, while the same data cannot buy a costly expression more time."""
import pytest

from designer import cel

pytestmark = pytest.mark.serial  # converting 100,000 values takes seconds on a loaded machine: never beside another test

ITEMS = [{"id": i, "name": f"item-{i}"} for i in range(20_000)]


@pytest.fixture(autouse=True)
def a_wall_clock_for_a_loaded_machine(monkeypatch):
    # What these tests are about is the CPU budget of an evaluation (50 ms), which conversion does not use. The
    # pool's wall clock (5 s) is a safety cap for a stuck worker; beside a CPU hog converting 100,000 values took
    # more than that, so here the cap is a minute (the CPU budget still applies, and is what the tests read).
    monkeypatch.setattr(cel.pool("evaluate").limits, "wall_ms", 60_000)


def test_a_forEach_over_twenty_thousand_results_evaluates():
    found = cel.evaluate("steps['list-items'].result.items", {"steps": {"list-items": {"result": {"items": ITEMS}}}})
    assert found == ITEMS


def test_a_cheap_expression_over_a_hundred_thousand_integers_evaluates():
    assert cel.evaluate("L.size() == 100000 && L[99999] == 99999", {"L": list(range(100_000))}) is True


def test_the_same_data_does_not_buy_a_costly_expression_more_time():
    with pytest.raises(cel.CelCostExceeded) as err:
        cel.evaluate("L.map(a, L.map(b, a)).size() > 0", {"L": list(range(100_000))})
    assert err.value.limit == "more than 50 ms of CPU time"


def test_a_result_of_more_than_the_item_cap_is_refused():
    with pytest.raises(cel.CelCostExceeded) as err:
        cel.evaluate("L", {"L": list(range(cel.MAX_RESULT_ITEMS + 1))})
    assert err.value.limit == f"produced {cel.MAX_RESULT_ITEMS + 1} items, limit {cel.MAX_RESULT_ITEMS}"
