"""Try one step alone (issue #33): a step execution of a finished run shows its real inputs; trying it again with
edits calls the provider once (counted at the fake OpenAI server) with the edited prompt and settings, answers beside
the original and leaves the run as it was; apply writes the change to the workflow as a new version; a judge call
is tried the same way; who may read, try and apply is checked, and bad edits are refused naming their field."""
import pytest
from django.contrib.auth import get_user_model

from accounts.models import Membership, Role
from accounts.workspaces import create_team
from runtime.models import Run
from tests.fakes.openai import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for
from tests.support.documents import JUDGE_LOOP_SCRIPT, judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: tried
agents:
  writer: {description: Writes., model: openai/gpt-test}
steps:
  - {id: draft, agent: writer, instructions: Write a draft.}
  - {id: review, agent: writer, instructions: Review it., dependsOn: [draft]}
"""


def test_a_tried_step_calls_the_provider_once_and_leaves_the_run_untouched(server_owner, settings):
    client = client_for(server_owner)
    with FakeOpenAI([{"content": "the draft"}, {"content": "looks fine"}, {"content": "harsh words"}]) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
        created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "openai", "coordinator": "off"})
        run = wait_for(client, created.json()["id"])
        assert run["status"] == "completed", run["reason"]
        before = (Run.objects.get(pk=run["id"]).last_seq, client.get(f"/api/v1/runs/{run['id']}/events").json())

        shown = client.get(f"/api/v1/runs/{run['id']}/playground?step=review")
        assert shown.status_code == 200, shown.content
        inputs = shown.json()
        assert inputs["agent"] == "writer" and inputs["model"] == "openai/gpt-test" and inputs["kind"] == "step"
        assert "Review it." in inputs["user"] and "the draft" in inputs["user"] and inputs["instructions"] == "Review it."
        assert inputs["original"]["content"] == "looks fine"

        tried = post(client, f"/api/v1/runs/{run['id']}/playground", {"step": "review", "instructions": "Review it harshly.",
                                                                         "temperature": 0.25})
        assert tried.status_code == 200, tried.content
        answer = tried.json()
        assert len(fake.requests) == 3  # the run's two, and one for the try
        sent = fake.requests[2].json
        assert "Review it harshly." in sent["messages"][-1]["content"] and "the draft" in sent["messages"][-1]["content"]
        assert sent["temperature"] == 0.25
        assert answer["content"] == "harsh words" and answer["status"] == "completed"
        assert answer["original"]["content"] == "looks fine"

    after = Run.objects.get(pk=run["id"])
    assert after.last_seq == before[0] and after.status == "completed"
    assert client.get(f"/api/v1/runs/{run['id']}/events").json() == before[1]

    applied = post(client, f"/api/v1/runs/{run['id']}/playground/apply",
                   {"step": "review", "instructions": "Review it harshly.", "temperature": 0.25})
    assert applied.status_code == 200, applied.content
    assert applied.json()["version"] == 2 and applied.json()["applied"] == ["instructions", "temperature"]
    saved = client.get(f"/api/v1/workflows/{workflow}").json()
    document = saved["document"]
    assert document["steps"][1]["instructions"] == "Review it harshly."
    assert document["agents"]["writer"]["temperature"] == 0.25
    # The new version names the one it changed (the editor's undo goes back to it); an ordinary save names none.
    assert saved["applied_from"] == 1
    assert client.get(f"/api/v1/workflows/{workflow}/versions/1").json()["applied_from"] is None


def test_a_judge_call_is_tried_with_its_own_prompt(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": judge_loop("judged", 3)}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off", "script": JUDGE_LOOP_SCRIPT})
    run = wait_for(owner_client, created.json()["id"])
    inputs = owner_client.get(f"/api/v1/runs/{run['id']}/playground?step=dev.0.untilAgent").json()
    assert inputs["kind"] == "judge" and inputs["agent"] == "judge"
    assert inputs["original"]["result"] == {"done": False, "reason": "too short"}
    script = {"replies": {"judge": [{"content": "fine now", "result": {"done": True, "reason": "edited"}}]}}
    tried = post(owner_client, f"/api/v1/runs/{run['id']}/playground",
                 {"step": "dev.0.untilAgent", "user": inputs["user"] + "\nBe lenient.", "script": script})
    assert tried.status_code == 200, tried.content
    assert tried.json()["result"] == {"done": True, "reason": "edited"}
    assert tried.json()["prompt"]["user"].endswith("Be lenient.")
    applied = post(owner_client, f"/api/v1/runs/{run['id']}/playground/apply",
                   {"step": "dev.0.untilAgent", "instructions": "Stop when it has two paragraphs."})
    assert applied.status_code == 200, applied.content
    document = owner_client.get(f"/api/v1/workflows/{workflow}").json()["document"]
    assert document["steps"][0]["instructions"] == "Stop when it has two paragraphs."


def test_bad_edits_are_refused_naming_the_field(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW.replace("openai/gpt-test", "gpt-test")}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    url = f"/api/v1/runs/{run['id']}/playground"
    for body, field in (({"step": "nowhere"}, "step"), ({"step": "review", "temperature": 9}, "temperature"),
                        ({"step": "review", "model": " "}, "model")):
        refused = post(owner_client, url, body)
        assert refused.status_code == 400 and refused.json()["detail"].startswith(f"{field}:"), refused.content
    assert owner_client.get(f"{url}?step=nowhere").status_code == 400
    nothing = post(owner_client, f"{url}/apply", {"step": "review"})
    assert nothing.status_code == 400 and "instructions" in nothing.json()["detail"]


def test_who_may_read_try_and_apply(owner_client, owner, stranger_client):
    User = get_user_model()
    team = create_team(owner, "Team")
    viewer, runner = User.objects.create_user("viewer"), User.objects.create_user("runner")
    Membership.objects.create(workspace=team, user=viewer, role=Role.VIEWER)
    Membership.objects.create(workspace=team, user=runner, role=Role.RUNNER)
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW.replace("openai/gpt-test", "gpt-test"),
                                                       "workspace_id": team.pk}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    url = f"/api/v1/runs/{run['id']}/playground"
    assert client_for(viewer).get(f"{url}?step=draft").status_code == 200
    assert stranger_client.get(f"{url}?step=draft").status_code == 404
    assert post(client_for(viewer), url, {"step": "draft"}).status_code == 403
    assert post(client_for(runner), url, {"step": "draft"}).status_code == 200
    assert post(client_for(runner), f"{url}/apply", {"step": "draft", "instructions": "x"}).status_code == 403
    assert post(stranger_client, f"{url}/apply", {"step": "draft", "instructions": "x"}).status_code == 404


TOOLED = """name: tooled
agents:
  scribe: {description: Writes files., model: openai/gpt-test, tools: [write, read]}
steps:
  - {id: make, agent: scribe, instructions: Write notes.txt.}
  - {id: check, agent: scribe, instructions: Read notes.txt., dependsOn: [make]}
"""


def test_a_tried_step_uses_its_tools_in_a_copy_of_the_workspace(server_owner, settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    client = client_for(server_owner)
    write = {"tool_calls": [{"name": "write", "arguments": {"path": "notes.txt", "content": "written in round one"}}]}
    read = {"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]}
    replies = [write, {"content": "wrote it"}, read, {"content": "read it"}]
    with FakeOpenAI([*replies, read, {"content": "read it again"}]) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        workflow = post(client, "/api/v1/workflows", {"source": TOOLED}).json()["id"]
        created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "openai", "coordinator": "off"})
        run = wait_for(client, created.json()["id"])
        assert run["status"] == "completed", run["reason"]
        workspace = settings.WORKSPACES_DIR / run["id"]
        before = sorted(p.name for p in settings.WORKSPACES_DIR.iterdir())
        tried = post(client, f"/api/v1/runs/{run['id']}/playground", {"step": "check"})
        assert tried.status_code == 200, tried.content
        assert len(fake.requests) == 6
        answered = fake.requests[5].json["messages"][-1]
        assert answered["role"] == "tool" and "written in round one" in answered["content"]
    assert tried.json()["content"] == "read it again"
    assert any("copy of the run's workspace" in n for n in tried.json()["notes"])
    # The run's own workspace is as it was, and the copy is gone.
    assert (workspace / "notes.txt").read_text() == "written in round one"
    assert sorted(p.name for p in settings.WORKSPACES_DIR.iterdir()) == before
