"""Restoring a version: its document saved again as the new latest version; older versions stay.

Editors and above may restore; a viewer is told which role it needs (403); someone who is not a
member is told the workflow does not exist (404), as for every other workflow route.
"""
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Membership
from accounts.workspaces import create_team
from designer import workflows
from designer.models import VersionFile

pytestmark = pytest.mark.django_db

FIRST = "# first words\nname: review-loop\nsteps:\n  - id: draft\n    instructions: Write it.\n"
SECOND = {"name": "review-loop", "steps": [{"id": "draft", "instructions": "Write it twice."}, {"id": "review", "dependsOn": ["draft"]}]}
LAYOUT = {"version": 1, "positions": {"draft": {"x": 10, "y": 20}}}


def post(client, path, body=None):
    return client.post(path, data=json.dumps(body or {}), content_type="application/json")


def two_versions(client) -> int:
    wid = post(client, "/api/v1/workflows", {"source": FIRST, "layout": LAYOUT}).json()["id"]
    saved = client.put(f"/api/v1/workflows/{wid}", data=json.dumps({"document": SECOND}), content_type="application/json")
    assert saved.status_code == 200 and saved.json()["version"] == 2
    return wid


def test_restoring_version_1_makes_version_3_with_its_document_source_and_layout(owner_client):
    wid = two_versions(owner_client)
    response = post(owner_client, f"/api/v1/workflows/{wid}/versions/1/restore")
    assert response.status_code == 201
    body = response.json()
    assert body["version"] == 3 and body["valid"] is True
    first = owner_client.get(f"/api/v1/workflows/{wid}/versions/1").json()
    assert body["document"] == first["document"] and body["source"] == FIRST and body["layout"] == LAYOUT
    assert owner_client.get(f"/api/v1/workflows/{wid}").json()["version"] == 3


def test_the_versions_in_between_stay_as_they_were(owner_client):
    wid = two_versions(owner_client)
    post(owner_client, f"/api/v1/workflows/{wid}/versions/1/restore")
    assert [v["version"] for v in owner_client.get(f"/api/v1/workflows/{wid}/versions").json()] == [3, 2, 1]
    second = owner_client.get(f"/api/v1/workflows/{wid}/versions/2").json()
    assert second["document"] == SECOND


def test_restoring_the_latest_version_still_makes_a_new_one(owner_client):
    wid = two_versions(owner_client)
    body = post(owner_client, f"/api/v1/workflows/{wid}/versions/2/restore").json()
    assert body["version"] == 3 and body["document"] == SECOND


def test_a_version_that_does_not_exist_is_not_found(owner_client):
    wid = two_versions(owner_client)
    for number in (0, 3, 2**40):
        response = post(owner_client, f"/api/v1/workflows/{wid}/versions/{number}/restore")
        assert response.status_code == 404, number
    assert owner_client.get(f"/api/v1/workflows/{wid}").json()["version"] == 2


def test_someone_who_is_not_a_member_is_told_it_does_not_exist(owner_client, stranger_client):
    wid = two_versions(owner_client)
    assert post(stranger_client, f"/api/v1/workflows/{wid}/versions/1/restore").status_code == 404
    assert owner_client.get(f"/api/v1/workflows/{wid}").json()["version"] == 2


@pytest.mark.parametrize(("role", "status"), [("viewer", 403), ("runner", 403), ("editor", 201)])
def test_in_a_team_only_editors_and_above_may_restore(owner, role, status):
    team = create_team(owner, "Team")
    member = get_user_model().objects.create_user(role)
    Membership.objects.create(workspace=team, user=member, role=role)
    owner_client = Client()
    owner_client.force_login(owner)
    wid = post(owner_client, "/api/v1/workflows", {"source": FIRST, "workspace_id": team.pk}).json()["id"]
    post(owner_client, f"/api/v1/workflows/{wid}/versions/1/restore")
    member_client = Client()
    member_client.force_login(member)
    response = post(member_client, f"/api/v1/workflows/{wid}/versions/1/restore")
    assert response.status_code == status
    if status == 403:
        assert "editor" in response.json()["detail"]
    assert owner_client.get(f"/api/v1/workflows/{wid}").json()["version"] == (3 if status == 201 else 2)


def test_a_folder_workflow_gets_the_restored_versions_files_back(owner, owner_client):
    source = "name: folder\nsteps:\n  - id: draft\n    instructions: Write.\n    contextFiles: [notes/brief.md]\n"
    wid = workflows.create(owner, source=source, document=None, files={"notes/brief.md": b"first brief\n"}, main_path="main.yaml").pk
    workflows.save_file(owner, wid, "notes/brief.md", b"second brief\n")
    response = post(owner_client, f"/api/v1/workflows/{wid}/versions/1/restore")
    assert response.status_code == 201 and response.json()["version"] == 3

    def files(number: int) -> dict[str, bytes]:
        rows = VersionFile.objects.filter(version__workflow_id=wid, version__number=number).select_related("blob")
        return {r.path: bytes(r.blob.data) for r in rows}

    assert files(2) == {"notes/brief.md": b"second brief\n"}
    assert files(3) == files(1) == {"notes/brief.md": b"first brief\n"}
    third = workflows.version(owner, wid, 3)
    assert third.main_path == "main.yaml" and third.valid
