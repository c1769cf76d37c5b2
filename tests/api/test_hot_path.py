"""The hot path (`api.hot_path`) answers moves and outcomes in front of FastAPI. Whatever it
answers must be exactly what the FastAPI routes answer, and whatever it cannot answer the same
way it must hand on untouched.

In-process: one application served twice, through its entry (hot path first) and through
`RingsideAPI.routed` (FastAPI's stack and router only). Both get the same requests and must give
the same status, media type and body. A keyed retry through one path must replay the answer the
other path stored. Over real HTTP: the cases handed on (schema errors, other media types, an
over-long key, an oversized body) keep FastAPI's answers and change nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest
from annotated_types import MaxLen
from fastapi import Depends, FastAPI, Request
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.testclient import TestClient
from starlette.responses import JSONResponse
from starlette.routing import Match as RouteMatch
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.app import RingsideAPI, create_app
from api.context import ApiSettings
from api.hot_path import HANDLERS, MIDDLEWARE, ROUTES, SUPPLIED, HotRoute
from api.idempotency import KEY_HEADER, MAX_KEY_LENGTH
from api.routers.play import MATCH_PATH, MOVES_PATH, submit_move
from domain.application import Ringside

from .support import Match, bearer, create

Shape = set[tuple[Any, ...]]


@pytest.fixture
def paths(sqlite_app: Ringside) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(sqlite_app)
    assert isinstance(app, RingsideAPI)
    yield TestClient(app, raise_server_exceptions=False), TestClient(app.routed, raise_server_exceptions=False)


def _same(hot: TestClient, routed: TestClient, path: str, body: Any, headers: dict[str, str]) -> httpx.Response:
    """Send one request both ways; they must answer alike. Returns the hot path's answer."""
    first = hot.post(path, json=body, headers=headers)
    second = routed.post(path, json=body, headers=headers)
    assert (first.status_code, first.headers["content-type"], first.json()) == \
        (second.status_code, second.headers["content-type"], second.json()), path
    return first


def test_every_refusal_is_answered_alike_by_both_paths(paths: tuple[TestClient, TestClient]) -> None:
    hot, routed = paths
    match = create(hot)  # type: ignore[arg-type]
    other = create(hot, players=["solo"], variant="solo")  # type: ignore[arg-type]
    decision = hot.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    seat, head = decision["decision"]["seats"][0], decision["version"]
    refusals: list[tuple[str, dict[str, Any], dict[str, str], int]] = [
        ("/moves", {"move": {"type": "play", "card": 99}}, bearer(match.seat(seat)), 422),  # TG-1.2
        ("/moves", {"move": {"type": "dance"}}, bearer(match.seat(seat)), 422),
        ("/moves", {"move": {"type": "pass"}, "expected_version": 1}, bearer(match.seat(seat)), 409),
        ("/moves", {"move": {"type": "pass"}}, bearer(match.seat(1 - seat)), 409),
        ("/moves", {"move": {"type": "pass"}}, {}, 401),
        ("/moves", {"move": {"type": "pass"}}, bearer("rs_unknown"), 401),
        ("/moves", {"move": {"type": "pass"}}, {"Authorization": "Basic abc"}, 401),
        ("/moves", {"move": {"type": "pass"}}, bearer(other.seat(0)), 403),
        ("/moves", {"move": {"type": "pass"}, "seat": 1 - seat}, bearer(match.seat(seat)), 403),
        ("/moves", {"move": {"type": "pass"}}, bearer(match.arbiter), 422),
        ("/moves", {"move": {"type": "pass"}, "seat": seat}, bearer(match.recorder), 403),
        ("/moves", {"move": {"type": "pass"}}, {**bearer(match.seat(seat)), "Idempotency-Key": ""}, 422),
        ("/outcomes", {"outcome": 3}, bearer(match.seat(seat)), 403),
        ("/outcomes", {"outcome": 3}, bearer(match.recorder), 403),
    ]
    for suffix, body, headers, status in refusals:
        answer = _same(hot, routed, match.path(suffix), body, headers)
        assert answer.status_code == status, (suffix, body, answer.json())
        assert answer.headers["content-type"] == "application/problem+json"
    assert hot.get(match.path(), headers=bearer(match.arbiter)).json()["version"] == head  # nothing was recorded
    unknown = f"/matches/{uuid.uuid4()}/moves"
    assert _same(hot, routed, unknown, {"move": {"type": "pass"}}, {}).status_code == 404
    assert _same(hot, routed, unknown, {"move": {"type": "pass"}}, bearer(match.arbiter)).status_code == 403


@pytest.mark.parametrize("first_path", [0, 1], ids=["hot-then-routed", "routed-then-hot"])
def test_a_keyed_move_is_replayed_byte_for_byte_by_the_other_path(paths: tuple[TestClient, TestClient],
                                                                  first_path: int) -> None:
    """Both paths fingerprint a request the same way: a retry through the other one is a replay."""
    first, retry = paths if first_path == 0 else paths[::-1]
    match = create(paths[0], players=["solo"], variant="solo")  # type: ignore[arg-type]
    headers = {**bearer(match.seat(0)), "Idempotency-Key": "key-1"}
    body = {"move": {"type": "pass"}, "expected_version": match.data["version"]}
    accepted = first.post(match.path("/moves"), json=body, headers=headers)
    replayed = retry.post(match.path("/moves"), json=body, headers=headers)
    assert accepted.status_code == replayed.status_code == 200
    assert replayed.headers["idempotent-replayed"] == "true" and replayed.json() == accepted.json()
    reused = retry.post(match.path("/moves"), json={**body, "claimed_at": "later"}, headers=headers)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency-key-reused"
    assert paths[0].get(match.path()).json()["version"] == accepted.json()["version"]


def test_a_fault_on_the_hot_path_is_a_logged_500_problem(paths: tuple[TestClient, TestClient],
                                                         sqlite_app: Ringside, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    hot, _ = paths
    match = create(hot, players=["solo"], variant="solo")  # type: ignore[arg-type]

    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(sqlite_app, "submit_move_async", broken)
    answer = hot.post(match.path("/moves"), json={"move": {"type": "pass"}}, headers=bearer(match.seat(0)))
    assert answer.status_code == 500 and answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "internal-error" and "fire" not in answer.text
    assert any("the disk is on fire" in str(record.exc_info) for record in caplog.records)


def test_a_traced_server_sends_moves_through_fastapi(sqlite_app: Ringside) -> None:
    """With OpenTelemetry on, FastAPI's hooks must see every request: no hot path."""
    plain, traced = create_app(sqlite_app), create_app(sqlite_app, settings=ApiSettings(opentelemetry=True))
    assert isinstance(plain, RingsideAPI) and isinstance(traced, RingsideAPI)
    assert plain.hot_writes is not None and traced.hot_writes is None


# ---- what the hot path passes over is what it declares it reproduces ------------------------------
def _name(key: Any) -> str:
    return f"{key.__module__}.{key.__qualname__}" if isinstance(key, type) else repr(key)


def _middleware(app: FastAPI) -> list[str]:
    """Every layer of the app's middleware stack as FastAPI builds it, outermost first: the hot
    path runs in front of all of them."""
    layers: list[str] = []
    node: Any = app.build_middleware_stack()
    while node is not app.router:
        layers.append(_name(type(node)))
        node = getattr(node, "app", None)
        if node is None:
            layers.append("(a layer that does not show what it wraps)")
            break
    return layers


def _chosen(app: FastAPI, path: str) -> Any:
    """The route FastAPI sends `POST path` to: the first one, in routing order, that fully matches."""
    scope = {"type": "http", "method": "POST", "path": path, "root_path": "", "headers": [], "query_string": b""}
    return next((route for route in iter_route_contexts(app.routes) if route.matches(scope)[0] == RouteMatch.FULL),
                None)


def _shape(route: Any) -> Shape:
    """What a route takes from a request on its way to the endpoint: its parameters and its
    dependencies, at every level, and its own body limit."""
    shape: Shape = {("max_body_size", route.max_body_size)}

    def walk(dependant: Any, top: bool) -> None:
        if not top:
            shape.add(("depends", dependant.call))
        for kind in ("path", "query", "header", "cookie", "body"):
            for param in getattr(dependant, f"{kind}_params"):
                limit = next((m.max_length for m in param.field_info.metadata if isinstance(m, MaxLen)), None)
                shape.add((kind, param.alias, param.field_info.annotation, limit))
        for special in ("websocket", "http_connection", "response", "background_tasks", "security_scopes"):
            if getattr(dependant, f"{special}_param_name"):
                shape.add(("uses", special))
        for sub in dependant.dependencies:
            walk(sub, False)

    walk(route.dependant, True)
    return shape


def _declared(hot: HotRoute) -> Shape:
    """The shape the hot path reproduces for one route."""
    return {("max_body_size", None), ("path", "match_id", UUID, None), ("body", "body", hot.model, None),
            ("header", KEY_HEADER, str | None, MAX_KEY_LENGTH), *(("depends", call) for call in SUPPLIED)}


def bypassed(app: FastAPI) -> list[str]:
    """What the hot path would pass over in `app` without reproducing it (and what it declares
    but the app no longer has): empty when its declarations in `api.hot_path` are true."""
    found = [f"middleware {layer}" for layer in _middleware(app) if layer not in MIDDLEWARE]
    found += [f"declared middleware {layer} is not in the stack" for layer in set(MIDDLEWARE) - set(_middleware(app))]
    handlers = {_name(key) for key in app.exception_handlers}
    found += [f"exception handler for {name}" for name in sorted(handlers - set(HANDLERS))]
    found += [f"declared handler for {name} is not installed" for name in sorted(set(HANDLERS) - handlers)]
    if app.root_path:
        found.append(f"root_path {app.root_path!r} (FastAPI sets it on the scope after the hot path has answered)")
    if app.debug:
        found.append("debug (ServerErrorMiddleware answers a fault with a traceback page)")
    for suffix, hot in ROUTES.items():
        path = MATCH_PATH.format(match_id=uuid.uuid4()) + suffix
        route = _chosen(app, path)
        if route is None or route.endpoint is not hot.endpoint:
            found.append(f"POST {suffix} is routed to {getattr(route, 'endpoint', None)!r}, not {hot.endpoint!r}")
            continue
        shape, declared = _shape(route), _declared(hot)
        found += [f"POST {suffix} takes {item}" for item in sorted(map(str, shape - declared))]
        found += [f"POST {suffix} no longer takes {item}" for item in sorted(map(str, declared - shape))]
    return found


@pytest.fixture
def plain(sqlite_app: Ringside) -> RingsideAPI:
    app = create_app(sqlite_app)
    assert isinstance(app, RingsideAPI) and app.hot_writes is not None
    return app


def test_the_hot_path_passes_over_nothing_it_does_not_reproduce(plain: RingsideAPI) -> None:
    """Every middleware layer, exception handler, route and dependency the hot path runs in front
    of is one `api.hot_path` declares and reproduces."""
    assert _middleware(plain)[0] == "starlette.middleware.errors.ServerErrorMiddleware"  # the walk sees the stack
    assert "api.app.BodyLimit" in _middleware(plain)
    assert bypassed(plain) == []


class _Stamp:
    """A middleware added later: it stamps every answer with a header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def stamped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-stamp", b"1")]
            await send(message)

        await self.app(scope, receive, stamped)


def test_a_middleware_added_later_is_caught(plain: RingsideAPI) -> None:
    plain.add_middleware(_Stamp)
    match = create(TestClient(plain))
    move = {"json": {"move": {"type": "pass"}}, "headers": bearer(match.arbiter)}
    assert "x-stamp" in TestClient(plain.routed).post(match.path("/moves"), **move).headers
    assert "x-stamp" not in TestClient(plain).post(match.path("/moves"), **move).headers
    assert bypassed(plain) == [f"middleware {__name__}._Stamp"]


def test_a_route_in_front_of_a_hot_write_is_caught(plain: RingsideAPI) -> None:
    async def elsewhere(match_id: str) -> JSONResponse:
        return JSONResponse({"answered": "elsewhere"})

    plain.router.routes.insert(0, APIRoute(MATCH_PATH + MOVES_PATH, elsewhere, methods=["POST"]))
    path = MATCH_PATH.format(match_id=uuid.uuid4()) + MOVES_PATH
    assert TestClient(plain.routed).post(path, json={"move": {}}).json() == {"answered": "elsewhere"}
    found = bypassed(plain)
    assert len(found) == 1 and found[0].startswith(f"POST {MOVES_PATH} is routed to <function ") \
        and "elsewhere" in found[0]


def test_a_dependency_or_parameter_added_to_a_hot_write_is_caught(plain: RingsideAPI) -> None:
    """The same endpoint, with a rate limit (a dependency) and a query parameter FastAPI would
    check first: the hot path would skip both."""
    async def rate_limit(request: Request) -> None:
        return None

    plain.router.routes.insert(0, APIRoute(MATCH_PATH + MOVES_PATH, submit_move, methods=["POST"],
                                           dependencies=[Depends(rate_limit)]))
    found = bypassed(plain)
    assert len(found) == 1 and "('depends', <function" in found[0] and "rate_limit" in found[0]

    async def with_query(match_id: UUID, dry_run: bool = False) -> JSONResponse:
        return JSONResponse({})

    plain.router.routes.insert(0, APIRoute(MATCH_PATH + MOVES_PATH, with_query, methods=["POST"]))
    assert any("with_query" in item for item in bypassed(plain))


def test_an_exception_handler_added_later_is_caught(plain: RingsideAPI) -> None:
    async def answer(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({}, status_code=418)

    plain.add_exception_handler(LookupError, answer)
    assert bypassed(plain) == ["exception handler for builtins.LookupError"]


# ---- over real HTTP: what the hot path hands on ---------------------------------------------------
def _seat_and_version(client: httpx.Client, match: Match) -> tuple[int, int]:
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    return int(decision["decision"]["seats"][0]), int(decision["version"])


def test_what_the_hot_path_cannot_answer_keeps_fastapis_answer(client: httpx.Client) -> None:
    match = create(client)
    seat, head = _seat_and_version(client, match)
    headers = bearer(match.seat(seat))
    move = b'{"move": {"type": "pass"}}'
    plain = client.post(match.path("/moves"), content=move, headers={**headers, "Content-Type": "text/plain"})
    assert plain.status_code == 422 and plain.json()["code"] == "validation-error"
    broken = client.post(match.path("/moves"), content=b'{"move": ',
                         headers={**headers, "Content-Type": "application/json"})
    assert broken.status_code == 422 and broken.json()["errors"][0]["field"].startswith("body")
    extra = client.post(match.path("/moves"), json={"move": {"type": "pass"}, "bogus": 1}, headers=headers)
    assert extra.status_code == 422 and extra.json()["errors"][0]["field"] == "body.bogus"
    long_key = client.post(match.path("/moves"), json={"move": {"type": "pass"}},
                           headers={**headers, "Idempotency-Key": "k" * 201})
    assert long_key.status_code == 422 and long_key.json()["errors"][0]["field"] == "header.Idempotency-Key"
    assert client.get(match.path()).json()["version"] == head
    charset = client.post(match.path("/moves"), content=move,
                          headers={**headers, "Content-Type": "application/json; charset=utf-8"})
    assert charset.status_code == 200 and charset.json()["receipt"]["seq"] == head + 1


def test_a_body_sent_without_its_length_is_cut_off_at_the_limit(client: httpx.Client) -> None:
    match = create(client, players=["solo"], variant="solo")

    def chunks() -> Iterator[bytes]:
        yield b'{"move": {"type": "pass", "pad": "'
        for _ in range(1100):
            yield b"x" * 1000
        yield b'"}}'

    answer = client.post(match.path("/moves"), content=chunks(),
                         headers={**bearer(match.seat(0)), "Content-Type": "application/json"})
    assert answer.status_code == 413 and answer.json()["code"] == "too-large"
    assert client.get(match.path()).json()["version"] == match.data["version"]
