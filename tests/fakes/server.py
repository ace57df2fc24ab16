"""A tiny HTTP/1.1 server on loopback, run in a thread, that answers from a script.

Subclasses turn one scripted reply into an HTTP response (see ``openai.py``
and ``anthropic.py``). It keeps connections alive, streams with chunked
encoding, sleeps ``latency`` seconds before each answer without blocking
other connections, and records every request for assertions::

    with FakeOpenAI(replies=[{"content": "hi"}]) as server:
        ...  # point a client at server.url
        assert server.requests[0].json["model"] == "gpt-test"
"""
from __future__ import annotations

import asyncio
import json
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float = field(default_factory=time.monotonic)  # when the whole body had arrived

    @property
    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Response:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    chunks: list[bytes] | None = None  # streamed with chunked encoding when set
    chunk_delay: float = 0.0


_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable", 529: "Overloaded"}


class FakeServer(ABC):
    """Base class: subclasses implement :meth:`respond`."""

    def __init__(self, replies: Iterable[dict] | None = None, *, default: dict | None = None,
                 latency: float = 0.0, host: str = "127.0.0.1", port: int = 0):
        self.replies: deque[dict] = deque(replies or [])
        self.default = default if default is not None else {"content": "ok"}
        self.latency = latency
        self.host = host
        self.port = port
        self.requests: list[Request] = []
        self.connections = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    # -- scripting -------------------------------------------------------------
    def add(self, *replies: dict) -> None:
        with self._lock:
            self.replies.extend(replies)

    def next_reply(self) -> dict:
        with self._lock:
            return self.replies.popleft() if self.replies else self.default

    def reply_for(self, request: Request) -> dict:
        """The reply to ``request``: the next scripted one (subclasses may answer from the request itself)."""
        return self.next_reply()

    @abstractmethod
    def respond(self, request: Request, reply: dict) -> Response:
        """Turn one scripted reply into the HTTP response for ``request``."""

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # -- lifecycle -------------------------------------------------------------
    def start(self) -> FakeServer:
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("fake server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(5)
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        current = asyncio.current_task()
        handlers = [t for t in asyncio.all_tasks() if t is not current]
        for task in handlers:
            task.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)

        async def boot() -> None:
            self._server = await asyncio.start_server(self._handle, self.host, self.port, backlog=1024)
            self.port = self._server.sockets[0].getsockname()[1]

        self._loop.run_until_complete(boot())
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    def serve_forever(self) -> None:
        """Run in the calling thread (for a separate process)."""
        self._run()

    # -- HTTP ------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0") or 0))
                request = Request(method, path, headers, body)
                with self._lock:
                    self.requests.append(request)
                reply = self.reply_for(request)
                delay = reply.get("latency", self.latency)
                if delay:
                    await asyncio.sleep(delay)
                await self._write(writer, self.respond(request, reply))
                if headers.get("connection", "").lower() == "close" or reply.get("hangup"):
                    break  # {"hangup": True}: close without saying so, like an idle timeout
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _write(self, writer: asyncio.StreamWriter, response: Response) -> None:
        head = [f"HTTP/1.1 {response.status} {_REASONS.get(response.status, 'Status')}"]
        headers = {"connection": "keep-alive", **{k.lower(): v for k, v in response.headers.items()}}
        if response.chunks is None:
            headers["content-length"] = str(len(response.body))
        else:
            headers["transfer-encoding"] = "chunked"
        head += [f"{k}: {v}" for k, v in headers.items()]
        head_bytes = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
        if response.chunks is None:
            writer.write(head_bytes + response.body)
        elif not response.chunk_delay:  # one write: cheaper, and no small packets
            writer.write(head_bytes + b"".join(f"{len(c):x}\r\n".encode() + c + b"\r\n" for c in response.chunks)
                         + b"0\r\n\r\n")
        else:
            writer.write(head_bytes)
            for chunk in response.chunks:
                writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                if response.chunk_delay:
                    await writer.drain()
                    await asyncio.sleep(response.chunk_delay)
            writer.write(b"0\r\n\r\n")
        await writer.drain()


def json_response(status: int, payload: Any, headers: dict | None = None) -> Response:
    return Response(status=status, headers={"content-type": "application/json", **(headers or {})},
                    body=json.dumps(payload).encode())


def split_text(text: str, pieces: int = 3) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i:i + size] for i in range(0, len(text), size)]
