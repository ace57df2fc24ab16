"""Domain errors mapped to HTTP once, for the whole API."""
from __future__ import annotations

import logging
import math

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from common.errors import BadRequest, Forbidden, LimitReached
from common.offload import WorkBusy, WorkFailed, WorkTooLong
from common.storage_errors import storage_failure
from designer.json_body import BodyError, body_too_large

log = logging.getLogger(__name__)


class DocumentInvalid(Exception):
    """A request that needs a valid document got an invalid one."""

    def __init__(self, message: str, diagnostics: list[dict]) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics

    def __reduce__(self) -> tuple[type[DocumentInvalid], tuple[str, list[dict]]]:  # raised in worker processes (common.offload) and pickled back
        return (type(self), (str(self), self.diagnostics))




def install_error_handlers(api: NinjaAPI) -> None:
    @api.exception_handler(DocumentInvalid)
    def document_invalid(request: HttpRequest, exc: DocumentInvalid) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc), "diagnostics": exc.diagnostics}, status=422)

    @api.exception_handler(BadRequest)
    def bad_request(request: HttpRequest, exc: BadRequest) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc)}, status=exc.status)

    @api.exception_handler(ValidationError)
    def invalid_body(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        problems = []
        for error in exc.errors:
            where = ".".join(str(p) for p in error.get("loc", []) if p not in ("body", "payload"))
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return api.create_response(request, {"detail": "invalid request: " + "; ".join(problems), "errors": exc.errors}, status=422)

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return api.create_response(request, {"detail": "authentication required: log in or send Authorization: Bearer <token>"}, status=401)

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc) or "not found"}, status=404)

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        # Ninja wraps any body-parsing failure in a bare "Cannot parse request body".
        cause = exc.__cause__
        detail = str(cause) if isinstance(cause, BodyError) else str(exc)
        return api.create_response(request, {"detail": detail}, status=exc.status_code)

    @api.exception_handler(Throttled)
    def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
        wait = f"; try again in {math.ceil(exc.wait)} s" if exc.wait else ""
        return api.create_response(request, {"detail": f"too many requests from your address{wait}"}, status=429)

    @api.exception_handler(Forbidden)
    def forbidden(request: HttpRequest, exc: Forbidden) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc)}, status=403)

    @api.exception_handler(LimitReached)
    def limit_reached(request: HttpRequest, exc: LimitReached) -> HttpResponse:
        body = {"detail": str(exc), "limit": exc.limit, "retryAfterSeconds": exc.retry_after_s}
        response = api.create_response(request, body, status=429)
        if exc.retry_after_s:
            response["Retry-After"] = str(exc.retry_after_s)
        return response

    @api.exception_handler(RequestDataTooBig)
    def body_over_limit(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return api.create_response(request, {"detail": body_too_large(None)}, status=413)

    @api.exception_handler(SuspiciousOperation)
    def suspicious(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
        # Too many form fields or files, and the like: the request, not the server, is at fault.
        return api.create_response(request, {"detail": f"bad request: {exc}"}, status=400)

    @api.exception_handler(MultiPartParserError)
    def bad_multipart(request: HttpRequest, exc: MultiPartParserError) -> HttpResponse:
        return api.create_response(request, {"detail": f"invalid multipart body: {exc}"}, status=400)

    @api.exception_handler(WorkTooLong)
    def too_long(request: HttpRequest, exc: WorkTooLong) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc)}, status=422)

    @api.exception_handler(WorkFailed)
    def work_failed(request: HttpRequest, exc: WorkFailed) -> HttpResponse:
        return api.create_response(request, {"detail": str(exc)}, status=422)

    @api.exception_handler(WorkBusy)
    def busy(request: HttpRequest, exc: WorkBusy) -> HttpResponse:
        response = api.create_response(request, {"detail": str(exc)}, status=503)
        response["Retry-After"] = "2"
        return response

    @api.exception_handler(Exception)
    def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        failure = storage_failure(exc)
        if failure is not None:  # a full disk or a read-only database: the server's state, said in words
            log.error("%s %s: %s", request.method, request.path, failure.cause, exc_info=exc)
            response = api.create_response(request, {"detail": failure.detail}, status=failure.status)
            if failure.retry_after_s:
                response["Retry-After"] = str(failure.retry_after_s)
            return response
        log.exception("unhandled API error on %s %s", request.method, request.path)
        return api.create_response(request, {"detail": "internal error; it has been logged"}, status=500)
