"""The two hot writes, `POST /matches/{id}/moves` and `/outcomes`, answered below FastAPI's
per-request machinery.

Why: FastAPI's routing, dependency solving and handler wrapping cost more CPU per move than the
rules check, hash chain, signature and commit together. Profiled with py-spy under load, they were
about 0.8 of the 1.7 ms a move took on the event loop, and the event loop is what caps a worker's
write rate. This layer answers with the very code of the FastAPI routes (`play.move_answer`,
`play.outcome_answer`). It uses the same body models, the same principal lookup and the same
problem+json refusals, so an answer does not depend on which layer gave it.

It runs in front of FastAPI's whole middleware stack, which costs a few percent more, so it
keeps that stack's promises itself: the body limit (413) and a logged 500 problem for a fault.
Everything this layer would not answer exactly as FastAPI does, it hands on untouched, body
included:
- another method or path shape, or a root path;
- a declared body length over the limit (`BodyLimit` answers);
- a content type other than `application/json`;
- a body that does not parse or validate (FastAPI gives the field-by-field 422). This layer parses
  with pydantic's JSON parser, FastAPI with `json.loads`: where they differ (a lone surrogate,
  NaN, a number beyond a float, a text that is not UTF-8), pydantic's refuses and the request is
  handed on, so FastAPI's reading is the one that counts;
- an `Idempotency-Key` header that is repeated or too long for the route's declared header.

The FastAPI routes stay the documented ones in `/docs`, and they answer what is handed on.

What it reproduces is declared here, and checked against the app by tests/api/test_hot_path.py:
the routes it stands in for (`ROUTES`, matched by the routes' own path constants), their
dependencies (`SUPPLIED`), every layer of the middleware stack (`MIDDLEWARE`) and every exception
handler (`HANDLERS`). A route, dependency, parameter, middleware or handler added later that this
layer would pass over fails that test until it is reproduced here and declared.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .auth import Principal, principal_of
from .context import ApiContext, caller, context
from .idempotency import KEY_HEADER, MAX_KEY_LENGTH, sent_body
from .problems import fault_problem, refusal_problem, too_large
from .routers.play import (
    MATCH_PATH,
    MOVES_PATH,
    OUTCOMES_PATH,
    move_answer,
    outcome_answer,
    submit_move,
    submit_outcome,
)
from .schemas import MoveIn, OutcomeIn

Answer = Callable[[ApiContext, Request, UUID, Any, Principal, "str | None", bytes], Awaitable[Response]]


@dataclass(frozen=True)
class HotRoute:
    """A write answered here: the FastAPI endpoint it stands in for, the body model both validate
    with, and the answer both give (the endpoint is a call of it)."""

    endpoint: Callable[..., Awaitable[Response]]
    model: type[BaseModel]
    answer: Answer


ROUTES: dict[str, HotRoute] = {
    MOVES_PATH: HotRoute(submit_move, MoveIn, move_answer),
    OUTCOMES_PATH: HotRoute(submit_outcome, OutcomeIn, outcome_answer),
}
"""By path under MATCH_PATH, as `routers.play` declares them."""

SUPPLIED: dict[Callable[..., Any], str] = {
    context: "the worker's context: `HotWrites.ctx`",
    caller: "the principal: `principal_of` (what `caller`'s `principal_for` calls) on the Authorization "
            "header read by `_headers`",
    sent_body: "the body's bytes, as read here (`_read_body`)",
}
"""The routes' dependencies, each with what this layer gives the answer in its place. Their other
parameters are the match ID in the path, the body (`HotRoute.model`) and the key header."""

MIDDLEWARE: dict[str, str] = {
    "starlette.middleware.errors.ServerErrorMiddleware":
        "a fault is logged and answered with `fault_problem`, as the app's Exception handler does",
    "fastapi.telemetry._asgi.ExceptionTelemetryMiddleware":
        "records only for a traced server, and a traced server has no hot path (`create_app`)",
    "fastapi._body_limit.AppBodyLimitMiddleware":
        "does nothing while FastAPI's own `max_body_size` is unset; `BodyLimit` is the limit",
    "api.app.BodyLimit":
        "a declared length over the limit is handed on (`_headers`), a body growing past it is a 413 (`_read_body`)",
    "starlette.middleware.exceptions.ExceptionMiddleware":
        "the app's exception handlers, each in `HANDLERS`",
    "fastapi.middleware.asyncexitstack.AsyncExitStackMiddleware":
        "closes uploaded files; these bodies are JSON, never files",
}
"""Every layer of the app's middleware stack (this layer runs in front of all of them), by class,
with how its promise is kept here."""

_REFUSAL = "a refusal: answered with `refusal_problem`, as its handler does"
_FAULT = "a fault: answered with `fault_problem`, as its handler does"
HANDLERS: dict[str, str] = {
    "domain.kernel.errors.RingsideError": _REFUSAL,
    "api.problems.ApiProblem": _REFUSAL,
    "domain.kernel.canonical.NotCanonicalError": _REFUSAL,
    "builtins.Exception": _FAULT,
    "builtins.OSError": _FAULT,
    "sqlite3.OperationalError": _FAULT,
    "eventsourcing.persistence.OperationalError": _FAULT,
    "psycopg.OperationalError": _FAULT,
    "fastapi.exceptions.RequestValidationError": "raised by FastAPI's parsing only: a body that does not validate "
                                                 "here is handed on to it",
    "fastapi.exceptions.WebSocketRequestValidationError": "websockets only",
    "starlette.exceptions.HTTPException": "raised by FastAPI's router and request parsing, neither used here "
                                          "(this layer's own refusals are ApiProblem)",
}
"""Every exception type the app has a handler for, with how this layer answers it the same way."""

CANONICAL_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
"""A match ID as this layer answers it; the route also takes other spellings, handed on to it."""
_PATH = re.compile(re.escape(MATCH_PATH).replace(re.escape("{match_id}"), f"({CANONICAL_UUID})")
                   + "(" + "|".join(map(re.escape, ROUTES)) + ")")
_KEY_HEADER = KEY_HEADER.lower().encode("latin-1")


class HotWrites:
    """The ASGI entry of `RingsideAPI`: the two hot writes answered here, the rest handed on to
    FastAPI's middleware stack and router (`app`)."""

    def __init__(self, app: ASGIApp, ctx: ApiContext) -> None:
        self.app = app
        self.ctx = ctx

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _PATH.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" \
            and not scope.get("root_path") else None
        headers = _headers(scope, self.ctx.settings.max_body_bytes) if found else None
        if found is None or headers is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive, self.ctx.settings.max_body_bytes, scope["path"])
        if body is None:  # the client went away before sending its body
            return
        if isinstance(body, Response):
            await body(scope, receive, send)
            return
        route = ROUTES[found.group(2)]
        try:  # pydantic's own JSON parser: half the time of json.loads and a validation of its result
            parsed = route.model.model_validate_json(body)
        except Exception:  # FastAPI parses it again (json.loads) and answers with its own 422
            await self.app(scope, _replay(body, receive), send)
            return
        match_id = UUID(found.group(1))
        request = Request({**scope, "path_params": {"match_id": match_id}})
        try:
            principal = principal_of(self.ctx.store, headers.get("authorization"), match_id)
            response = await route.answer(self.ctx, request, match_id, parsed, principal, headers.get("key"), body)
        except Exception as error:
            response = refusal_problem(error, scope["path"]) or fault_problem("POST", scope["path"], error)
        await response(scope, receive, send)


def _headers(scope: Scope, limit: int) -> dict[str, str] | None:
    """The Idempotency-Key and the (first) Authorization, if this request's headers are ones this
    layer answers as FastAPI would (a declared length over the limit is left to `BodyLimit`'s 413).
    Read in this one pass over the headers, as Starlette's `Headers` would read them, without
    building it."""
    json_body = False
    keys: list[bytes] = []
    found: dict[str, str] = {}
    for name, value in scope["headers"]:
        if name == b"content-type":
            json_body = value.partition(b";")[0].strip().lower() == b"application/json"
        elif name == _KEY_HEADER:
            keys.append(value)
        elif name == b"authorization" and "authorization" not in found:
            found["authorization"] = value.decode("latin-1")
        elif name == b"content-length" and value.isdigit() and int(value) > limit:
            return None
    if not json_body or len(keys) > 1 or (keys and len(keys[0]) > MAX_KEY_LENGTH):
        return None
    if keys:
        found["key"] = keys[0].decode("latin-1")
    return found


async def _read_body(receive: Receive, limit: int, path: str) -> bytes | Response | None:
    """The whole body; a 413 once it grows past the limit (a body sent without its length)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return too_large(limit, path)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive channel that gives the already-read body again, then the client's own messages."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed
