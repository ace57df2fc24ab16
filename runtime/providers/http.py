"""What the HTTP providers share: one transport, streaming lines, retry with backoff.

A redirect (3xx) fails the call at once, naming where it pointed; it is never
followed (a user's URL could otherwise be sent on to a private address).
429 and 5xx answers (and dropped connections) are retried up to
``max_retries`` times, waiting ``Retry-After`` when the server gives it,
otherwise ``backoff * 2**attempt`` (capped, with jitter). Error texts are
redacted of the API key. The transport is aiohttp
(:mod:`runtime.providers.transport`).
"""
from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urljoin, urlsplit

import orjson

from common.addresses import AddressRefused
from runtime.providers import Provider, ProviderError, redact
from runtime.providers.failures import api_error, redirected, unreachable
from runtime.providers.transport import Response, Transport, TransportError

RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504, 529}


class HttpProvider(Provider):
    def __init__(self, *, base_url: str, api_key: str | None, default_model: str, timeout: float = 600.0,
                 max_retries: int = 4, backoff: float = 0.5, max_backoff: float = 30.0, max_connections: int = 100,
                 public_only: bool = False) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.default_model = default_model
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        # A user-chosen URL reaches public addresses only (common/addresses.py).
        self.transport = Transport(self.base_url, max_connections=max_connections, timeout=timeout,
                                   public_only=public_only)
        self.retries_done = 0

    def __repr__(self) -> str:  # never shows the key
        return f"<{type(self).__name__} {self.base_url}>"

    async def aclose(self) -> None:
        await self.transport.aclose()

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(float(retry_after), self.max_backoff)
            except ValueError:
                pass
        base = min(self.backoff * (2 ** attempt), self.max_backoff)
        return base * (0.75 + random.random() / 2)  # noqa: S311 - jitter for a retry, not a secret

    def _error(self, text: str, **kw: Any) -> ProviderError:
        return ProviderError(redact(text, self.api_key), **kw)

    async def stream_lines(self, path: str, headers: dict, body: dict | bytes,
                           on_line: Callable[[str], Awaitable[None] | None]) -> None:
        """POST ``body`` and feed each line of the streamed answer to ``on_line``.

        ``on_line`` is a plain function that may return an awaitable (a text delta to hand on): a
        coroutine per line would cost more than the line's own parsing. ``body`` as bytes is sent as it is
        (a signed request's)."""
        async def feed(response: Response) -> None:
            async for lines in response.line_batches():
                for line in lines:
                    result = on_line(line)
                    if result is not None:
                        await result

        await self._stream(path, headers, body, feed)

    async def stream_bytes(self, path: str, headers: dict, body: dict | bytes,
                           on_bytes: Callable[[bytes], Awaitable[None] | None]) -> None:
        """As :meth:`stream_lines`, for a binary stream (Bedrock's event-stream): the bytes as they arrive."""
        async def feed(response: Response) -> None:
            async for chunk in response.chunks():
                result = on_bytes(chunk)
                if result is not None:
                    await result

        await self._stream(path, headers, body, feed)

    async def _stream(self, path: str, headers: dict, body: dict | bytes,
                      feed: Callable[[Response], Awaitable[None]]) -> None:
        encoded = body if isinstance(body, bytes) else orjson.dumps(body, default=str)
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                async with self.transport.post(path, headers, encoded) as response:
                    status, resp_headers = response.status, response.headers
                    if 300 <= status < 400:  # not followed, and its body not read
                        where = _where(self.base_url + path, resp_headers.get("location"))
                        raise self._error(redirected(self.name, status, where), status=status, retryable=False)
                    if status != 200:
                        raw = await response.aread()
                        message = _error_message(raw) or response.reason
                        if status in RETRY_STATUSES and not last:
                            self.retries_done += 1
                            wait = self._wait(attempt, resp_headers.get("retry-after"))
                        else:
                            raise self._error(api_error(self.name, status, message), status=status,
                                              retryable=status in RETRY_STATUSES)
                    else:
                        try:
                            await feed(response)
                        except (ValueError, KeyError, TypeError, AttributeError) as exc:
                            raise self._error(f"{self.name} API sent a malformed answer: "
                                              f"{exc.__class__.__name__}: {exc}", retryable=True) from None
                        return
                await asyncio.sleep(wait)
                continue
            except AddressRefused as exc:
                raise self._error(f"{self.name} API URL refused: {exc}", retryable=False) from None
            except TransportError as exc:
                if last:
                    raise self._error(unreachable(self.name, str(exc)), retryable=True) from None
                self.retries_done += 1
                await asyncio.sleep(self._wait(attempt, None))


def _where(url: str, location: str | None) -> str | None:
    """Where a redirect points, for the error: scheme, host and path, without userinfo, query or fragment."""
    if not location:
        return None
    try:
        parts = urlsplit(urljoin(url, location.strip()))
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return None
    if ":" in host:
        host = f"[{host}]"
    shown = f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme and host else None
    if shown is None or not shown.isprintable():
        return None
    return shown if len(shown) <= 200 else shown[:200] + "…"


def _error_message(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw[:300].decode("utf-8", "replace")
    err = data.get("error") if isinstance(data, dict) else None
    if err is None and isinstance(data, dict) and (data.get("message") or data.get("Message")):
        return str(data.get("message") or data.get("Message"))[:300]  # AWS's {"message": ...}
    if isinstance(err, dict):
        return str(err.get("message") or err.get("type") or err)[:300]
    return str(err or data)[:300]


def parse_arguments(raw: str) -> Any:
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        return raw
