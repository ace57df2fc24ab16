"""A lean HTTP/1.1 client for provider calls: keep-alive pool, TLS, chunked streams.

Why not httpx everywhere: at a hundred parallel streams its per-request cost
and pool bookkeeping dominate (milliseconds per call), while a forEach fan-out
against a fast local server (vLLM, llama.cpp, Ollama) should cost about the
server's latency. This client does only what the chat APIs need: ``POST`` a
JSON body, read the status and headers, then stream the body line by line
(``Content-Length``, chunked, or until close). A connection that was idle and
turns out closed is retried once on a fresh one before anything was read.
Proxies are not supported: with ``HTTPS_PROXY``/``HTTP_PROXY`` set, or
``transport="httpx"``, the providers use httpx instead.
"""
from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from runtime.providers.failures import why_unreachable
from runtime.providers.addresses import public_addresses


class WireError(Exception):
    """The connection failed (refused, reset, closed early, timed out)."""


@dataclass
class _Conn:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    def close(self) -> None:
        try:
            self.writer.close()
        except Exception:  # already gone
            pass


@dataclass
class WireResponse:
    status: int
    reason: str
    headers: dict[str, str]
    _conn: _Conn
    _pending: bytes = b""
    done: bool = False
    _chunked: bool = field(init=False, default=False)
    _left: int | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        if not self._chunked and "content-length" in self.headers:
            self._left = int(self.headers["content-length"])
        if self._left == 0:
            self.done = True

    @property
    def reusable(self) -> bool:
        framed = self._chunked or self._left is not None  # a body read to close cannot be reused
        return self.done and framed and self.headers.get("connection", "").lower() != "close"

    async def _pieces(self):
        reader = self._conn.reader
        if self._chunked:
            while True:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                        pass
                    self.done = True
                    return
                data = await reader.readexactly(size + 2)
                yield data[:-2]
        elif self._left is not None:
            while self._left > 0:
                data = await reader.read(min(self._left, 65536))
                if not data:
                    raise asyncio.IncompleteReadError(b"", self._left)
                self._left -= len(data)
                yield data
            self.done = True
        else:
            while True:
                data = await reader.read(65536)
                if not data:
                    self.done = True
                    return
                yield data

    async def aread(self) -> bytes:
        return b"".join([piece async for piece in self._pieces()])

    async def aiter_lines(self):
        buffer = b""
        async for piece in self._pieces():
            buffer += piece
            if b"\n" in buffer:
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    yield line.rstrip(b"\r").decode("utf-8", "replace")
        if buffer:
            yield buffer.rstrip(b"\r").decode("utf-8", "replace")


class WirePool:
    """Keep-alive connections to one origin, at most ``max_connections`` in use."""

    def __init__(self, base_url: str, *, max_connections: int = 100, timeout: float = 600.0,
                 connect_timeout: float = 30.0, public_only: bool = False):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https"):
            raise ValueError(f"unsupported URL scheme in {base_url!r}")
        self.https = parts.scheme == "https"
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (443 if self.https else 80)
        self.prefix = parts.path.rstrip("/")
        default_port = (self.https and self.port == 443) or (not self.https and self.port == 80)
        self.host_header = self.host if default_port else f"{self.host}:{self.port}"
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.public_only = public_only
        self._slots = asyncio.Semaphore(max_connections)
        self._idle: list[_Conn] = []
        self._ssl = ssl.create_default_context() if self.https else None

    async def _connect(self) -> _Conn:
        """A new connection; with ``public_only``, to an address checked as public (AddressRefused if not)."""
        try:
            async with asyncio.timeout(self.connect_timeout):
                # Connect to the address that was checked, not to the name again.
                target = (await public_addresses(self.host, self.port))[0] if self.public_only else self.host
                reader, writer = await asyncio.open_connection(
                    target, self.port, ssl=self._ssl, server_hostname=self.host if self.https else None,
                    limit=2 ** 20)
        except (OSError, TimeoutError) as exc:
            raise WireError(f"cannot connect to {self.host_header}: {why_unreachable(exc)}") from None
        return _Conn(reader, writer)

    async def _head(self, conn: _Conn, data: bytes) -> tuple[int, str, dict[str, str]]:
        conn.writer.write(data)
        await conn.writer.drain()
        head = await conn.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        _, status, *reason = lines[0].split(" ", 2)
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                key, value = line.split(":", 1)
                headers[key.strip().lower()] = value.strip()
        return int(status), (reason[0] if reason else ""), headers

    def stream(self, path: str, headers: dict[str, str], body: bytes) -> "_Exchange":
        return _Exchange(self, path, headers, body)

    async def aclose(self) -> None:
        while self._idle:
            self._idle.pop().close()


class _Exchange:
    """``async with pool.stream(...) as response``: one request on a pooled connection."""

    def __init__(self, pool: WirePool, path: str, headers: dict[str, str], body: bytes):
        self.pool, self.path, self.headers, self.body = pool, path, headers, body
        self.response: WireResponse | None = None
        self._timeout = None

    async def __aenter__(self) -> WireResponse:
        pool = self.pool
        await pool._slots.acquire()
        self._timeout = asyncio.timeout(pool.timeout)
        await self._timeout.__aenter__()
        head = [f"POST {pool.prefix}{self.path} HTTP/1.1", f"host: {pool.host_header}",
                f"content-length: {len(self.body)}", "accept-encoding: identity"]
        head += [f"{k}: {v}" for k, v in self.headers.items()]
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + self.body
        try:
            for attempt in (0, 1):
                reused = bool(pool._idle)
                conn = pool._idle.pop() if reused else await pool._connect()
                try:
                    status, reason, headers = await pool._head(conn, data)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                    conn.close()
                    if reused and attempt == 0:
                        continue  # the server closed an idle connection: try a fresh one
                    raise WireError(f"connection to {pool.host_header} failed: {why_unreachable(exc)}") from None
                self.response = WireResponse(status, reason, headers, conn)
                return self.response
        except BaseException as exc:
            pool._slots.release()
            timeout, self._timeout = self._timeout, None
            try:
                await timeout.__aexit__(type(exc), exc, exc.__traceback__)
            except TimeoutError:
                raise WireError(f"request to {pool.host_header} timed out after {pool.timeout:g}s") from None
            raise
        raise WireError("unreachable")  # pragma: no cover

    async def __aexit__(self, exc_type, exc, tb) -> bool:
        timeout = self._timeout
        self._timeout = None
        pool = self.pool
        response = self.response
        if response is not None:
            if exc is None and response.reusable:
                pool._idle.append(response._conn)
            else:
                response._conn.close()
        pool._slots.release()
        if timeout is not None:
            try:
                await timeout.__aexit__(exc_type, exc, tb)
            except TimeoutError:
                raise WireError(f"request to {pool.host_header} timed out after {pool.timeout:g}s") from None
        if isinstance(exc, (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError)):
            raise WireError(f"connection to {pool.host_header} broke: {why_unreachable(exc)}") from None
        return False
