"""Every route that starts work refuses a document the editor shows as not runnable, with its diagnostics, as the
Run button does: a folder workflow whose context file leaves its folder (`../../secret_key`) is refused by
POST /runs, by a fork (its patch or document, or an unedited version), by the CLI's fork, and by the worker
itself when such a run was queued anyway; nothing of the file reaches an event."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from config.api import api
from designer.models import WorkflowVersion
from runtime.models import Run, RunEvent
from runtime.runs import create
from tests.support.api_calls import post, wait_for
from tests.support.zips import upload, zipped

pytestmark = pytest.mark.django_db(transaction=True)

MARKER = "SECRET-MARKER-51ab"
ESCAPE = "../../secret_key"

# Every route that changes something, and whether it starts work that runs a workflow document. A route added
# later fails test_every_route_is_classified until it is put in one list or the other (and, if it starts work,
# proved below).
STARTS_A_RUN = {("POST", "/api/v1/runs"), ("POST", "/api/v1/runs/{run_id}/fork"), ("POST", "/api/v1/experiments")}
STARTS_NO_RUN = {
    ("PUT", "/api/v1/workspaces/{workspace_id}/tracing"), ("POST", "/api/v1/workspaces/{workspace_id}/tracing/test"),
    ("POST", "/api/v1/workflows/import-bundle"), ("PUT", "/api/v1/workflows/{workflow_id}/file"),
    ("POST", "/api/v1/validate"), ("POST", "/api/v1/render"), ("POST", "/api/v1/workflows"),
    ("POST", "/api/v1/workflows/import"), ("PUT", "/api/v1/workflows/{workflow_id}"),
    ("DELETE", "/api/v1/workflows/{workflow_id}"), ("POST", "/api/v1/workflows/{workflow_id}/duplicate"),
    ("POST", "/api/v1/workflows/{workflow_id}/move"), ("POST", "/api/v1/workflows/{workflow_id}/versions/{number}/restore"),
    # pause / resume / stop act on a run that was checked when it started (and is checked again by its worker).
    ("POST", "/api/v1/runs/all/{action}"), ("POST", "/api/v1/runs/{run_id}/{action}"),
    ("DELETE", "/api/v1/runs/{run_id}"), ("POST", "/api/v1/uploads"),
    # checks a script against the document in its body: nothing is stored or started.
    ("POST", "/api/v1/runs/script-check"),
    ("POST", "/api/v1/runs/{run_id}/tool-calls/{call_id}/approve"), ("POST", "/api/v1/runs/{run_id}/tool-calls/{call_id}/deny"),
    ("POST", "/api/v1/workspaces"), ("PATCH", "/api/v1/workspaces/{workspace_id}"),
    ("PUT", "/api/v1/workspaces/{workspace_id}/members/{user_id}"), ("DELETE", "/api/v1/workspaces/{workspace_id}/members/{user_id}"),
    ("POST", "/api/v1/workspaces/{workspace_id}/invitations"),
    ("DELETE", "/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}"),
    ("PUT", "/api/v1/workspaces/{workspace_id}/limits"), ("PUT", "/api/v1/workspaces/{workspace_id}/server-keys"),
    ("PUT", "/api/v1/workspaces/{workspace_id}/keys"), ("DELETE", "/api/v1/workspaces/{workspace_id}/keys/{provider}"),
    ("POST", "/api/v1/account/mcp-servers"), ("DELETE", "/api/v1/account/mcp-servers/{server_id}"),
    # Starts a process (the user's stdio MCP server, in the sandbox: tests/runtime/test_sandbox_gives_nothing.py),
    # never a workflow.
    ("POST", "/api/v1/account/mcp-servers/{server_id}/check"),
    ("POST", "/api/v1/import"),
    # Breakpoints beside a workflow, and commands for a run held at one: they start nothing.
    ("PUT", "/api/v1/workflows/{workflow_id}/breakpoints"), ("POST", "/api/v1/workflows/{workflow_id}/breakpoints/check"),
    ("POST", "/api/v1/runs/{run_id}/debug"),
    # Datasets hold cases and scorers; stopping an experiment stops runs that were checked when they started.
    ("POST", "/api/v1/datasets"), ("PUT", "/api/v1/datasets/{dataset_id}"), ("POST", "/api/v1/datasets/{dataset_id}/cases"),
    ("POST", "/api/v1/datasets/{dataset_id}/import"), ("POST", "/api/v1/datasets/{dataset_id}/from-run"),
    ("POST", "/api/v1/experiments/{experiment_id}/stop"), ("PUT", "/api/v1/runs/{run_id}/rounds/{step_id}/{iteration}/label"),
    # Pins are taken from a finished run and stored beside the workflow; a run takes them only when it starts.
    ("POST", "/api/v1/runs/{run_id}/pins"), ("DELETE", "/api/v1/workflows/{workflow_id}/pins"),
    # The playground sends one recorded prompt of a finished run again (no document runs); apply saves a version,
    # checked as every save is.
    ("POST", "/api/v1/runs/{run_id}/playground"), ("POST", "/api/v1/runs/{run_id}/playground/apply"),
    # Re-scoring asks the judge again with the prompts it was sent (the playground's way): no document runs.
    ("POST", "/api/v1/workflows/{workflow_id}/judge-agreement/rescore"),
}

GOOD = """name: folder
agents:
  reader: {description: Reads.}
steps:
  - {id: peek, agent: reader, instructions: Read the notes., contextFiles: [notes.txt]}
"""


@pytest.fixture(autouse=True)
def secret_beside_the_workspaces(settings, tmp_path):
    """A secret where the data dir's secret_key sits relative to a run's workspace (WORKSPACES_DIR/<run>/...)."""
    settings.WORKSPACES_DIR = tmp_path / "data" / "workspaces"
    settings.WORKSPACES_DIR.mkdir(parents=True)
    (tmp_path / "data" / "secret_key").write_text(MARKER)


def folder_workflow(client, main: str = GOOD) -> dict:
    made = upload(client, zipped({"main.yaml": main.encode(), "notes.txt": b"the notes"}), main="main.yaml")
    assert made.status_code == 201, made.content
    return made.json()["workflows"][0]


def escaping(main: str = GOOD) -> str:
    return main.replace("contextFiles: [notes.txt]", f"contextFiles: [{ESCAPE}]")


def assert_refused(response) -> None:
    assert response.status_code == 422, response.content
    body = response.json()
    assert "cannot run" in body["detail"] and ESCAPE in body["detail"]
    assert any(d["path"] == "/steps/0/contextFiles/0" for d in body["diagnostics"])
    assert MARKER not in response.content.decode()


def test_every_route_is_classified():
    changing = {(method.upper(), path) for path, ops in api.get_openapi_schema()["paths"].items()
                for method in ops if method.upper() in ("POST", "PUT", "PATCH", "DELETE")}
    assert changing - STARTS_A_RUN - STARTS_NO_RUN == set()
    assert changing >= STARTS_A_RUN


def test_the_editor_and_post_runs_agree_that_an_escaping_folder_workflow_cannot_run(owner_client):
    made = folder_workflow(owner_client, escaping())
    shown = owner_client.get(f"/api/v1/workflows/{made['id']}").json()
    assert shown["runnable"] is False
    assert_refused(post(owner_client, "/api/v1/runs", {"workflow_id": made["id"], "provider": "simulated"}))
    assert Run.objects.count() == 0


def test_an_experiment_over_an_escaping_folder_workflow_is_refused_before_any_run(owner_client):
    made = folder_workflow(owner_client, escaping())
    dataset = post(owner_client, "/api/v1/datasets", {"workflow_id": made["id"], "name": "d", "cases": [{}]})
    assert dataset.status_code == 201, dataset.content
    assert_refused(post(owner_client, "/api/v1/experiments", {"workflow_id": made["id"], "dataset_id": dataset.json()["id"]}))
    assert Run.objects.count() == 0


def finished_folder_run(client) -> dict:
    made = folder_workflow(client)
    created = post(client, "/api/v1/runs", {"workflow_id": made["id"], "provider": "simulated"})
    assert created.status_code == 201, created.content
    run = wait_for(client, created.json()["id"], timeout=60)
    assert run["status"] == "completed", run["reason"]
    return run


def test_a_forks_patch_that_adds_an_escaping_context_file_is_refused(owner_client):
    parent = finished_folder_run(owner_client)
    refused = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {
        "at": {"step": "peek"}, "patch": [{"op": "replace", "path": "/steps/0/contextFiles/0", "value": ESCAPE}]})
    assert_refused(refused)
    assert Run.objects.count() == 1


def test_a_forks_edited_document_with_an_escaping_context_file_is_refused(owner_client):
    parent = finished_folder_run(owner_client)
    document = Run.objects.get(pk=parent["id"]).version.document
    document["steps"][0]["contextFiles"] = [ESCAPE]
    assert_refused(post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "peek"}, "document": document}))


def poison(run_id) -> WorkflowVersion:
    """The run's stored version made to escape, as if saved before the rule held (a run of it queued anyway)."""
    version = Run.objects.get(pk=run_id).version
    version.document = {**version.document, "steps": [{**version.document["steps"][0], "contextFiles": [ESCAPE]}]}
    version.save(update_fields=["document"])
    return version


def test_an_unedited_fork_of_a_version_that_escapes_is_refused_over_http_and_on_the_command_line(owner_client):
    parent = finished_folder_run(owner_client)
    poison(parent["id"])
    assert_refused(post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "peek"}}))
    err = io.StringIO()
    with pytest.raises(SystemExit) as ended:
        call_command("runworkflow", "--from-run", parent["id"], "--at", "peek", "--json", stdout=io.StringIO(), stderr=err)
    assert ended.value.code != 0
    assert ESCAPE in err.getvalue() and MARKER not in err.getvalue()
    assert Run.objects.count() == 1


def test_the_worker_refuses_a_queued_run_whose_version_cannot_run(owner, owner_client):
    parent = finished_folder_run(owner_client)
    version = poison(parent["id"])
    # Queued without the route's check (as a run queued before the rule, or by a route that forgot it): the worker
    # checks again where the work starts.
    queued = create.insert_run(owner, version.workflow, version, provider="simulated", key_source=None, fields={})
    done = wait_for(owner_client, str(queued.id), timeout=60)
    assert done["status"] == "failed"
    assert "could not start" in done["reason"] and ESCAPE in done["reason"]
    texts = list(RunEvent.objects.filter(run_id=queued.id).values_list("event_json", flat=True))
    assert not any('"agent_turn"' in t for t in texts)
    assert MARKER not in json.dumps(texts) + done["reason"]
