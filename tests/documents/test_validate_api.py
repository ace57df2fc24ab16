"""POST /api/v1/validate and /render: diagnostics for any input, never a 500."""
import json

import pytest

pytestmark = pytest.mark.django_db


def post(client, path, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data=data, content_type=content_type)


def test_valid_source_answers_canonical_yaml(client):
    response = post(client, "/api/v1/validate", {"source": "name: w\nsteps:\n  - {id: a, instructions: hi}\n"})
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True and body["errors"] == []
    assert body["canonical"] == "name: w\nsteps:\n  - id: a\n    instructions: hi\n"


def test_invalid_document_answers_every_diagnostic_with_its_fields(client):
    response = post(client, "/api/v1/validate", {"document": {"name": "w", "steps": [{"id": "a", "dependsOn": ["x"], "agent": "ghost"}]}})
    body = response.json()
    assert response.status_code == 200 and body["valid"] is False and body["canonical"] is None
    assert {e["code"] for e in body["errors"]} == {"missing_dep", "missing_agent"}
    assert all({"code", "class", "path", "message", "line", "column"} <= set(e) for e in body["errors"])
    assert body["yaml"].startswith("name: w")


def test_source_diagnostics_carry_lines(client):
    body = post(client, "/api/v1/validate", {"source": "name: w\nsteps:\n  - id: a\n    retries: -1\n"}).json()
    assert [(e["code"], e["line"]) for e in body["errors"]] == [("negative_value", 4)]


@pytest.mark.parametrize(
    "raw",
    ["{not json", "", "[]", '"text"', '{"source": 5}', '{"source": "a", "document": {}}', '{"document": null}', "null"],
)
def test_bad_bodies_get_a_4xx_with_a_message(client, raw):
    response = post(client, "/api/v1/validate", raw)
    assert 400 <= response.status_code < 500, response.content
    assert response.json()["detail"]


def test_a_document_that_is_not_an_object_is_a_diagnostic(client):
    body = post(client, "/api/v1/validate", {"document": [1, 2]}).json()
    assert body["valid"] is False and body["errors"][0]["code"] == "wrong_type"


def test_render_writes_any_mapping_and_keeps_comments(client):
    source = "# top comment\nname: w\nsteps:\n  - id: a # the first step\n"
    body = post(client, "/api/v1/render", {"document": {"name": "w2", "steps": [{"id": "a"}, {"id": "b"}]}, "format": "yaml", "source": source}).json()
    assert "# the first step" in body["text"] and "name: w2" in body["text"] and "- id: b" in body["text"]
    as_json = post(client, "/api/v1/render", {"document": {"steps": [], "name": "x"}, "format": "json"}).json()
    assert json.loads(as_json["text"]) == {"name": "x", "steps": []}


def test_openapi_is_served(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert "/api/v1/validate" in response.json()["paths"]
