"""Users' MCP servers over the API: added, listed without their secrets, checked for real (a stdio server in the
sandbox, an HTTP one on loopback), deleted; a stranger never sees or uses them; a run gets its owner's."""
from __future__ import annotations

import json
import sys

import pytest
from asgiref.sync import async_to_sync

from accounts import mcp_servers
from accounts.models import McpServer
from designer import tool_specs, workflows
from runtime.durability import run_files
from runtime.engine import RunOptions, run_workflow
from runtime.events import ListSink
from runtime.models import Run
from tests.fixtures.mcp.servers import SANDBOX_PATHS, STDIO_SERVER, http_server

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "mcp-header-secret-0042"
ENV_SECRET = "env-secret-value-0043"
URL = "/api/v1/account/mcp-servers"


@pytest.fixture(autouse=True)
def mcp_settings(settings, tmp_path):
    settings.MCP_SANDBOX_PATHS = list(SANDBOX_PATHS)
    settings.MCP_URLS_ALLOW_PRIVATE = False
    settings.MCP_SERVERS = []
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    return settings


def post(client, path, body=None):
    return client.post(path, data=json.dumps(body or {}), content_type="application/json")


def add_stdio(client, name="fixture", **extra):
    return post(client, URL, {"name": name, "command": sys.executable, "args": [str(STDIO_SERVER)],
                              "env": {"API_TOKEN": ENV_SECRET}, **extra})


def test_a_stdio_server_is_added_checked_and_listed_with_its_tools_but_never_its_secrets(owner_client, owner):
    created = add_stdio(owner_client)
    assert created.status_code == 201, created.content
    server = created.json()
    assert server["kind"] == "stdio" and server["env_names"] == ["API_TOKEN"] and server["tools"] == []
    assert ENV_SECRET not in McpServer.objects.get(pk=server["id"]).encrypted_env  # encrypted at rest
    checked = post(owner_client, f"{URL}/{server['id']}/check")
    assert checked.status_code == 200 and checked.json()["ok"] is True, checked.json()
    tools = {t["name"]: t["description"] for t in checked.json()["server"]["tools"]}
    assert tools["add_numbers"] == "Add two integers and answer their sum." and "crash" in tools
    listed = owner_client.get(URL)
    assert [s["name"] for s in listed.json()] == ["fixture"]
    assert ENV_SECRET not in listed.content.decode() and ENV_SECRET not in checked.content.decode()
    assert mcp_servers.entries_for(owner.pk)[0][0]["env"] == {"API_TOKEN": ENV_SECRET}  # what a run gets


def test_an_http_servers_headers_are_sent_but_never_shown_and_its_url_must_be_public(owner_client, settings):
    with http_server(TOKEN) as url:
        refused = post(owner_client, URL, {"name": "remote", "url": url, "headers": {"X-Token": TOKEN}})
        assert refused.status_code == 400
        assert "private or local address" in refused.json()["detail"] and "MCP_URLS_ALLOW_PRIVATE" in refused.json()["detail"]
        settings.MCP_URLS_ALLOW_PRIVATE = True  # the fixture listens on loopback
        created = post(owner_client, URL, {"name": "remote", "url": url, "headers": {"X-Token": TOKEN}})
        assert created.status_code == 201 and created.json()["header_names"] == ["X-Token"]
        checked = post(owner_client, f"{URL}/{created.json()['id']}/check")
        wrong = post(owner_client, URL, {"name": "wrong", "url": url, "headers": {"X-Token": "nope"}})
        failed = post(owner_client, f"{URL}/{wrong.json()['id']}/check")
    assert checked.json()["ok"] is True
    assert sorted(t["name"] for t in checked.json()["server"]["tools"]) == ["echo", "shout"]
    assert failed.json()["ok"] is False and failed.json()["error"].startswith("MCP server 'wrong' could not be reached")
    for answer in (created, checked, owner_client.get(URL)):
        assert TOKEN not in answer.content.decode()


def test_a_server_that_cannot_start_gets_a_clear_error_from_the_check(owner_client):
    created = add_stdio(owner_client, name="broken", args=[str(STDIO_SERVER), "--fail-at-start"])
    answer = post(owner_client, f"{URL}/{created.json()['id']}/check").json()
    assert answer["ok"] is False
    assert answer["error"] == "MCP server 'broken' could not start (exit code 2): no configuration found"
    assert answer["server"]["check_error"] == answer["error"] and answer["server"]["tools"] == []


def test_bad_entries_are_refused_in_words(owner_client, settings):
    settings.MCP_SERVERS = [{"name": "files", "command": "files-mcp"}]
    cases = [({"name": "has space", "command": "x"}, "name: 1 to 40 letters"),
             ({"name": "both", "command": "x", "url": "https://example.com/mcp"}, "exactly one of"),
             ({"name": "neither"}, "exactly one of"),
             ({"name": "ftp", "url": "ftp://example.com"}, "http:// or https://"),
             ({"name": "files", "command": "x"}, "the administrator provides")]
    for body, words in cases:
        answer = post(owner_client, URL, body)
        assert answer.status_code == 400 and words in answer.json()["detail"], (body, answer.content)
    assert add_stdio(owner_client).status_code == 201
    assert add_stdio(owner_client).status_code == 409


def test_a_stranger_cannot_see_check_or_delete_another_users_server(owner_client, stranger_client, owner):
    server = add_stdio(owner_client).json()
    assert stranger_client.get(URL).json() == []
    assert post(stranger_client, f"{URL}/{server['id']}/check").status_code == 404
    assert stranger_client.delete(f"{URL}/{server['id']}").status_code == 404
    assert McpServer.objects.filter(pk=server["id"]).exists()
    assert owner_client.delete(f"{URL}/{server['id']}").status_code == 204
    assert owner_client.get(URL).json() == []


def test_the_administrators_servers_are_listed_without_their_secrets(owner_client, settings):
    settings.MCP_SERVERS = [{"name": "files", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": TOKEN}}]
    answer = owner_client.get(URL)
    assert answer.json() == [{"name": "files", "kind": "http", "admin": True}]
    assert TOKEN not in answer.content.decode()


def test_the_tool_catalogue_names_the_users_checked_tools_with_the_prefix_rule(owner_client, owner, stranger):
    server = add_stdio(owner_client).json()
    post(owner_client, f"{URL}/{server['id']}/check")
    listed = tool_specs.catalogue(mcp_servers.tool_catalogue(owner))
    by_name = {t["name"]: t for t in listed}
    assert by_name["add_numbers"]["description"] == "Add two integers and answer their sum."
    assert by_name["add_numbers"]["mcp_server"] == "fixture"
    assert by_name["fixture__read"]["mcp_name"] == "read" and by_name["read"]["upstream"] is True
    assert "add_numbers" in tool_specs.known_names(mcp_servers.tool_catalogue(owner))
    assert mcp_servers.tool_catalogue(stranger) == []


def test_the_catalogue_lists_the_administrators_tools_first_and_keeps_a_users_server_of_that_name_out(
        owner_client, owner, settings):
    settings.MCP_SERVERS = [{"name": "admin-tools", "command": sys.executable, "args": [str(STDIO_SERVER)]}]
    listed = tool_specs.catalogue(mcp_servers.tool_catalogue(owner))
    mcp = [t for t in listed if t.get("mcp_server")]
    assert {t["mcp_server"] for t in mcp} == {"admin-tools"}
    assert {t["name"] for t in mcp} >= {"add_numbers", "echo", "admin-tools__read"}
    assert mcp_servers.tool_catalogue(None) == []  # nobody signed in starts the administrator's servers


DOCUMENT = {"name": "mcp", "description": "Uses an MCP tool.",
            "agents": {"helper": {"description": "helps", "tools": ["mine__add_numbers"]}},
            "steps": [{"id": "work", "agent": "helper", "instructions": "Add."}]}
SCRIPT = {"replies": {"work": [{"tool_calls": [{"name": "mine__add_numbers", "arguments": {"a": 20, "b": 22}}]},
                               "42"]}}


def test_a_run_gets_its_owners_servers_and_the_administrators_never_a_strangers(owner_client, owner, stranger,
                                                                               settings):
    settings.MCP_SERVERS = [{"name": "admin-tools", "command": sys.executable, "args": [str(STDIO_SERVER)]}]
    add_stdio(owner_client, name="mine")
    McpServer.objects.create(user=stranger, name="theirs", kind="stdio", command=sys.executable,
                             args=[str(STDIO_SERVER)])
    workflow = workflows.create(owner, source=None, document=DOCUMENT)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow,
                             version=workflow.versions.get(), provider="simulated")
    tools = run_files.build_run_tools(run, DOCUMENT)
    assert [(s.name, s.owner) for s in tools.mcp_servers] == [("admin-tools", "admin"), ("mine", "user")]
    assert tools.mcp_servers[1].env == {"API_TOKEN": ENV_SECRET}

    async def go():
        notices = await tools.open()  # as the engine does when the run starts
        try:
            sink = ListSink()
            result = await run_workflow(DOCUMENT, RunOptions(run_id=str(run.pk), sink=sink, script=SCRIPT, tools=tools))
        finally:
            await tools.close()
        return notices, result, sink

    notices, result, sink = async_to_sync(go)()
    assert result.status == "completed", result.reason
    # Both servers have the same tools: every one is offered under its server's prefix, and the run says so.
    assert any("offered as 'admin-tools__add_numbers'" in n for n in notices)
    assert any("offered as 'mine__add_numbers'" in n for n in notices)
    assert not any("theirs" in n for n in notices)
    ends = [e for e in sink.events if e["type"] == "tool_call" and e["data"]["phase"] == "end"]
    assert [(e["data"]["tool_name"], e["data"]["output"]) for e in ends] == [("mine__add_numbers", "42")]
    assert ENV_SECRET not in repr(sink.events) and ENV_SECRET not in repr(notices)


def test_validation_knows_the_signed_in_users_checked_mcp_tools(owner_client, stranger_client):
    server = add_stdio(owner_client).json()
    assert post(owner_client, f"{URL}/{server['id']}/check").json()["ok"] is True
    source = ("name: t\nagents:\n  a:\n    description: Adds.\n    tools: [add_numbers]\nsteps:\n"
              "  - id: s\n    agent: a\n    instructions: Add.\n")
    mine = post(owner_client, "/api/v1/validate", {"source": source}).json()
    assert [w["code"] for w in mine["warnings"]] == [] and mine["runnable"] is True
    # Someone without that server: the name is unknown to them, and keeps the workflow from running.
    theirs = post(stranger_client, "/api/v1/validate", {"source": source}).json()
    assert [w["code"] for w in theirs["warnings"]] == ["unknown_tool"] and theirs["runnable"] is False
    saved = post(owner_client, "/api/v1/workflows", {"source": source}).json()
    assert saved["warnings"] == [] and saved["runnable"] is True
