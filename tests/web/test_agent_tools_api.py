"""Agent tools over HTTP on the embedded default: workspaces, snapshots, diffs, zips, uploads, approvals, privacy."""
from __future__ import annotations

import io
import json
import time
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Membership
from runtime.contract import check
from runtime.durability import run_files
from runtime.models import Run
from tests.support.api_calls import post, wait_for
from tests.support.zips import zip_bytes

pytestmark = pytest.mark.django_db(transaction=True)

CODER = """
version: 1
name: coder
agents:
  coder: {description: writes code}
steps:
  - id: build
    agent: coder
    loop: {until: "false", maxIterations: 2}
"""

WRITES = {"replies": {"build": [
    {"tool_calls": [{"name": "write", "arguments": {"path": "app.py", "content": "print('one')\n"}}]}, "first",
    {"tool_calls": [{"name": "edit", "arguments": {"path": "app.py", "old_string": "one", "new_string": "two"}},
                    {"name": "bash", "arguments": {"command": "mkdir -p out && echo built > out/log.txt"}}]}, "second",
]}}


@pytest.fixture(autouse=True)
def workspaces(settings, tmp_path):
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    return settings.WORKSPACES_DIR


@pytest.fixture
def workflow_id(owner_client):
    return post(owner_client, "/api/v1/workflows", {"source": CODER}).json()["id"]


def start(client, workflow_id, **extra):
    created = post(client, "/api/v1/runs", {"workflow_id": workflow_id, "script": WRITES, **extra})
    assert created.status_code == 201, created.content
    return created.json()["id"]


def upload(client, data: bytes, name="files.zip"):
    return client.post("/api/v1/uploads", {"file": _named(data, name)})


def _named(data: bytes, name: str):
    f = io.BytesIO(data)
    f.name = name
    return f


def test_the_tool_list_names_upstreams_tools_first():
    tools = Client().get("/api/v1/tools").json()
    assert [t["name"] for t in tools] == ["bash", "read", "write", "glob", "grep", "send_message", "shared_memory_write",
                                          "shared_memory_read", "edit"]
    assert [t["upstream"] for t in tools] == [True] * 8 + [False]
    # Ours says why in words: zenflow's runner refuses it.
    assert [t["name"] for t in tools if "note" in t] == ["edit"]
    assert "zenflow's runner refuses" in tools[-1]["note"]
    assert all("server" not in t and "mcp_server" not in t for t in tools)  # built in, not an MCP server's


def test_a_run_records_each_iterations_changes_and_serves_files_diffs_and_a_zip(owner_client, workflow_id, workspaces):
    run_id = start(owner_client, workflow_id)
    run = wait_for(owner_client, run_id)
    assert run["status"] == "failed"  # until never became true: the loop exhausts, the files are there anyway
    assert (workspaces / run_id / "out" / "log.txt").read_text() == "built\n"

    info = owner_client.get(f"/api/v1/runs/{run_id}/workspace").json()
    assert info["sandbox"] == "bwrap" and info["uses_tools"] is True and info["isolation"] == "run"
    labels = [(s["label"], s["added"], s["modified"]) for s in info["snapshots"]]
    assert labels == [("build.0", 1, 0), ("build.1", 1, 1)]
    second = info["snapshots"][1]["number"]

    files = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{second}/files").json()
    assert [(f["path"], f["stored"]) for f in files["files"]] == [("app.py", True), ("out/log.txt", True)]
    shown = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{second}/file", {"path": "app.py"}).json()
    assert shown["text"] == "print('two')\n"

    diff = owner_client.get(f"/api/v1/runs/{run_id}/workspace/snapshots/{second}/diff").json()
    assert diff["base"] == info["snapshots"][0]["number"]
    by_path = {c["path"]: c for c in diff["changes"]}
    assert by_path["app.py"]["change"] == "modified"
    assert "-print('one')\n+print('two')\n" in by_path["app.py"]["diff"]
    assert by_path["out/log.txt"]["change"] == "added"

    # Iteration rows point at their snapshot, so the run page can show "what this iteration changed".
    ends = [e for e in owner_client.get(f"/api/v1/runs/{run_id}/events").json() if e["type"] == "iteration_end"]
    assert [e["data"]["snapshot"] for e in ends] == [s["number"] for s in info["snapshots"]]

    response = owner_client.get(f"/api/v1/runs/{run_id}/workspace.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)) as z:
        assert sorted(z.namelist()) == ["app.py", "out/log.txt"]
        assert z.read("app.py") == b"print('two')\n"


def test_nobody_outside_the_workspace_reads_a_runs_files(owner_client, stranger_client, workflow_id):
    run_id = start(owner_client, workflow_id)
    wait_for(owner_client, run_id)
    number = owner_client.get(f"/api/v1/runs/{run_id}/workspace").json()["snapshots"][0]["number"]
    for path in (f"/api/v1/runs/{run_id}/workspace", f"/api/v1/runs/{run_id}/workspace/snapshots/{number}/files",
                 f"/api/v1/runs/{run_id}/workspace/snapshots/{number}/file?path=app.py",
                 f"/api/v1/runs/{run_id}/workspace/snapshots/{number}/diff", f"/api/v1/runs/{run_id}/workspace.zip"):
        assert stranger_client.get(path).status_code == 404, path
        assert Client().get(path).status_code == 401, path
    assert stranger_client.post(f"/api/v1/runs/{run_id}/tool-calls/x/approve").status_code == 404


def test_a_run_starts_from_an_uploaded_zip_or_from_an_earlier_runs_files(owner_client, workflow_id, workspaces):
    answer = upload(owner_client, zip_bytes({"README.md": b"# seed\n", "src/lib.py": b"x = 1\n"}))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["files"] == 2 and sorted(body["names"]) == ["README.md", "src/lib.py"]
    run_id = start(owner_client, workflow_id, workspace_upload=body["id"])
    wait_for(owner_client, run_id)
    assert (workspaces / run_id / "src" / "lib.py").read_text() == "x = 1\n"
    first = owner_client.get(f"/api/v1/runs/{run_id}/workspace").json()["snapshots"][0]
    assert (first["label"], first["added"]) == ("start", 2)

    again = start(owner_client, workflow_id, workspace_from_run=run_id,
                  script={"replies": {"build": ["nothing to do"]}})
    wait_for(owner_client, again)
    assert sorted(p.relative_to(workspaces / again).as_posix() for p in (workspaces / again).rglob("*") if p.is_file()) \
        == ["README.md", "app.py", "out/log.txt", "src/lib.py"]


@pytest.mark.parametrize("entries, words", [
    ({"../evil.txt": b"x"}, "'../evil.txt'"),
    ({"/etc/cron.d/x": b"x"}, "'/etc/cron.d/x'"),
])
def test_hostile_zips_are_refused_naming_the_entry(owner_client, entries, words):
    answer = upload(owner_client, zip_bytes(entries))
    assert answer.status_code == 400
    assert words in answer.json()["detail"]


def test_a_zip_with_a_symlink_too_many_files_or_a_bomb_is_refused(owner_client, settings):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        link = zipfile.ZipInfo("link")
        link.external_attr = (0o120777 << 16)
        archive.writestr(link, "/etc/passwd")
    answer = upload(owner_client, out.getvalue())
    assert answer.status_code == 400 and "link" in answer.json()["detail"]

    settings.WORKSPACE_UPLOAD_MAX_FILES = 3
    answer = upload(owner_client, zip_bytes({f"f{i}.txt": b"x" for i in range(5)}))
    assert answer.status_code == 400 and "files" in answer.json()["detail"]

    settings.WORKSPACE_UNPACKED_MAX_BYTES = 1024 * 1024
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.bin", b"\0" * (8 * 1024 * 1024))
    assert len(bomb.getvalue()) < 64 * 1024
    answer = upload(owner_client, bomb.getvalue())
    assert answer.status_code == 400

    answer = upload(owner_client, b"not a zip at all")
    assert answer.status_code == 400 and "zip" in answer.json()["detail"]


def test_someone_elses_upload_or_run_cannot_seed_a_run(owner_client, stranger_client, workflow_id):
    theirs = upload(stranger_client, zip_bytes({"a.txt": b"a"})).json()["id"]
    answer = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "workspace_upload": theirs})
    assert answer.status_code == 400 and "workspace_upload" in answer.json()["detail"]


def test_ask_before_names_must_be_tools_and_unknown_tools_in_a_document_refuse_the_run(owner_client):
    flow = post(owner_client, "/api/v1/workflows", {"source": CODER}).json()["id"]
    answer = post(owner_client, "/api/v1/runs", {"workflow_id": flow, "ask_before": ["rm"]})
    assert answer.status_code == 400 and "rm" in answer.json()["detail"]
    odd = post(owner_client, "/api/v1/workflows", {"source": CODER.replace("writes code}", "writes code, tools: [bash, kubectl]}")}).json()
    answer = post(owner_client, "/api/v1/runs", {"workflow_id": odd["id"]})
    assert answer.status_code == 422  # like every document that cannot run: refused with the diagnostic
    assert "/agents/coder/tools/1" in answer.json()["detail"] and "kubectl" in answer.json()["detail"]


def _events(client, run_id):
    return client.get(f"/api/v1/runs/{run_id}/events").json()


def _wait_asked(client, run_id, count, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        asked = [e for e in _events(client, run_id) if e["type"] == "tool_approval" and e["data"]["phase"] == "asked"]
        if len(asked) >= count:
            return asked
        time.sleep(0.05)
    raise AssertionError("no call waited for approval")


def test_approve_and_deny_over_http_reach_the_run_and_are_events(owner_client, stranger_client, workflow_id, workspaces):
    script = {"replies": {"build": [
        {"tool_calls": [{"id": "ok1", "name": "bash", "arguments": {"command": "echo yes > yes.txt"}},
                        {"id": "no1", "name": "bash", "arguments": {"command": "echo no > no.txt"}}]},
        "done"]}}
    run_id = start(owner_client, workflow_id, script=script, ask_before=["bash"])
    _wait_asked(owner_client, run_id, 2)
    assert post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/ok1/approve", {}).json() == {"status": "approved"}
    answer = post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/no1/deny", {"reason": "no writes today"})
    assert answer.json() == {"status": "denied"}
    again = post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/no1/approve", {})
    assert again.status_code == 409 and "already denied by owner" in again.json()["detail"]
    run = wait_for(owner_client, run_id)
    assert (workspaces / run_id / "yes.txt").exists() and not (workspaces / run_id / "no.txt").exists()
    decisions = {e["data"]["tool_call_id"]: e["data"] for e in _events(owner_client, run_id)
                 if e["type"] == "tool_approval" and e["data"]["phase"] != "asked"}
    assert decisions["ok1"]["phase"] == "approved" and decisions["ok1"]["actor"] == "owner"
    assert decisions["no1"] == {**decisions["no1"], "phase": "denied", "reason": "no writes today", "actor": "owner"}
    assert run["status"] in ("completed", "failed")


def test_a_stop_cancels_a_waiting_call(owner_client, workflow_id):
    script = {"replies": {"build": [{"tool_calls": [{"id": "w1", "name": "write",
                                                      "arguments": {"path": "x", "content": "x"}}]}]}}
    run_id = start(owner_client, workflow_id, script=script, ask_before=["write"])
    _wait_asked(owner_client, run_id, 1)
    post(owner_client, f"/api/v1/runs/{run_id}/stop", {})
    run = wait_for(owner_client, run_id)
    assert run["status"] == "cancelled"
    phases = [e["data"]["phase"] for e in _events(owner_client, run_id) if e["type"] == "tool_approval"]
    assert phases == ["asked", "cancelled"]
    late = post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/w1/approve", {})
    assert late.status_code == 409


def test_commands_see_nothing_of_the_servers_secrets_or_files(owner_client, workflow_id, settings):
    settings.OPENAI_API_KEY = "sk-server-secret-123456"
    script = {"replies": {"build": [{"tool_calls": [{"name": "bash", "arguments": {
        "command": "env; cat /proc/1/environ; ls / ; ls /work 2>&1; ls " + str(settings.DATA_DIR) + " 2>&1"}}]}, "ok"]}}
    run_id = start(owner_client, workflow_id, script=script)
    wait_for(owner_client, run_id)
    output = next(e["data"]["output"] for e in _events(owner_client, run_id)
                  if e["type"] == "tool_call" and e["data"]["phase"] == "end" and e["data"]["tool_name"] == "bash")
    assert settings.SECRET_KEY not in output and "sk-server-secret" not in output
    assert "DATABASE_URL" not in output and "DJANGO_SETTINGS_MODULE" not in output
    assert "ls: cannot access '/work'" in output
    assert "No such file or directory" in output.split("/work", 1)[1]


def test_deleting_a_run_deletes_its_workspace_and_old_workspaces_are_pruned(owner_client, workflow_id, workspaces):
    run_id = start(owner_client, workflow_id)
    wait_for(owner_client, run_id)
    assert (workspaces / run_id).is_dir()
    assert owner_client.delete(f"/api/v1/runs/{run_id}").status_code == 204
    assert not (workspaces / run_id).exists()
    assert not Run.objects.filter(pk=run_id).exists()

    kept = start(owner_client, workflow_id)
    wait_for(owner_client, kept)
    assert run_files.prune(days=30) == []
    assert run_files.prune(days=30, now=time.time() + 31 * 86400) == [kept]
    assert not (workspaces / kept).exists()
    # The snapshots stay with the run: the page still shows the files.
    number = owner_client.get(f"/api/v1/runs/{kept}/workspace").json()["snapshots"][-1]["number"]
    files = owner_client.get(f"/api/v1/runs/{kept}/workspace/snapshots/{number}/files").json()["files"]
    assert [f["path"] for f in files] == ["app.py", "out/log.txt"]


def test_json_of_events_stays_within_the_contract(owner_client, workflow_id):
    run_id = start(owner_client, workflow_id)
    wait_for(owner_client, run_id)
    for event in _events(owner_client, run_id):
        check(json.loads(json.dumps(event)))


def test_with_the_sandbox_off_commands_run_and_the_run_says_so(owner_client, workflow_id, settings, workspaces):
    settings.AGENT_SANDBOX = "off"
    script = {"replies": {"build": [{"tool_calls": [{"name": "bash", "arguments": {"command": "pwd; env"}}]}, "ok"]}}
    run_id = start(owner_client, workflow_id, script=script)
    wait_for(owner_client, run_id)
    settings.AGENT_SANDBOX = "bwrap"  # what the server says now does not change what the run ran under
    info = owner_client.get(f"/api/v1/runs/{run_id}/workspace").json()
    assert info["sandbox"] == "off" and info["uses_tools"] is True
    output = next(e["data"]["output"] for e in _events(owner_client, run_id)
                  if e["type"] == "tool_call" and e["data"]["phase"] == "end")
    assert str(workspaces / run_id) in output  # unsandboxed: the real path, not /workspace
    assert settings.SECRET_KEY not in output  # the environment is still built from scratch


def test_a_viewer_watches_but_cannot_answer_a_waiting_call(owner_client, workflow_id, owner):
    run_id = start(owner_client, workflow_id, ask_before=["write"],
                   script={"replies": {"build": [{"tool_calls": [{"id": "v1", "name": "write",
                                                                   "arguments": {"path": "x", "content": "x"}}]}]}})
    _wait_asked(owner_client, run_id, 1)
    run = Run.objects.get(pk=run_id)
    viewer = get_user_model().objects.create_user("viewer", password="viewer-pass-123")
    Membership.objects.create(workspace=run.workspace, user=viewer, role="viewer")
    client = Client()
    client.force_login(viewer)
    assert client.get(f"/api/v1/runs/{run_id}/workspace").status_code == 200
    answer = post(client, f"/api/v1/runs/{run_id}/tool-calls/v1/approve", {})
    assert answer.status_code == 403
    post(owner_client, f"/api/v1/runs/{run_id}/stop", {})
    wait_for(owner_client, run_id)
