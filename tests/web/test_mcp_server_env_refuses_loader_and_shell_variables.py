"""A stdio MCP server's environment takes variable names only, and none that makes the loader or the shell starting
the server run code or load files of the value's choosing (LD_PRELOAD, GCONV_PATH, BASH_ENV, ...): refused when
added, over the API and on the account page, naming the variable. Variables a language reads (PYTHONPATH,
NODE_OPTIONS) are the server's own business, inside the sandbox, and are kept."""
from __future__ import annotations

import json
import sys

import pytest

from accounts import mcp_servers
from accounts.models import McpServer
from tests.fixtures.mcp.servers import STDIO_SERVER

pytestmark = pytest.mark.django_db

URL = "/api/v1/account/mcp-servers"
DENIED = ["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH", "GLIBC_TUNABLES", "MALLOC_CHECK_",
          "MALLOC_ARENA_MAX", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "NLSPATH", "LOCPATH"]
NOT_NAMES = ["1ABC", "MY-VAR", "A B", "A=B", "BASH_FUNC_x%%", "ÄRGER", "a.b"]


@pytest.fixture(autouse=True)
def no_admin_servers(settings):
    settings.MCP_SERVERS = []


def add(client, env: dict, name: str = "fixture"):
    return client.post(URL, content_type="application/json",
                       data=json.dumps({"name": name, "command": sys.executable, "args": [str(STDIO_SERVER)],
                                        "env": env}))


@pytest.mark.parametrize("variable", DENIED)
def test_the_api_refuses_a_variable_that_runs_code_before_the_server_naming_it(owner_client, variable):
    answer = add(owner_client, {"API_TOKEN": "fine", variable: "/workspaces/run/evil.so"})
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"] == (f"env: '{variable}' is not allowed: it makes the loader or the shell that "
                                       "start the server run code or load files of its choosing")
    assert not McpServer.objects.exists()


@pytest.mark.parametrize("variable", NOT_NAMES)
def test_the_api_refuses_a_name_that_is_not_a_variable_name_naming_it(owner_client, variable):
    answer = add(owner_client, {variable: "x"})
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"].startswith(f"env: {variable!r} is not a variable name")
    assert not McpServer.objects.exists()


def test_ordinary_and_language_variables_are_kept(owner_client, owner):
    env = {"API_TOKEN": "t", "PYTHONPATH": "/srv/lib", "NODE_OPTIONS": "--max-old-space-size=256", "_X1": "y",
           "LDAP_URI": "ldaps://example.com", "ENVIRONMENT": "prod", "MY_LD_PRELOAD_NOTE": "not the loader's"}
    answer = add(owner_client, env)
    assert answer.status_code == 201, answer.content
    assert answer.json()["env_names"] == sorted(env)
    assert mcp_servers.entries_for(owner.pk)[0][0]["env"] == env


def test_the_account_page_refuses_them_beside_the_environment_field_with_the_line(owner_client):
    page = owner_client.post("/account/", {"action": "add_mcp_stdio", "name": "fixture", "command": sys.executable,
                                           "args": f"{STDIO_SERVER}\n",
                                           "env": "API_TOKEN=fine\nLD_PRELOAD=/tmp/evil.so\n"})
    text = page.content.decode()
    assert page.status_code == 400 and not McpServer.objects.exists()
    assert "line 2: &#x27;LD_PRELOAD&#x27; is not allowed: it makes the loader or the shell" in text
    page = owner_client.post("/account/", {"action": "add_mcp_stdio", "name": "fixture", "command": sys.executable,
                                           "args": f"{STDIO_SERVER}\n", "env": "BASH_ENV=/tmp/x.sh\n"})
    assert "line 1: &#x27;BASH_ENV&#x27; is not allowed" in page.content.decode()
    assert not McpServer.objects.exists()
