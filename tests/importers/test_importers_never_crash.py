"""Whatever the input, an import either gives a valid document or refuses with ImportFailed: never a traceback."""
import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from designer.documents import validate_document
from designer.importers import ImportFailed, import_loop

IDS = st.sampled_from(["draft", "review", "Refine Loop", "done", "check", "2x", "code_1", "ghost"])
OPS = st.sampled_from(["equals", "not_equals", "contains", "gte", "lt", "exists", "not_empty", "regex", "bogus"])


def conditions():
    single = st.fixed_dictionaries({"eval_key": st.sampled_from(["verdict", "score", "a.b"]), "operator": OPS},
                                   optional={"value": st.one_of(st.text(max_size=8), st.integers(-5, 20), st.booleans())})
    group = st.fixed_dictionaries({"combinator": st.sampled_from(["and", "or", "xor"]),
                                   "conditions": st.lists(single, max_size=3)})
    return st.one_of(single, group)


@st.composite
def workflows(draw):
    """Mostly well-formed block graphs (ids drawn from the defined blocks), now and then a broken reference."""
    names = draw(st.lists(IDS, min_size=1, max_size=6, unique=True))
    ref = st.sampled_from(names) if draw(st.integers(0, 9)) else IDS
    conds = conditions()
    common = {"depends": st.one_of(ref, st.lists(ref, max_size=2)), "stateful": st.booleans(),
              "timeout_seconds": st.integers(1, 4000), "retry_config": st.fixed_dictionaries({"max_attempts": st.integers(1, 5)}),
              "output_conditions": st.lists(st.fixed_dictionaries(
                  {"case_id": st.sampled_from(["pass", "fail", "approved", "needs_revision"])},
                  optional={"condition_group": st.fixed_dictionaries({"conditions": st.lists(conds, max_size=2)}),
                            "default": st.booleans()}), max_size=2)}
    linear = st.fixed_dictionaries({"type": st.just("linear"), "soul_ref": st.sampled_from(["writer", "critic"])}, optional=common)
    gate = st.fixed_dictionaries({"type": st.just("gate"), "soul_ref": st.sampled_from(["critic", "judge"]), "eval_key": ref},
                                 optional={**common, "pass": ref, "fail": ref})
    code = st.fixed_dictionaries({"type": st.just("code"), "code": st.text(max_size=40)}, optional=common)
    loop = st.fixed_dictionaries({"type": st.just("loop"), "inner_block_refs": st.lists(ref, min_size=1, max_size=4, unique=True)},
                                 optional={"max_rounds": st.integers(1, 50), "break_on_exit": st.sampled_from(["pass", "fail", "approved"]),
                                           "retry_on_exit": st.sampled_from(["fail", "needs_revision"]),
                                           "break_condition": conds,
                                           "carry_context": st.fixed_dictionaries({}, optional={
                                               "enabled": st.booleans(), "mode": st.sampled_from(["last", "all"]),
                                               "inject_as": st.text(max_size=5)}),
                                           **common})
    synth = st.fixed_dictionaries({"type": st.just("synthesize"), "soul_ref": st.just("editor"),
                                   "input_block_ids": st.lists(ref, min_size=1, max_size=3)}, optional=common)
    other = st.fixed_dictionaries({"type": st.sampled_from(["fanout", "router"])})
    kinds = st.one_of(linear, linear, gate, gate, code, loop, loop, synth) if draw(st.integers(0, 9)) else st.one_of(linear, other)
    blocks = {name: draw(kinds) for name in names}
    workflow = {"name": draw(st.text(min_size=1, max_size=10)), "entry": draw(st.sampled_from(names))}
    workflow.update(draw(st.fixed_dictionaries({}, optional={
        "transitions": st.lists(st.fixed_dictionaries({"from": ref}, optional={"to": ref}), max_size=3),
        "conditional_transitions": st.lists(st.fixed_dictionaries(
            {"from": ref}, optional={"pass": ref, "approved": ref, "default": ref}), max_size=2)})))
    return {"blocks": blocks, "workflow": workflow}


def check(kind, text, parameters=None):
    try:
        result = import_loop(kind, text, parameters=parameters)
    except ImportFailed as exc:
        assert str(exc)
        return
    report = validate_document(result.document)
    assert report.valid, [f"{d.code} {d.path} {d.message}" for d in report.errors]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflows())
def test_random_runsight_workflows_import_validly_or_are_refused(data):
    buf = io.StringIO()
    YAML(typ="safe", pure=True).dump(data, buf)
    check("runsight", buf.getvalue())


def roles():
    return st.lists(st.fixed_dictionaries({"role": st.sampled_from(["plan", "coder", "reviewer", "Odd Role!"]),
                                           "prompt": st.sampled_from(["Do {{x}}", "Check {{y}} twice", "go"])},
                                          optional={"name": st.text(max_size=8), "order": st.integers(-2, 5),
                                                    "requires_artifact_from": st.integers(-1, 3)}), max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"name": st.text(max_size=12), "roles": roles()}, optional={
    "description": st.text(max_size=20),
    "parameters": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["x", "y"])},
                                                 optional={"required": st.booleans(), "default": st.text(max_size=5)}), max_size=2),
    "termination_condition": st.fixed_dictionaries({"type": st.sampled_from(
        ["evaluation_bound", "iteration_bound", "time_bound", "manual", "goal_bound", "never"])}, optional={
        "value": st.one_of(st.integers(-3, 5000), st.fixed_dictionaries({}, optional={
            "criteria": st.text(max_size=10), "max_review_rounds": st.one_of(st.integers(-1, 9), st.just("{{x}}")),
            "max_iterations": st.integers(0, 9), "goal_prompt": st.text(max_size=10)}))}),
    "max_iterations": st.integers(-1, 9)}),
    st.one_of(st.none(), st.fixed_dictionaries({}, optional={"x": st.sampled_from(["3", "deep"]), "goal": st.just("ship it")})))
def test_random_coqui_definitions_import_validly_or_are_refused(data, parameters):
    check("coqui", json.dumps(data), parameters)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes_either_importer(text):
    for kind in ("runsight", "coqui"):
        check(kind, text)


def test_lists_and_nulls_where_block_names_belong_are_refused_not_crashed():
    # Found by the type checker: each of these once raised TypeError or KeyError.
    head = "blocks: {a: {type: linear, soul_ref: w}}\nworkflow: {name: x, entry: a, "
    for tail in ("conditional_transitions: [{from: [a], pass: a}]}", "conditional_transitions: [{from: a, pass: [a]}]}",
                 "transitions: [{from: null, to: a}]}", "transitions: [{from: [a], to: a}]}", "transitions: [{from: a, to: [a]}]}"):
        try:
            import_loop("runsight", head + tail)
        except ImportFailed as exc:
            assert "/workflow/" in str(exc), str(exc)
        else:
            raise AssertionError(f"imported {tail}")
