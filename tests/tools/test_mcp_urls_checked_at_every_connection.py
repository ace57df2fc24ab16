"""A user's MCP server URL reaches public addresses at every connection, not only when first checked.

A name that resolves to a public address when checked and to loopback when connected (DNS rebinding) reaches
nothing on loopback. ``socket.getaddrinfo`` is patched in this process as the stand-in for DNS; 127.0.0.2 (or
127.0.0.1 where the real fixture server must be reached) stands in for a public address by patching the one
rule every check goes through, ``common.addresses.is_public``.
"""
import socket

import pytest

import common.addresses
from runtime.tools.mcp import ServerConfig
from runtime.tools.mcp.client import Connection, McpUnavailable
from tests.fakes import FakeServer, Request, Response
from tests.fixtures.mcp.servers import http_server

TOKEN = "rebind-token-31337"
STAND_IN = "127.0.0.2"


class Internal(FakeServer):
    """A loopback service that must never be reached."""

    def respond(self, request: Request, reply: dict) -> Response:
        return Response(status=500, body=b"internal")


@pytest.fixture
def internal():
    with Internal() as server:
        yield server


def treat_as_public(monkeypatch, address: str) -> None:
    real = common.addresses.is_public
    monkeypatch.setattr(common.addresses, "is_public", lambda ip: ip == address or real(ip))


class Dns:
    """``name`` resolves to the next of ``answers`` at each lookup (the last one from then on)."""

    def __init__(self) -> None:
        self.name = "mcp.test"
        self.answers: list[str] = []
        self.lookups: list[str] = []

    def answer(self) -> str:
        ip = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        self.lookups.append(ip)
        return ip


@pytest.fixture
def dns(monkeypatch):
    names = Dns()
    real = socket.getaddrinfo

    def lookup(host, port, *args, **kwargs):
        if host in (names.name, names.name.encode()):
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (names.answer(), port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    return names


def users_server(url: str) -> ServerConfig:
    return ServerConfig("theirs", "http", url=url, headers={"X-Token": TOKEN}, owner="user")


async def refusal(connection: Connection) -> str:
    try:
        with pytest.raises(McpUnavailable) as err:
            await connection.start(15)
    finally:
        await connection.close()
    return str(err.value)


async def test_a_name_that_turns_to_loopback_after_its_check_reaches_nothing_on_loopback(monkeypatch, dns, internal):
    treat_as_public(monkeypatch, STAND_IN)
    dns.answers.extend([STAND_IN, "127.0.0.1"])  # public when checked, loopback from the next lookup on
    text = await refusal(Connection(users_server(f"http://mcp.test:{internal.port}/mcp")))
    assert internal.requests == [] and internal.connections == 0
    assert text == ("MCP server 'theirs': mcp.test resolves to 127.0.0.1, a private or local address; "
                    "only public addresses are allowed")
    assert dns.lookups[0] == STAND_IN and "127.0.0.1" in dns.lookups[1:]


async def test_a_users_server_is_not_reached_through_the_environments_proxy(monkeypatch, dns, internal):
    """A proxy would look the name up itself, unchecked: a user's URL never goes through one."""
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", internal.url)
    treat_as_public(monkeypatch, STAND_IN)
    dns.answers.append(STAND_IN)  # nothing listens there: the connection fails, directly
    text = await refusal(Connection(users_server("http://mcp.test:9/mcp")))
    assert internal.connections == 0
    assert text.startswith("MCP server 'theirs' could not be reached")


async def test_a_users_server_whose_name_resolves_to_a_public_address_is_reached_by_that_name(monkeypatch, dns):
    """A control: the checked connection works end to end, by name (the Host header names it).
    The fixture server listens on 127.0.0.1 only and, like every SDK server, answers only to a Host of
    localhost or 127.0.0.1: so ``localhost`` is the name, resolved by the stand-in, and 127.0.0.1 stands in for
    a public address."""
    treat_as_public(monkeypatch, "127.0.0.1")
    dns.name = "localhost"
    dns.answers.append("127.0.0.1")
    with http_server(TOKEN) as url:
        connection = Connection(users_server(url.replace("127.0.0.1", "localhost")))
        try:
            tools = await connection.start(30)
            result = await connection.call("shout", {"text": "hello"})
        finally:
            await connection.close()
    assert "shout" in [tool.name for tool in tools] and result.output == "HELLO"
    assert len(dns.lookups) >= 2  # the check, then the connection's own lookup
