"""The HTTP transport of the provider calls: aiohttp, one session per provider.

aiohttp keeps a keep-alive pool sized for a forEach fan-out (a hundred parallel
streams against a local vLLM or Ollama cost about the server's own latency),
speaks TLS, chunked bodies and proxies (``HTTPS_PROXY`` / ``HTTP_PROXY`` from
the environment, looked up once per provider), and reads a streamed answer line
by line.

A user-chosen base URL may reach public addresses only (see
:mod:`common.addresses`). The check happens in the resolver, with
the DNS cache off, so every new connection goes to an address that was checked
at that moment: a name that later resolves elsewhere (DNS rebinding) is refused.
Behind a proxy the proxy connects, so the host is checked before each request.
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from common.addresses import AddressRefused, is_public, public_addresses
from runtime.providers import eager_writes

# A streamed line can carry a whole tool call's arguments; aiohttp's default buffer (64 KiB) is too small.
READ_BUFFER = 2 ** 20


class TransportError(Exception):
    """The connection failed (refused, reset, closed early, timed out): in words, never a class name."""


class PublicResolver(AbstractResolver):
    """Resolves like the system does, then refuses any private or local address."""

    def __init__(self) -> None:
        self._system = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            found = await self._system.resolve(host, port, family)
        except OSError:
            raise AddressRefused(f"{host} does not resolve") from None
        for entry in found:
            if not is_public(entry["host"]):
                raise AddressRefused(f"{host} resolves to {entry['host']}, a private or local address")
        if not found:
            raise AddressRefused(f"{host} does not resolve")
        return found

    async def close(self) -> None:
        await self._system.close()


class Response:
    """The part of a response the providers read: status, headers, the whole body or its lines."""

    def __init__(self, raw: aiohttp.ClientResponse):
        self.status = raw.status
        self.reason = raw.reason or ""
        self.headers = raw.headers
        self._raw = raw

    async def aread(self) -> bytes:
        return await self._raw.read()

    async def line_batches(self) -> AsyncIterator[list[str]]:
        """The streamed answer's lines, a batch per arrival of bytes.

        Split here, not by aiohttp's line iterator: that costs an await and a buffer scan per line, and
        with a hundred parallel streams the per-line awaits were most of the client's CPU."""
        pending = b""
        async for chunk in self._raw.content.iter_any():
            pending += chunk
            if b"\n" not in chunk:
                continue
            *lines, pending = pending.split(b"\n")
            yield [line.decode("utf-8", "replace").rstrip("\r") for line in lines]
        if pending:
            yield [pending.decode("utf-8", "replace").rstrip("\r")]


class Transport:
    def __init__(self, base_url: str, *, max_connections: int, timeout: float, public_only: bool):
        self.base_url = base_url.rstrip("/")
        self.max_connections = max_connections
        self.timeout = timeout
        self.public_only = public_only
        self._session: aiohttp.ClientSession | None = None
        self.proxy = _env_proxy(self.base_url)

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            eager_writes.install()  # a request leaves when made, not a loop pass later (Python 3.11)
            connector = aiohttp.TCPConnector(
                limit=self.max_connections, limit_per_host=self.max_connections,
                resolver=PublicResolver() if self.public_only else None,
                use_dns_cache=not self.public_only)
            # trust_env would read the proxy variables and ~/.netrc at every request (about 0.4 ms each):
            # the proxy is looked up once instead.
            self._session = aiohttp.ClientSession(
                connector=connector, trust_env=False, read_bufsize=READ_BUFFER,
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30.0, sock_read=self.timeout))
        return self._session

    @asynccontextmanager
    async def post(self, path: str, headers: dict, body: bytes) -> AsyncIterator[Response]:
        session = self._open()
        url = f"{self.base_url}{path}"
        if self.public_only and (self.proxy or _is_address(urlsplit(url).hostname or "")):
            # The resolver never sees an address literal, nor a host a proxy connects to: check them here.
            parts = urlsplit(url)
            await public_addresses(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
        try:
            async with session.post(url, data=body, headers={"content-type": "application/json", **headers},
                                    proxy=self.proxy) as raw:
                yield Response(raw)
        except AddressRefused:
            raise
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise TransportError(why(exc, urlsplit(url).netloc)) from None

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _env_proxy(url: str) -> str | None:
    """The proxy ``HTTPS_PROXY`` / ``HTTP_PROXY`` name for this URL (``NO_PROXY`` honoured), if any."""
    try:
        proxy, _auth = aiohttp.helpers.get_env_proxy_for_url(URL(url))
    except LookupError:
        return None
    return str(proxy)


def why(exc: BaseException, host: str) -> str:
    """A connection failure in words (never a bare class name such as gaierror)."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"cannot connect to {host}: its name could not be resolved (DNS)"
    if isinstance(exc, aiohttp.ClientConnectorError):
        cause = exc.os_error
        if isinstance(cause, ConnectionRefusedError):
            return f"cannot connect to {host}: the connection was refused"
        if isinstance(cause, socket.gaierror):
            return f"cannot connect to {host}: its name could not be resolved (DNS)"
        return f"cannot connect to {host}: {cause.strerror or cause}" if isinstance(cause, OSError) else f"cannot connect to {host}"
    if isinstance(exc, (asyncio.TimeoutError, aiohttp.ServerTimeoutError)):
        return f"{host} did not answer in time"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return f"{host} closed the connection"
    if isinstance(exc, aiohttp.ClientPayloadError):
        return f"the answer from {host} broke off"
    if isinstance(exc, ConnectionResetError):
        return f"the connection to {host} was reset"
    return f"connection to {host} failed: {exc or exc.__class__.__name__}"
