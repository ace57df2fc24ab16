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


# IPv6 prefixes whose last 32 bits are an IPv4 address a gateway or the kernel may reach: NAT64 (RFC 6052 and
# the local-use RFC 8215 prefix) and the deprecated IPv4-compatible ::/96 (``::127.0.0.1``).
_EMBEDDING_V4 = tuple(ipaddress.IPv6Network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48", "::/96"))


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address an IPv6 one carries: mapped, compatible, NAT64, 6to4 and both ends of Teredo."""
    found = [a for a in (address.ipv4_mapped, address.sixtofour) if a is not None]
    if address.teredo is not None:
        found += list(address.teredo)
    if any(address in network for network in _EMBEDDING_V4):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def is_public(ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded:
            # Public only when every IPv4 address inside is: a 6to4 or NAT64 form of 127.0.0.1 is 127.0.0.1.
            return all(a.is_global and not a.is_multicast for a in embedded)
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
