"""The FastAPI application: one Ringside per worker process, problem+json for every error.

Most endpoints are sync (the eventsourcing library is synchronous; FastAPI runs them in its thread
pool). Moves and outcomes are async and usually answered by `api.hot_path` in front of the router."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.telemetry import TelemetryConfig
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.application import Ringside
from domain.plugins import install_games

from . import docs, problems
from .context import ApiContext, ApiSettings
from .hot_path import HotWrites
from .housekeeping import prune_answers_periodically
from .problems import PROBLEM_MEDIA_TYPE, Problem
from .routers import audit, commentary, games, matches, play
from .store import ApiStore
from .viewer import pages

DESCRIPTION = """\
Ringside records tabletop matches as hash-chained, signed event logs.

**Auth.** Creating a match returns one token per seat, an arbiter token and a recorder token, once.
Send one as `Authorization: Bearer <token>`; without a token you are a spectator. Every read is
redacted for the caller's viewer.

**Errors** are `application/problem+json` (RFC 9457) with a stable `code`: illegal moves are 422 with
`rule`, `rule_title` and `reason`, stale versions 409 with `current_version`, schema errors 422 with `errors[].field`.

**Idempotency.** Writes take an `Idempotency-Key` header: a retry returns the first answer.
"""

TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


def create_app(ringside: Ringside | None = None, *, data_dir: Path | str | None = None,
               store: str | None = None, settings: ApiSettings | None = None) -> FastAPI:
    """The API over `ringside` (or a Ringside opened on `data_dir` / `store`)."""
    install_games()
    owned = ringside is None
    application = ringside or Ringside.open(data_dir=data_dir, store=store)
    ctx = ApiContext(application, ApiStore(application.settings), settings or ApiSettings())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        retention = ctx.settings.answer_retention
        pruning = asyncio.create_task(prune_answers_periodically(application, retention)) if retention else None
        yield
        if pruning is not None:
            pruning.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pruning
        ctx.store.close()
        if owned:
            application.close()

    telemetry: TelemetryConfig | None = None if ctx.settings.opentelemetry else TELEMETRY_OFF
    app = RingsideAPI(title="Ringside", version="1.0.0", description=DESCRIPTION, lifespan=lifespan,
                      telemetry=telemetry, docs_url=None, redoc_url=None)
    app.state.ctx = ctx
    problems.install(app)
    docs.install(app)  # served from here: a hall without internet still has its docs
    pages.install(app)  # the replay viewer, at / (the match list) and /view/{match_id}

    app.add_middleware(BodyLimit, settings=ctx.settings)
    if not ctx.settings.opentelemetry:  # traced servers send every request through FastAPI's hooks
        app.hot_writes = HotWrites(app.routed, ctx)

    for module in (games, matches, play, commentary, audit):
        app.include_router(module.router)

    @app.get("/health", tags=["meta"], summary="Liveness: the process serves requests (and which store it uses)")
    async def health() -> dict[str, Any]:
        return {"ok": True, "store": "postgresql" if application.settings.is_postgres else "sqlite",
                "key_id": application.key.key_id}

    @app.get("/stats", tags=["meta"], summary="This worker process's group commit: the transactions its writer "
                                              "committed and the commands (moves, outcomes) in them")
    async def stats() -> dict[str, Any]:
        """Per worker, since it started: with several workers, each answers for itself (`worker` is
        its process ID). How many commands share a transaction is what the write benchmark
        compares with a raw save of as many aggregates at once."""
        commits = application.commit_stats()
        return {"worker": os.getpid(), "group_commit": {"batches": commits.batches, "commands": commits.commands}}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, description=app.description,
                             routes=app.routes)
        _problem_everywhere(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


class RingsideAPI(FastAPI):
    """FastAPI, with moves and outcomes answered in front of its middleware stack (`api.hot_path`
    says why, and hands everything else on to `routed`)."""

    hot_writes: HotWrites | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.hot_writes is not None and scope["type"] == "http":
            await self.hot_writes(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def routed(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request through FastAPI's middleware and router, as any other."""
        await super().__call__(scope, receive, send)


class BodyLimit:
    """Refuse oversized bodies: at once when the declared length is over the limit, else as soon as
    the bytes received pass it (a body sent in chunks, without its length). Bodies are counted as
    they arrive, never held here, so no request makes the server hold more than the limit
    (bundles have their own, larger limit).

    A plain ASGI middleware: Starlette's `BaseHTTPMiddleware` would wrap every response in a
    stream and cost more per request than recording a move does."""

    def __init__(self, app: ASGIApp, settings: ApiSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        limit = self.settings.max_bundle_bytes if path in ("/bundles", "/verify") else self.settings.max_body_bytes
        length = next((value for name, value in scope["headers"] if name == b"content-length"), b"")
        if length.isdigit() and int(length) > limit:
            await problems.too_large(limit, path)(scope, receive, send)
            return
        guard = _CountedBody(scope, receive, send, limit)
        await self.app(scope, guard.receive, guard.send)


class _CountedBody:
    """One request's body, counted message by message. Past the limit the client is answered 413
    at once, the application is told that the client went away (so it stops reading and drops what
    it read), and whatever the application answers after that is dropped."""

    def __init__(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        self._scope = scope
        self._receive = receive
        self._send = send
        self._limit = limit
        self._size = 0
        self._started = False
        self._refused = False

    async def receive(self) -> Message:
        if self._refused:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.request":
            self._size += len(message.get("body", b""))
            if self._size > self._limit:
                self._refused = True
                if not self._started:
                    self._started = True
                    await problems.too_large(self._limit, self._scope["path"])(self._scope, self._receive, self._send)
                return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if self._refused:
            return
        if message["type"] == "http.response.start":
            self._started = True
        await self._send(message)


def _problem_everywhere(schema: dict[str, Any]) -> None:
    """Document FastAPI's own 422 answers as the problem+json they really are, and add bearer auth."""
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Problem"] = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, sub in schemas["Problem"].pop("$defs", {}).items():
        schemas.setdefault(name, sub)
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    problem_content = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    components["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer",
                                                "description": "a seat, arbiter or recorder token"}}
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                if status.startswith(("4", "5")):
                    response["content"] = problem_content
            if "{match_id}" in path:
                operation["security"] = [{"bearer": []}, {}]
                responses.setdefault("401", {"description": "unknown token", "content": problem_content})
                responses.setdefault("403", {"description": "not allowed", "content": problem_content})
                responses.setdefault("404", {"description": "unknown match", "content": problem_content})
            responses.setdefault("422", {"description": "invalid input", "content": problem_content})


def app_from_env() -> FastAPI:
    """Factory for uvicorn workers: the store comes from RINGSIDE_DATA_DIR / RINGSIDE_DATABASE_URL.

    Everything built so far (modules, schemas, the application) lives as long as the worker, so
    it is moved out of the garbage collector's sight (`gc.freeze`): otherwise every full
    collection walks it again, a pause of about 30 ms under load, measured here, that every move
    in flight waits out. Only the served worker does this: a process that builds many apps (the
    tests) would keep their garbage forever."""
    app = create_app(data_dir=os.environ.get("RINGSIDE_DATA_DIR") or None,
                     store=os.environ.get("RINGSIDE_DATABASE_URL") or None,
                     settings=ApiSettings.from_env())
    gc.collect()
    gc.freeze()
    return app
