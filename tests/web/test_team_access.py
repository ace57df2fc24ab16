"""Every REST route, for each role in a team workspace and for a stranger.

owner > admin > editor > runner > viewer: viewers read, watch and export; runners also run and
control runs; editors also design; admins also manage members, invitations, keys, limits and the
audit log. Someone who is not a member is told the thing does not exist (404), so ids cannot be
probed; a member whose role falls short is told which role it needs (403).

A second test holds this table to docs/api.md: a route documented there and missing here fails.
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import Membership
from accounts.workspaces import create_team, personal
from designer import workflows
from runtime.engine import RunOptions, run_workflow
from runtime.evals import datasets
from runtime.events import ListSink
from runtime.live.recorder import persist_events
from runtime.models import Dataset, Experiment, Run, WorkspaceBlob, WorkspaceSnapshot

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ["owner", "admin", "editor", "runner", "viewer", "stranger"]
DOC = "name: shared\nsteps:\n  - id: draft\n    instructions: Write.\n"
SCRIPT = {"replies": {"draft": ["a draft"]}}

READ = {"owner": 200, "admin": 200, "editor": 200, "runner": 200, "viewer": 200, "stranger": 404}
RUN_CONTROL = {"owner": 409, "admin": 409, "editor": 409, "runner": 409, "viewer": 403, "stranger": 404}  # the run has finished
EDIT = {"owner": 200, "admin": 200, "editor": 200, "runner": 403, "viewer": 403, "stranger": 404}
MANAGE = {"owner": 200, "admin": 200, "editor": 403, "runner": 403, "viewer": 403, "stranger": 404}


def created(table: dict) -> dict:
    return {role: 201 if code == 200 else code for role, code in table.items()}


def deleted(table: dict) -> dict:
    return {role: 204 if code == 200 else code for role, code in table.items()}


@pytest.fixture
def team(db):
    User = get_user_model()
    users = {role: User.objects.create_user(role) for role in ROLES}  # force_login needs no password (hashing one is slow)
    workspace = create_team(users["owner"], "Team")
    for role in ROLES[1:-1]:
        Membership.objects.create(workspace=workspace, user=users[role], role=role)
    workflow = workflows.create(users["owner"], source=DOC, document=None, workspace_id=workspace.pk,
                                files={"notes.md": b"Team notes.\n"}, main_path="shared.yaml")
    run = Run.objects.create(owner=users["owner"], workspace=workspace, workflow=workflow, version=workflow.latest(),
                             provider="simulated", status="completed")
    digest = hashlib.sha256(b"team file\n").hexdigest()
    WorkspaceBlob.objects.create(run=run, digest=digest, data=b"team file\n")
    WorkspaceSnapshot.objects.create(run=run, number=1, label="draft", manifest={"a.txt": [10, 0, digest]}, files=1, added=1)
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return {"users": users, "workspace": workspace, "workflow": workflow, "run": run, "clients": clients}


def bundle_file():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("shared.yaml", DOC)
        zf.writestr("prompts/p.md", "Write.\n")
    return SimpleUploadedFile("shared.zip", buffer.getvalue(), content_type="application/zip")


def fresh_run(team) -> str:
    workflow = team["workflow"]
    return str(Run.objects.create(owner=team["users"]["owner"], workspace=team["workspace"], workflow=workflow,
                                  version=workflow.latest(), provider="simulated", status="completed").pk)


def forkable_run(team) -> str:
    """A finished run with its events stored: what a fork starts from."""
    run_id = fresh_run(team)
    sink = ListSink()
    asyncio.run(run_workflow(team["workflow"].latest().document, RunOptions(run_id=run_id, sink=sink, script=SCRIPT)))
    persist_events(run_id, sink.events)
    return run_id


def team_dataset(team) -> int:
    """The team workflow's dataset (one case that runs its draft step), made once per test."""
    if "dataset" not in team:
        team["dataset"] = datasets.create_dataset(team["users"]["owner"], team["workflow"].pk, "golden",
                                                  [{"id": "one", "script": SCRIPT}], []).pk
    return team["dataset"]


def team_experiment(team) -> int:
    """A finished experiment of the team workflow over its dataset (stored as one ends, not run here)."""
    if "experiment" not in team:
        dataset = Dataset.objects.get(pk=team_dataset(team))
        team["experiment"] = Experiment.objects.create(
            workspace=team["workspace"], workflow=team["workflow"], version=team["workflow"].latest(),
            dataset_version=dataset.versions.get(number=1), owner=team["users"]["owner"], status="completed").pk
    return team["experiment"]


def fresh_workflow(team) -> int:
    return workflows.create(team["users"]["owner"], source=DOC, document=None, workspace_id=team["workspace"].pk).pk


def send(client: Client, method: str, path: str, body=None, **extra):
    if method == "MULTIPART":
        return client.post(path, body)
    kwargs = {"data": json.dumps(body), "content_type": "application/json"} if body is not None else {}
    return getattr(client, method.lower())(path, **kwargs, **extra)


def yaml_file():
    return SimpleUploadedFile("shared.yaml", DOC.encode(), content_type="application/yaml")


# (documented route, method, path maker, body maker, expected status per role)
ROUTES = [
    ("GET /workflows", "GET", lambda t, r: f"/api/v1/workflows?workspace={t['workspace'].pk}", None, READ),
    ("POST /workflows", "POST", lambda t, r: "/api/v1/workflows", lambda t, r: {"source": DOC, "workspace_id": t["workspace"].pk}, created(EDIT)),
    ("GET /workflows/{id}", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}", None, READ),
    ("PUT /workflows/{id}", "PUT", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}", lambda t, r: {"source": DOC}, EDIT),
    ("DELETE /workflows/{id}", "DELETE", lambda t, r: f"/api/v1/workflows/{fresh_workflow(t)}", None, deleted(EDIT)),
    # A copy lands where the caller may edit: the team for editors, their personal workspace for runners and viewers.
    ("POST /workflows/{id}/duplicate", "POST", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/duplicate", None, created(READ)),
    ("POST /workflows/{id}/move", "POST", lambda t, r: f"/api/v1/workflows/{fresh_workflow(t)}/move",
     lambda t, r: {"workspace_id": personal(t["users"][r]).pk}, EDIT),
    ("GET /workflows/{id}/breakpoints", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/breakpoints", None, READ),
    ("PUT /workflows/{id}/breakpoints", "PUT", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/breakpoints",
     lambda t, r: {"breakpoints": [{"kind": "step", "step": "draft"}]}, EDIT),
    ("POST /workflows/{id}/breakpoints/check", "POST", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/breakpoints/check",
     lambda t, r: {"breakpoints": [{"kind": "step", "step": "draft"}]}, READ),
    ("GET /workflows/{id}/versions", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/versions", None, READ),
    ("GET /workflows/{id}/versions/{n}", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/versions/1", None, READ),
    ("POST /workflows/{id}/versions/{n}/restore", "POST", lambda t, r: f"/api/v1/workflows/{fresh_workflow(t)}/versions/1/restore",
     None, created(EDIT)),
    ("POST /workflows/import-bundle", "MULTIPART", lambda t, r: "/api/v1/workflows/import-bundle",
     lambda t, r: {"file": bundle_file(), "workspace": t["workspace"].pk}, {**created(EDIT), "stranger": 404}),
    ("GET /workflows/{id}/files", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/files", None, READ),
    ("GET /workflows/{id}/file", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/file?path=notes.md", None, READ),
    ("PUT /workflows/{id}/file", "PUT", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/file",
     lambda t, r: {"path": f"by-{r}.md", "text": "x"}, EDIT),
    ("GET /workflows/{id}/files/changes", "GET",
     lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/files/changes?a=1&b=1", None, READ),
    ("GET /workflows/{id}/includes", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/includes", None, READ),
    ("GET /workflows/{id}/bundle.zip", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/bundle.zip", None, READ),
    ("GET /workflows/{id}/export", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/export", None, READ),
    ("POST /workflows/import", "MULTIPART", lambda t, r: "/api/v1/workflows/import",
     lambda t, r: {"file": yaml_file(), "workspace": t["workspace"].pk}, created(EDIT)),
    ("POST /runs", "POST", lambda t, r: "/api/v1/runs",
     lambda t, r: {"workflow_id": t["workflow"].pk, "provider": "simulated", "script": SCRIPT},
     {"owner": 201, "admin": 201, "editor": 201, "runner": 201, "viewer": 403, "stranger": 404}),
    # A script checked against the document the request carries: it reads nothing of any workspace.
    ("POST /runs/script-check", "POST", lambda t, r: "/api/v1/runs/script-check",
     lambda t, r: {"script": SCRIPT, "document": {"name": "shared", "steps": [{"id": "draft", "instructions": "Write."}]}},
     dict.fromkeys(ROLES, 200)),
    ("GET /runs", "GET", lambda t, r: f"/api/v1/runs?workspace={t['workspace'].pk}", None, READ),
    ("GET /runs/{id}", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}", None, READ),
    ("GET /runs/{id}/compare/{other id}", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/compare/{t['run'].pk}", None, READ),
    ("GET /runs/{id}/events", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/events", None, READ),
    ("GET /runs/{id}/iterations", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/iterations", None, READ),
    ("GET /runs/{id}/metrics", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/metrics", None, READ),
    ("GET /runs/{id}/shared-memory", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/shared-memory", None, READ),
    ("GET /runs/{id}/history", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/history", None, READ),
    ("GET /runs/{id}/debug", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/debug", None, READ),
    ("POST /runs/{id}/debug", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/debug", lambda t, r: {"action": "continue"},
     RUN_CONTROL),
    ("POST /runs/{id}/pause", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/pause", None, RUN_CONTROL),
    ("POST /runs/{id}/resume", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/resume", None, RUN_CONTROL),
    ("POST /runs/{id}/stop", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/stop", None, RUN_CONTROL),
    ("POST /runs/{id}/fork", "POST", lambda t, r: f"/api/v1/runs/{forkable_run(t)}/fork",
     lambda t, r: {"at": {"step": "draft"}, "script": SCRIPT},
     {"owner": 201, "admin": 201, "editor": 201, "runner": 201, "viewer": 403, "stranger": 404}),
    ("DELETE /runs/{id}", "DELETE", lambda t, r: f"/api/v1/runs/{fresh_run(t)}", None, deleted(EDIT)),
    # Pins change what the workflow's runs do: editors pin and clear, everyone in the workspace reads them.
    ("POST /runs/{id}/pins", "POST", lambda t, r: f"/api/v1/runs/{forkable_run(t)}/pins", lambda t, r: {"step": "draft"}, created(EDIT)),
    ("GET /workflows/{id}/pins", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/pins", None, READ),
    ("DELETE /workflows/{id}/pins", "DELETE", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/pins", None, EDIT),
    # The playground reads a run's inputs (read), calls a model (run), and saves a version (edit).
    ("GET /runs/{id}/playground", "GET", lambda t, r: f"/api/v1/runs/{forkable_run(t)}/playground?step=draft", None, READ),
    ("POST /runs/{id}/playground", "POST", lambda t, r: f"/api/v1/runs/{forkable_run(t)}/playground",
     lambda t, r: {"step": "draft", "script": SCRIPT}, {**EDIT, "runner": 200}),
    ("POST /runs/{id}/playground/apply", "POST", lambda t, r: f"/api/v1/runs/{forkable_run(t)}/playground/apply",
     lambda t, r: {"step": "draft", "instructions": f"Write, says {r}."}, EDIT),
    ("GET /runs/{id}/workspace", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/workspace", None, READ),
    ("GET /runs/{id}/workspace/snapshots/{n}/files", "GET",
     lambda t, r: f"/api/v1/runs/{t['run'].pk}/workspace/snapshots/1/files", None, READ),
    ("GET /runs/{id}/workspace/snapshots/{n}/file", "GET",
     lambda t, r: f"/api/v1/runs/{t['run'].pk}/workspace/snapshots/1/file?path=a.txt", None, READ),
    ("GET /runs/{id}/workspace/snapshots/{n}/diff", "GET",
     lambda t, r: f"/api/v1/runs/{t['run'].pk}/workspace/snapshots/1/diff", None, READ),
    ("GET /runs/{id}/workspace.zip", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/workspace.zip", None, READ),
    ("POST /runs/{id}/tool-calls/{call id}/approve", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/tool-calls/c1/approve",
     None, RUN_CONTROL),
    ("POST /runs/{id}/tool-calls/{call id}/deny", "POST", lambda t, r: f"/api/v1/runs/{t['run'].pk}/tool-calls/c1/deny",
     lambda t, r: {"reason": "no"}, RUN_CONTROL),
    ("GET /providers", "GET", lambda t, r: f"/api/v1/providers?workspace={t['workspace'].pk}", None, READ),
    ("GET /models", "GET", lambda t, r: f"/api/v1/models?workspace={t['workspace'].pk}", None, READ),
    ("GET /workspaces/{id}", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}", None, READ),
    ("PATCH /workspaces/{id}", "PATCH", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}", lambda t, r: {"name": "Team"}, MANAGE),
    ("GET /workspaces/{id}/usage", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/usage", None, READ),
    ("GET /workspaces/{id}/keys", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/keys", None, READ),
    ("PUT /workspaces/{id}/keys", "PUT", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/keys",
     lambda t, r: {"provider": "openai", "api_key": "sk-team-key"}, MANAGE),
    ("DELETE /workspaces/{id}/keys/{provider}", "DELETE", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/keys/openai", None, deleted(MANAGE)),
    ("GET /workspaces/{id}/invitations", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/invitations", None, MANAGE),
    ("POST /workspaces/{id}/invitations", "POST", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/invitations",
     lambda t, r: {"role": "viewer"}, created(MANAGE)),
    ("DELETE /workspaces/{id}/invitations/{id}", "DELETE", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/invitations/999", None, deleted(MANAGE)),
    ("PUT /workspaces/{id}/limits", "PUT", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/limits",
     lambda t, r: {"max_runs_per_day": 500}, MANAGE),
    # Only the server's owner grants the server's keys; nobody here is it.
    ("PUT /workspaces/{id}/server-keys", "PUT", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/server-keys",
     lambda t, r: {"granted": True}, {**MANAGE, "owner": 403, "admin": 403}),
    ("GET /workspaces/{id}/tracing", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/tracing", None, READ),
    ("PUT /workspaces/{id}/tracing", "PUT", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/tracing",
     lambda t, r: {"mode": "off"}, MANAGE),
    # Managers are told to choose the workspace's own collector first: nothing to send to yet.
    ("POST /workspaces/{id}/tracing/test", "POST", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/tracing/test", None,
     {**MANAGE, "owner": 400, "admin": 400}),
    ("GET /workspaces/{id}/audit", "GET", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/audit", None, MANAGE),
    ("PUT /workspaces/{id}/members/{user}", "PUT", lambda t, r: f"/api/v1/workspaces/{t['workspace'].pk}/members/{t['users']['viewer'].pk}",
     lambda t, r: {"role": "viewer"}, MANAGE),
    ("GET /workflows/{id}/datasets", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/datasets", None, READ),
    ("POST /datasets", "POST", lambda t, r: "/api/v1/datasets", lambda t, r: {"workflow_id": t["workflow"].pk, "name": f"by {r}"},
     created(EDIT)),
    ("GET /datasets/{id}", "GET", lambda t, r: f"/api/v1/datasets/{team_dataset(t)}", None, READ),
    ("PUT /datasets/{id}", "PUT", lambda t, r: f"/api/v1/datasets/{team_dataset(t)}", lambda t, r: {"name": f"by {r}"}, EDIT),
    ("POST /datasets/{id}/cases", "POST", lambda t, r: f"/api/v1/datasets/{team_dataset(t)}/cases", lambda t, r: {"cases": [{}]}, EDIT),
    ("POST /datasets/{id}/import", "POST", lambda t, r: f"/api/v1/datasets/{team_dataset(t)}/import",
     lambda t, r: {"format": "jsonl", "text": "{}"}, EDIT),
    ("POST /datasets/{id}/from-run", "POST", lambda t, r: f"/api/v1/datasets/{team_dataset(t)}/from-run",
     lambda t, r: {"run_id": str(t["run"].pk)}, EDIT),
    ("GET /workflows/{id}/experiments", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/experiments", None, READ),
    ("POST /experiments", "POST", lambda t, r: "/api/v1/experiments",
     lambda t, r: {"workflow_id": t["workflow"].pk, "dataset_id": team_dataset(t)},
     {"owner": 201, "admin": 201, "editor": 201, "runner": 201, "viewer": 403, "stranger": 404}),
    ("GET /experiments/{id}", "GET", lambda t, r: f"/api/v1/experiments/{team_experiment(t)}", None, READ),
    ("GET /experiments/{id}/progress", "GET", lambda t, r: f"/api/v1/experiments/{team_experiment(t)}/progress", None, READ),
    ("GET /experiments/{id}/export", "GET", lambda t, r: f"/api/v1/experiments/{team_experiment(t)}/export", None, READ),
    ("GET /experiments/{id}/compare/{other id}", "GET",
     lambda t, r: f"/api/v1/experiments/{team_experiment(t)}/compare/{team_experiment(t)}", None, READ),
    ("GET /experiments/{id}/gate", "GET", lambda t, r: f"/api/v1/experiments/{team_experiment(t)}/gate", None, READ),
    ("GET /runs/{id}/rounds", "GET", lambda t, r: f"/api/v1/runs/{t['run'].pk}/rounds", None, READ),
    # The team run has no judged round: a runner or above is told so (400), a viewer that its role falls short.
    ("PUT /runs/{id}/rounds/{step}/{iteration}/label", "PUT", lambda t, r: f"/api/v1/runs/{t['run'].pk}/rounds/draft/0/label",
     lambda t, r: {"good": True}, {"owner": 400, "admin": 400, "editor": 400, "runner": 400, "viewer": 403, "stranger": 404}),
    ("GET /workflows/{id}/judge-agreement", "GET", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/judge-agreement", None, READ),
    # Asking the judge again is running it, as an experiment does: a runner or above is told the team's workflow has
    # no labelled round (400).
    ("POST /workflows/{id}/judge-agreement/rescore", "POST", lambda t, r: f"/api/v1/workflows/{t['workflow'].pk}/judge-agreement/rescore",
     lambda t, r: {}, {"owner": 400, "admin": 400, "editor": 400, "runner": 400, "viewer": 403, "stranger": 404}),
    ("POST /experiments/{id}/stop", "POST", lambda t, r: f"/api/v1/experiments/{team_experiment(t)}/stop", None,
     {"owner": 200, "admin": 200, "editor": 200, "runner": 200, "viewer": 403, "stranger": 404}),
]


@pytest.mark.parametrize("route", ROUTES, ids=[r[0] for r in ROUTES])
def test_each_role_gets_what_its_role_allows(team, route):
    _, method, path, body, expected = route
    got = {}
    for role in ROLES:
        answer = send(team["clients"][role], method, path(team, role), body(team, role) if body else None)
        got[role] = answer.status_code
        if answer.status_code == 403:
            assert "your role in this workspace is" in answer.json()["detail"] or "server's owner" in answer.json()["detail"]
        if role == "stranger" and answer.status_code == 404:
            assert "Team" not in answer.content.decode() and "shared" not in answer.content.decode()
    assert got == expected


def test_a_strangers_lists_hold_nothing_of_the_team(team):
    stranger = team["clients"]["stranger"]
    assert [w["id"] for w in stranger.get("/api/v1/workflows").json()] == []
    assert stranger.get("/api/v1/runs").json() == []
    assert [w["name"] for w in stranger.get("/api/v1/workspaces").json()] == ["stranger (personal)"]
    viewer = team["clients"]["viewer"]
    assert team["workflow"].pk in [w["id"] for w in viewer.get("/api/v1/workflows").json()]
    assert str(team["run"].pk) in [r["id"] for r in viewer.get("/api/v1/runs").json()]


def test_guessed_ids_answer_like_missing_ones(team):
    stranger = team["clients"]["stranger"]
    for path in (f"/api/v1/workflows/{team['workflow'].pk}", "/api/v1/workflows/999999",
                 f"/api/v1/workspaces/{team['workspace'].pk}", "/api/v1/workspaces/999999"):
        answer = stranger.get(path)
        assert answer.status_code == 404, path
    missing = stranger.get("/api/v1/workflows/999999").json()["detail"].replace("999999", "ID")
    theirs = stranger.get(f"/api/v1/workflows/{team['workflow'].pk}").json()["detail"].replace(str(team["workflow"].pk), "ID")
    assert missing == theirs


def documented_routes() -> set[str]:
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    found = set()
    for method, cell in re.findall(r"^\| (GET|POST|PUT|PATCH|DELETE) ((?:`/[^`]*`(?:, )?)+)", text, flags=re.M):
        paths = [re.sub(r"\?.*$", "", p) for p in re.findall(r"`(/[^`]*)`", cell)]
        first = paths[0]
        found.add(f"{method} {first}")
        for other in paths[1:]:
            # `/runs/{id}/pause`, `/resume`, `/stop`: a bare last segment replaces the first path's.
            found.add(f"{method} {first.rsplit('/', 1)[0] + other if other.count('/') == 1 and first.count('/') > 1 else other}")
    return found


# Routes that belong to no workspace: the caller's own account, the anonymous document tools,
# the shared template gallery, and the caller's own runs at once.
NOT_IN_A_WORKSPACE = {"GET /me", "POST /validate", "POST /render", "POST /import", "GET /templates", "GET /workspaces",
                      "POST /workspaces", "GET /runs/active/count", "POST /runs/all/pause", "POST /runs/all/resume",
                      "POST /runs/all/stop", "GET /templates/{slug}", "DELETE /workspaces/{id}/members/{user}",
                      "GET /tools", "POST /uploads", "GET /account/mcp-servers", "POST /account/mcp-servers",
                      "DELETE /account/mcp-servers/{id}", "POST /account/mcp-servers/{id}/check"}


def test_the_table_covers_every_documented_route():
    table = {r[0] for r in ROUTES}
    documented = documented_routes()
    assert documented, "docs/api.md lost its route table?"
    assert documented - table - NOT_IN_A_WORKSPACE == set()
