"""End to end on the embedded server: an imported loop is saved as a workflow,
exported unchanged, and runs with a script through the runs API; a template does the same."""
import json
import time

import pytest
from django.contrib.auth import get_user_model

from designer.documents import load_source
from designer.importers import import_loop
from designer.templates import get_template
from tests.support.imported_seeds import seed_text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def author_client(client, db):
    client.force_login(get_user_model().objects.create_user("importer", password="importer-pass-123"))
    return client


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def wait_for(client, run_id, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        body = client.get(f"/api/v1/runs/{run_id}").json()
        if body["status"] in ("completed", "partial", "failed", "cancelled"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {body['status']}")


def test_an_imported_runsight_loop_is_saved_exported_and_run(author_client):
    document = import_loop("runsight", seed_text("runsight", "basic_loop.yaml")).document
    saved = post(author_client, "/api/v1/workflows", {"document": document})
    assert saved.status_code == 201, saved.content
    workflow = saved.json()
    assert workflow["valid"] is True and workflow["document"] == document

    exported = author_client.get(f"/api/v1/workflows/{workflow['id']}/export?format=yaml")
    assert exported.status_code == 200
    assert load_source(exported.content.decode()).document == document

    script = {"replies": {
        "draft": ["First draft.", "Second draft."],
        "review": [{"content": "FAIL: vague", "result": {"done": False, "reason": "vague"}},
                   {"content": "PASS", "result": {"done": True, "reason": "clear"}}],
        "done": '{"final": "Second draft."}',
    }}
    created = post(author_client, "/api/v1/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": script})
    assert created.status_code == 201, created.content
    run = wait_for(author_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["loops"]["refine"]["rounds_completed"] == 2


def test_a_template_opens_and_runs_with_its_own_script(author_client):
    template = get_template("harness")
    saved = post(author_client, "/api/v1/workflows", {"source": template.document_yaml}).json()
    assert saved["valid"] is True and saved["source"].startswith("# Harness")
    created = post(author_client, "/api/v1/runs", {"workflow_id": saved["id"], "provider": "simulated",
                                                    "script": template.script_yaml})
    assert created.status_code == 201, created.content
    run = wait_for(author_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["loops"]["dev-cycle"]["break_reason"] == "until"
