"""Checking expressions costs parse time (about 0.1 s for 4,000 characters), so the expressions of
one document share one budget: the issue's case, 100 steps with distinct 4 kB conditions, is
answered with every condition either checked or named, by path, as not checked; unchecked
conditions block a run, as unparsable ones do. (The API refuses documents whose expressions pass 20,000
characters in all before they get here; runs, imports and saved versions are validated here too.)"""
from designer import cel
from designer.validation import validate_document


def long_condition(i: int, salt: str) -> str:
    """About 4 kB of valid CEL, different for every i and salt (checked outcomes are cached), reading no variable."""
    parts = [f"size('{salt}-{i}') > 0"]
    while len(" && ".join(parts)) < 3900:
        parts.append(f"[1, 2, {i}].exists(x, x == {len(parts)})")
    return " && ".join(parts[:-1])


def attack(salt: str, n: int = 100) -> dict:
    return {"name": "attack", "steps": [{"id": f"s{i}", "instructions": "x", "condition": long_condition(i, salt)}
                                        for i in range(n)]}


def codes_by_path(diagnostics) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for d in diagnostics:
        out.setdefault(d.path, set()).add(d.code)
    return out


def test_the_conditions_past_the_budget_are_named_by_path_and_block_a_run():
    document = attack("named")
    assert all(3500 < len(s["condition"]) <= cel.MAX_EXPRESSION_LENGTH for s in document["steps"])
    report = validate_document(document)
    unchecked = [d for d in report.diagnostics if d.code == "cel_not_checked"]
    assert unchecked, "a 500 ms budget cannot parse 100 conditions of 4 kB"
    assert len(unchecked) < 100, "the budget checks some of them"
    for d in unchecked:
        assert d.path.startswith("/steps/") and d.path.endswith("/condition")
        assert d.blocks_run and d.severity == "warning"
        assert d.message == ("`condition` was not checked: this document's expressions used up their 500 ms parse "
                             "budget (cel_check_budget_exhausted)")
    # Nothing else is said about any condition: the checked ones are fine.
    assert {code for codes in codes_by_path(report.diagnostics).values() for code in codes} == {"cel_not_checked"}


def test_a_condition_checked_once_is_not_parsed_again():
    document = attack("once", 2)
    first = validate_document(document)
    assert not first.diagnostics
    budget = cel.CheckBudget(1)  # no parse would fit in 1 ms: the answers come from the cache
    for step in document["steps"]:
        cel.inspect(step["condition"], budget=budget)
    assert budget.spent_ms == 0
