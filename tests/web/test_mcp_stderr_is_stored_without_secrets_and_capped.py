"""What a stdio MCP server writes on stderr reaches people only without its secrets, and cut to a stated length.

A careless server prints its whole environment, token included, as it fails to start. That line is what the
account's check shows (``check_error``, through the API the account page uses) and what a run says in a ``message``
event when the server does not start. Real servers here (``tests/fixtures/mcp/stdio_server.py`` in the bubblewrap
sandbox, and a bash one unsandboxed), real checks over the API and a real run over the API, its events read back
from the database: every configured secret value (the server's own ``env``, an administrator's server's ``env``,
the deployment's ``SECRET_KEY`` and provider key) is ``[redacted]`` while the rest of the line stays, and a long
line is cut after redaction, saying how many characters were cut, so that no start of a secret is kept.
"""
from __future__ import annotations

import sys

import pytest

from accounts.models import McpServer
from runtime.models import RunEvent
from runtime.tools.sandbox import probe
from tests.fixtures.mcp.servers import SANDBOX_PATHS, STDIO_SERVER
from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/account/mcp-servers"
USER_SECRET = "user-env-secret-5150-abcdef"
ADMIN_SECRET = "admin-env-secret-6160-ghijkl"
PROVIDER_KEY = "sk-deployment-provider-key-7170"
# 480 characters, " token=", then the token: the token starts at 487 and crosses the 500 characters a line is cut at.
BEFORE, AFTER = 480, 5000
CUT_LINE = f"{'x' * BEFORE} token=[redacted] yy... ({BEFORE + 18 + AFTER - 500} more characters)"


@pytest.fixture(autouse=True)
def mcp_settings(settings, tmp_path):
    settings.MCP_SANDBOX_PATHS = list(SANDBOX_PATHS)
    settings.MCP_SERVERS = []
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    return settings


@pytest.fixture
def real_sandbox(settings):
    assert probe("bwrap") is None, "bubblewrap must work here (make sandbox)"
    settings.AGENT_SANDBOX = "bwrap"


def add_stdio(client, name: str, *args: str, env: dict | None = None, command: str = sys.executable) -> dict:
    created = post(client, URL, {"name": name, "command": command, "args": [*args],
                                 "env": env if env is not None else {"API_TOKEN": USER_SECRET}})
    assert created.status_code == 201, created.content
    return created.json()


def check(client, server: dict):
    return post(client, f"{URL}/{server['id']}/check", {})


def test_a_check_error_keeps_the_servers_words_but_not_its_env_values(owner_client, real_sandbox):
    server = add_stdio(owner_client, "talker", str(STDIO_SERVER), "--fail-showing-env")
    answer = check(owner_client, server)
    error = answer.json()["error"]
    assert answer.json()["ok"] is False
    assert error.startswith("MCP server 'talker' could not start (exit code 1): cannot start with API_TOKEN=[redacted] ")
    assert "HOME=/workspace" in error and "LANG=C.UTF-8" in error  # the rest of what it said is still there
    assert USER_SECRET not in answer.content.decode()
    assert USER_SECRET not in McpServer.objects.get(pk=server["id"]).check_error
    shown = owner_client.get(URL)
    assert USER_SECRET not in shown.content.decode() and "API_TOKEN=[redacted]" in shown.json()[0]["check_error"]


def test_a_long_stderr_line_is_cut_after_redaction_saying_how_much(owner_client, real_sandbox):
    server = add_stdio(owner_client, "long", str(STDIO_SERVER), "--fail-showing-token", str(BEFORE), str(AFTER))
    error = check(owner_client, server).json()["error"]
    assert error == f"MCP server 'long' could not start (exit code 1): {CUT_LINE}"
    assert USER_SECRET[:8] not in error  # cut first, the token's first 13 characters would have stayed


def test_a_runs_message_events_hold_no_secret_of_the_users_or_the_administrators_servers(owner_client, settings,
                                                                                        real_sandbox):
    settings.MCP_SERVERS = [{"name": "admin-talker", "command": sys.executable,
                             "args": [str(STDIO_SERVER), "--fail-showing-env"], "env": {"API_TOKEN": ADMIN_SECRET}}]
    add_stdio(owner_client, "talker", str(STDIO_SERVER), "--fail-showing-env")
    add_stdio(owner_client, "long", str(STDIO_SERVER), "--fail-showing-token", str(BEFORE), str(AFTER))
    source = ("name: plain\nagents:\n  helper: {description: Helps.}\n"
              "steps:\n  - {id: work, agent: helper, instructions: Say hello.}\n")
    workflow = post(owner_client, "/api/v1/workflows", {"source": source}).json()
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow["id"], "provider": "simulated",
                                                  "script": {"replies": {"work": ["hello"]}}})
    assert created.status_code == 201, created.content
    run = wait_for(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]  # servers that do not start never stop the run

    stored = list(RunEvent.objects.filter(run_id=run["id"]).order_by("seq"))
    everything = "\n".join(event.event_json for event in stored)
    assert USER_SECRET not in everything and ADMIN_SECRET not in everything
    said = [event.event["message"] for event in stored if event.type == "message"]
    talking = {name: next(m for m in said if m.startswith(f"MCP server '{name}' could not start (exit code 1): "))
               for name in ("admin-talker", "talker", "long")}
    for name in ("admin-talker", "talker"):
        assert "cannot start with API_TOKEN=[redacted] " in talking[name] and "HOME=/workspace" in talking[name]
    assert talking["long"] == f"MCP server 'long' could not start (exit code 1): {CUT_LINE}"


def test_an_unsandboxed_server_reading_the_deployments_secrets_shows_them_redacted(owner_client, settings, tmp_path):
    # Unsandboxed, a server runs as the app's own user and reads what it reads: here its environment file.
    settings.AGENT_SANDBOX = "off"
    settings.OPENAI_API_KEY = PROVIDER_KEY
    env_file = tmp_path / "app.env"
    env_file.write_text(f"SECRET_KEY={settings.SECRET_KEY}\nOPENAI_API_KEY={PROVIDER_KEY}\n")
    server = add_stdio(owner_client, "reader", "-c", f"echo \"read $(tr '\\n' ' ' < {env_file})\" >&2; exit 1",
                       command="bash", env={})
    answer = check(owner_client, server)
    assert answer.json()["error"] == ("MCP server 'reader' could not start (exit code 1): "
                                      "read SECRET_KEY=[redacted] OPENAI_API_KEY=[redacted]")
    assert settings.SECRET_KEY not in answer.content.decode() and PROVIDER_KEY not in answer.content.decode()


def test_an_error_stored_before_redaction_is_shown_redacted(owner_client, owner):
    server = add_stdio(owner_client, "old", str(STDIO_SERVER))
    McpServer.objects.filter(pk=server["id"]).update(
        check_error=f"MCP server 'old' could not start (exit code 1): API_TOKEN={USER_SECRET} rejected")
    shown = owner_client.get(URL)
    assert shown.json()[0]["check_error"] == ("MCP server 'old' could not start (exit code 1): "
                                              "API_TOKEN=[redacted] rejected")
    assert USER_SECRET not in shown.content.decode()
