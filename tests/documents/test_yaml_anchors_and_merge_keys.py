"""YAML anchors, aliases and merge keys are resolved as zenflow's parser resolves them, within the value cap.

Ports upstream's internal/exec/parse_yaml_edge_cases_test.go: TestEdge_YAMLMergeKeys (an agent merged from
an anchored one takes its fields, its own fields win), TestEdge_SimpleAlias (a step repeated by an alias is
a duplicate step id) and TestEdge_MultiDocumentYAML (a `---` with nothing after it is read past). Ours on
top: an alias still counts as the values it repeats, so an alias bomb is refused at the value cap with a
diagnostic saying so; diagnostics inside repeated content point at the alias that brought it; the canonical
writer spells everything out, so the exported YAML has no anchors, aliases or merge keys. Through the
validator and POST /api/v1/validate.
"""
import json
import time

import pytest
import yaml

from designer.documents import dump_json, dump_yaml, load_source
from designer.source import MAX_DEPTH, MAX_VALUES

MERGED = """\
name: anchor-test
agents:
  coder: &baseAgent
    description: "base agent"
    model: gpt-4o
    temperature: 0.5
  reviewer:
    <<: *baseAgent
    description: "reviewer agent"
steps:
  - id: step1
    agent: reviewer
    instructions: "do"
"""


def codes(loaded):
    return [d.code for d in loaded.report.errors]


def only_error(loaded):
    assert len(loaded.report.errors) == 1, [d.as_dict() for d in loaded.report.errors]
    return loaded.report.errors[0]


def test_a_merge_key_gives_the_anchored_agents_fields_and_its_own_win():
    loaded = load_source(MERGED)
    assert loaded.valid, [d.as_dict() for d in loaded.report.errors]
    reviewer = loaded.document["agents"]["reviewer"]
    assert reviewer == {"description": "reviewer agent", "model": "gpt-4o", "temperature": 0.5}
    assert loaded.document["agents"]["coder"]["description"] == "base agent"


def test_a_key_written_before_the_merge_key_wins_too():
    loaded = load_source("name: w\nagents:\n  a: &a {description: A, model: m1}\n"
                         "  b:\n    model: m2\n    <<: *a\nsteps: [{id: s}]\n")
    assert loaded.document["agents"]["b"] == {"model": "m2", "description": "A"}


def test_of_several_merged_mappings_the_first_to_give_a_key_gives_it():
    loaded = load_source("name: w\nagents:\n  a: &a {description: A, model: m1}\n  b: &b {description: B, topP: 0.5}\n"
                         "  c:\n    <<: [*a, *b]\nsteps: [{id: s}]\n")
    assert loaded.valid
    assert loaded.document["agents"]["c"] == {"description": "A", "model": "m1", "topP": 0.5}


def test_an_inline_mapping_can_be_merged():
    loaded = load_source("name: w\noptions:\n  <<: {maxConcurrency: 2, onStepFailure: abort}\n  maxConcurrency: 3\n"
                         "steps: [{id: s}]\n")
    assert loaded.valid
    assert loaded.document["options"] == {"maxConcurrency": 3, "onStepFailure": "abort"}


def test_an_aliased_value_is_a_copy_of_its_own():
    loaded = load_source("name: w\nagents:\n  a: {description: A, tools: &t [read, grep]}\n"
                         "  b: {description: B, tools: *t}\nsteps: [{id: s}]\n")
    a, b = loaded.document["agents"]["a"], loaded.document["agents"]["b"]
    assert a["tools"] == b["tools"] == ["read", "grep"]
    assert a["tools"] is not b["tools"]


def test_a_step_repeated_by_an_alias_is_a_duplicate_step_pointed_at_the_alias():
    loaded = load_source("name: alias-test\nsteps:\n  - &step1\n    id: step1\n    instructions: \"do something\"\n"
                         "  - *step1\n")
    error = only_error(loaded)
    assert (error.code, error.path, error.line, error.column) == ("duplicate_step", "/steps/1/id", 6, 5)


def test_a_problem_in_merged_content_points_at_the_merge_where_it_came_in():
    loaded = load_source(MERGED.replace("temperature: 0.5", "temperature: 5"))
    where = {d.path: (d.code, d.line, d.column) for d in loaded.report.errors}
    assert where == {"/agents/coder/temperature": ("out_of_range", 6, 5),     # where it is written
                     "/agents/reviewer/temperature": ("out_of_range", 8, 9)}  # the `*baseAgent` it came by


def test_an_alias_with_no_anchor_before_it_is_refused_with_its_line():
    error = only_error(load_source("name: w\nsteps:\n  - *missing\n  - &missing {id: a}\n"))
    assert (error.code, error.line, error.column) == ("yaml_alias", 3, 5)
    assert "*missing names no anchor before it" in error.message


def test_an_alias_inside_the_value_it_names_is_refused():
    error = only_error(load_source("name: w\nsteps: &loop\n  - {id: a}\n  - *loop\n"))
    assert (error.code, error.line) == ("yaml_alias", 4)
    assert "inside the value it names" in error.message


def test_a_merge_key_must_name_a_mapping():
    error = only_error(load_source("name: w\nlist: &l [a, b]\noptions:\n  <<: *l\nsteps: [{id: s}]\n"))
    assert (error.code, error.line) == ("yaml_merge_key", 4)
    assert "not a list" in error.message


def test_a_billion_laughs_is_refused_at_the_value_cap_at_once():
    layers = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    layers += [f"lol{i}: &lol{i} [{', '.join([f'*lol{i - 1}'] * 10)}]" for i in range(1, 10)]
    started = time.perf_counter()
    loaded = load_source("name: laughs\n" + "\n".join(layers) + "\nsteps: [{id: s}]\n")
    elapsed = time.perf_counter() - started
    error = only_error(loaded)
    assert error.code == "too_large" and loaded.document is None
    assert error.message == f"the document holds more than {MAX_VALUES:,} values (an alias counts as the values it repeats)"
    assert error.line is not None
    assert elapsed < 5  # ten billion values were never built


def test_aliases_cannot_nest_past_the_depth_cap():
    deep = "&d " + "[" * 150 + "x" + "]" * 150
    error = only_error(load_source(f"name: w\na: {deep}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*d]]]]]"
                                   "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\nsteps: [{id: s}]\n"))
    assert error.code == "too_deep" and f"more than {MAX_DEPTH} levels" in error.message


def test_an_empty_document_after_the_workflow_is_read_past():
    loaded = load_source("name: multi-doc\nsteps:\n  - id: step1\n    instructions: \"do\"\n---\n")
    assert loaded.valid and loaded.document["name"] == "multi-doc"


def test_a_second_document_with_content_is_still_refused():
    error = only_error(load_source("name: a\nsteps: [{id: s}]\n---\nname: b\n"))
    assert (error.code, error.line) == ("multiple_documents", 3)


def test_the_canonical_writer_spells_merged_documents_out():
    source = "# tuned agents\n" + MERGED.replace("model: gpt-4o", "model: &m gpt-4o  # shared") + \
        "  - {id: step2, agent: coder, model: *m, dependsOn: [step1]}\n"
    loaded = load_source(source)
    assert loaded.valid, [d.as_dict() for d in loaded.report.errors]
    plain, with_comments = dump_yaml(loaded.document), dump_yaml(loaded.document, source=source)
    assert "# shared" in with_comments and "# tuned agents" in with_comments
    for written in (plain, with_comments):
        assert "&" not in written and "*" not in written and "<<" not in written
        # Any YAML reader (PyYAML here, standing in for upstream's yaml.v3) reads what the document holds.
        assert yaml.safe_load(written) == loaded.document
        assert load_source(written).document == loaded.document
    assert load_source(dump_json(loaded.document)).document == loaded.document


def validate(client, source):
    response = client.post("/api/v1/validate", data=json.dumps({"source": source}), content_type="application/json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.django_db
def test_the_validate_api_accepts_merge_keys_and_answers_plain_yaml(client):
    body = validate(client, MERGED)
    assert body["valid"] is True, body["errors"]
    assert body["document"]["agents"]["reviewer"]["model"] == "gpt-4o"
    assert "<<" not in body["canonical"] and "&" not in body["canonical"] and "*" not in body["canonical"]
    assert yaml.safe_load(body["canonical"]) == body["document"]


@pytest.mark.django_db
def test_the_validate_api_refuses_a_billion_laughs_with_the_cap(client):
    layers = "\n".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 10))
    body = validate(client, f"name: laughs\nl0: &l0 [a, a, a, a, a, a, a, a, a, a]\n{layers}\nsteps: [{{id: s}}]\n")
    assert body["valid"] is False and body["document"] is None
    assert [e["code"] for e in body["errors"]] == ["too_large"]
    assert "an alias counts as the values it repeats" in body["errors"][0]["message"]
