"""Datasets over the API: cases by hand, from CSV and JSONL, from a finished run; versions; bad input named; privacy."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.support.api_calls import post, wait_for
from tests.support.evaluations import case, make_dataset, make_workflow, passing_at, run_experiment
from tests.support.zips import zip_bytes

pytestmark = pytest.mark.django_db(transaction=True)

FOREACH = """
name: each-topic
agents:
  writer: {description: Writes.}
steps:
  - id: topics
    loop:
      forEach: ["default"]
      steps:
        - {id: write, agent: writer, instructions: "Write about {{ item }}."}
"""


def test_cases_by_hand_are_checked_and_each_change_is_a_version(owner_client):
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [{"files": {"brief.md": "otters"}, "expected": {"content": "x"}}])
    assert dataset["version"] == 1 and dataset["cases"][0]["id"] == "case-1"
    more = post(owner_client, f"/api/v1/datasets/{dataset['id']}/cases", {"cases": [{"id": "second"}, {}]}).json()
    assert more["version"] == 2 and [c["id"] for c in more["cases"]] == ["case-1", "second", "case-3"]
    # The first version is kept as it was: an experiment names the exact cases it ran with.
    first = owner_client.get(f"/api/v1/datasets/{dataset['id']}?version=1").json()
    assert first["cases_count"] == 1
    listed = owner_client.get(f"/api/v1/workflows/{workflow}/datasets").json()
    assert [(d["name"], d["current_version"], d["cases_count"]) for d in listed] == [("golden", 2, 3)]


@pytest.mark.parametrize("cases, words", [
    ([{"files": {"/etc/passwd": "x"}}], "cases[0].files: '/etc/passwd' is not a relative path"),
    ([{"items": {"ghost": [1]}}], "cases[0].items: no step 'ghost' in the workflow"),
    ([{"id": "a"}, {"id": "a"}], "cases[1].id: `a` is used twice"),
    ([{"inputs": {}}], "cases[0]: unknown field(s) inputs"),
    ("not a list", "cases: expected a list"),
])
def test_a_bad_case_is_refused_with_its_field_named(owner_client, cases, words):
    workflow = make_workflow(owner_client)
    answer = post(owner_client, "/api/v1/datasets", {"workflow_id": workflow, "name": "d", "cases": cases})
    assert answer.status_code in (400, 422), answer.content
    if answer.status_code == 400:
        assert answer.json()["detail"].startswith(words)


def test_csv_rows_become_cases_with_columns_mapped_to_files_items_and_expectations(owner_client):
    workflow = make_workflow(owner_client, FOREACH)
    dataset = make_dataset(owner_client, workflow, [])
    text = 'name,brief,topics,answer\nfirst,"about otters","[""otters"", ""seals""]",Otters\nsecond,about owls,owls,Owls\n'
    body = post(owner_client, f"/api/v1/datasets/{dataset['id']}/import", {
        "format": "csv", "text": text,
        "columns": {"name": "name", "brief": "file:brief.md", "topics": "items:topics", "answer": "expected:content"}}).json()
    assert body["cases"] == [
        {"id": "case-1", "name": "first", "files": {"brief.md": "about otters"}, "items": {"topics": ["otters", "seals"]},
         "expected": {"content": "Otters"}},
        {"id": "case-2", "name": "second", "files": {"brief.md": "about owls"}, "items": {"topics": ["owls"]},
         "expected": {"content": "Owls"}}]


def test_jsonl_lines_in_the_case_shape_are_taken_as_they_are(owner_client):
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [])
    lines = "\n".join(json.dumps(c) for c in [{"id": "a", "expected": {"content": "x"}}, {"id": "b"}])
    body = post(owner_client, f"/api/v1/datasets/{dataset['id']}/import", {"format": "jsonl", "text": lines}).json()
    assert [c["id"] for c in body["cases"]] == ["a", "b"]
    bad = post(owner_client, f"/api/v1/datasets/{dataset['id']}/import", {"format": "jsonl", "text": "{oops"})
    assert bad.status_code == 400 and bad.json()["detail"].startswith("jsonl line 1: not JSON")


def test_a_finished_run_becomes_a_case_with_its_inputs_and_outputs(owner_client):
    workflow = make_workflow(owner_client)
    upload = owner_client.post("/api/v1/uploads", {"file": SimpleUploadedFile("seed.zip", zip_bytes({"brief.md": b"otters"}))}).json()
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "coordinator": "off",
                                                  "script": passing_at(2), "workspace_upload": upload["id"]}).json()
    assert wait_for(owner_client, created["id"])["status"] == "completed"
    dataset = make_dataset(owner_client, workflow, [])
    body = post(owner_client, f"/api/v1/datasets/{dataset['id']}/from-run",
                {"run_id": created["id"], "keep_outputs": True, "case_id": "kept"}).json()
    kept = body["cases"][0]
    assert kept["id"] == "kept" and kept["files"] == {"brief.md": "otters"} and kept["script"] == passing_at(2)
    assert "draft 2" in kept["expected"]["content"]
    # Run again as an experiment, the case gives the same rounds, and its expected content is met.
    owner_client.put(f"/api/v1/datasets/{dataset['id']}", data=json.dumps({"scorers": [{"name": "same", "kind": "equals", "step": "dev"}]}),
                     content_type="application/json")
    results = run_experiment(owner_client, workflow, dataset["id"])
    assert results["trials"][0]["rounds"] == 2 and results["trials"][0]["scores"]["same"]["passed"] is True


def test_a_run_of_another_workflow_is_refused(owner_client):
    workflow, other = make_workflow(owner_client), make_workflow(owner_client)
    created = post(owner_client, "/api/v1/runs", {"workflow_id": other, "provider": "simulated", "script": passing_at(1)}).json()
    wait_for(owner_client, created["id"])
    dataset = make_dataset(owner_client, workflow, [])
    answer = post(owner_client, f"/api/v1/datasets/{dataset['id']}/from-run", {"run_id": created["id"]})
    assert answer.status_code == 400 and "another workflow" in answer.json()["detail"]


def test_strangers_see_no_dataset_and_cannot_add_to_it(owner_client, stranger_client):
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [case("a", 1)])
    assert stranger_client.get(f"/api/v1/datasets/{dataset['id']}").status_code == 404
    assert post(stranger_client, f"/api/v1/datasets/{dataset['id']}/cases", {"cases": [{}]}).status_code == 404
    assert stranger_client.get(f"/api/v1/workflows/{workflow}/datasets").status_code == 404
    assert post(stranger_client, "/api/v1/datasets", {"workflow_id": workflow, "name": "mine"}).status_code == 404
    assert post(stranger_client, "/api/v1/experiments", {"workflow_id": workflow, "dataset_id": dataset["id"]}).status_code == 404

