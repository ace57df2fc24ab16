"""Which network addresses a provider URL chosen by a user may reach.

A user can point their runs at any OpenAI- or Anthropic-compatible server. Left
open, that lets anyone with an account make the server call its own network
(loopback services, the cloud metadata endpoint, private hosts) and read the
answers in run errors. Unless an administrator allows private addresses, such a
URL may only reach public ones, checked when it is saved and again at every
connection (a name can resolve elsewhere later): the provider transport
(``runtime/providers/transport.py``) and the MCP client (``runtime/tools/mcp/client.py``)
check each address they connect to, address literals included, and follow no
redirect.

Every check goes through :func:`is_public`, so a test can stand in a loopback
address for a public one by patching that one function.
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit


class AddressRefused(Exception):
    """The host resolves to an address this URL may not reach."""


def is_public(ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def check_address(host: str, ip: str) -> None:
    """Raises AddressRefused unless ``ip`` (an address ``host`` resolved to, or ``host`` itself) is public."""
    if not is_public(ip):
        raise AddressRefused(f"{host} resolves to {ip}, a private or local address")


def _checked(host: str, infos: list) -> list[str]:
    ips = list(dict.fromkeys(info[4][0] for info in infos))
    for ip in ips:
        check_address(host, ip)
    if not ips:
        raise AddressRefused(f"{host} does not resolve")
    return ips


async def public_addresses(host: str, port: int) -> list[str]:
    """The host's addresses, all public, or AddressRefused."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise AddressRefused(f"{host} does not resolve") from None
    return _checked(host, infos)


def check_public_url(url: str) -> None:
    """Raises AddressRefused unless every address of the URL's host is public."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        infos = socket.getaddrinfo(host, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise AddressRefused(f"{host or url} does not resolve") from None
    _checked(host, infos)
