"""`coordinator` is the coordinator's address (send_message goes there, and a bare id reaches the one execution of
that id): a step of that id, at any depth, is refused with an error pointing at its id, in a document, in text (with
its line) and in the validate API."""
import json

import pytest

from designer.documents import load_source, validate_document


def errors(doc):
    return [(d.code, d.path, d.message) for d in validate_document(doc).errors]


def test_a_top_level_step_named_coordinator_is_an_error_at_its_id():
    found = errors({"name": "w", "steps": [{"id": "plan"}, {"id": "coordinator", "dependsOn": ["plan"]}]})
    assert [(c, p) for c, p, _ in found] == [("reserved_step_id", "/steps/1/id")]
    assert "coordinator" in found[0][2] and "reserved" in found[0][2]


def test_a_step_inside_a_loop_or_a_forEach_is_refused_too():
    doc = {"name": "w", "steps": [
        {"id": "rounds", "loop": {"maxIterations": 2, "steps": [{"id": "coordinator"}]}},
        {"id": "each", "loop": {"forEach": "[1, 2]", "steps": [{"id": "work"}, {"id": "coordinator"}]}},
    ]}
    assert [(c, p) for c, p, _ in errors(doc)] == [("reserved_step_id", "/steps/0/loop/steps/0/id"),
                                                   ("reserved_step_id", "/steps/1/loop/steps/1/id")]


def test_the_source_diagnostic_carries_its_line():
    loaded = load_source("name: w\nsteps:\n  - id: fine\n  - id: coordinator\n")
    assert not loaded.valid
    assert [(e.code, e.path, e.line) for e in loaded.report.errors] == [("reserved_step_id", "/steps/1/id", 4)]


def test_similar_ids_are_fine():
    assert errors({"name": "w", "steps": [{"id": "coordinate"}, {"id": "coordinator-2"}, {"id": "the-coordinator"}]}) == []


@pytest.mark.django_db
def test_the_validate_api_answers_it_with_the_path(client):
    response = client.post("/api/v1/validate", data=json.dumps({"source": "name: w\nsteps:\n  - id: coordinator\n"}),
                           content_type="application/json")
    body = response.json()
    assert response.status_code == 200 and body["valid"] is False
    assert [(e["code"], e["path"], e["line"]) for e in body["errors"]] == [("reserved_step_id", "/steps/0/id", 3)]
