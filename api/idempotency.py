"""Idempotency-Key: a retried write returns the first answer and is never applied twice.

The key is scoped to the match, the caller's token and the key itself; the request is
fingerprinted by its method, routed path and the body's bytes as sent (`fingerprint`): hashing
what arrived costs a few microseconds, where re-serialising the parsed body took about 7 % of a
move's CPU. A retry sends the same bytes; a body changed in any way, even only reformatted, is a
different request. Answers stored before this fingerprint (by version 1.0's, of the parsed body
re-serialised as sorted JSON) still replay: a mismatch is checked against that one too
(`legacy_fingerprint`), once, on the rare replay path. The answer to an accepted write is stored by the application
in the same transaction as the events it reports (`domain.store.recorders`), so a write and its answer
are committed together or not at all, by whichever worker on whichever host ran it. A retry is not
looked up first: it runs, and finds out by being refused, because its events would collide with
the stored answer's key (or it is no longer legal); every refusal of a keyed request then consults
the stored answer and replays it (header `Idempotent-Replayed: true`). That keeps the common path
free of extra store round trips. A refusal that changed nothing is stored too (unless the key was
answered meanwhile), so its retries get the same refusal. Reusing a key for a different request
is a 422.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from domain.application import Accepted, RequestKey
from domain.kernel.errors import RingsideError
from domain.store.recorders import Answer

from .auth import Principal
from .context import ApiContext
from .problems import ApiProblem, ProblemResponse, refusal_body

KEY_HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200
"""The longest key, in characters: the write routes declare it on their header (`routers.play`),
`_request_key` enforces it and `api.hot_path` hands a longer one on to FastAPI's 422."""

async def sent_body(request: Request) -> bytes:
    """The request's body as sent, for its fingerprint: FastAPI has read it already to parse the
    body model (Starlette keeps it), so this is no second read."""
    return await request.body()


SentBody = Annotated[bytes, Depends(sent_body)]
"""A keyed write's raw body, as a route parameter (`api.hot_path` supplies the bytes it read)."""

Respond = Callable[[Any], tuple[int, dict[str, Any]]]
Execute = Callable[[RequestKey | None], Any]
AsyncExecute = Callable[[RequestKey | None], Awaitable[Any]]


def run(ctx: ApiContext, request: Request, principal: Principal, key: str | None, sent: bytes,
        body: BaseModel | None, execute: Execute, respond: Respond) -> Response:
    """Run a write once per key: `execute` performs it with the request key (None without a key:
    spectators write nothing to remember), `respond` turns its result into the answer. `sent` is
    the body as sent (fingerprinted), `body` as parsed (for answers stored under the legacy
    fingerprint)."""
    request_key = _request_key(request, principal, key, sent, respond)
    if request_key is None:  # refusals go to the app's problem handlers as they are
        return _response(*respond(execute(None)))
    try:
        result = execute(request_key)
    except (RingsideError, ApiProblem) as error:
        answer = _refusal(request, request_key, error)
        stored = ctx.ringside.answer(answer.scope)
        if stored is not None:
            return _replay(request, request_key, body, stored)
        ctx.ringside.record_answer(answer)
        return _kept(request, request_key, body, answer, ctx.ringside.answer(answer.scope))
    return _accepted(result, respond)


async def run_async(ctx: ApiContext, request: Request, principal: Principal, key: str | None, sent: bytes,
                    body: BaseModel | None, execute: AsyncExecute, respond: Respond) -> Response:
    """`run` for writes that await the group commit on the event loop instead of holding a thread."""
    request_key = _request_key(request, principal, key, sent, respond)
    if request_key is None:
        return _response(*respond(await execute(None)))
    try:
        result = await execute(request_key)
    except (RingsideError, ApiProblem) as error:
        answer = _refusal(request, request_key, error)
        stored = ctx.ringside.answer(answer.scope)
        if stored is not None:
            return _replay(request, request_key, body, stored)
        await ctx.ringside.record_answer_async(answer)
        return _kept(request, request_key, body, answer, ctx.ringside.answer(answer.scope))
    return _accepted(result, respond)


def fingerprint(method: str, path: str, sent: bytes) -> str:
    """What a key was first used for: the method, the path as routed and the body's exact bytes."""
    digest = hashlib.sha256(f"{method}\n{path}\n".encode("utf-8", "surrogatepass"))
    digest.update(sent)
    return digest.hexdigest()


def legacy_fingerprint(method: str, path: str, body: BaseModel | None) -> str:
    """The fingerprint answers were stored under before `fingerprint`: the parsed body (None for
    a write without one), re-serialised as sorted JSON."""
    payload = None if body is None else body.model_dump(mode="json")
    return hashlib.sha256(json.dumps([method, path, payload], sort_keys=True, default=str).encode()).hexdigest()


def _request_key(request: Request, principal: Principal, key: str | None, sent: bytes,
                 respond: Respond) -> RequestKey | None:
    if key is None or not principal.authenticated:
        return None
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isprintable():
        rule = f"1–{MAX_KEY_LENGTH} printable characters"
        raise ApiProblem(422, "invalid-idempotency-key", f"{KEY_HEADER} must be {rule}",
                         errors=[{"field": f"header.{KEY_HEADER}", "message": rule}])
    match_id = request.path_params.get("match_id", "")
    scope = hashlib.sha256(f"{match_id}\n{principal.token_hash or '-'}\n{key}".encode()).hexdigest()
    # the path as routed (`request.url` would build a whole URL per write for the same text)
    return RequestKey(scope, fingerprint(request.method, request.scope["path"], sent), respond)


def _refusal(request: Request, key: RequestKey, error: RingsideError | ApiProblem) -> Answer:
    """The problem+json answer to a refused request, as it would be stored under its key."""
    body = refusal_body(error, request.url.path)
    assert body is not None  # both kinds are refusals
    return Answer(key.scope, key.fingerprint, int(body["status"]), json.dumps(body))


def _kept(request: Request, key: RequestKey, body: BaseModel | None, refusal: Answer,
          stored: Answer | None) -> JSONResponse:
    """This request's refusal once stored, unless a duplicate's answer took the key first."""
    if stored is None or stored == refusal:
        return _response(refusal.status, json.loads(refusal.body))
    return _replay(request, key, body, stored)


def _replay(request: Request, key: RequestKey, body: BaseModel | None, stored: Answer) -> JSONResponse:
    """The key's first answer, if it was for this same request (by either fingerprint)."""
    if stored.fingerprint != key.fingerprint and \
            stored.fingerprint != legacy_fingerprint(request.method, request.scope["path"], body):
        raise ApiProblem(422, "idempotency-key-reused",
                         "this Idempotency-Key was already used for a different request")
    return _response(stored.status, json.loads(stored.body), replayed=True)


def _accepted(result: Any, respond: Respond) -> Response:
    """The answer to a keyed write that went through: the very bytes stored under its key."""
    if isinstance(result, Accepted) and result.answer is not None:
        return Response(result.answer.body, status_code=result.answer.status, media_type="application/json")
    return _response(*respond(result))


def _response(status: int, body: dict[str, Any], replayed: bool = False) -> JSONResponse:
    headers = {"Idempotent-Replayed": "true"} if replayed else None
    if status >= 400:
        return ProblemResponse(body, status_code=status, headers=headers)
    return JSONResponse(body, status_code=status, headers=headers)
