"""Games catalogue, match creation, listing and every read endpoint."""

from __future__ import annotations

import random
from typing import Any

import httpx

from .support import bearer, create, play_one, play_to_end


def test_games_catalogue(client: httpx.Client) -> None:
    games = client.get("/games").json()["games"]
    names = [g["name"] for g in games]
    assert "carcassonne" in names and "test-dicevote" in names
    for game in games:
        detail = client.get(f"/games/{game['name']}").json()
        assert detail["default_variant"] in detail["variants"]
        assert detail["options_schema"]["type"] == "object"
        assert detail["move_schema"] == client.get(f"/games/{game['name']}/move-schema").json()
        assert detail["options_schema"] == client.get(f"/games/{game['name']}/options-schema").json()
        components = client.get(f"/games/{game['name']}/components").json()
        assert components["content"] == detail["components"] and len(components["content_hash"]) == 64
        assert "random" in detail["bots"]
    missing = client.get("/games/no-such-game")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json()["code"] == "unknown-game"


def test_create_returns_tokens_once_and_validates(client: httpx.Client) -> None:
    match = create(client, players=["ann", "bob", "cy"], options={"rounds": 1}, entropy=["dice-cup"])
    tokens = match.tokens
    assert len(tokens["seats"]) == 3 and tokens["arbiter"] != tokens["recorder"]
    assert all(t["token"].startswith("rs_") and len(t["token"]) > 40 for t in tokens["seats"])
    summary = client.get(match.path()).json()
    assert "token" not in str(summary) and tokens["arbiter"] not in client.get(match.path("/events")).text
    assert summary["options"] == {"rounds": 1, "hand_size": 2}
    bad = [
        ({"game": "test-dicevote", "players": []}, 422, "validation-error"),
        ({"game": "test-dicevote", "players": ["a"] * 5}, 422, "invalid-seats"),
        ({"game": "test-dicevote", "players": ["a", "b"], "variant": "nope"}, 422, "unknown-variant"),
        ({"game": "test-dicevote", "players": ["a", "b"], "options": {"rounds": 99}}, 422, "invalid-options"),
        ({"game": "test-dicevote", "players": ["a", "b"], "randomness": "dice"}, 422, "validation-error"),
        ({"game": "test-dicevote", "players": ["a", "b"], "components": {"deck": "x"}}, 422, "invalid-components"),
        ({"game": "nope", "players": ["a", "b"]}, 404, "unknown-game"),
    ]
    for body, status, code in bad:
        response = client.post("/matches", json=body)
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
    field = client.post("/matches", json={"game": "test-dicevote", "players": ["a", 3]}).json()
    assert field["errors"][0]["field"] == "body.players.1"


def test_list_and_filter(client: httpx.Client) -> None:
    name = f"zed{random.randrange(10**9)}"
    first = create(client, players=[name, "bob"])
    second = create(client, players=["ann", name], options={"rounds": 1, "hand_size": 1})
    play_to_end(client, second)
    found = client.get("/matches", params={"player": name}).json()["matches"]
    assert {m["match_id"] for m in found} == {first.id, second.id}
    assert found[0]["match_id"] == second.id  # newest first
    ended = client.get("/matches", params={"player": name, "status": "ended"}).json()["matches"]
    assert [m["match_id"] for m in ended] == [second.id] and ended[0]["winners"] is not None
    since = found[0]["created_at"]
    recent = client.get("/matches", params={"player": name, "since": since}).json()["matches"]
    assert [m["match_id"] for m in recent] == [second.id]
    before = client.get("/matches", params={"player": name, "until": since}).json()["matches"]
    assert [m["match_id"] for m in before] == [first.id]
    paged = client.get("/matches", params={"player": name, "limit": 1, "offset": 1}).json()
    assert [m["match_id"] for m in paged["matches"]] == [first.id]
    assert client.get("/matches", params={"game": "carcassonne", "player": name}).json()["matches"] == []
    assert client.get("/matches", params={"status": "paused"}).status_code == 422


def test_state_diff_decision_log_score(client: httpx.Client) -> None:
    match = create(client)
    rng = random.Random(1)
    for _ in range(4):
        play_one(client, match, rng)
    head = client.get(match.path()).json()["version"]
    state = client.get(match.path("/state"), headers=bearer(match.seat(0))).json()
    assert state["seq"] == head and state["viewer"] == "seat:0"
    early = client.get(match.path("/state"), params={"at": 2}).json()
    assert early["seq"] == 2 and early["viewer"] == "spectator"
    assert client.get(match.path("/state"), params={"at": head + 1}).status_code == 422
    assert client.get(match.path("/state"), params={"at": 0}).status_code == 422
    diff = client.get(match.path("/diff"), params={"from": 1, "to": head}).json()
    assert diff["from"] == 1 and diff["to"] == head and diff["changes"]
    assert client.get(match.path("/diff"), params={"from": 1}).json()["to"] == head
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    to_move = decision["decision"]["seats"]
    assert set(decision["legal_moves"]) == {str(s) for s in to_move}
    seat = to_move[0]
    mine = client.get(match.path("/decision"), headers=bearer(match.seat(seat))).json()
    assert list(mine["legal_moves"]) == [str(seat)]
    other = client.get(match.path("/decision"), headers=bearer(match.seat(1 - seat))).json()
    assert other["legal_moves"] == {}
    assert client.get(match.path("/decision")).json()["legal_moves"] == {}
    legal = client.get(match.path("/legal-moves"), headers=bearer(match.seat(seat))).json()
    assert legal["moves"] == decision["legal_moves"][str(seat)]
    assert (
        client.get(match.path("/legal-moves"), params={"seat": seat}, headers=bearer(match.arbiter)).json()["moves"]
        == legal["moves"]
    )
    assert client.get(match.path("/legal-moves"), params={"seat": seat}).status_code == 403
    assert (
        client.get(match.path("/legal-moves"), params={"seat": seat}, headers=bearer(match.seat(1 - seat))).status_code
        == 403
    )
    assert client.get(match.path("/legal-moves"), headers=bearer(match.arbiter)).status_code == 422
    page = client.get(match.path("/events"), params={"start": 2, "limit": 2}).json()
    assert [e["seq"] for e in page["events"]] == [2, 3] and page["next"] == 4
    last = client.get(match.path("/events"), params={"start": head}).json()
    assert [e["seq"] for e in last["events"]] == [head] and last["next"] is None
    assert client.get(match.path("/events"), params={"start": head + 5}).json()["events"] == []
    score = client.get(match.path("/score")).json()
    assert len(score["totals"]) == 2 and all(line["rule"].startswith("TG-") for line in score["lines"])
    assert client.get(match.path("/score"), params={"at": 1}).json()["totals"] == [0, 0]
    assert client.get(match.path("/undo-requests")).json() == {"requests": []}


def test_unknown_things_are_404_problems(client: httpx.Client) -> None:
    missing = "/matches/00000000-0000-4000-8000-000000000000"
    for path in ("", "/state", "/events", "/score", "/decision", "/annotations", "/verification", "/bundle"):
        response = client.get(missing + path)
        assert response.status_code == 404, path
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "match-not-found"
    assert client.get("/matches/not-a-uuid").status_code == 422
    assert client.get("/nowhere").json()["code"] == "not-found"
    assert client.delete("/games").status_code == 405


def test_health_docs_and_openapi(client: httpx.Client) -> None:
    assert client.get("/health").json()["ok"] is True
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/matches/{match_id}/moves" in schema["paths"] and "Problem" in schema["components"]["schemas"]


def test_stream_resumes_from_last_event_id(client: httpx.Client, server: Any) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    head = client.get(match.path()).json()["version"]
    play_to_end(client, match)
    final = client.get(match.path()).json()["version"]
    with (
        httpx.Client(base_url=server.url, timeout=30) as http,
        http.stream("GET", match.path("/stream"), headers={"Last-Event-ID": str(head)}) as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        ids = [int(line[4:]) for line in response.iter_lines() if line.startswith("id: ")]
    assert ids == list(range(head + 1, final + 1))
    log = (server.data_dir.parent / f"server-{server.port}.log").read_text()
    assert f"Ringside API on http://localhost:{server.port}" in log
