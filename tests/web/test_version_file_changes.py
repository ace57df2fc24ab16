"""GET /workflows/{id}/files/changes: the folder files that differ between two versions, with both texts; a binary
file is named without a text; a stranger gets a 404, a missing version a 404 naming it."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def write(client, workflow_id: int, body: dict) -> dict:
    answer = client.put(f"/api/v1/workflows/{workflow_id}/file", data=json.dumps(body), content_type="application/json")
    assert answer.status_code == 200, answer.content
    return answer.json()


def changes(client, workflow_id: int, a: int, b: int):
    return client.get(f"/api/v1/workflows/{workflow_id}/files/changes", {"a": a, "b": b})


@pytest.fixture
def folder(owner_client) -> int:
    made = owner_client.post("/api/v1/workflows", data=json.dumps({"source": "name: f\nsteps:\n  - id: a\n    instructions: x\n"}),
                             content_type="application/json").json()
    write(owner_client, made["id"], {"path": "prompts/planner.md", "text": "one\ntwo\n"})          # version 2
    write(owner_client, made["id"], {"path": "prompts/planner.md", "text": "one\nthree\n"})        # version 3
    write(owner_client, made["id"], {"path": "notes.txt", "text": "new"})                          # version 4
    write(owner_client, made["id"], {"path": "logo.png", "base64": "iVBORw0KGgoAAAA="})           # version 5
    write(owner_client, made["id"], {"path": "notes.txt", "delete": True})                         # version 6
    return made["id"]


def test_a_changed_prompt_is_listed_with_both_texts(owner_client, folder):
    answer = changes(owner_client, folder, 2, 3)
    assert answer.status_code == 200
    assert answer.json() == [{"path": "prompts/planner.md", "change": "changed", "binary": False, "size_before": 8,
                              "size_after": 10, "before": "one\ntwo\n", "after": "one\nthree\n", "truncated": False}]


def test_added_removed_and_binary_files_are_named(owner_client, folder):
    found = {c["path"]: c for c in changes(owner_client, folder, 3, 6).json()}
    assert sorted(found) == ["logo.png"]   # notes.txt came in 4 and left in 6: no difference from 3
    assert found["logo.png"]["change"] == "added" and found["logo.png"]["binary"] and found["logo.png"]["after"] is None
    found = {c["path"]: (c["change"], c["before"], c["after"]) for c in changes(owner_client, folder, 4, 6).json()}
    assert found == {"logo.png": ("added", None, None), "notes.txt": ("removed", "new", None)}


def test_the_same_folder_answers_an_empty_list(owner_client, folder):
    assert changes(owner_client, folder, 3, 3).json() == []
    assert changes(owner_client, folder, 1, 1).json() == []


def test_a_missing_version_and_a_stranger_get_404(owner_client, stranger_client, folder):
    missing = changes(owner_client, folder, 2, 99)
    assert missing.status_code == 404 and "version 99" in missing.json()["detail"]
    assert changes(stranger_client, folder, 2, 3).status_code == 404
    assert changes(owner_client, folder, 0, 3).status_code == 422
