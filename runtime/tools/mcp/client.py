"""One connection to one MCP server, over the official SDK: start, list tools, call them, close.

The SDK's transports are async context managers that must be entered and left
by the same task, so each connection has its own supervisor task holding them
open until :meth:`Connection.close`; calls from any task go through the
session it publishes. A stdio server starts in the run's sandbox (see
:mod:`runtime.tools.mcp.launch`); when it dies, the calls in flight and every
later call fail with the server's name, its exit code and its last stderr
line, read from the file its stderr goes to. That stderr may print the
server's own environment: it is read only with every secret value redacted
(the server's ``env`` and header values, and the deployment's that it is given
as ``hidden``), and its last line is cut at ``LAST_LINE`` characters. Nothing
here raises into the run except :class:`McpUnavailable` from
:meth:`Connection.start`, said in words.

A user's HTTP server (``public_only``, unless ``MCP_URLS_ALLOW_PRIVATE``) is
reached through :class:`PublicBackend`: at every new connection the host is
resolved, each of its addresses checked (:mod:`common.addresses`) and the
socket opened to a checked address, TLS still verifying the host's name and the
Host header naming it, so a name that resolves elsewhere later (DNS rebinding)
is refused. Such a client reads no proxy from the environment (a proxy would
resolve the name itself); the SDK follows redirects only within the URL's
origin, and each of those connections is checked the same way.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpcore2
import httpx2
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT, PaginatedRequestParams

from common.addresses import AddressRefused, public_addresses
from common.redact import redact
from runtime.tools import ToolError, ToolResult
from runtime.tools.mcp.config import HTTP, ServerConfig
from runtime.tools.mcp.launch import Launch, exit_status
from runtime.tools.sandbox import MAX_OUTPUT, TRUNCATION_NOTE, SandboxUnavailable

CLOSE_TIMEOUT = 8.0   # the SDK's own shutdown waits at most ~6 s (stdin closed, SIGTERM, SIGKILL)
PUBLIC_ONLY = "; only public addresses are allowed"


class McpUnavailable(Exception):
    """The server could not be started or reached; the message names it and says why."""


@dataclass(frozen=True)
class RemoteTool:
    name: str
    description: str
    input_schema: dict


class Connection:
    def __init__(self, config: ServerConfig, *, launch: Launch | None = None, allow_private: bool = False,
                 call_timeout: float = 60.0, hidden: tuple[str, ...] = ()) -> None:
        self.config = config
        self.launch = launch                   # how a stdio server starts (None for HTTP)
        self.allow_private = allow_private     # MCP_URLS_ALLOW_PRIVATE: a user's URL may reach loopback/private hosts
        self.call_timeout = call_timeout
        self.tools: list[RemoteTool] = []
        self.failure: str | None = None        # once set, every call fails with it
        self._session: ClientSession | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None
        # The server's stderr, read when it fails; open as long as the connection is, closed by close().
        self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") if launch else None  # noqa: SIM115 - see above
        self._backend: PublicBackend | None = None
        # What its stderr may not show: its own secrets, and the deployment's (McpOptions.hidden).
        self._hidden = (*config.secret_values, *hidden)

    @property
    def name(self) -> str:
        return self.config.name

    # -- lifecycle ---------------------------------------------------------------
    async def start(self, timeout: float) -> list[RemoteTool]:
        """Connect and list the tools; McpUnavailable (the connection closed again) when that fails."""
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._serve(ready), name=f"mcp:{self.name}")
        try:
            await asyncio.wait_for(asyncio.shield(ready), timeout)
        except TimeoutError:
            self.failure = f"MCP server '{self.name}' did not start within {timeout:g}s"
            await self.close()
            raise McpUnavailable(self.failure) from None
        except McpUnavailable as exc:
            self.failure = str(exc)
            await self.close()
            raise
        return self.tools

    async def close(self) -> None:
        """Stop the server (its whole process tree, for stdio) and forget the session; safe to call twice."""
        self._stop.set()
        task, self._task = self._task, None
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), CLOSE_TIMEOUT)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self._session = None
        if self._errlog is not None:
            self._errlog.close()
            self._errlog = None

    async def _serve(self, ready: asyncio.Future[None]) -> None:
        try:
            async with contextlib.AsyncExitStack() as stack:
                read, write = await self._transport(stack)
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                self.tools = await _list_tools(session)
                self._session = session
                ready.set_result(None)
                await self._stop.wait()
        except Exception as exc:  # every way a server fails to start or goes away ends here, in words
            why = self._explain(exc, starting=not ready.done())
            if not ready.done():
                ready.set_exception(McpUnavailable(why))
            else:
                self.failure = self.failure or why
        finally:
            self._session = None
            if not ready.done():
                ready.set_exception(McpUnavailable(f"MCP server '{self.name}' could not start"))

    async def _transport(self, stack: contextlib.AsyncExitStack) -> tuple[Any, Any]:
        if self.config.kind == HTTP:
            await self._check_address()
            timeout = httpx2.Timeout(30.0, read=max(self.call_timeout, 30.0) + 5)
            if self._public_only:
                self._backend = PublicBackend()
                client = httpx2.AsyncClient(headers=dict(self.config.headers), timeout=timeout, trust_env=False,
                                            transport=_public_transport(self._backend))
            else:
                client = create_mcp_http_client(headers=dict(self.config.headers), timeout=timeout)
            await stack.enter_async_context(client)
            return await stack.enter_async_context(streamable_http_client(self.config.url, http_client=client))
        if self.launch is None or self._errlog is None:  # a stdio server has both (Connection.__init__)
            raise McpUnavailable(f"MCP server '{self.name}' has no command to start")
        stack.callback(self.launch.close)  # its env file goes with the connection
        return await stack.enter_async_context(stdio_client(self.launch.parameters(), errlog=self._errlog))

    @property
    def _public_only(self) -> bool:
        return self.config.public_only and not self.allow_private

    async def _check_address(self) -> None:
        """Before the SDK starts: a refused URL is said at once (every connection is checked again)."""
        if not self._public_only:
            return
        parts = urlsplit(self.config.url)
        try:
            await public_addresses(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
        except AddressRefused as exc:
            raise McpUnavailable(f"MCP server '{self.name}': {exc}{PUBLIC_ONLY}") from None

    def _refused(self) -> str | None:
        """The refusal of the last connection the backend would not open, in words, if any."""
        refused = self._backend.refused if self._backend is not None else None
        return f"MCP server '{self.name}': {refused}{PUBLIC_ONLY}" if refused is not None else None

    # -- calls -------------------------------------------------------------------
    async def call(self, tool: str, arguments: dict, timeout: float | None = None) -> ToolResult:
        """Call one tool; every failure is a ToolError the model reads, naming the server."""
        timeout = timeout or self.call_timeout
        if self.failure:
            raise ToolError(self.failure)
        session = self._session
        if session is None:
            raise ToolError(f"MCP server '{self.name}' is not connected")
        try:
            result = await asyncio.wait_for(session.call_tool(tool, arguments, read_timeout_seconds=timeout),
                                            timeout + 5)
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                raise ToolError(f"MCP server '{self.name}': {tool} did not answer within {timeout:g}s") from None
            if exc.code == CONNECTION_CLOSED:
                self.failure = self._stopped_message()
                raise ToolError(self.failure) from None
            raise ToolError(f"MCP server '{self.name}': {exc.message}") from None
        except TimeoutError:
            raise ToolError(f"MCP server '{self.name}': {tool} did not answer within {timeout:g}s") from None
        except Exception as exc:  # a broken stream, a bad answer: the server, not the run, is at fault
            self.failure = self._refused() or (self._stopped_message() if self._gone() else None)
            raise ToolError(self.failure or f"MCP server '{self.name}': the call failed "
                                            f"({exc.__class__.__name__}: {_short(exc)})") from None
        text = _text_of(result)
        if getattr(result, "is_error", False):
            raise ToolError(text or f"MCP server '{self.name}': {tool} failed")
        if len(text) > MAX_OUTPUT:
            return ToolResult(text[:MAX_OUTPUT] + TRUNCATION_NOTE, truncated=True)
        return ToolResult(text)

    # -- words -------------------------------------------------------------------
    def _stderr(self) -> str:
        """The end of the server's stderr, its secrets redacted: the whole of it first, then the end is kept, so a
        value is never cut in two with its first part kept."""
        if self._errlog is None:
            return ""
        with contextlib.suppress(OSError, ValueError):
            self._errlog.flush()
            self._errlog.seek(0)
            return redact(self._errlog.read(), self._hidden)[-20_000:]
        return ""

    def _gone(self) -> bool:
        return self.launch is not None and exit_status(self._stderr())[0] is not None

    def _stopped_message(self) -> str:
        if self.config.kind == HTTP:
            return f"MCP server '{self.name}' closed the connection"
        code, last = exit_status(self._stderr())
        said = f": {last}" if last else ""
        return f"MCP server '{self.name}' stopped ({f'exit code {code}' if code is not None else 'connection closed'}){said}"

    def _explain(self, exc: BaseException, *, starting: bool) -> str:
        if isinstance(exc, McpUnavailable):
            return str(exc)
        refused = self._refused()
        if refused:
            return refused
        if isinstance(exc, SandboxUnavailable):
            return f"MCP server '{self.name}' could not start: {exc}"
        if self.launch is not None:
            code, last = exit_status(self._stderr())
            if code is not None or last:
                status = f"exit code {code}" if code is not None else "no answer"
                return (f"MCP server '{self.name}' {'could not start' if starting else 'stopped'} ({status})"
                        f"{': ' + last if last else ''}")
        if isinstance(exc, ExceptionGroup):
            exc = _innermost(exc)
        verb = "could not be reached" if starting else "stopped answering"
        return f"MCP server '{self.name}' {verb} ({exc.__class__.__name__}: {_short(exc)})"


class PublicBackend(httpcore2.AsyncNetworkBackend):
    """Opens a connection only to a public address of the host, resolved and checked for this connection.

    httpcore hands the backend the URL's host and port and starts TLS on the stream afterwards with the host's
    name, so the certificate is verified for the name while the socket goes to the address that was checked."""

    def __init__(self) -> None:
        self._sockets = httpcore2.AnyIOBackend()
        self.refused: AddressRefused | None = None   # the last refusal, for the words of the failure

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Any = None) -> httpcore2.AsyncNetworkStream:
        try:
            with anyio.fail_after(timeout):
                addresses = await public_addresses(host, port)
        except TimeoutError:
            raise httpcore2.ConnectTimeout(f"{host} did not resolve in time") from None
        except AddressRefused as exc:
            self.refused = exc
            raise httpcore2.ConnectError(f"{exc}{PUBLIC_ONLY}") from None
        failed: Exception | None = None
        for address in addresses:
            try:
                return await self._sockets.connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                                       socket_options=socket_options)
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:
                failed = exc
        raise failed or httpcore2.ConnectError(f"{host} has no address")  # public_addresses never answers an empty list

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Any = None) -> httpcore2.AsyncNetworkStream:
        raise httpcore2.ConnectError("a public-only client does not open local sockets")

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(seconds)


_TLS: list[Any] = []  # one TLS context for every public-only client: building one reads the CA store (~70 ms)


def _public_transport(backend: PublicBackend) -> httpx2.AsyncHTTPTransport:
    """httpx's own transport over a pool whose connections the backend opens (httpx takes no backend itself)."""
    if not _TLS:
        _TLS.append(httpx2.create_ssl_context())  # honours SSL_CERT_FILE / SSL_CERT_DIR, as before
    transport = httpx2.AsyncHTTPTransport(verify=_TLS[0], trust_env=False)
    transport._pool = httpcore2.AsyncConnectionPool(ssl_context=_TLS[0], network_backend=backend,
                                                    max_connections=100, max_keepalive_connections=20,
                                                    keepalive_expiry=5.0)
    return transport


async def _list_tools(session: ClientSession) -> list[RemoteTool]:
    tools: list[RemoteTool] = []
    cursor = None
    for _ in range(100):  # pages; a server that never stops paging is cut off
        listed = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        for tool in listed.tools:
            schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
            tools.append(RemoteTool(tool.name, tool.description or "", {"type": "object", **schema}))
        cursor = listed.next_cursor
        if not cursor:
            break
    return tools


def _text_of(result: Any) -> str:
    """Text blocks joined; other blocks named; structured content when there is nothing else."""
    parts = []
    for block in getattr(result, "content", None) or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind}: {getattr(block, 'mime_type', '') or 'binary'}]")
        elif kind == "resource_link":
            parts.append(f"[resource: {getattr(block, 'uri', '')}]")
        elif kind == "resource":
            inner = getattr(block, "resource", None)
            parts.append(getattr(inner, "text", None) or f"[resource: {getattr(inner, 'uri', '')}]")
    if not parts and getattr(result, "structured_content", None) is not None:
        return json.dumps(result.structured_content, ensure_ascii=False)
    return "\n".join(parts)


def _innermost(group: BaseException) -> BaseException:
    while isinstance(group, BaseExceptionGroup) and group.exceptions:
        group = group.exceptions[0]
    return group


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else "no detail")[:300]
