"""On real servers (daphne on the embedded default, and a Celery worker on PostgreSQL and Redis): a folder workflow
whose context file leaves its folder is refused before it starts, and one whose agent plants a link to the server's
secret key where a context file was expected fails that step before any provider call. The key appears in no
event, no run reason and no server or worker log."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.support.live_runs import wait_status
from tests.support.servers import base_env, celery_worker, fresh_postgres, fresh_redis_db, running_server

MAIN = """version: 1
name: planted-link
agents:
  coder: {description: Runs commands., tools: [bash]}
  reader: {description: Reads.}
steps:
  - {id: plant, agent: coder, instructions: Prepare the notes.}
  - {id: peek, agent: reader, dependsOn: [plant], instructions: Read the notes., contextFiles: [notes.txt]}
"""


def bundle(main: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("main.yaml", main)
        zf.writestr("notes.txt", "the notes")
    return buffer.getvalue()


def imported(client, main: str) -> int:
    made = client.post("/workflows/import-bundle", files={"file": ("flow.zip", bundle(main), "application/zip")},
                       data={"main": "main.yaml"})
    assert made.status_code == 201, made.text
    return made.json()["workflows"][0]["id"]


def check(server) -> None:
    data_dir = Path(server.env["DESIGNER_DATA_DIR"])
    secret = (data_dir / "secret_key").read_text().strip()
    assert len(secret) > 20
    with server.client("owner") as client:
        # A context file naming the data dir's key, relative or absolute: refused before anything starts.
        for escape in ("../../secret_key", str(data_dir / "secret_key")):
            refused = client.post("/runs", json={"workflow_id": imported(client, MAIN.replace("[notes.txt]", f"[{escape!r}]")),
                                                 "provider": "simulated"})
            assert refused.status_code == 422, refused.text
            assert escape in refused.json()["detail"] and secret not in refused.text

        # A link planted by the agent's bash between validation and the read.
        script = {"replies": {"plant": [
            {"tool_calls": [{"id": "ln", "name": "bash", "arguments": {
                "command": f"rm notes.txt && ln -s {data_dir / 'secret_key'} notes.txt && ls -l notes.txt"}}]},
            "planted"], "peek": ["I read it"]}}
        run = client.post("/runs", json={"workflow_id": imported(client, MAIN), "provider": "simulated", "script": script})
        assert run.status_code == 201, run.text
        final = wait_status(client, run.json()["id"], ("completed", "partial", "failed", "cancelled"), timeout=120)
        events = client.get(f"/runs/{final['id']}/events").json()
    assert final["status"] == "partial", final["reason"]  # plant completed, peek was refused
    planted = next(e for e in events if e["type"] == "tool_call" and e["data"]["phase"] == "end")
    assert "notes.txt ->" in planted["data"]["output"]  # the link really was there
    peek = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "peek")
    assert "notes.txt" in peek["error"] and "symbolic link" in peek["error"]
    assert not [e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "peek"]
    assert secret not in json.dumps(events) + final["reason"]
    for log in data_dir.glob("*.log"):
        assert secret not in log.read_text(errors="replace"), log.name


def test_the_embedded_server_reads_nothing_outside_a_runs_folder():
    with running_server(base_env()) as server:
        check(server)


@pytest.mark.timeout(600)
def test_a_celery_worker_reads_nothing_outside_a_runs_folder():
    with fresh_postgres() as database_url, fresh_redis_db() as redis_url:
        env = base_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
        with running_server(env) as server, celery_worker(env):
            check(server)
