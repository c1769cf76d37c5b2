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
- a body that does not parse or validate (FastAPI gives the field-by-field 422);
- an `Idempotency-Key` header that is repeated or too long for the route's declared header.

The FastAPI routes stay the documented ones in `/docs`, and they answer what is handed on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .auth import Principal, principal_for
from .context import ApiContext
from .problems import fault_problem, refusal_problem, too_large
from .routers.play import move_answer, outcome_answer
from .schemas import MoveIn, OutcomeIn

Answer = Callable[[ApiContext, Request, UUID, Any, Principal, "str | None"], Awaitable[Response]]

ROUTES: dict[str, tuple[type[BaseModel], Answer]] = {
    "moves": (MoveIn, move_answer),
    "outcomes": (OutcomeIn, outcome_answer),
}
_PATH = re.compile(r"/matches/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/(moves|outcomes)")
MAX_KEY_LENGTH = 200  # the routes' declared Idempotency-Key header


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
        model, answer = ROUTES[found.group(2)]
        try:
            parsed = model.model_validate(json.loads(body))
        except Exception:  # FastAPI parses it again and answers with its own 422
            await self.app(scope, _replay(body, receive), send)
            return
        match_id = UUID(found.group(1))
        request = Request({**scope, "path_params": {"match_id": match_id}})
        try:
            principal = principal_for(self.ctx.store, request, match_id)
            response = await answer(self.ctx, request, match_id, parsed, principal, headers.get("key"))
        except Exception as error:
            response = refusal_problem(error, scope["path"]) or fault_problem("POST", scope["path"], error)
        await response(scope, receive, send)


def _headers(scope: Scope, limit: int) -> dict[str, str] | None:
    """The Idempotency-Key, if this request's headers are ones this layer answers as FastAPI would
    (a declared length over the limit is left to `BodyLimit`'s 413)."""
    json_body = False
    keys: list[bytes] = []
    for name, value in scope["headers"]:
        if name == b"content-type":
            json_body = value.partition(b";")[0].strip().lower() == b"application/json"
        elif name == b"idempotency-key":
            keys.append(value)
        elif name == b"content-length" and value.isdigit() and int(value) > limit:
            return None
    if not json_body or len(keys) > 1 or (keys and len(keys[0]) > MAX_KEY_LENGTH):
        return None
    return {"key": keys[0].decode("latin-1")} if keys else {}


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
