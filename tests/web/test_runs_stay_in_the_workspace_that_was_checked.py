"""Work acts in the workspace whose role was checked: a run of a workflow that has since moved to another
workspace cannot be forked into it (the fork would run there, on that workspace's keys and limits), and someone
removed from a team can no longer pause, resume or stop the runs they started there, nor see them counted."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Membership
from accounts.workspaces import create_team
from designer import workflows
from runtime.models import Run, RunStatus
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DOC = "name: shared\nsteps:\n  - id: draft\n    instructions: Write.\n"


@pytest.fixture
def people(db):
    User = get_user_model()
    boss, bob = User.objects.create_user("boss"), User.objects.create_user("bob")
    first, second = create_team(boss, "First"), create_team(boss, "Second")
    Membership.objects.create(workspace=first, user=bob, role="runner")
    return boss, bob, first, second


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_run_whose_workflow_moved_away_cannot_be_forked_into_its_new_workspace(people):
    boss, bob, first, second = people
    workflow = workflows.create(boss, source=DOC, document=None, workspace_id=first.pk)
    bobs = signed_in(bob)
    started = post(bobs, "/api/v1/runs", {"workflow_id": workflow.pk, "script": {"replies": {"draft": ["a draft"]}}})
    assert started.status_code == 201, started.content
    assert wait_for(bobs, started.json()["id"], timeout=60)["status"] == "completed"
    moved = post(signed_in(boss), f"/api/v1/workflows/{workflow.pk}/move", {"workspace_id": second.pk})
    assert moved.status_code == 200, moved.content

    refused = post(bobs, f"/api/v1/runs/{started.json()['id']}/fork", {"at": {"step": "draft"}})
    assert refused.status_code == 409 and "moved to another workspace" in refused.json()["detail"]
    assert not Run.objects.filter(workspace=second).exists()


def test_someone_removed_from_a_team_can_no_longer_stop_their_runs_there(people):
    boss, bob, first, _ = people
    workflow = workflows.create(boss, source=DOC, document=None, workspace_id=first.pk)
    run = Run.objects.create(owner=bob, workspace=first, workflow=workflow, version=workflow.latest(),
                             provider="simulated", status=RunStatus.RUNNING)
    bobs = signed_in(bob)
    assert bobs.get("/api/v1/runs/active/count").json()["count"] == 1
    Membership.objects.filter(workspace=first, user=bob).delete()

    assert bobs.get("/api/v1/runs/active/count").json()["count"] == 0
    assert post(bobs, "/api/v1/runs/all/stop", {}).json()["count"] == 0
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.control_request == ""


def test_a_runner_made_a_viewer_can_no_longer_stop_their_runs_either(people):
    boss, bob, first, _ = people
    workflow = workflows.create(boss, source=DOC, document=None, workspace_id=first.pk)
    Run.objects.create(owner=bob, workspace=first, workflow=workflow, version=workflow.latest(),
                       provider="simulated", status=RunStatus.RUNNING)
    Membership.objects.filter(workspace=first, user=bob).update(role="viewer")
    bobs = signed_in(bob)
    assert bobs.get("/api/v1/runs/active/count").json()["count"] == 1  # still readable there
    assert post(bobs, "/api/v1/runs/all/stop", {}).json()["count"] == 0
