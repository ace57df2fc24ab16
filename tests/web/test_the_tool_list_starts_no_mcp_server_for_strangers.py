"""GET /tools starts none of the administrator's MCP servers for someone not signed in (they get the built-in
tools only), and for people signed in the servers' tools come from a cache that one request at a time fills:
requests arriving together while it is empty start the server once, and an old list is served as it is while
it is listed anew off the request."""
from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from accounts import mcp_servers
from tests.fixtures.mcp.servers import SANDBOX_PATHS, STDIO_SERVER

pytestmark = pytest.mark.django_db(transaction=True)

BUILT_IN = ["bash", "read", "write", "glob", "grep", "send_message", "shared_memory_write", "shared_memory_read", "edit"]
DEADLINE_S = 60


@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "started.txt"


@pytest.fixture
def admin_stdio(settings, marker, tmp_path) -> dict:
    """An administrator's stdio server that writes a line to ``marker`` each time it is started."""
    settings.AGENT_SANDBOX = "off"  # so the marker is written where the test reads it
    settings.MCP_SANDBOX_PATHS = list(SANDBOX_PATHS)
    settings.MCP_START_TIMEOUT = 30
    settings.WORKSPACES_DIR = tmp_path / "workspaces"
    server = {"name": "admin-tools", "command": "bash",
              "args": ["-c", f"echo started >> {marker}; {sys.executable} {STDIO_SERVER}"]}
    settings.MCP_SERVERS = [server]
    yield server
    cache.delete(mcp_servers._admin_key(server))


def starts(marker: Path) -> int:
    return len(marker.read_text().splitlines()) if marker.exists() else 0


def mcp_names(answer) -> set[str]:
    assert answer.status_code == 200, answer.content[:300]
    return {t["name"] for t in answer.json() if t.get("mcp_server")}


def test_an_anonymous_tool_list_starts_no_process_connects_nowhere_and_names_the_built_in_tools(
        settings, admin_stdio, marker):
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    settings.MCP_SERVERS = [admin_stdio, {"name": "admin-remote", "url": url}]
    try:
        answers = [Client().get("/api/v1/tools") for _ in range(3)]
        for answer in answers:
            assert answer.status_code == 200
            assert [t["name"] for t in answer.json()] == BUILT_IN
        assert starts(marker) == 0
        with pytest.raises(BlockingIOError):  # nothing ever knocked
            listener.accept()
    finally:
        listener.close()


def test_signed_in_requests_arriving_together_start_the_administrators_server_once(admin_stdio, marker, owner):
    answers: list = []

    def ask() -> None:
        client = Client()
        client.force_login(owner)
        try:
            answers.append(client.get("/api/v1/tools"))
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE_S)
    assert not any(t.is_alive() for t in threads)
    assert len(answers) == 4
    for answer in answers:  # the ones that waited got the first one's list
        assert {"add_numbers", "echo", "admin-tools__read"} <= mcp_names(answer)
    assert starts(marker) == 1
    client = Client()
    client.force_login(owner)
    assert "add_numbers" in mcp_names(client.get("/api/v1/tools"))
    assert starts(marker) == 1  # from the cache


def test_an_old_list_is_served_at_once_while_one_new_listing_runs_off_the_request(admin_stdio, marker, owner):
    key = mcp_servers._admin_key(admin_stdio)
    cache.set(key, {"tools": [{"name": "old_tool", "description": "from before"}], "until": time.time() - 1}, 600)
    client = Client()
    client.force_login(owner)
    first, second = client.get("/api/v1/tools"), client.get("/api/v1/tools")
    assert mcp_names(first) == {"old_tool"} and mcp_names(second) == {"old_tool"}
    deadline = time.monotonic() + DEADLINE_S
    while "add_numbers" not in mcp_names(client.get("/api/v1/tools")):
        assert time.monotonic() < deadline, "the list was not made anew"
        time.sleep(0.1)
    assert starts(marker) == 1
