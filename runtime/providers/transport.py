"""The HTTP transport of the provider calls: aiohttp, one session per provider.

aiohttp keeps a keep-alive pool sized for a forEach fan-out (a hundred parallel
streams against a local vLLM or Ollama cost about the server's own latency),
speaks TLS, chunked bodies and proxies (``HTTPS_PROXY`` / ``HTTP_PROXY`` from
the environment, looked up once per provider), and reads a streamed answer line
by line. No redirect is followed: a 3xx answer is handed to the provider, which
fails the call naming where it pointed (the base URL must be the final address).

A user-chosen base URL may reach public addresses only (see
:mod:`common.addresses`). Directly, the connector checks every address it is
about to connect to, with the DNS cache off: a name's addresses as resolved at
that moment (a name that later resolves elsewhere, DNS rebinding, is refused)
and an address literal, which aiohttp never hands to a resolver. Behind a proxy
(the administrator's, trusted) the proxy connects: the host is resolved and
checked here before each request, and the request names the checked address
(``CONNECT 203.0.113.7:443``, TLS still verifying the host's name), so the
proxy's own lookup never decides where it goes. For plain ``http://`` through a
proxy the server then sees the address, not the name, as the request's host.
"""
from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.tracing import Trace
from yarl import URL

from common.addresses import AddressRefused, check_address, public_addresses
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
            check_address(host, entry["host"])
        if not found:
            raise AddressRefused(f"{host} does not resolve")
        return found

    async def close(self) -> None:
        await self._system.close()


class PublicConnector(aiohttp.TCPConnector):
    """A connector that connects to public addresses only, however the host is written.

    aiohttp connects to an address literal (``127.0.0.1``, ``[::1]``) without asking the resolver, so the
    check sits where every connection's addresses come from, names and literals alike."""

    def __init__(self, *, limit: int, limit_per_host: int) -> None:
        super().__init__(limit=limit, limit_per_host=limit_per_host, resolver=PublicResolver(), use_dns_cache=False)

    async def _resolve_host(self, host: str, port: int, traces: Sequence[Trace] | None = None) -> list[ResolveResult]:
        found = await super()._resolve_host(host, port, traces=traces)
        if not found:
            raise AddressRefused(f"{host} does not resolve")
        for entry in found:
            check_address(host, entry["host"])
        return found


class Response:
    """The part of a response the providers read: status, headers, the whole body or its lines."""

    def __init__(self, raw: aiohttp.ClientResponse) -> None:
        self.status = raw.status
        self.reason = raw.reason or ""
        self.headers = raw.headers
        self._raw = raw

    async def aread(self) -> bytes:
        return await self._raw.read()

    async def chunks(self) -> AsyncIterator[bytes]:
        """The answer's bytes as they arrive (a binary stream)."""
        async for chunk in self._raw.content.iter_any():
            yield chunk

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
    def __init__(self, base_url: str, *, max_connections: int, timeout: float, public_only: bool) -> None:
        self.base_url = base_url.rstrip("/")
        self.max_connections = max_connections
        self.timeout = timeout
        self.public_only = public_only
        self._session: aiohttp.ClientSession | None = None
        self.proxy = _env_proxy(self.base_url)

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            eager_writes.install()  # a request leaves when made, not a loop pass later (Python 3.11)
            connector: aiohttp.TCPConnector
            if self.public_only and not self.proxy:
                connector = PublicConnector(limit=self.max_connections, limit_per_host=self.max_connections)
            else:  # trusted, or through the proxy: the only address connected to is the proxy's
                connector = aiohttp.TCPConnector(limit=self.max_connections, limit_per_host=self.max_connections)
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
        target: str | URL = URL(url, encoded=True)  # as quoted by the provider: yarl would decode %3A in a path
        headers = {"content-type": "application/json", **headers}
        server_hostname = None
        if self.public_only and self.proxy:
            target, headers["Host"], server_hostname = await _pinned(url)
        try:
            async with session.post(target, data=body, headers=headers, proxy=self.proxy, allow_redirects=False,
                                    server_hostname=server_hostname) as raw:
                yield Response(raw)
        except AddressRefused:
            raise
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise TransportError(why(exc, urlsplit(url).netloc)) from None

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


async def _pinned(url: str) -> tuple[URL, str, str | None]:
    """For a request through a proxy: the URL with its host replaced by a checked public address of it, the
    Host header naming the host, and the name TLS verifies (None for plain HTTP)."""
    parsed = URL(url)
    host = parsed.raw_host or ""
    addresses = await public_addresses(host, parsed.port or 0)
    tls_name = host if parsed.scheme == "https" else None
    return parsed.with_host(addresses[0]), parsed.host_port_subcomponent or host, tls_name


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
