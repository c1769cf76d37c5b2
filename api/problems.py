"""problem+json (RFC 9457) for every refusal: kernel errors, validation errors, HTTP errors.

Every error body has `type`, `title`, `status`, `detail` and the stable `code`; rule violations add
`rule`, `rule_title` and `reason`, stale versions `current_version`, validation errors `errors` with
each field, unknown rule IDs `suggestions`.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.kernel.canonical import NotCanonicalError
from domain.kernel.errors import IllegalMoveError, InvalidPositionError, RingsideError, StaleVersionError
from domain.kernel.rule_texts import rule_title
from domain.store.storage import storage_full

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "urn:ringside:problem:"
log = logging.getLogger("ringside.api")

TITLES = {
    400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found",
    405: "Method not allowed", 409: "Conflict", 413: "Payload too large", 415: "Unsupported media type",
    422: "Unprocessable content", 500: "Internal server error", 503: "Service unavailable",
    507: "Insufficient storage",
}


class FieldError(BaseModel):
    field: str
    message: str


class Problem(BaseModel):
    """An RFC 9457 problem document."""

    model_config = ConfigDict(extra="allow")

    type: str
    title: str
    status: int
    detail: str
    code: str
    instance: str | None = None
    rule: str | None = None
    rule_title: str | None = None
    """The rule's title (GET /games/{game}/rules/{rule} has its text), so the ID means something."""
    reason: str | None = None
    current_version: int | None = None
    expected_version: int | None = None
    errors: list[FieldError] | None = None
    suggestions: list[str] | None = None


class ApiProblem(Exception):
    """A refusal raised by the API layer itself (auth, idempotency, limits)."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


def problem_body(status: int, code: str, detail: str, instance: str | None = None,
                 **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": PROBLEM_BASE + code, "title": TITLES.get(status, "Error"),
                            "status": status, "detail": detail, "code": code}
    if instance:
        body["instance"] = instance
    body.update({key: value for key, value in extra.items() if value is not None})
    return body


class ProblemResponse(JSONResponse):
    """A problem document that always renders: a field that echoes the request (a path, a key)
    may hold a lone surrogate, which has no UTF-8 bytes; it is then sent as JSON's own escape."""

    media_type = PROBLEM_MEDIA_TYPE

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def problem_response(body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return ProblemResponse(body, status_code=int(body["status"]), headers=headers)


def ringside_error_body(error: RingsideError, instance: str | None = None) -> dict[str, Any]:
    details = dict(error.details)
    extra: dict[str, Any] = {}
    if isinstance(error, StaleVersionError):
        extra["current_version"] = details.pop("current", error.current)
        extra["expected_version"] = details.pop("expected", None)
    for key, value in details.items():
        if key not in ("type", "title", "status", "detail", "code", "instance"):
            extra[key] = value
    if isinstance(error, IllegalMoveError | InvalidPositionError):
        extra["rule_title"] = rule_title(error.rule)
    return problem_body(error.status, error.code, error.message, instance, **extra)


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(part) for part in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        where, rest = parts[0], parts[1:]
        return f"{where}.{'.'.join(rest)}" if rest else where
    return ".".join(parts) or "(request)"


def validation_body(error: RequestValidationError, instance: str | None = None) -> dict[str, Any]:
    errors = [{"field": _field(item.get("loc", ())), "message": str(item.get("msg", "invalid"))}
              for item in error.errors()]
    first = errors[0] if errors else {"field": "(request)", "message": "invalid request"}
    return problem_body(422, "validation-error", f"{first['field']}: {first['message']}", instance,
                        errors=errors)


def too_large(limit: int, path: str) -> JSONResponse:
    """413, and the connection is closed after it: the rest of the body is never read."""
    return problem_response(problem_body(413, "too-large", f"the request body may be at most {limit} bytes", path),
                            {"Connection": "close"})


STORAGE_FULL_DETAIL = ("the server's store is full, so nothing was recorded: free disk space on the server "
                       "(or raise the database's quota) and send the request again; reads still work")


def fault_problem(method: str, path: str, error: BaseException) -> JSONResponse:
    """The answer to a fault: a full store is said plainly (507, nothing was recorded, a retry
    may succeed later); anything else (a bug, a store failure) is logged with its traceback and
    never shown."""
    if storage_full(error):
        log.error("the store is full: %s %s was not recorded (%s)", method, path, error)
        return problem_response(problem_body(507, "storage-full", STORAGE_FULL_DETAIL, path), {"Retry-After": "60"})
    log.error("unexpected error on %s %s", method, path, exc_info=error)
    return problem_response(problem_body(500, "internal-error", "the server failed unexpectedly", path))


def refusal_body(error: Exception, path: str) -> dict[str, Any] | None:
    """The problem document for a refusal raised by the kernel or the API layer; None for anything
    else (a fault, which the 500 handler answers). The handlers below, `api.hot_path` and the
    answers stored under idempotency keys all take it from here."""
    if isinstance(error, RingsideError):
        return ringside_error_body(error, path)
    if isinstance(error, ApiProblem):
        return problem_body(error.status, error.code, error.detail, path, **error.extra)
    if isinstance(error, NotCanonicalError):
        return problem_body(422, "not-canonical", str(error), path)
    return None


def refusal_problem(error: Exception, path: str) -> JSONResponse | None:
    """`refusal_body` as a response (with an ApiProblem's headers, such as WWW-Authenticate)."""
    body = refusal_body(error, path)
    if body is None:
        return None
    return problem_response(body, error.headers if isinstance(error, ApiProblem) else None)


def install(app: FastAPI) -> None:
    """Register the exception handlers that turn every error into problem+json."""

    async def _refusal(request: Request, error: Exception) -> JSONResponse:
        response = refusal_problem(error, request.url.path)
        assert response is not None  # registered only for the refusal types
        return response

    for refusal in (RingsideError, ApiProblem, NotCanonicalError):
        app.add_exception_handler(refusal, _refusal)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return problem_response(validation_body(error, request.url.path))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not-found", 405: "method-not-allowed"}.get(error.status_code, "http-error")
        detail = error.detail if isinstance(error.detail, str) else TITLES.get(error.status_code, "error")
        if error.status_code == 400:  # an unreadable body is a schema error like any other
            if isinstance(error.__cause__, RecursionError):  # JSON nested deeper than the reader goes
                detail = "it is nested too deeply to read (at most 32 levels are accepted)"
            return problem_response(problem_body(422, "malformed-body", f"the request body: {detail}",
                                                 request.url.path, errors=[{"field": "body", "message": detail}]))
        if error.status_code == 404 and detail == "Not Found":
            detail = f"no resource at {request.url.path}"
        return problem_response(problem_body(error.status_code, code, detail, request.url.path),
                                dict(error.headers or {}))

    async def _fault(request: Request, error: Exception) -> JSONResponse:
        return fault_problem(request.method, request.url.path, error)

    # The store's own failures (a full disk among them) are answered here rather than by the
    # catch-all below, which Starlette runs in its outermost layer and then re-raises.
    for store_error in _store_errors():
        app.add_exception_handler(store_error, _fault)
    app.add_exception_handler(Exception, _fault)


def _store_errors() -> list[type[Exception]]:
    import sqlite3

    from eventsourcing.persistence import OperationalError

    errors: list[type[Exception]] = [OperationalError, sqlite3.OperationalError, OSError]
    try:
        import psycopg

        errors.append(psycopg.OperationalError)
    except ImportError:  # pragma: no cover - psycopg is a dependency
        pass
    return errors
