"""The account page's MCP servers section: a server is added, checked for real (the fixture stdio server in the
sandbox), listed without its secrets, deleted; bad input comes back beside its field; a stranger cannot touch it."""
from __future__ import annotations

import sys

import pytest

from accounts.models import McpServer
from tests.fixtures.mcp.servers import SANDBOX_PATHS, STDIO_SERVER

pytestmark = pytest.mark.django_db(transaction=True)

ENV_SECRET = "env-secret-value-0091"
HEADER_SECRET = "header-secret-value-0092"


@pytest.fixture(autouse=True)
def mcp_settings(settings):
    settings.MCP_SANDBOX_PATHS = list(SANDBOX_PATHS)
    settings.MCP_URLS_ALLOW_PRIVATE = False
    settings.MCP_SERVERS = []
    return settings


def add_stdio(client, name="fixture", **extra):
    return client.post("/account/", {"action": "add_mcp_stdio", "name": name, "command": sys.executable,
                                     "args": f"{STDIO_SERVER}\n", "env": f"API_TOKEN={ENV_SECRET}\n", **extra})


def test_a_stdio_server_is_added_and_listed_with_its_environments_names_only(owner_client, owner):
    answer = add_stdio(owner_client)
    assert answer.status_code == 302 and answer.url == "/account/#mcp-servers"
    server = McpServer.objects.get(user=owner)
    assert server.args == [str(STDIO_SERVER)] and server.secret_names == ["API_TOKEN"]
    page = owner_client.get("/account/").content.decode()
    assert 'data-testid="mcp-server-fixture"' in page and str(STDIO_SERVER) in page
    assert "Environment: API_TOKEN (values hidden)" in page and "Not checked yet" in page
    assert ENV_SECRET not in page


def test_check_lists_the_servers_tools_with_their_descriptions(owner_client, owner):
    add_stdio(owner_client)
    server = McpServer.objects.get(user=owner)
    answer = owner_client.post("/account/", {"action": "check_mcp", "server_id": server.pk})
    page = answer.content.decode()
    assert answer.status_code == 200
    server.refresh_from_db()
    names = [t["name"] for t in server.tools]
    assert f"fixture: found {len(names)} tools: {', '.join(names)}" in page
    assert "<code>add_numbers</code> — Add two integers and answer their sum." in page
    assert ENV_SECRET not in page


def test_a_failed_check_says_why_in_words(owner_client, owner):
    add_stdio(owner_client, name="broken", args=f"{STDIO_SERVER}\n--fail-at-start")
    server = McpServer.objects.get(user=owner)
    page = owner_client.post("/account/", {"action": "check_mcp", "server_id": server.pk}).content.decode()
    assert "broken: MCP server &#x27;broken&#x27; could not start (exit code 2): no configuration found" in page
    assert "Last check failed: MCP server &#x27;broken&#x27; could not start" in page


def test_a_server_is_deleted(owner_client, owner):
    add_stdio(owner_client)
    server = McpServer.objects.get(user=owner)
    answer = owner_client.post("/account/", {"action": "delete_mcp", "server_id": server.pk})
    assert answer.status_code == 302 and not McpServer.objects.filter(pk=server.pk).exists()
    assert "No MCP servers yet." in owner_client.get("/account/").content.decode()


def test_a_stranger_cannot_check_or_delete_another_users_server(owner_client, stranger_client, owner):
    add_stdio(owner_client)
    server = McpServer.objects.get(user=owner)
    for action in ("delete_mcp", "check_mcp"):
        answer = stranger_client.post("/account/", {"action": action, "server_id": server.pk})
        assert answer.status_code == 404
        assert f"no MCP server {server.pk} of yours" in answer.content.decode()
    assert McpServer.objects.filter(pk=server.pk).exists()
    assert "fixture" not in stranger_client.get("/account/").content.decode()


def test_an_http_servers_header_values_never_appear_in_the_page(owner_client, owner, settings):
    settings.MCP_URLS_ALLOW_PRIVATE = True  # nothing listens there: adding does not connect
    answer = owner_client.post("/account/", {"action": "add_mcp_http", "name": "remote", "url": "http://127.0.0.1:9/mcp",
                                             "headers": f"Authorization: Bearer {HEADER_SECRET}\nX-Team: {HEADER_SECRET}"})
    assert answer.status_code == 302
    server = McpServer.objects.get(user=owner)
    assert HEADER_SECRET not in server.encrypted_headers
    check = owner_client.post("/account/", {"action": "check_mcp", "server_id": server.pk})
    for page in (owner_client.get("/account/").content.decode(), check.content.decode()):
        assert "Headers: Authorization, X-Team (values hidden)" in page and "http://127.0.0.1:9/mcp" in page
        assert HEADER_SECRET not in page
    assert "remote: MCP server &#x27;remote&#x27; could not be reached" in check.content.decode()


def test_bad_input_comes_back_beside_its_field_keeping_what_was_typed_but_not_the_secrets(owner_client, owner):
    answer = owner_client.post("/account/", {"action": "add_mcp_http", "name": "remote",
                                             "url": "http://127.0.0.1:9/mcp", "headers": f"X-Token: {HEADER_SECRET}"})
    page = answer.content.decode()
    assert answer.status_code == 400 and not McpServer.objects.exists()
    assert 'value="http://127.0.0.1:9/mcp"' in page and 'id="mcp-http-name" name="name" maxlength="40" required value="remote"' in page
    assert "private or local address" in page and "MCP_URLS_ALLOW_PRIVATE" in page
    assert HEADER_SECRET not in page

    answer = add_stdio(owner_client, name="has space", env=f"API_TOKEN={ENV_SECRET}\nnot a pair")
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "line 2: write one NAME=value per line" in page and ENV_SECRET not in page
    answer = add_stdio(owner_client, name="has space")
    assert "1 to 40 letters, digits" in answer.content.decode()
    assert add_stdio(owner_client).status_code == 302
    duplicate = add_stdio(owner_client).content.decode()
    assert "you already have an MCP server named &#x27;fixture&#x27;" in duplicate


def test_the_administrators_servers_are_listed_read_only(owner_client, settings):
    settings.MCP_SERVERS = [{"name": "files", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": HEADER_SECRET}}]
    page = owner_client.get("/account/").content.decode()
    assert 'data-testid="mcp-server-files"' in page and "provided by the administrator" in page
    assert "mcp-delete-files" not in page and HEADER_SECRET not in page
    assert "mcp.example.com/mcp</code>" not in page  # the URL is the administrator's to know
