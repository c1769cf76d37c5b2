"""Bad input over real HTTP: a clear 4xx with a reason, and nothing changes.

Bodies are sent as raw bytes, because what is tested is what a JSON encoder would never write:
lone surrogates (`\\ud800`, as JSON escapes and as raw bytes), NULs and deep nesting, on every
route that takes a body, with every token that could reach further into the code.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .support import Match, Server, add_account, bearer, create

SURROGATES = ["\\ud800", "\\udfff", "\\udc00x", "a\\ud83d"]  # as JSON escapes: lone, not a pair


def post_raw(server: Server, path: str, body: bytes, token: str | None = None, method: str = "POST",
             content_type: str = "application/json") -> httpx.Response:
    """One request on a fresh connection (a server that fails closes its connection)."""
    headers = {"content-type": content_type, **bearer(token)}
    return httpx.request(method, server.url + path, content=body, headers=headers, timeout=60)


def snapshot(client: httpx.Client, match: Match) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the match, its annotations, the list of matches."""
    summary = client.get(match.path(), headers=bearer(match.arbiter)).json()
    notes = client.get(match.path("/annotations"), headers=bearer(match.arbiter)).json()
    listed = client.get("/matches", params={"limit": 500}).json()
    return summary["version"], summary["head"], notes, len(listed["matches"])


def surrogate_cases(match: Match) -> list[tuple[str, str, str | None]]:
    """(path, body with a {s} slot, token) for every place a client's text reaches."""
    arbiter, seat, recorder = match.arbiter, match.seat(0), match.recorder
    cases: list[tuple[str, str, str | None]] = []
    for token in (None, seat, arbiter):
        cases += [
            (match.path("/moves"), '{"move": {"{s}": 1}}', token),
            (match.path("/moves"), '{"move": {"type": "roll", "x": {"{s}": [1]}}}', token),
            (match.path("/moves"), '{"move": {"type": "{s}"}, "seat": 0}', token),
            (match.path("/moves"), '{"move": {"type": "pass"}, "claimed_at": "{s}"}', token),
            (match.path("/moves"), '{"move": {"type": "pass"}, "{s}": 1}', token),
        ]
    for token in (None, recorder):
        cases += [(match.path("/outcomes"), '{"outcome": {"{s}": 1}}', token),
                  (match.path("/outcomes"), '{"outcome": "{s}"}', token)]
    for token in (None, arbiter):
        cases += [
            (match.path("/rulings"), '{"ruling": "illegal-move-stands", "seat": 0, "move": {"{s}": 1}}', token),
            (match.path("/rulings"), '{"ruling": "illegal-move-stands", "seat": 0, "move": {"type": "{s}"}}', token),
            (match.path("/rulings"), '{"ruling": "penalty", "seat": 0, "points": 1, "note": "{s}"}', token),
            (match.path("/rulings"), '{"ruling": "{s}", "seat": 0}', token),
        ]
    cases += [
        ("/matches", '{"game": "test-dicevote", "players": ["{s}", "bob"]}', None),
        ("/matches", '{"game": "test-dicevote", "players": ["ann", "bob"], "title": "{s}"}', None),
        ("/matches", '{"game": "test-dicevote", "players": ["ann", "bob"], "entropy": ["{s}"]}', None),
        ("/matches", '{"game": "test-dicevote", "players": ["ann", "bob"], "options": {"{s}": 1}}', None),
        ("/matches", '{"game": "{s}", "players": ["ann", "bob"]}', None),
        (match.path("/annotations"), '{"seq": 1, "text": "{s}"}', seat),
        (match.path("/annotations"), '{"seq": 1, "text": "ok", "tags": ["{s}"]}', seat),
        (match.path("/annotations"), '{"seq": 1, "text": "ok", "glyphs": ["{s}"]}', seat),
        (match.path("/annotations"), '{"seq": 1, "text": "ok", "visibility": "{s}"}', seat),
        (match.path("/undo-requests"), '{"reason": "{s}"}', seat),
        (match.path("/forks"), '{"at": 1, "players": ["{s}", "b"]}', arbiter),
        (match.path("/redo"), '{"{s}": 1}', seat),
        (match.path("/undo-requests/u1/answers"), '{"accept": true, "{s}": 1}', seat),
    ]
    return cases


def test_a_lone_surrogate_anywhere_in_a_body_is_a_4xx_with_a_reason(server: Server, client: httpx.Client) -> None:
    match = create(client)
    before = snapshot(client, match)
    tried = 0
    for path, template, token in surrogate_cases(match):
        for surrogate in SURROGATES:
            body = template.replace("{s}", surrogate).encode()
            answer = post_raw(server, path, body, token)
            tried += 1
            assert 400 <= answer.status_code < 500, (path, body, answer.status_code, answer.text)
            problem = answer.json()
            assert problem["status"] == answer.status_code and problem["detail"], problem
    # the same text as raw bytes (CESU-style UTF-8 of a surrogate), which Python's JSON reader lets through
    for path, template, token in surrogate_cases(match):
        body = template.replace("{s}", "\ud800").encode("utf-8", "surrogatepass")
        answer = post_raw(server, path, body, token)
        tried += 1
        assert 400 <= answer.status_code < 500, (path, body, answer.status_code, answer.text)
    assert snapshot(client, match) == before
    assert tried >= 200


def test_a_lone_surrogate_in_a_key_is_refused_with_its_field_named(server: Server, client: httpx.Client) -> None:
    match = create(client)
    answer = post_raw(server, match.path("/moves"), b'{"move": {"\\ud800": 1}}', match.seat(0))
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["errors"][0]["field"] == "body.move"
    assert "surrogate" in problem["detail"]
    # unauthenticated: the body is refused first (as FastAPI does), never a fault before the 401
    assert post_raw(server, match.path("/moves"), b'{"move": {"\\ud800": 1}}').status_code == 422


def test_a_surrogate_in_a_patched_annotation_is_refused(server: Server, client: httpx.Client) -> None:
    match = create(client)
    added = client.post(match.path("/annotations"), json={"seq": 1, "text": "fine"}, headers=bearer(match.seat(0)))
    assert added.status_code == 201
    path = match.path(f"/annotations/{added.json()['id']}")
    before = snapshot(client, match)
    for body in (b'{"text": "\\ud800"}', b'{"tags": ["\\udfff"]}', b'{"\\ud800": 1}'):
        answer = post_raw(server, path, body, match.seat(0), method="PATCH")
        assert answer.status_code == 422, answer.text
    assert snapshot(client, match) == before


@pytest.mark.parametrize("depth", [40, 1_000, 100_000])
def test_deeply_nested_json_in_any_body_is_a_4xx(server: Server, client: httpx.Client, depth: int) -> None:
    match = create(client)
    before = snapshot(client, match)
    deep = "[" * depth + "]" * depth
    deep_object = '{"a":' * depth + "1" + "}" * depth
    bodies = [
        (match.path("/moves"), f'{{"move": {deep}}}', match.seat(0)),
        (match.path("/moves"), f'{{"move": {{"type": "roll", "x": {deep_object}}}}}', match.seat(0)),
        (match.path("/moves"), deep, match.seat(0)),
        (match.path("/outcomes"), f'{{"outcome": {deep}}}', match.recorder),
        (match.path("/rulings"), f'{{"ruling": "illegal-move-stands", "seat": 0, "move": {deep}}}', match.arbiter),
        ("/matches", f'{{"game": "test-dicevote", "players": ["a", "b"], "options": {deep_object}}}', None),
        ("/matches", f'{{"game": "test-dicevote", "players": ["a", "b"], "components": {deep_object}}}', None),
        ("/matches", deep_object, None),
        (match.path("/annotations"), f'{{"seq": 1, "text": {deep}}}', match.seat(0)),
        (match.path("/undo-requests"), f'{{"reason": {deep}}}', match.seat(0)),
        (match.path("/forks"), f'{{"at": {deep}}}', match.arbiter),
        (match.path("/redo"), deep, match.seat(0)),
    ]
    for path, body, token in bodies:
        answer = post_raw(server, path, body.encode(), token)
        assert 400 <= answer.status_code < 500, (path, depth, answer.status_code, answer.text[:300])
        assert answer.json()["detail"]
        if depth == 100_000:
            assert "nested too deeply" in answer.json()["detail"], answer.text[:300]
    assert snapshot(client, match) == before


@pytest.fixture(scope="module")
def hostile_bundles(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Bundles recorded by another server that verify, but carry what the match list once choked
    on: a NUL in a player name (PostgreSQL), a `fork_of` of another shape (SQLite)."""
    from domain.application import Ringside
    from domain.kernel.clock import FixedStepClock
    from domain.kernel.integrity import ServerKey
    from tests.adversarial.support import reforge
    from tests.support.helpers import new_match

    key = ServerKey.from_seed(b"elsewhere")
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("elsewhere"), key=key, clock=FixedStepClock())
    try:
        changes = [lambda entries: entries[0]["payload"]["seats"][0].update(player="nul\x00name"),
                   lambda entries: entries[0]["payload"].update(fork_of={"x": 1}),
                   lambda entries: entries[0]["payload"].update(fork_of={"match_id": {"a": 1}})]
        return [reforge(app.export_bundle(new_match(app, seed=f"{n:02x}" * 32)), change, key)
                for n, change in enumerate(changes)]
    finally:
        app.close()


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_no_request_stops_the_match_list_on_either_store(request: pytest.FixtureRequest, tmp_path: Any,
                                                         hostile_bundles: list[str], store: str) -> None:
    url = request.getfixturevalue("postgres_url") if store == "postgres" else None
    server = Server(tmp_path / "data", store=url).start()
    try:
        for name in ("nul\x00", "\x00", "line\nbreak", "tab\t"):
            answer = httpx.post(server.url + "/matches", json={"game": "test-dicevote", "players": [name, "bob"]})
            assert answer.status_code == 422, answer.text
            assert answer.json()["code"] == "invalid-seats"
        account = add_account(server, "archive")
        for text in hostile_bundles:
            answer = httpx.post(server.url + "/bundles", content=text,
                                headers={"content-type": "application/x-ndjson", **bearer(account)})
            assert answer.status_code == 201, answer.text
        with httpx.Client(base_url=server.url, timeout=30) as client:
            create(client)
            listed = client.get("/matches")
            assert listed.status_code == 200, listed.text
            assert len(listed.json()["matches"]) == 4
        server.stop()
        server.start()  # the read model's position survived: the list works after a restart too
        listed = httpx.get(server.url + "/matches", params={"player": "nul"})
        assert listed.status_code == 200, listed.text
        assert listed.json()["matches"][0]["players"][0] == "nulname"
        assert httpx.get(server.url + "/matches", params={"player": "a\x00b"}).status_code == 200
        assert len(httpx.get(server.url + "/matches").json()["matches"]) == 4
    finally:
        server.stop()
