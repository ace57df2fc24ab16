"""Domain errors mapped to HTTP once, for the whole API."""
from __future__ import annotations

import logging

from django.http import Http404
from ninja.errors import AuthenticationError, HttpError, ValidationError

from designer.json_body import BodyError

log = logging.getLogger(__name__)


class DocumentInvalid(Exception):
    """A request that needs a valid document got an invalid one."""

    def __init__(self, message: str, diagnostics: list[dict]):
        super().__init__(message)
        self.diagnostics = diagnostics


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def install_error_handlers(api) -> None:
    @api.exception_handler(DocumentInvalid)
    def document_invalid(request, exc):
        return api.create_response(request, {"detail": str(exc), "diagnostics": exc.diagnostics}, status=422)

    @api.exception_handler(BadRequest)
    def bad_request(request, exc):
        return api.create_response(request, {"detail": str(exc)}, status=exc.status)

    @api.exception_handler(ValidationError)
    def invalid_body(request, exc):
        problems = []
        for error in exc.errors:
            where = ".".join(str(p) for p in error.get("loc", []) if p not in ("body", "payload"))
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return api.create_response(request, {"detail": "invalid request: " + "; ".join(problems), "errors": exc.errors}, status=422)

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request, exc):
        return api.create_response(request, {"detail": "authentication required: log in or send Authorization: Bearer <token>"}, status=401)

    @api.exception_handler(Http404)
    def not_found(request, exc):
        return api.create_response(request, {"detail": str(exc) or "not found"}, status=404)

    @api.exception_handler(HttpError)
    def http_error(request, exc):
        # Ninja wraps any body-parsing failure in a bare "Cannot parse request body".
        cause = exc.__cause__
        detail = str(cause) if isinstance(cause, BodyError) else str(exc)
        return api.create_response(request, {"detail": detail}, status=exc.status_code)

    @api.exception_handler(Exception)
    def unexpected(request, exc):
        log.exception("unhandled API error on %s %s", request.method, request.path)
        return api.create_response(request, {"detail": "internal error; it has been logged"}, status=500)
