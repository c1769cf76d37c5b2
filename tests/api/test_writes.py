"""Every write: moves (errors, idempotency), outcomes, undo protocol, redo, rulings, seed, forks,
annotations, bundles and verification."""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.context import ApiSettings
from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import head_message, verify_signature
from domain.store.recorders import AnswerRecorder

from .support import Match, Server, ServerExited, add_account, bearer, create, play_one, play_to_end


def to_move(client: httpx.Client, match: Match) -> tuple[int, int, list[dict[str, Any]]]:
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    seat = decision["decision"]["seats"][0]
    return seat, decision["version"], decision["legal_moves"][str(seat)]


def version(client: httpx.Client, match: Match) -> int:
    return int(client.get(match.path()).json()["version"])


def test_move_receipt_and_errors(client: httpx.Client) -> None:
    match = create(client)
    seat, head, _ = to_move(client, match)
    headers = bearer(match.seat(seat))
    illegal = client.post(match.path("/moves"), headers=headers, json={"move": {"type": "play", "card": 99}})
    assert illegal.status_code == 422 and illegal.headers["content-type"] == "application/problem+json"
    assert illegal.json()["rule"] == "TG-1.2" and "hand" in illegal.json()["reason"]
    malformed = client.post(match.path("/moves"), headers=headers, json={"move": {"type": "dance"}})
    assert malformed.status_code == 422 and malformed.json()["code"] == "malformed-move"
    schema = client.post(match.path("/moves"), headers=headers, json={"move": {}, "expected_version": "x"})
    assert schema.status_code == 422 and schema.json()["errors"][0]["field"] == "body.expected_version"
    stale = client.post(match.path("/moves"), headers=headers, json={"move": {"type": "pass"}, "expected_version": 1})
    assert stale.status_code == 409 and stale.json()["current_version"] == head
    wrong_turn = client.post(
        match.path("/moves"), headers=bearer(match.seat(1 - seat)), json={"move": {"type": "pass"}}
    )
    assert wrong_turn.status_code == 409 and wrong_turn.json()["code"] == "not-your-turn"
    assert client.post(match.path("/moves"), headers=headers, content=b"{not json").status_code == 422
    assert version(client, match) == head  # nothing changed the record
    accepted = client.post(
        match.path("/moves"),
        headers=headers,
        json={"move": {"type": "pass"}, "expected_version": head, "claimed_at": "2026-01-01T00:00:00Z"},
    )
    assert accepted.status_code == 200
    body = accepted.json()
    receipt = body["receipt"]
    assert receipt["seq"] == head + 1 and body["version"] >= head + 1 and body["appended"][0] == head + 1
    key = client.get("/keys").json()
    assert verify_signature(
        key["server_public_key"], head_message(match.id, receipt["seq"], receipt["hash"]), receipt["signature"]
    )
    event = client.get(match.path("/events"), params={"start": receipt["seq"], "limit": 1}).json()["events"][0]
    assert event["hash"] == receipt["hash"] and event["payload"]["claimed_at"] == "2026-01-01T00:00:00Z"
    assert event["actor"] == {"kind": "seat", "seat": seat}


def test_idempotency_key(client: httpx.Client) -> None:
    match = create(client)
    seat, head, moves = to_move(client, match)
    headers = {**bearer(match.seat(seat)), "Idempotency-Key": "move-1"}
    first = client.post(match.path("/moves"), headers=headers, json={"move": moves[-1], "expected_version": head})
    again = client.post(match.path("/moves"), headers=headers, json={"move": moves[-1], "expected_version": head})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and again.headers["idempotent-replayed"] == "true"
    assert version(client, match) == first.json()["version"]
    reused = client.post(match.path("/moves"), headers=headers, json={"move": moves[0], "expected_version": head})
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency-key-reused"
    # a refusal is replayed too
    seat2, head2, _ = to_move(client, match)
    bad = {**bearer(match.seat(seat2)), "Idempotency-Key": "bad-1"}
    refused = client.post(match.path("/moves"), headers=bad, json={"move": {"type": "play", "card": 99}})
    assert refused.status_code == 422
    assert (
        client.post(match.path("/moves"), headers=bad, json={"move": {"type": "play", "card": 99}}).json()
        == refused.json()
    )
    # concurrent retries of one request: exactly one applies, every answer is the same
    key = {**bearer(match.seat(seat2)), "Idempotency-Key": "race-1"}
    answers: list[httpx.Response] = []

    def send() -> None:
        with httpx.Client(base_url=str(client.base_url), timeout=30) as http:
            answers.append(http.post(match.path("/moves"), headers=key, json={"move": {"type": "pass"}}))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {a.status_code for a in answers} == {200}
    assert len({a.json()["receipt"]["hash"] for a in answers}) == 1
    log = client.get(match.path("/events"), params={"start": head2 + 1}).json()["events"]
    assert sum(1 for e in log if e["kind"] == "move") == 1
    # keys are per token: the same key from another seat is another request
    other = client.post(
        match.path("/moves"),
        headers={**bearer(match.seat(1 - seat2)), "Idempotency-Key": "race-1"},
        json={"move": {"type": "pass"}},
    )
    assert "idempotent-replayed" not in other.headers and other.json() != answers[0].json()
    assert (
        client.post(
            match.path("/moves"),
            headers={**bearer(match.seat(0)), "Idempotency-Key": ""},
            json={"move": {"type": "pass"}},
        ).status_code
        == 422
    )


def test_idempotency_survives_restart(fresh_server: Server) -> None:
    with httpx.Client(base_url=fresh_server.url, timeout=30) as client:
        match = create(client)
        seat, _head, _ = to_move(client, match)
        headers = {**bearer(match.seat(seat)), "Idempotency-Key": "restart-1"}
        first = client.post(match.path("/moves"), headers=headers, json={"move": {"type": "pass"}})
    fresh_server.stop()
    fresh_server.start()
    with httpx.Client(base_url=fresh_server.url, timeout=30) as client:
        again = client.post(match.path("/moves"), headers=headers, json={"move": {"type": "pass"}})
        assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
        assert version(client, match) == first.json()["version"]
        assert client.get(match.path("/state"), headers=bearer(match.seat(seat))).json()["viewer"] == f"seat:{seat}"


def test_recorded_outcomes(client: httpx.Client) -> None:
    match = create(client, randomness="recorded")
    decision = client.get(match.path("/decision"), headers=bearer(match.recorder)).json()
    assert decision["decision"]["chance"]["kind"] == "draw" and decision["chance_outcomes"]
    impossible = client.post(match.path("/outcomes"), headers=bearer(match.recorder), json={"outcome": 42})
    assert impossible.status_code == 422 and impossible.json()["code"] == "impossible-outcome"
    accepted = client.post(
        match.path("/outcomes"),
        headers=bearer(match.recorder),
        json={"outcome": 3, "expected_version": decision["version"]},
    )
    assert accepted.status_code == 200
    assert accepted.json()["events"][0]["actor"] == {"kind": "recorder"}
    # the recorder transcribes a move for a seat; the match still verifies
    play_to_end(client, match, seed=2)
    seat_moves = client.get(match.path("/events"), params={"limit": 1000}).json()["events"]
    assert all(e["actor"]["kind"] in ("seat", "recorder", "system") for e in seat_moves)
    move = create(client, randomness="recorded")
    while True:
        d = client.get(move.path("/decision"), headers=bearer(move.recorder)).json()
        if not d["chance_outcomes"]:
            break
        outcome = d["chance_outcomes"][0]["outcome"]
        assert (
            client.post(move.path("/outcomes"), headers=bearer(move.recorder), json={"outcome": outcome}).status_code
            == 200
        )
    seat = d["decision"]["seats"][0]
    transcribed = client.post(
        move.path("/moves"), headers=bearer(move.recorder), json={"move": {"type": "pass"}, "seat": seat}
    )
    assert transcribed.status_code == 200, transcribed.text
    assert transcribed.json()["events"][0]["actor"] == {"kind": "recorder", "seat": seat}
    assert client.get(match.path("/verification")).json()["ok"]


def _play_until_seat_moves(client: httpx.Client, match: Match, seat: int) -> None:
    rng = random.Random(5)
    while to_move(client, match)[0] != seat:
        play_one(client, match, rng)


def test_undo_own_turn_then_redo(client: httpx.Client) -> None:
    match = create(client, undo_policy="own-turn")
    seat, head, _ = to_move(client, match)
    client.post(match.path("/moves"), headers=bearer(match.seat(seat)), json={"move": {"type": "pass"}})
    undo = client.post(match.path("/undo-requests"), headers=bearer(match.seat(seat)), json={"reason": "misclick"})
    assert undo.status_code == 200, undo.text
    kinds = [e["kind"] for e in undo.json()["events"]]
    assert kinds == ["undo-requested", "retracted"]
    assert to_move(client, match)[0] == seat
    other = client.post(match.path("/redo"), headers=bearer(match.seat(1 - seat)))
    assert other.status_code == 403
    redo = client.post(match.path("/redo"), headers=bearer(match.seat(seat)), json={})
    assert redo.status_code == 200 and redo.json()["events"][0]["kind"] == "redone"
    nothing = client.post(match.path("/redo"), headers=bearer(match.seat(seat)))
    assert nothing.status_code == 409 and nothing.json()["code"] == "undo-refused"
    log = client.get(match.path("/events"), params={"start": head + 1}).json()["events"]
    assert (log[0]["kind"] == "move" and "retracted_by" not in log[0]) or log[0]["retracted_by"] is None


def test_undo_consent_and_arbiter_decision(client: httpx.Client) -> None:
    match = create(client, undo_policy="consent")
    seat, _, _ = to_move(client, match)
    client.post(
        match.path("/moves"), headers=bearer(match.seat(seat)), json={"move": {"type": "roll"}}
    )  # die: a barrier
    request = client.post(match.path("/undo-requests"), headers=bearer(match.seat(seat)), json={})
    assert request.status_code == 200
    pending = client.get(match.path("/undo-requests")).json()["requests"]
    assert pending[0]["status"] == "pending" and pending[0]["consent_from"] == [1 - seat]
    rid = pending[0]["id"]
    assert client.post(match.path(f"/undo-requests/{rid}/answers"), json={"accept": True}).status_code == 401
    assert (
        client.post(
            match.path(f"/undo-requests/{rid}/answers"), headers=bearer(match.recorder), json={"accept": True}
        ).status_code
        == 403
    )
    asker = client.post(
        match.path(f"/undo-requests/{rid}/answers"), headers=bearer(match.seat(seat)), json={"accept": True}
    )
    assert asker.status_code == 403
    granted = client.post(
        match.path(f"/undo-requests/{rid}/answers"), headers=bearer(match.seat(1 - seat)), json={"accept": True}
    )
    assert granted.status_code == 200 and [e["kind"] for e in granted.json()["events"]][:2] == [
        "undo-answered",
        "retracted",
    ]
    assert (
        client.post(
            match.path("/undo-requests/nope/answers"), headers=bearer(match.arbiter), json={"accept": True}
        ).status_code
        == 404
    )
    # arbiter-only: the arbiter decides
    strict = create(client, undo_policy="arbiter-only")
    seat, _, _ = to_move(client, strict)
    client.post(strict.path("/moves"), headers=bearer(strict.seat(seat)), json={"move": {"type": "pass"}})
    client.post(strict.path("/undo-requests"), headers=bearer(strict.seat(seat)), json={})
    rid = client.get(strict.path("/undo-requests")).json()["requests"][0]["id"]
    decided = client.post(
        strict.path(f"/undo-requests/{rid}/answers"), headers=bearer(strict.arbiter), json={"accept": True}
    )
    assert decided.status_code == 200
    assert decided.json()["events"][0]["actor"]["kind"] == "arbiter"
    assert client.get(strict.path("/undo-requests")).json()["requests"][0]["status"] == "done"
    # the arbiter can ask for an undo on a seat's behalf; "none" refuses
    off = create(client, undo_policy="none")
    seat, _, _ = to_move(client, off)
    client.post(off.path("/moves"), headers=bearer(off.seat(seat)), json={"move": {"type": "pass"}})
    refused = client.post(off.path("/undo-requests"), headers=bearer(off.arbiter), json={"seat": seat})
    assert refused.status_code == 409 and refused.json()["code"] == "undo-refused"


def test_rulings(client: httpx.Client) -> None:
    match = create(client)
    arbiter = bearer(match.arbiter)
    seat, _head, _ = to_move(client, match)
    penalty = client.post(
        match.path("/rulings"),
        headers=arbiter,
        json={"ruling": "penalty", "seat": seat, "points": 2, "note": "slow play"},
    )
    assert penalty.status_code == 200
    assert any(line["category"] == "penalty" for line in client.get(match.path("/score")).json()["lines"])
    forced = client.post(
        match.path("/rulings"),
        headers=arbiter,
        json={"ruling": "illegal-move-stands", "seat": seat, "move": {"type": "pass"}},
    )
    assert forced.status_code == 200
    move_seq = forced.json()["receipt"]["seq"]
    correction = client.post(
        match.path("/rulings"), headers=arbiter, json={"ruling": "correction", "from_seq": move_seq}
    )
    assert correction.status_code == 200, correction.text
    bad = client.post(match.path("/rulings"), headers=arbiter, json={"ruling": "penalty", "seat": 0})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"].startswith("body")
    unknown = client.post(match.path("/rulings"), headers=arbiter, json={"ruling": "banish"})
    assert unknown.status_code == 422
    assert (
        client.post(match.path("/rulings"), headers=arbiter, json={"ruling": "forfeit", "seat": 9}).status_code == 422
    )
    assert (
        client.post(
            match.path("/rulings"), headers=arbiter, json={"ruling": "adjudicated-result", "ranks": [1]}
        ).status_code
        == 422
    )
    done = client.post(match.path("/rulings"), headers=arbiter, json={"ruling": "adjudicated-result", "ranks": [2, 1]})
    assert done.status_code == 200
    summary = client.get(match.path()).json()
    assert summary["status"] == "ended" and summary["end"]["result"]["ranks"] == [2, 1]
    over = client.post(match.path("/rulings"), headers=arbiter, json={"ruling": "forfeit", "seat": 0})
    assert over.status_code == 409 and over.json()["code"] == "match-over"
    forfeit = create(client)
    result = client.post(
        forfeit.path("/rulings"), headers=bearer(forfeit.arbiter), json={"ruling": "forfeit", "seat": 0}
    )
    assert result.status_code == 200
    assert client.get(forfeit.path("/verification")).json()["ok"]


def test_seed_private_then_revealed(client: httpx.Client) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    commitment = client.get(match.path()).json()["seed_commitment"]
    private = client.get(match.path("/seed"), headers=bearer(match.arbiter)).json()
    assert private["commitment"] == commitment and private["revealed_in_record"] is False
    assert client.get(match.path("/seed")).status_code == 403
    assert client.get(match.path("/seed"), headers=bearer(match.seat(0))).status_code == 403
    play_to_end(client, match)
    public = client.get(match.path("/seed")).json()
    assert public == {"seed": private["seed"], "commitment": commitment, "revealed_in_record": True}
    # the end of the match put the seed in the record; nothing else ever does
    assert client.post(match.path("/seed/reveal"), headers=bearer(match.arbiter)).status_code in (404, 405)
    events = client.get(match.path("/events"), params={"limit": 1000}).json()["events"]
    assert events[-1]["kind"] == "seed-revealed"


def test_forks(client: httpx.Client) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    rng = random.Random(2)
    for _ in range(2):
        play_one(client, match, rng)
    at = version(client, match)
    assert client.post(match.path("/forks"), json={"at": at}).status_code == 403  # hidden draws in play
    assert client.post(match.path("/forks"), headers=bearer(match.seat(0)), json={"at": at}).status_code == 403
    fork = client.post(match.path("/forks"), headers=bearer(match.arbiter), json={"at": at, "players": ["x", "y"]})
    assert fork.status_code == 201, fork.text
    data = fork.json()
    assert data["summary"]["fork_of"]["match_id"] == match.id and data["summary"]["official"] is False
    assert [s["player"] for s in data["tokens"]["seats"]] == ["x", "y"]
    branch = Match(data["match_id"], data["tokens"], data)
    play_to_end(client, branch)
    assert client.get(branch.path("/verification")).json()["ok"]
    play_to_end(client, match)
    public = client.post(match.path("/forks"), json={"at": 2})
    assert public.status_code == 201
    assert client.post(match.path("/forks"), headers=bearer(match.arbiter), json={"at": 10_000}).status_code == 422
    assert (
        client.post(
            match.path("/forks"), headers=bearer(match.arbiter), json={"at": 2, "players": ["solo"]}
        ).status_code
        == 422
    )


def test_annotations(client: httpx.Client) -> None:
    match = create(client)
    add = client.post(
        match.path("/annotations"),
        headers=bearer(match.seat(0)),
        json={"seq": 1, "text": "good start", "glyphs": ["!"], "tags": ["opening"]},
    )
    assert add.status_code == 201, add.text
    note = add.json()
    assert note["author"] == {"kind": "seat", "seat": 0} and len(note["hash"]) == 64
    secret = client.post(
        match.path("/annotations"),
        headers=bearer(match.seat(1)),
        json={"seq": 2, "text": "my plan", "visibility": "seat:1"},
    ).json()
    judge = client.post(
        match.path("/annotations"),
        headers=bearer(match.arbiter),
        json={"seq": 2, "text": "check this", "visibility": "arbiter"},
    ).json()

    def listed(token: str | None) -> set[str]:
        return {a["id"] for a in client.get(match.path("/annotations"), headers=bearer(token)).json()["annotations"]}

    assert listed(None) == {note["id"]}
    assert listed(match.seat(0)) == {note["id"]}
    assert listed(match.seat(1)) == {note["id"], secret["id"]}
    assert listed(match.arbiter) == {note["id"], secret["id"], judge["id"]}
    edited = client.patch(
        match.path(f"/annotations/{note['id']}"),
        headers=bearer(match.seat(0)),
        json={"text": "great start", "glyphs": ["!!"]},
    )
    assert edited.status_code == 200 and edited.json()["text"] == "great start" and edited.json()["edited_at"]
    assert (
        client.patch(
            match.path(f"/annotations/{note['id']}"), headers=bearer(match.seat(1)), json={"text": "mine now"}
        ).status_code
        == 403
    )
    assert client.patch(match.path(f"/annotations/{note['id']}"), json={"text": "anon"}).status_code == 401
    assert client.post(match.path("/annotations"), json={"seq": 1, "text": "anon"}).status_code == 401
    assert (
        client.patch(match.path("/annotations/nope"), headers=bearer(match.seat(0)), json={"text": "x"}).status_code
        == 404
    )
    assert (
        client.post(
            match.path("/annotations"), headers=bearer(match.seat(0)), json={"seq": 999, "text": "x"}
        ).status_code
        == 422
    )
    assert (
        client.post(
            match.path("/annotations"), headers=bearer(match.seat(0)), json={"seq": 1, "text": "x", "glyphs": ["wow"]}
        ).status_code
        == 422
    )
    assert (
        client.post(
            match.path("/annotations"),
            headers=bearer(match.seat(0)),
            json={"seq": 1, "text": "x", "visibility": "seat:7"},
        ).status_code
        == 422
    )
    head = version(client, match)
    assert head == client.get(match.path()).json()["version"]  # annotations never change the record's versions


def test_bundle_export_import_verify(client: httpx.Client, fresh_server: Server) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    client.post(match.path("/annotations"), headers=bearer(match.seat(0)), json={"seq": 1, "text": "hi"})
    assert client.get(match.path("/bundle")).status_code == 403  # in play: arbiter only
    assert client.get(match.path("/bundle"), headers=bearer(match.arbiter)).status_code == 200
    play_to_end(client, match)
    bundle = client.get(match.path("/bundle"))
    assert bundle.status_code == 200 and bundle.headers["content-type"].startswith("application/x-ndjson")
    report = client.post("/verify", content=bundle.content, headers={"content-type": "application/x-ndjson"}).json()
    assert report["ok"] and report["match_id"] == match.id
    assert [signer["trusted_as"] for signer in report["signers"]] == ["this server"]
    tampered = bundle.text.replace('"type":"pass"', '"type":"roll"', 1)
    if tampered != bundle.text:
        assert client.post("/verify", content=tampered.encode()).json()["ok"] is False
    assert client.post("/verify", content=b"\xff\xfe").status_code == 422
    garbage = client.post("/verify", content=b"not a bundle")
    assert (
        garbage.status_code == 200
        and garbage.json()["ok"] is False
        and garbage.json()["divergence"]["check"] == "format"
    )
    assert client.post("/bundles", content=bundle.content).status_code == 401  # importing needs an account
    assert client.post("/bundles", content=bundle.content, headers=bearer(match.arbiter)).status_code == 403
    account = add_account(fresh_server, "archive")
    with httpx.Client(base_url=fresh_server.url, timeout=30) as other:
        imported = other.post("/bundles", content=bundle.content, headers=bearer(account))
        assert imported.status_code == 201, imported.text
        data = imported.json()
        assert data["match_id"] == match.id and data["summary"]["status"] == "ended"
        assert "tokens" not in data and data["imported_by"] == "archive"  # importing grants no role
        assert data["summary"]["imported"] and not data["summary"]["official"]
        assert data["summary"]["signed_by"] == client.get(match.path()).json()["signed_by"]
        assert other.post("/bundles", content=bundle.content, headers=bearer(account)).status_code == 422  # here
        assert other.get(match.path()).json()["head"] == client.get(match.path()).json()["head"]
        checked = other.get(match.path("/verification")).json()
        assert checked["intact"] and not checked["ok"] and checked["divergence"]["check"] == "trust"
        again = other.get(match.path("/bundle")).text
        assert (
            again.splitlines()[1:-1] == bundle.text.splitlines()[1:-1]
            or other.post("/verify", content=again).json()["ok"]
        )
        assert len(other.get(match.path("/annotations")).json()["annotations"]) == 1
        keys = other.get("/keys").json()
        assert list(keys["keys"]) == [keys["server_key_id"]]  # the imported record's key is not vouched for
        as_importer = other.get(match.path("/state"), headers=bearer(account)).json()
        assert as_importer["viewer"] == "spectator"
        note = other.post(match.path("/annotations"), headers=bearer(account), json={"seq": 1, "text": "archived"})
        assert note.status_code == 201 and note.json()["author"] == {"kind": "annotator", "name": "archive"}
        assert other.post(match.path("/rulings"), headers=bearer(account),
                          json={"ruling": "penalty", "seat": 0, "points": 1}).status_code in (401, 403)


def test_oversized_bodies_are_refused(client: httpx.Client) -> None:
    match = create(client)
    huge = {"move": {"type": "pass", "pad": "x" * 1_100_000}}
    response = client.post(match.path("/moves"), headers=bearer(match.seat(0)), json=huge)
    assert response.status_code == 413 and response.json()["code"] == "too-large"
    assert client.get(match.path("/legal-moves"), params={"seat": 5}, headers=bearer(match.arbiter)).status_code == 422


def test_verification_of_a_match_in_play_hides_the_state_hash(client: httpx.Client) -> None:
    match = create(client)
    public = client.get(match.path("/verification")).json()
    assert public["ok"] and public["final_state_hash"] is None
    assert client.get(match.path("/verification"), headers=bearer(match.seat(0))).json()["final_state_hash"] is None
    assert client.get(match.path("/verification"), headers=bearer(match.arbiter)).json()["final_state_hash"]


def test_verification_report_as_text(client: httpx.Client) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    play_to_end(client, match)
    text = client.get(match.path("/verification"), params={"format": "text"})
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert text.text.startswith("OK:") and "final state hash:" in text.text


def test_a_key_answered_by_another_worker_is_replayed_not_executed(client: httpx.Client, server: Server) -> None:
    """Answers live in the event store, written in the same transaction as the events they report:
    a key that another worker already answered (here: a row put in place by hand) is replayed, or
    refused if it was used for another request, and the move is never applied again."""
    import hashlib
    import sqlite3

    match = create(client)
    seat, head, _ = to_move(client, match)
    token = match.seat(seat)
    scope = hashlib.sha256(f"{match.id}\n{hashlib.sha256(token.encode()).hexdigest()}\nlost-1".encode()).hexdigest()
    body = {"move": {"type": "pass"}}
    fingerprint = hashlib.sha256(json.dumps(
        ["POST", match.path("/moves"), {"move": {"type": "pass"}, "seat": None, "expected_version": None,
                                        "claimed_at": None}], sort_keys=True).encode()).hexdigest()
    with sqlite3.connect(server.data_dir / "ringside.sqlite3", timeout=30) as connection:
        connection.execute("INSERT INTO ringside_answers (scope, fingerprint, status, body) VALUES (?, ?, ?, ?)",
                           (scope, "another-request", 200, json.dumps({"answered": "elsewhere"})))
    reused = client.post(match.path("/moves"), headers={**bearer(token), "Idempotency-Key": "lost-1"}, json=body)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency-key-reused"
    with sqlite3.connect(server.data_dir / "ringside.sqlite3", timeout=30) as connection:
        connection.execute("UPDATE ringside_answers SET fingerprint = ? WHERE scope = ?", (fingerprint, scope))
    replayed = client.post(match.path("/moves"), headers={**bearer(token), "Idempotency-Key": "lost-1"}, json=body)
    assert replayed.status_code == 200 and replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json() == {"answered": "elsewhere"}
    assert version(client, match) == head


def test_a_key_is_bound_to_the_bytes_of_its_body(client: httpx.Client, server: Server) -> None:
    """The fingerprint is the method, path and body as sent: a retry of the same bytes is a
    replay, the same move reformatted is another request, and an answer stored under the
    fingerprint of earlier versions (the parsed body as sorted JSON) still replays."""
    import hashlib
    import sqlite3

    match = create(client)
    seat, head, _ = to_move(client, match)
    headers = {**bearer(match.seat(seat)), "Idempotency-Key": "bytes-1", "Content-Type": "application/json"}
    sent = b'{"move": {"type": "pass"}, "expected_version": %d}' % head
    first = client.post(match.path("/moves"), headers=headers, content=sent)
    assert first.status_code == 200
    with sqlite3.connect(server.data_dir / "ringside.sqlite3", timeout=30) as connection:
        stored = connection.execute("SELECT fingerprint FROM ringside_answers WHERE body = ?",
                                    (first.text,)).fetchone()[0]
    assert stored == hashlib.sha256(f"POST\n{match.path('/moves')}\n".encode() + sent).hexdigest()
    again = client.post(match.path("/moves"), headers=headers, content=sent)
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    reformatted = client.post(match.path("/moves"), headers=headers, content=sent.replace(b": ", b":"))
    assert reformatted.status_code == 422 and reformatted.json()["code"] == "idempotency-key-reused"
    assert version(client, match) == first.json()["version"]


def test_annotation_retries_do_not_duplicate(client: httpx.Client) -> None:
    match = create(client)
    headers = {**bearer(match.seat(0)), "Idempotency-Key": "note-1"}
    first = client.post(match.path("/annotations"), headers=headers, json={"seq": 1, "text": "once"})
    again = client.post(match.path("/annotations"), headers=headers, json={"seq": 1, "text": "once"})
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert len(client.get(match.path("/annotations")).json()["annotations"]) == 1


def test_a_server_with_answer_retention_forgets_old_keys(sqlite_app: Ringside,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """RINGSIDE_ANSWER_RETENTION=1s: a keyed move is replayed at once, and once its answer is older
    than the retention, the worker's pruning forgets it and its retry runs again as a new request,
    refused as stale (it carries its expected version).

    The answers' clock is injected and moved on, so how slowly the machine runs decides nothing:
    the replay is checked before the answer can be a second old, and the wait afterwards is only for
    the background pruning, which runs every half retention, to come round."""
    monkeypatch.setenv("RINGSIDE_ANSWER_RETENTION", "1s")
    settings = ApiSettings.from_env()
    assert settings.answer_retention == timedelta(seconds=1)
    recorder = sqlite_app.recorder
    assert isinstance(recorder, AnswerRecorder)
    clock = FixedStepClock()
    recorder.clock = clock
    with TestClient(create_app(sqlite_app, settings=settings)) as client:
        match = create(client, players=["solo"], variant="solo")
        request = {"move": {"type": "pass"}, "expected_version": match.data["version"]}
        headers = {**bearer(match.seat(0)), "Idempotency-Key": "kept-a-while"}
        first = client.post(match.path("/moves"), json=request, headers=headers)
        assert first.status_code == 200
        replayed = client.post(match.path("/moves"), json=request, headers=headers)
        assert replayed.status_code == 200 and replayed.headers["idempotent-replayed"] == "true"
        clock.advance(timedelta(seconds=2))
        deadline = time.monotonic() + 60  # a bound for a pruning that never comes, not a cutoff
        while (retried := client.post(match.path("/moves"), json=request, headers=headers)).status_code == 200:
            assert time.monotonic() < deadline, "the answer was never forgotten"
            time.sleep(0.1)
        assert retried.status_code == 409 and retried.json()["code"] == "stale-version"
        assert version(client, match) == first.json()["version"]  # applied once


def test_an_unreadable_retention_setting_stops_the_server_with_a_reason(tmp_path: Any) -> None:
    server = Server(tmp_path / "data", env={"RINGSIDE_ANSWER_RETENTION": "a while"})
    with pytest.raises(ServerExited, match="not a duration"):  # raised as soon as it exits, however slowly
        server.start()
    server.stop()
