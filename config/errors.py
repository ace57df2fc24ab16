"""The server's answer to an exception no view caught (``handler500``): a storage failure in words, else Django's 500.

Views of the API answer their own exceptions (designer/errors.py); this handler sees the rest: the pages' views
(/login/, /signup/, /account/) and every middleware (a session saved after the view ran, a sign-in attempt
recorded by axes). A full disk or a read-only database (common.storage_errors) answers 507 or 503 with words,
as JSON under /api/ and as a page elsewhere, never a bare 500. Django logs the exception once, with this answer's
status (django.request), so nothing is logged here.
"""
from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.defaults import server_error as django_server_error

from common.storage_errors import storage_failure

log = logging.getLogger(__name__)


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls a handler500 while handling the exception (under ASGI too: asgiref re-raises it in the thread).
    exc = sys.exc_info()[1]
    failure = storage_failure(exc) if exc is not None else None
    if failure is None:
        return django_server_error(request)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": failure.detail}, status=failure.status)
    else:
        title = "Disk full" if failure.status == 507 else "Storage unavailable"
        try:
            # Without the request: its context processors would read the session and the user from the database.
            page = render_to_string("storage_error.html", {"title": title, "detail": failure.detail})
        except Exception:
            log.exception("the storage error page could not be rendered")
            response = HttpResponse(failure.detail + "\n", status=failure.status, content_type="text/plain; charset=utf-8")
        else:
            response = HttpResponse(page, status=failure.status)
    if failure.retry_after_s:
        response["Retry-After"] = str(failure.retry_after_s)
    return response
