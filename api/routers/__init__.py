"""The API's routers, one per area. Shared OpenAPI error responses live here."""

from __future__ import annotations

from typing import Any

from ..problems import PROBLEM_MEDIA_TYPE, Problem

_PROBLEM = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem+json answers a route can give."""
    text = {400: "Bad request", 401: "No or unknown token", 403: "Not allowed for this token",
            404: "Unknown match, game or resource", 409: "Stale version or conflicting state",
            413: "Too large", 422: "Invalid input, illegal move (with rule ID) or schema error (with field)"}
    return {status: {"description": text.get(status, "Problem"), "model": Problem, "content": _PROBLEM}
            for status in statuses}


READ = problems(401, 403, 404, 422)
WRITE = problems(401, 403, 404, 409, 422)
