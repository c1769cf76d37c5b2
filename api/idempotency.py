"""Idempotency-Key: a retried write returns the first answer and is never applied twice.

The key is scoped to the match, the caller's token and the key itself. Before executing, the
request claims the key in the API store (one atomic insert, shared by every worker on every host);
the final answer (success or problem) is stored under the claim and replayed verbatim to retries
(header `Idempotent-Replayed: true`). A retry arriving while the first is still running waits for
it; a claim whose outcome was never stored (the worker died mid-request) is never re-executed: the
retry gets 409 and must reload the match. Reusing a key for a different request is a 422.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from domain.kernel.errors import RingsideError

from .auth import Principal
from .context import ApiContext
from .problems import PROBLEM_MEDIA_TYPE, ApiProblem, problem_body, ringside_error_body

Execute = Callable[[], tuple[int, dict[str, Any]]]


def _response(status: int, body: dict[str, Any], replayed: bool = False) -> JSONResponse:
    headers = {"Idempotent-Replayed": "true"} if replayed else None
    media = PROBLEM_MEDIA_TYPE if status >= 400 else "application/json"
    return JSONResponse(body, status_code=status, media_type=media, headers=headers)


def _outcome(request: Request, execute: Execute) -> tuple[int, dict[str, Any]]:
    try:
        return execute()
    except RingsideError as error:
        body = ringside_error_body(error, request.url.path)
        return int(body["status"]), body
    except ApiProblem as error:
        body = problem_body(error.status, error.code, error.detail, request.url.path, **error.extra)
        return error.status, body


def run(ctx: ApiContext, request: Request, principal: Principal, key: str | None, payload: Any,
        execute: Execute) -> JSONResponse:
    """Run a write once per key; without a key, just run it."""
    if key is None or not principal.authenticated:  # spectators write nothing: nothing to remember
        status, body = execute_plain(execute)
        return _response(status, body)
    if not 1 <= len(key) <= 200 or not key.isprintable():
        raise ApiProblem(422, "invalid-idempotency-key", "Idempotency-Key must be 1–200 printable characters",
                         errors=[{"field": "header.Idempotency-Key", "message": "1–200 printable characters"}])
    match_id = request.path_params.get("match_id", "")
    scope = hashlib.sha256(f"{match_id}\n{principal.token_hash or '-'}\n{key}".encode()).hexdigest()
    fingerprint = hashlib.sha256(json.dumps([request.method, request.url.path, payload], sort_keys=True,
                                            default=str).encode()).hexdigest()
    claim = ctx.store.claim(scope, fingerprint)
    if claim.state == "claimed":
        status, body = _outcome(request, execute)
        ctx.store.complete(scope, status, json.dumps(body))
        return _response(status, body)
    if claim.state == "mismatch":
        raise ApiProblem(422, "idempotency-key-reused",
                         "this Idempotency-Key was already used for a different request")
    deadline = time.monotonic() + ctx.settings.idempotency_wait_seconds
    while claim.state == "pending" and time.monotonic() < deadline:
        time.sleep(0.05)
        claim = ctx.store.lookup(scope) or claim
    if claim.state == "done":
        assert claim.status is not None and claim.body is not None
        return _response(claim.status, json.loads(claim.body), replayed=True)
    raise ApiProblem(409, "idempotency-pending",
                     "a request with this Idempotency-Key has not finished (or its worker stopped): "
                     "reload the match before trying again with a new key")


def execute_plain(execute: Execute) -> tuple[int, dict[str, Any]]:
    return execute()
