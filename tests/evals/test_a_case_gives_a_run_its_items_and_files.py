"""A case starts its run from its own forEach items and files, with the workflow's version unchanged."""
import pytest

from runtime.evals.cases import finished_steps
from runtime.models import Run, RunIteration
from tests.support.api_calls import post
from tests.support.evaluations import make_dataset, make_workflow, run_experiment

pytestmark = pytest.mark.django_db(transaction=True)

FOREACH = """
name: each-topic
agents:
  writer: {description: Writes.}
steps:
  - id: topics
    loop:
      forEach: ["the default"]
      steps:
        - {id: write, agent: writer, instructions: "Write about it."}
"""


def test_the_cases_items_replace_the_forEach_items_for_its_run_only(owner_client):
    workflow = make_workflow(owner_client, FOREACH)
    dataset = make_dataset(owner_client, workflow, [{"id": "two", "items": {"topics": ["otters", "seals"]}}, {"id": "plain"}],
                           [{"name": "items", "kind": "cel", "expr": "loops.topics.rounds == 2"}])
    body = run_experiment(owner_client, workflow, dataset["id"])
    trials = {t["case_id"]: t for t in body["trials"]}
    items = sorted(RunIteration.objects.filter(run_id=trials["two"]["run_id"], step_id="topics", index__isnull=False)
                   .values_list("item", flat=True))
    assert items == ["otters", "seals"]
    assert list(RunIteration.objects.filter(run_id=trials["plain"]["run_id"], step_id="topics", index__isnull=False)
                .values_list("item", flat=True)) == ["the default"]
    assert trials["two"]["scores"]["items"]["passed"] is True
    # The version is as it was.
    version = owner_client.get(f"/api/v1/workflows/{workflow}").json()
    assert "the default" in str(version["document"]) and "otters" not in str(version["document"])


def test_the_cases_files_are_in_the_runs_workspace_for_its_scorers(owner_client):
    workflow = make_workflow(owner_client, FOREACH)
    dataset = make_dataset(owner_client, workflow, [
        {"id": "with-brief", "files": {"notes/brief.md": "about otters\n"}, "expected": {"files": {"notes/brief.md": "about otters"}}},
        {"id": "without"}],
        [{"name": "brief", "kind": "file", "path": "notes/brief.md", "check": "equals"}])
    body = run_experiment(owner_client, workflow, dataset["id"])
    scores = {t["case_id"]: t["scores"]["brief"] for t in body["trials"]}
    assert scores["with-brief"]["passed"] is True
    assert scores["without"] == {"score": 0.0, "passed": False, "reason": "the run left no workspace"}
    run = Run.objects.get(pk=next(t["run_id"] for t in body["trials"] if t["case_id"] == "with-brief"))
    assert run.workspace_seed and "upload" in run.workspace_seed
    assert finished_steps(run)["topics"]["status"] == "completed"
    assert post(owner_client, "/api/v1/datasets", {"workflow_id": workflow, "name": "x", "cases": [{"files": {"a": 3}}]}).status_code == 400
