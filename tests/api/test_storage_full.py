"""A full store is said plainly: every write route, the hot path included, answers 507
`storage-full` (problem+json, nothing recorded, retry later), never an opaque 500; reads go on.

Over real HTTP, on a server whose SQLite file can hold only so many pages (`tests.support.small_disk`
sets `max_page_count`): past it, SQLite fails every write with SQLITE_FULL, "database or disk is
full", exactly as on a full disk. PostgreSQL's DiskFull is recognised the same way (unit test)."""

from __future__ import annotations

import errno
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg.errors
import pytest
from eventsourcing.persistence import OperationalError

from domain.store.storage import storage_full

from .support import Match, Server, bearer, create

MAX_PAGES = 40


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "data", module="tests.support.small_disk",
                    env={"RINGSIDE_TEST_MAX_PAGES": str(MAX_PAGES)}).start()
    yield server
    server.stop()


def _storage_full(answer: httpx.Response) -> None:
    assert answer.status_code == 507, (answer.request.url, answer.status_code, answer.text[:300])
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["code"] == "storage-full" and "nothing was recorded" in problem["detail"]


def _until_full(client: httpx.Client, write: Callable[[int], httpx.Response], state: Callable[[], Any],
                tries: int = 60) -> httpx.Response:
    """Repeat a write (the store is nearly full: a few still fit) until the store refuses it:
    until then it must go through, and the refused one must have changed nothing."""
    for attempt in range(tries):
        before = state()
        answer = write(attempt)
        if answer.status_code == 507:
            _storage_full(answer)
            assert state() == before, "a write refused for a full store changed something"
            return answer
        assert answer.status_code < 300, (answer.request.url, answer.status_code, answer.text[:300])
    pytest.fail(f"the store never filled up for {write}")


def test_every_write_on_a_full_store_is_a_507_and_reads_go_on(small_disk: Server) -> None:
    with httpx.Client(base_url=small_disk.url, timeout=30) as client:
        match = create(client, undo_policy="arbiter-only")
        recorded = create(client, randomness="recorded")
        spare = create(client)
        arbiter = bearer(match.arbiter)

        def head(target: Match = match) -> Any:
            summary = client.get(target.path(), headers=bearer(target.arbiter)).json()
            notes = client.get(target.path("/annotations"), headers=bearer(target.arbiter)).json()
            return summary["version"], summary["head"], notes, len(client.get("/matches").json()["matches"])

        def move(attempt: int, key: str | None = None, media: str = "application/json") -> httpx.Response:
            seat, legal = next_move(client, match)
            headers = {**bearer(match.seat(seat)), "content-type": media, **({"Idempotency-Key": key} if key else {})}
            return client.post(match.path("/moves"), content=json.dumps({"move": legal}), headers=headers)

        # fill the store with the biggest write there is, then every write route in turn
        _until_full(client, lambda n: client.post("/matches", json={"game": "test-dicevote", "players": ["a", "b"]}),
                    head, tries=500)
        _until_full(client, move, head)  # the hot path
        keyed = _until_full(client, lambda n: move(n, key=f"full-{n}"), head)
        retried = client.post(match.path("/moves"), content=keyed.request.content, headers=keyed.request.headers)
        _storage_full(retried)  # its retry: the full store was not kept as the key's answer
        # another media type: handed on by the hot path to FastAPI's route
        _until_full(client, lambda n: move(n, media="application/json; charset=utf-8"), head)
        _until_full(client, lambda n: client.post(recorded.path("/outcomes"), headers=bearer(recorded.recorder),
                                                  json={"outcome": outcome(client, recorded)}), lambda: head(recorded))
        _until_full(client, lambda n: client.post(match.path("/annotations"), json={"seq": 1, "text": f"n{n}"},
                                                  headers=arbiter), head)
        _until_full(client, lambda n: client.post(match.path("/rulings"), headers=arbiter,
                                                  json={"ruling": "penalty", "seat": 0, "points": 1}), head)
        _until_full(client, lambda n: client.post(match.path("/undo-requests"), headers=arbiter,
                                                  json={"seat": last_mover(client, match)}), head)
        _until_full(client, lambda n: client.post(spare.path("/forks"), json={"at": 1}, headers=bearer(spare.arbiter)),
                    lambda: head(spare))
        _until_full(client, lambda n: client.post("/matches", json={"game": "test-dicevote", "players": ["c", "d"]}),
                    head)
        # reads still work
        assert client.get(match.path("/events")).status_code == 200
        assert client.get(match.path("/state")).status_code == 200
        assert client.get("/matches").status_code == 200


def next_move(client: httpx.Client, match: Match) -> tuple[int, Any]:
    """The seat to act and one of its legal moves."""
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    seat = decision["decision"]["seats"][0]
    return int(seat), decision["legal_moves"][str(seat)][0]


def last_mover(client: httpx.Client, match: Match) -> int:
    """The seat of the last move still standing (what an undo request takes back)."""
    events = client.get(match.path("/events"), params={"limit": 1000}, headers=bearer(match.arbiter)).json()
    moves = [e for e in events["events"] if e["kind"] == "move" and e.get("retracted_by") is None]
    return int(moves[-1]["payload"]["seat"])


def outcome(client: httpx.Client, match: Match) -> Any:
    decision = client.get(match.path("/decision"), headers=bearer(match.recorder)).json()
    if decision["chance_outcomes"]:
        return decision["chance_outcomes"][0]["outcome"]
    return None


def test_a_full_store_is_recognised_whatever_reports_it() -> None:
    sqlite_full = sqlite3.connect(":memory:")
    sqlite_full.execute("PRAGMA max_page_count = 2")
    with pytest.raises(sqlite3.OperationalError) as caught:
        sqlite_full.execute("CREATE TABLE t (x)")
        sqlite_full.executemany("INSERT INTO t VALUES (?)", [("x" * 5000,)] * 10)
    assert storage_full(caught.value)
    try:
        raise OperationalError(caught.value) from caught.value  # as eventsourcing wraps it
    except OperationalError as wrapped:
        assert storage_full(wrapped)
    disk_full = psycopg.errors.DiskFull("could not extend file: No space left on device")
    assert storage_full(disk_full)
    try:
        raise OperationalError(str(disk_full)) from disk_full  # as eventsourcing wraps PostgreSQL's
    except OperationalError as wrapped:
        assert storage_full(wrapped)
    assert storage_full(OSError(errno.ENOSPC, "No space left on device"))
    assert storage_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert not storage_full(sqlite3.OperationalError("database is locked"))
    assert not storage_full(psycopg.OperationalError("connection refused"))
    assert not storage_full(ValueError("no"))
    assert not storage_full(None)
