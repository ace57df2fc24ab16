"""What the HTTP providers share: one client, streaming lines, retry with backoff.

429 and 5xx answers (and dropped connections) are retried up to
``max_retries`` times, waiting ``Retry-After`` when the server gives it,
otherwise ``backoff * 2**attempt`` (capped, with jitter). Nothing retries once
the response has started streaming. Error texts are redacted of the API key.

Two transports: ``wire`` (:mod:`runtime.providers.wire`, the default: lean,
keep-alive, built for wide fan-out) and ``httpx`` (used when a proxy is set in
the environment, or when asked for with ``transport="httpx"``).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
from contextlib import asynccontextmanager
from typing import Awaitable, Callable
from urllib.parse import urlsplit

import httpx

from runtime.providers import Provider, ProviderError, redact
from runtime.providers.addresses import AddressRefused, public_addresses
from runtime.providers.failures import api_error, unreachable
from runtime.providers.wire import WireError, WirePool

RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504, 529}


class HttpProvider(Provider):
    def __init__(self, *, base_url: str, api_key: str | None, default_model: str, timeout: float = 600.0,
                 max_retries: int = 4, backoff: float = 0.5, max_backoff: float = 30.0, max_connections: int = 100,
                 client: httpx.AsyncClient | None = None, transport: str | None = None, public_only: bool = False):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.default_model = default_model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_connections = max_connections
        self._client = client
        self.public_only = public_only  # a user-chosen URL: public addresses only (runtime/providers/addresses.py)
        proxied = any(os.environ.get(k) for k in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"))
        self.transport = transport or ("httpx" if client is not None or proxied else "wire")
        if self.transport not in ("wire", "httpx"):
            raise ValueError(f"unknown transport {self.transport!r} (use wire or httpx)")
        self._pool: WirePool | None = None
        self.retries_done = 0

    def __repr__(self) -> str:  # never shows the key
        return f"<{type(self).__name__} {self.base_url}>"

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            limits = httpx.Limits(max_connections=self.max_connections, max_keepalive_connections=self.max_connections)
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout, connect=30.0), limits=limits)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None

    @asynccontextmanager
    async def _post(self, path: str, headers: dict, body: dict):
        """Yields (status, reason, headers, response) with ``aread()`` and ``aiter_lines()``."""
        if self.transport == "httpx":
            if self.public_only:  # checked before each request; the proxy, if any, makes the connection
                parts = urlsplit(self.base_url)
                await public_addresses(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
            async with self.client().stream("POST", f"{self.base_url}{path}", headers=headers, json=body) as r:
                yield r.status_code, r.reason_phrase, r.headers, r
            return
        if self._pool is None:
            self._pool = WirePool(self.base_url, max_connections=self.max_connections, timeout=self.timeout,
                                  public_only=self.public_only)
        async with self._pool.stream(path, headers, json.dumps(body).encode()) as r:
            yield r.status, r.reason, r.headers, r

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(float(retry_after), self.max_backoff)
            except ValueError:
                pass
        base = min(self.backoff * (2 ** attempt), self.max_backoff)
        return base * (0.75 + random.random() / 2)

    def _error(self, text: str, **kw) -> ProviderError:
        return ProviderError(redact(text, self.api_key), **kw)

    async def stream_lines(self, path: str, headers: dict, body: dict,
                           on_line: Callable[[str], Awaitable[None] | None]) -> None:
        """POST ``body`` and feed each line of the streamed answer to ``on_line``."""
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                async with self._post(path, headers, body) as (status, reason, resp_headers, response):
                    if status != 200:
                        raw = await response.aread()
                        message = _error_message(raw) or reason
                        if status in RETRY_STATUSES and not last:
                            self.retries_done += 1
                            wait = self._wait(attempt, resp_headers.get("retry-after"))
                        else:
                            raise self._error(api_error(self.name, status, message), status=status,
                                              retryable=status in RETRY_STATUSES)
                    else:
                        try:
                            async for line in response.aiter_lines():
                                result = on_line(line)
                                if result is not None:
                                    await result
                        except (ValueError, KeyError, TypeError, AttributeError) as exc:
                            raise self._error(f"{self.name} API sent a malformed answer: "
                                              f"{exc.__class__.__name__}: {exc}", retryable=True) from None
                        return
                await asyncio.sleep(wait)
                continue
            except AddressRefused as exc:
                raise self._error(f"{self.name} API URL refused: {exc}", retryable=False) from None
            except (httpx.TransportError, WireError) as exc:
                if last:
                    detail = str(exc) if isinstance(exc, WireError) else (str(exc) or exc.__class__.__name__)
                    raise self._error(unreachable(self.name, detail), retryable=True) from None
                self.retries_done += 1
                await asyncio.sleep(self._wait(attempt, None))


def _error_message(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return raw[:300].decode("utf-8", "replace")
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict):
        return str(err.get("message") or err.get("type") or err)[:300]
    return str(err or data)[:300]


def parse_arguments(raw: str):
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        return raw
