"""Every request body over REQUEST_MAX_BYTES is answered 413 naming the limit, on every route.

Django itself refuses such a body only when a view reads it (RequestDataTooBig), and
then as a 500 in the API and a bare 400 on pages; here it is refused before any view,
from Content-Length, or from the size of the buffered body when a chunked request sent
none. The API answers JSON like its other errors; pages answer text.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase

from designer.json_body import body_too_large


class RequestBodyLimit:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        size = _body_size(request)
        limit = _limit(request)
        if size > limit:
            return _answer(request, body_too_large(size, limit), status=413)
        return self.get_response(request)


UPLOAD_PATH = "/api/v1/uploads"
MULTIPART_OVERHEAD = 64 * 1024


def _limit(request: HttpRequest) -> int:
    """Workspace zips have their own, larger limit (WORKSPACE_UPLOAD_MAX_BYTES); everything else the general one."""
    if request.path == UPLOAD_PATH and request.method == "POST":
        return max(settings.REQUEST_MAX_BYTES, settings.WORKSPACE_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD)
    return settings.REQUEST_MAX_BYTES


def _body_size(request: HttpRequest) -> int:
    declared = request.META.get("CONTENT_LENGTH") or ""
    size = int(declared) if declared.isdigit() else 0  # servers refuse a malformed one themselves
    stream: Any = getattr(request, "_stream", None)  # ASGI: the body, already buffered in a temporary file
    if hasattr(stream, "seekable") and stream.seekable():
        position = stream.tell()
        size = max(size, stream.seek(0, os.SEEK_END))
        stream.seek(position)
    return size


def _answer(request: HttpRequest, detail: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail}, status=status)
    return HttpResponse(detail + "\n", status=status, content_type="text/plain; charset=utf-8")
