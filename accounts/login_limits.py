"""The policy behind django-axes: what a failed sign-in counts against, and what a locked-out client is told.

- A failed sign-in counts for its username and for its address; either one past LOGIN_FAILURE_LIMIT
  within LOGIN_COOLOFF_MINUTES locks. A failed sign-up or a wrong API token carries no username worth
  trusting, so it counts for its address only (all of them under one empty username would be one
  lock for the whole world).
- The address is the one the API's rate limits see: X-Forwarded-For is believed only as far as
  TRUSTED_PROXIES says, so a client cannot name itself a fresh address per try.
- A successful sign-in forgets that username's failures only. Forgetting its address's failures too
  would let someone reset a guessing run across other accounts by signing in to their own.
- A locked-out client hears how long to wait: a page for browsers, JSON with Retry-After for the API.
- Failures at once are each counted, in one record per client: see AttemptsHandler.
"""
from __future__ import annotations

import ipaddress
import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt, AccessBase
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from ninja.throttling import BaseThrottle

from common.types import Scope

# The credentials of a failure that counts for its address only. Its username is stored, and it is empty,
# not None: see AttemptsHandler. Empty is no username to lockout_parameters, as None was.
ADDRESS_ONLY = {"username": ""}

# Where a request has no address (a websocket reaching daphne over a Unix socket has no client), the
# unspecified address stands for it, not NULL (see AttemptsHandler); all such clients share one count,
# as they did under NULL.
NO_ADDRESS = "0.0.0.0"  # noqa: S104  # stored, never bound to


def client_address(request: HttpRequest) -> str:
    """AXES_CLIENT_IP_CALLABLE: the address ninja's throttles use (NINJA_NUM_PROXIES = TRUSTED_PROXIES).
    Where a proxy forwarded something that is not an address, the proxy's own address: it is stored in
    an address column (PostgreSQL's inet refuses anything else)."""
    for address in (BaseThrottle().get_ident(request), request.META.get("REMOTE_ADDR")):
        try:
            return str(ipaddress.ip_address(address or ""))
        except ValueError:
            continue
    return NO_ADDRESS


def lockout_parameters(request_or_attempt: HttpRequest | AccessBase, credentials: dict[str, Any] | None = None) -> list[str]:
    """AXES_LOCKOUT_PARAMETERS: by username or by address; by address alone when there is no username."""
    username = (request_or_attempt.username if isinstance(request_or_attempt, AccessBase)
                else get_client_username(request_or_attempt, credentials))
    return ["username", "ip_address"] if username else ["ip_address"]


class AttemptsHandler(AxesDatabaseHandler):
    """Axes' database handler, except that a success forgets only its own username's failures, what it
    stores from the request has no NUL (an API path may: /api/v1/workflows/%00), which PostgreSQL
    refuses in text (axes itself cleans only the query and form data), and a failure without a username
    is stored under the empty one.

    Axes records a failure with get_or_create on (username, address, agent), which the table holds
    unique. Two failures at once can both find no record; the database's unique key then refuses the
    second insert and get_or_create counts that failure in the first one's record (locked, F() + 1).
    But NULLs are never equal to one another, in PostgreSQL as in SQLite: with no username, every such
    insert succeeded, the address got a record per simultaneous failure, and each later failure's
    look-up found several and raised MultipleObjectsReturned (a 500, and that failure not counted).
    So nothing in the key is NULL here: the username of an address-only failure is "" (ADDRESS_ONLY),
    an unknown address is NO_ADDRESS (client_address), and the agent is never NULL in axes.
    This is chosen over taking a lock around the counting or merging duplicates afterwards: the unique
    key is enforced by the database itself, for every server process and on every backend, with no lock
    to hold, no backend-specific SQL and no second pass; axes' own path for the collision counts every
    failure. Records stored with NULL by an earlier version are never looked up by that key again; they
    still count for their address (its look-ups are by address alone) until their window passes."""

    def user_login_failed(self, sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any) -> None:
        if request is not None:
            for name in ("axes_path_info", "axes_user_agent", "axes_http_accept"):
                value = getattr(request, name, None)
                if isinstance(value, str):
                    setattr(request, name, value.replace("\0", "\ufffd"))  # one character: axes cut them to fit
            if not get_client_username(request, credentials):  # also for senders other than address_failed
                credentials = {**(credentials or {}), **ADDRESS_ONLY}
        return super().user_login_failed(sender, credentials, request, **kwargs)

    def reset_user_attempts(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return count


def seconds_locked(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """Seconds until fewer failures than the limit are left in the window, for every count that is over it."""
    AxesProxyHandler.update_request(request)
    limit = get_failure_limit(request, credentials)
    cool_off = get_cool_off(request)
    now = timezone.now()
    wait = 0.0
    for attempts in AxesProxyHandler.get_implementation().get_user_attempts(request, credentials):
        rows = list(attempts.order_by("attempt_time").values_list("attempt_time", "failures_since_start"))
        left = sum(failures for _, failures in rows)
        for at, failures in rows:  # the oldest failures leave the window first
            if left < limit:
                break
            wait = max(wait, (at + cool_off - now).total_seconds())
            left -= failures
    return math.ceil(wait)


def lockout_response(request: HttpRequest, *_unused: object) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE. Axes passes its credentials inconsistently (its async middleware shifts
    them by one argument), so they are read from the request, where its handler always leaves them."""
    credentials = getattr(request, "axes_credentials", None) or ADDRESS_ONLY
    return refusal(request, max(1, seconds_locked(request, credentials)))


def refusal(request: HttpRequest, wait_s: int) -> HttpResponse:
    minutes = math.ceil(wait_s / 60)
    what = "sign-up attempts from this address" if request.path.startswith("/signup/") else "sign-in attempts"
    message = f"Too many failed {what}. Try again in {minutes} minute{'' if minutes == 1 else 's'}."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "retryAfterSeconds": wait_s}, status=429)
    else:
        response = render(request, "lockout.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait_s)
    return response


def address_locked(request: HttpRequest) -> bool:
    """Whether the request's address is locked out; if it is, the request is marked so that axes'
    middleware answers it with the 429 whatever the view answered."""
    if AxesProxyHandler.is_allowed(request, ADDRESS_ONLY):
        return False
    request.axes_locked_out = True  # type: ignore[attr-defined]  # axes' marks on the request, which its middleware reads
    request.axes_credentials = ADDRESS_ONLY  # type: ignore[attr-defined]
    return True


def address_failed(request: HttpRequest, sender: object) -> None:
    """Counts a failure for the request's address (the failure that reaches the limit marks the request)."""
    user_login_failed.send(sender=sender, credentials=dict(ADDRESS_ONLY), request=request)


def socket_request(scope: Scope) -> HttpRequest:
    """A websocket handshake as the request axes reads: its address, proxy headers, agent and path."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = scope.get("path", "")
    headers = {name.decode("latin-1").upper().replace("-", "_"): value.decode("latin-1")
               for name, value in scope.get("headers") or []}
    client = scope.get("client") or (None, None)
    request.META = {"REMOTE_ADDR": client[0], "PATH_INFO": request.path,
                    **{f"HTTP_{name}": value for name, value in headers.items()
                       if name in ("X_FORWARDED_FOR", "USER_AGENT", "ACCEPT")}}
    return request

