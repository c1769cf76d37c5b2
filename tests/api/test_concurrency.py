"""Concurrency: 8 clients racing moves on one match while others play their own matches. The record
stays linear, every accepted move has a receipt that verifies, losers get 409, nothing is lost or
doubled. On SQLite (one server) and on PostgreSQL with two server processes sharing the database."""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.kernel.integrity import head_message, verify_signature

from .support import Match, Server, bearer, create, play_to_end

RACERS = 8
OTHERS = 3


def racer(url: str, match: Match, seed: int, results: list[tuple[int, dict[str, Any]]], lock: threading.Lock) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as client:
        while True:
            decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
            if decision["status"] != "active":
                return
            seat = decision["decision"]["seats"][0]
            move = rng.choice(decision["legal_moves"][str(seat)])
            # half the racers use the arbiter acting for the seat, half the seat's own token
            token, body = (match.seat(seat), {}) if seed % 2 else (match.arbiter, {"seat": seat})
            response = client.post(
                match.path("/moves"),
                headers=bearer(token),
                json={"move": move, "expected_version": decision["version"], **body},
            )
            with lock:
                results.append((response.status_code, response.json()))


def other_player(url: str, match: Match, seed: int, errors: list[str]) -> None:
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            play_to_end(client, match, seed=seed)
    except Exception as error:  # reported by the main thread
        errors.append(repr(error))


def run_race(urls: list[str]) -> None:
    with httpx.Client(base_url=urls[0], timeout=60) as client:
        contested = create(client, players=["a", "b", "c", "d"], options={"rounds": 4, "hand_size": 2})
        others = [create(client, players=["x", "y"]) for _ in range(OTHERS)]
        key = client.get("/keys").json()
    results: list[tuple[int, dict[str, Any]]] = []
    errors: list[str] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(target=racer, args=(urls[i % len(urls)], contested, i, results, lock)) for i in range(RACERS)
    ]
    threads += [
        threading.Thread(target=other_player, args=(urls[(i + 1) % len(urls)], match, i, errors))
        for i, match in enumerate(others)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
        assert not thread.is_alive()
    assert not errors, errors
    accepted = [body for status, body in results if status == 200]
    losers = [body for status, body in results if status != 200]
    assert accepted and losers, "the race should have both winners and losers"
    assert {body["status"] for body in losers} == {409}, losers[:3]
    assert {body["code"] for body in losers} <= {"stale-version", "match-over"}
    with httpx.Client(base_url=urls[-1], timeout=60) as client:
        log = client.get(contested.path("/events"), params={"limit": 1000}, headers=bearer(contested.arbiter)).json()
        entries = log["events"]
        # linear: 1..N with an unbroken hash chain
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
        assert all(b["prev"] == a["hash"] for a, b in itertools.pairwise(entries))
        by_seq = {e["seq"]: e for e in entries}
        receipts = [body["receipt"] for body in accepted]
        assert len({r["seq"] for r in receipts}) == len(receipts), "two accepted moves share a position"
        for receipt in receipts:
            entry = by_seq[receipt["seq"]]
            assert entry["kind"] == "move" and entry["hash"] == receipt["hash"]
            assert verify_signature(
                key["keys"][receipt["key_id"]],
                head_message(contested.id, receipt["seq"], receipt["hash"]),
                receipt["signature"],
            )
        moves = [e for e in entries if e["kind"] == "move"]
        assert len(moves) == len(accepted), "a move was lost or doubled"
        assert client.get(contested.path()).json()["status"] == "ended"
        assert client.get(contested.path("/verification")).json()["ok"]
        for match in others:
            assert client.get(match.path()).json()["status"] == "ended"
            assert client.get(match.path("/verification")).json()["ok"]


def test_race_on_sqlite(server: Server) -> None:
    run_race([server.url])


@pytest.fixture
def two_postgres_servers(tmp_path: Path, postgres_url: str) -> Iterator[list[Server]]:
    data = tmp_path / "shared"  # one signing key for both processes
    first = Server(data, store=postgres_url).start()
    second = Server(data, store=postgres_url)
    try:
        second.start()
        yield [first, second]
    finally:
        second.stop()
        first.stop()


@pytest.mark.postgres
def test_race_on_postgres_two_servers(two_postgres_servers: list[Server]) -> None:
    urls = [s.url for s in two_postgres_servers]
    run_race(urls)
    # tokens and idempotency keys are shared: one key sent to both processes at once applies once
    with httpx.Client(base_url=urls[0], timeout=60) as client:
        match = create(client)
        decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
        seat = decision["decision"]["seats"][0]
    headers = {**bearer(match.seat(seat)), "Idempotency-Key": "both-workers"}
    answers: list[httpx.Response] = []

    def send(url: str) -> None:
        with httpx.Client(base_url=url, timeout=60) as http:
            answers.append(http.post(match.path("/moves"), headers=headers, json={"move": {"type": "pass"}}))

    threads = [threading.Thread(target=send, args=(urls[i % 2],)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {a.status_code for a in answers} == {200}
    assert len({a.json()["receipt"]["seq"] for a in answers}) == 1
    with httpx.Client(base_url=urls[1], timeout=60) as client:
        events = client.get(match.path("/events"), params={"start": decision["version"] + 1}).json()["events"]
        assert sum(1 for e in events if e["kind"] == "move") == 1
        listed = client.get("/matches", params={"limit": 500}).json()["matches"]
        assert match.id in {m["match_id"] for m in listed}


@pytest.mark.postgres
def test_stream_on_one_server_sees_moves_made_on_the_other(two_postgres_servers: list[Server]) -> None:
    from .test_bot_matches import StreamReader

    first, second = (s.url for s in two_postgres_servers)
    with httpx.Client(base_url=first, timeout=60) as client:
        match = create(client, options={"rounds": 1, "hand_size": 1})
        reader = StreamReader(second + match.path("/stream"), match.seat(1))
        reader.start()
        assert reader.ready.wait(10)
        play_to_end(client, match)
        head = client.get(match.path()).json()["version"]
    reader.join(30)
    assert not reader.is_alive()
    assert [data["seq"] for event, data in reader.frames if event == "entry"] == list(range(1, head + 1))
    assert reader.frames[-1][0] == "end"
