"""POST /api/v1/import and GET /api/v1/templates: what the editor's import dialog and gallery use."""
import json

import pytest

from designer.documents import load_source
from tests.support.imported_seeds import seed_text

pytestmark = [pytest.mark.urls("tests.support.import_api_urls")]


def post_import(client, body):
    return client.post("/api/v1/import", data=json.dumps(body), content_type="application/json")


def test_an_import_answers_the_document_yaml_validity_and_report(client):
    response = post_import(client, {"kind": "runsight", "source": seed_text("runsight", "basic_loop.yaml")})
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True and body["errors"] == []
    assert load_source(body["yaml"]).document == body["document"]
    assert body["counts"]["carried"] > 0
    assert {"field": "/blocks/refine/max_rounds", "outcome": "carried",
            "target": "/steps/0/loop/maxIterations", "note": ""} in body["report"]


def test_coqui_parameters_are_passed_through(client):
    body = post_import(client, {"kind": "coqui", "source": seed_text("coqui", "investigate.json"),
                                "parameters": {"subject": "rate limits"}}).json()
    assert body["document"]["steps"][0]["loop"]["steps"][0]["instructions"].startswith("Investigate rate limits")


def test_bad_input_answers_422_with_the_field_and_line(client):
    response = post_import(client, {"kind": "runsight", "source": "blocks:\n  a: {type: warp}\nworkflow: {name: x, entry: a}\n"})
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == "/blocks/a/type" and body["line"] == 2 and "warp" in body["detail"]


def test_an_unknown_kind_is_a_422(client):
    response = post_import(client, {"kind": "airflow", "source": "x"})
    assert response.status_code == 422


def test_the_template_list_has_summaries_only(client):
    body = client.get("/api/v1/templates").json()
    assert body[0]["slug"] == "harness"
    assert set(body[0]) == {"slug", "title", "description", "pattern", "origin"}


def test_a_template_answers_its_document_and_script(client):
    body = client.get("/api/v1/templates/debate").json()
    assert body["document"]["name"] == "debate"
    assert load_source(body["document_yaml"]).document == body["document"]
    assert body["script"]["replies"]["judge"][1]["result"]["done"] is True


def test_an_unknown_template_is_a_404(client):
    response = client.get("/api/v1/templates/nope")
    assert response.status_code == 404 and "nope" in response.json()["detail"]
