"""Every upstream conformance case: valid ones accepted with their order, invalid ones rejected with their tag."""
import pytest

from designer.documents import load_source, topo_order
from tests.support.upstream_spec import cases, read_case


@pytest.mark.parametrize("path", cases("valid"), ids=lambda p: p.stem)
def test_valid_case_is_accepted_with_its_step_count_and_order(path):
    case = read_case(path)
    expected = case["expected"]
    loaded = load_source(case["input"])

    assert loaded.valid, [d.as_dict() for d in loaded.report.errors]
    steps = loaded.document["steps"]
    assert len(steps) == expected["step_count"]
    order = topo_order(steps)
    assert sorted(order) == sorted(s["id"] for s in steps)
    if "topo_order" in expected:
        assert order == expected["topo_order"]
    for constraint in expected.get("topo_constraints", []):
        for before in constraint["before"]:
            for after in constraint["after"]:
                assert order.index(before) < order.index(after), (before, after, order)


# Cases where zenflow's own parser and the schema-based case disagree, and we read documents as the parser
# does: each is accepted with a warning that names the schema's rule instead. `version: 0` is run as version 1
# (parse_yaml_edge_cases_test.go, TestEdge_Version0AppliesDefault; upstream's parser tests leave this case out).
READ_AS_THE_RUNNER_DOES = {"version-zero": "version_zero"}


@pytest.mark.parametrize("path", cases("invalid"), ids=lambda p: p.stem)
def test_invalid_case_is_rejected_with_its_tag(path):
    case = read_case(path)
    if path.stem in READ_AS_THE_RUNNER_DOES:
        loaded = load_source(case["input"])
        assert loaded.valid, [d.as_dict() for d in loaded.report.errors]
        assert [d.code for d in loaded.report.warnings] == [READ_AS_THE_RUNNER_DOES[path.stem]]
        return
    tag = case["expected"]["error"]
    loaded = load_source(case["input"])

    assert not loaded.valid
    tags = {d.code for d in loaded.report.errors} | {d.cls for d in loaded.report.errors}
    assert tag in tags, [(d.code, d.cls, d.message) for d in loaded.report.errors]
    for diagnostic in loaded.report.errors:
        assert diagnostic.message
        assert diagnostic.line is not None, diagnostic.as_dict()


def test_invalid_cases_cover_every_precise_tag_the_spec_names():
    seen = {read_case(p)["expected"]["error"] for p in cases("invalid")}
    assert {"cycle", "missing_dep", "nested_loop_prohibited", "unknown_version", "untilagent_bad_ref"} <= seen
