"""Seat entropy over HTTP: `entropy_from: "seats"` at creation, `POST /matches/{id}/entropy` by each
seat (or the arbiter for a seat), refusals as problems, Idempotency-Key, and a verified end."""

from __future__ import annotations

from typing import Any

import httpx

from .support import Match, bearer, create, play_to_end


def _events(client: httpx.Client, match: Match, token: str | None = None) -> list[dict[str, Any]]:
    answer = client.get(match.path("/events"), params={"limit": 1000}, headers=bearer(token))
    return list(answer.json()["events"])


def _entropy(client: httpx.Client, match: Match, token: str | None, body: dict[str, Any],
             key: str | None = None) -> httpx.Response:
    headers = {**bearer(token), **({"Idempotency-Key": key} if key else {})}
    return client.post(match.path("/entropy"), headers=headers, json=body)


def test_a_match_waits_for_each_seats_entropy_then_plays_to_a_verified_end(client: httpx.Client) -> None:
    match = create(client, players=["ann", "bob", "cy"], entropy_from="seats", options={"rounds": 1})
    summary = match.data["summary"]
    assert summary["entropy_from"] == "seats" and summary["awaiting_entropy"] == [0, 1, 2]
    assert summary["decision"]["chance"] == {"kind": "draw"} and summary["decision"]["awaiting_entropy"] == [0, 1, 2]
    assert [e["kind"] for e in _events(client, match)] == ["created"]
    created = _events(client, match)[0]["payload"]
    assert created["entropy_from"] == "seats" and created["seed_commitment"] == summary["seed_commitment"]
    decision = client.get(match.path("/decision"), headers=bearer(match.seat(0))).json()
    assert decision["decision"]["awaiting_entropy"] == [0, 1, 2] and decision["legal_moves"] == {}
    state = client.get(match.path("/state")).json()
    assert state["decision"]["awaiting_entropy"] == [0, 1, 2]

    first = _entropy(client, match, match.seat(0), {"entropy": "ann's coin: heads"})
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["appended"] == [2] and body["receipt"]["seq"] == 2
    assert body["events"][0]["kind"] == "entropy-added"
    assert body["events"][0]["payload"] == {"seat": 0, "entropy": "ann's coin: heads"}
    assert body["events"][0]["actor"] == {"kind": "seat", "seat": 0}
    own_seat = _entropy(client, match, match.seat(2), {"entropy": "cy", "seat": 2})
    assert own_seat.status_code == 200 and client.get(match.path()).json()["awaiting_entropy"] == [1]
    by_arbiter = _entropy(client, match, match.arbiter, {"entropy": "for bob, who is late", "seat": 1})
    assert by_arbiter.status_code == 200, by_arbiter.text
    kinds = [e["kind"] for e in by_arbiter.json()["events"]]
    assert kinds == ["entropy-added", *["chance"] * 6]  # the last seat's entropy: the deal at once
    assert by_arbiter.json()["events"][0]["actor"] == {"kind": "arbiter", "seat": 1}
    after = client.get(match.path()).json()
    assert after["awaiting_entropy"] == [] and "awaiting_entropy" not in after["decision"]

    # entropy is public: a spectator's log shows it
    public = [e for e in _events(client, match) if e["kind"] == "entropy-added"]
    assert [e["payload"]["entropy"] for e in public] == ["ann's coin: heads", "cy", "for bob, who is late"]
    assert not any(e.get("redacted") for e in public)

    play_to_end(client, match)
    report = client.get(match.path("/verification")).json()
    assert report["ok"], report["summary"]
    assert report["checked"]["entropy"] == 3
    assert any("entered by an arbiter" in note for note in report["notes"])


def test_refusals_are_problems_and_change_nothing(client: httpx.Client) -> None:
    match = create(client, entropy_from="seats")
    head = client.get(match.path()).json()["head"]
    cases = [
        (None, {"entropy": "x"}, 401, "unauthorized"),
        (match.recorder, {"entropy": "x", "seat": 0}, 403, "forbidden"),
        (match.seat(0), {"entropy": "x", "seat": 1}, 403, "forbidden"),
        (match.arbiter, {"entropy": "x"}, 422, "seat-required"),
        (match.arbiter, {"entropy": "x", "seat": 2}, 422, "invalid-request"),
        (match.seat(0), {"entropy": ""}, 422, "validation-error"),
        (match.seat(0), {"entropy": "x" * 201}, 422, "validation-error"),
        (match.seat(0), {"entropy": 5}, 422, "validation-error"),
        (match.seat(0), {"entropy": "x", "extra": 1}, 422, "validation-error"),
        (match.seat(0), {"entropy": "tab\there"}, 422, "invalid-request"),
        (match.seat(0), {"entropy": "   "}, 422, "invalid-request"),
    ]
    for token, body, status, code in cases:
        answer = _entropy(client, match, token, body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.headers["content-type"] == "application/problem+json"
        if code != "validation-error":
            assert answer.json()["code"] == code, answer.text
    assert "control characters" in _entropy(client, match, match.seat(0), {"entropy": "tab\there"}).json()["detail"]
    assert client.get(match.path()).json()["head"] == head

    assert _entropy(client, match, match.seat(0), {"entropy": "once"}).status_code == 200
    twice = _entropy(client, match, match.seat(0), {"entropy": "twice"})
    assert twice.status_code == 409 and twice.json()["code"] == "entropy-refused"
    assert "already added" in twice.json()["detail"]
    assert _entropy(client, match, match.seat(1), {"entropy": "last"}).status_code == 200
    late = _entropy(client, match, match.arbiter, {"entropy": "late", "seat": 1})
    assert late.status_code == 409 and "too late" in late.json()["detail"]

    plain = create(client)
    refused = _entropy(client, plain, plain.seat(0), {"entropy": "x"})
    assert refused.status_code == 409 and "takes no entropy from its seats" in refused.json()["detail"]
    assert plain.data["summary"]["entropy_from"] is None and plain.data["summary"]["awaiting_entropy"] is None
    assert "entropy_from" not in _events(client, plain)[0]["payload"]


def test_creation_refuses_the_policy_in_recorded_mode(client: httpx.Client) -> None:
    before = len(client.get("/matches", params={"limit": 500}).json()["matches"])
    recorded = client.post("/matches", json={"game": "test-dicevote", "players": ["a", "b"],
                                             "randomness": "recorded", "entropy_from": "seats"})
    assert recorded.status_code == 422 and recorded.json()["code"] == "invalid-request"
    assert "recorded mode" in recorded.json()["detail"]
    unknown = client.post("/matches", json={"game": "test-dicevote", "players": ["a", "b"], "entropy_from": "table"})
    assert unknown.status_code == 422 and unknown.json()["errors"][0]["field"] == "body.entropy_from"
    assert len(client.get("/matches", params={"limit": 500}).json()["matches"]) == before


def test_entropy_takes_an_idempotency_key(client: httpx.Client) -> None:
    match = create(client, entropy_from="seats")
    headers_key = "entropy-1"
    first = _entropy(client, match, match.seat(0), {"entropy": "retry me"}, key=headers_key)
    again = _entropy(client, match, match.seat(0), {"entropy": "retry me"}, key=headers_key)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and again.headers["idempotent-replayed"] == "true"
    assert sum(1 for e in _events(client, match) if e["kind"] == "entropy-added") == 1
    reused = _entropy(client, match, match.seat(0), {"entropy": "something else"}, key=headers_key)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency-key-reused"
    # a refusal is kept under its key too, and replayed
    wrong = _entropy(client, match, match.seat(1), {"entropy": "x", "seat": 0}, key="entropy-2")
    assert wrong.status_code == 403
    replayed = _entropy(client, match, match.seat(1), {"entropy": "x", "seat": 0}, key="entropy-2")
    assert replayed.json() == wrong.json()
    # the last seat's entropy with a key: the answer stored is the one with the draws
    last = _entropy(client, match, match.seat(1), {"entropy": "bob"}, key="entropy-3")
    last_again = _entropy(client, match, match.seat(1), {"entropy": "bob"}, key="entropy-3")
    assert last.json() == last_again.json() and len(last.json()["appended"]) == 5


def test_a_seat_sees_only_its_own_dealt_cards_in_the_answer(client: httpx.Client) -> None:
    match = create(client, entropy_from="seats")
    _entropy(client, match, match.seat(1), {"entropy": "first"})
    answer = _entropy(client, match, match.seat(0), {"entropy": "last"}).json()
    draws = answer["events"][1:]
    assert len(draws) == 4
    assert all(("outcome" in e["payload"]) == (not e.get("redacted")) for e in draws)
    assert any(e.get("redacted") for e in draws) and any(not e.get("redacted") for e in draws)
