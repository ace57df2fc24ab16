"""Saved workflows over HTTP: versions, export, import, drafts, and nobody else's."""
import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import ApiToken
from accounts.tokens import user_for_token

pytestmark = pytest.mark.django_db

SOURCE = "# the team's loop\nname: review-loop\nsteps:\n  - id: write # first\n    instructions: Write it.\n"


def post(client, path, body, **extra):
    return client.post(path, data=json.dumps(body), content_type="application/json", **extra)


def put(client, path, body):
    return client.put(path, data=json.dumps(body), content_type="application/json")


def test_it_creates_a_workflow_from_source_and_answers_its_id_and_diagnostics(owner_client):
    response = post(owner_client, "/api/v1/workflows", {"source": SOURCE, "layout": {"write": {"x": 1, "y": 2}}})
    assert response.status_code == 201
    body = response.json()
    assert body["id"] and body["name"] == "review-loop" and body["version"] == 1 and body["valid"] is True
    assert body["errors"] == [] and body["layout"] == {"write": {"x": 1, "y": 2}}
    assert "layout" not in body["document"]


def test_every_save_is_a_new_version_and_old_versions_stay_readable(owner_client):
    wid = post(owner_client, "/api/v1/workflows", {"source": SOURCE}).json()["id"]
    updated = put(owner_client, f"/api/v1/workflows/{wid}", {"document": {"name": "review-loop", "steps": [{"id": "a"}, {"id": "b", "dependsOn": ["a"]}]}})
    assert updated.status_code == 200 and updated.json()["version"] == 2
    versions = owner_client.get(f"/api/v1/workflows/{wid}/versions").json()
    assert [v["version"] for v in versions] == [2, 1]
    first = owner_client.get(f"/api/v1/workflows/{wid}/versions/1").json()
    assert first["document"]["steps"][0]["id"] == "write"


def test_a_draft_with_errors_is_saved_but_not_exported(owner_client):
    wid = post(owner_client, "/api/v1/workflows", {"source": SOURCE}).json()["id"]
    draft = put(owner_client, f"/api/v1/workflows/{wid}", {"document": {"name": "x", "steps": [{"id": "a", "dependsOn": ["ghost"]}]}})
    assert draft.status_code == 200 and draft.json()["valid"] is False
    assert draft.json()["errors"][0]["code"] == "missing_dep"
    export = owner_client.get(f"/api/v1/workflows/{wid}/export?format=yaml")
    assert export.status_code == 422
    assert export.json()["diagnostics"][0]["code"] == "missing_dep"
    # Nothing already saved is lost: version 1 is still there.
    assert owner_client.get(f"/api/v1/workflows/{wid}/versions/1").json()["valid"] is True


def test_export_is_canonical_and_keeps_comments(owner_client):
    wid = post(owner_client, "/api/v1/workflows", {"source": SOURCE}).json()["id"]
    response = owner_client.get(f"/api/v1/workflows/{wid}/export?format=yaml")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="review-loop.yaml"'
    text = response.content.decode()
    assert "# the team's loop" in text and "# first" in text
    as_json = owner_client.get(f"/api/v1/workflows/{wid}/export?format=json")
    assert json.loads(as_json.content)["steps"][0]["id"] == "write"


def test_import_takes_an_uploaded_file(owner_client):
    upload = SimpleUploadedFile("loop.yaml", SOURCE.encode(), content_type="application/yaml")
    response = owner_client.post("/api/v1/workflows/import", {"file": upload})
    assert response.status_code == 201 and response.json()["name"] == "review-loop"


def test_import_refuses_text_that_is_not_a_workflow_with_the_parser_line(owner_client):
    upload = SimpleUploadedFile("bad.yaml", b"name: x\nsteps: [\n", content_type="application/yaml")
    response = owner_client.post("/api/v1/workflows/import", {"file": upload})
    assert response.status_code == 422
    assert response.json()["diagnostics"][0]["code"] == "syntax" and response.json()["diagnostics"][0]["line"]


def test_duplicate_and_delete(owner_client):
    wid = post(owner_client, "/api/v1/workflows", {"source": SOURCE}).json()["id"]
    copy = post(owner_client, f"/api/v1/workflows/{wid}/duplicate", {}).json()
    assert copy["id"] != wid and copy["name"] == "review-loop (copy)" and copy["source"] == SOURCE
    assert owner_client.delete(f"/api/v1/workflows/{wid}").status_code == 204
    assert owner_client.get(f"/api/v1/workflows/{wid}").status_code == 404
    assert [w["id"] for w in owner_client.get("/api/v1/workflows").json()] == [copy["id"]]


def test_a_stranger_cannot_read_change_export_or_delete_someone_elses_workflow(owner_client, stranger_client):
    wid = post(owner_client, "/api/v1/workflows", {"source": SOURCE}).json()["id"]
    assert stranger_client.get(f"/api/v1/workflows/{wid}").status_code == 404
    assert stranger_client.get(f"/api/v1/workflows/{wid}/export").status_code == 404
    assert stranger_client.get(f"/api/v1/workflows/{wid}/versions").status_code == 404
    assert put(stranger_client, f"/api/v1/workflows/{wid}", {"source": SOURCE}).status_code == 404
    assert stranger_client.delete(f"/api/v1/workflows/{wid}").status_code == 404
    assert stranger_client.get("/api/v1/workflows").json() == []
    assert owner_client.get(f"/api/v1/workflows/{wid}").status_code == 200


def test_anonymous_requests_get_401_json(client):
    response = client.get("/api/v1/workflows")
    assert response.status_code == 401 and "authentication" in response.json()["detail"]


def test_a_bearer_token_works_and_a_wrong_one_does_not(client, owner_token):
    ok = client.get("/api/v1/workflows", HTTP_AUTHORIZATION=f"Bearer {owner_token}")
    assert ok.status_code == 200
    assert client.get("/api/v1/workflows", HTTP_AUTHORIZATION="Bearer ld_wrong").status_code == 401


def test_a_tokens_last_use_is_written_at_most_once_a_minute(client, owner_token, django_assert_num_queries):
    user_for_token(owner_token)
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    with django_assert_num_queries(1):  # the lookup; no write within the minute
        assert user_for_token(owner_token).username == "owner"
    assert ApiToken.objects.get().last_used_at == first
    ApiToken.objects.update(last_used_at=first - timedelta(minutes=2))
    user_for_token(owner_token)
    assert ApiToken.objects.get().last_used_at > first


def test_session_writes_need_the_csrf_token(owner):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    response = post(strict, "/api/v1/workflows", {"source": SOURCE})
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("body", [{}, {"source": 5}, {"layout": []}, {"source": SOURCE, "layout": "x"}, {"source": "- a list"}])
def test_bad_bodies_get_a_clear_4xx(owner_client, body):
    response = post(owner_client, "/api/v1/workflows", body)
    assert 400 <= response.status_code < 500
    assert response.json()["detail"]


def test_malformed_json_body_is_a_4xx_naming_the_place(owner_client):
    response = owner_client.post("/api/v1/workflows", data='{\n  "source": nope}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == "invalid JSON body: Expecting value at line 2, column 13"


@pytest.mark.parametrize("path", ["/api/v1/workflows", "/api/v1/validate", "/api/v1/render"])
@pytest.mark.parametrize("number, words", [("NaN", "NaN is not a JSON number"), ("-Infinity", "-Infinity is not a JSON number"),
                                           ("1e400", "the number 1e400 is out of range")])
def test_numbers_json_does_not_have_are_refused_and_nothing_is_saved(owner_client, path, number, words):
    body = '{"document": {"name": "x", "description": "y", "steps": [{"id": "a", "instructions": "b"}], "extra": ' + number + "}}"
    response = owner_client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400
    assert words in response.json()["detail"]
    assert owner_client.get("/api/v1/workflows").json() == []


def test_import_into_an_existing_workflow_adds_a_version_instead_of_a_second_workflow(owner_client, stranger_client):
    first = owner_client.post("/api/v1/workflows/import", {"file": SimpleUploadedFile("loop.yaml", SOURCE.encode())}).json()
    again = owner_client.post("/api/v1/workflows/import", {"file": SimpleUploadedFile("loop.yaml", SOURCE.encode()), "into": first["id"]})
    assert again.status_code == 201 and again.json()["id"] == first["id"] and again.json()["version"] == 2
    assert [w["name"] for w in owner_client.get("/api/v1/workflows").json()].count("review-loop") == 1
    theirs = stranger_client.post("/api/v1/workflows/import", {"file": SimpleUploadedFile("loop.yaml", SOURCE.encode()), "into": first["id"]})
    assert theirs.status_code == 404
