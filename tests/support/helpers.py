"""Small helpers shared by kernel tests."""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable
from typing import Any

from domain.application import Ringside


def new_match(app: Ringside, players: int = 2, **kwargs: Any) -> uuid.UUID:
    kwargs.setdefault("seed", "ab" * 32)
    accepted = app.create_match("test-dicevote", [f"P{i}" for i in range(players)], **kwargs)
    return uuid.UUID(accepted.receipt.match_id)


def play_to_end(app: Ringside, match_id: uuid.UUID, seed: int = 0) -> int:
    moves = 0
    while app.play_bot(match_id, seed=seed + moves) is not None:
        moves += 1
    return moves


def hashes(app: Ringside, match_id: uuid.UUID) -> list[str]:
    return [entry.hash for entry in app.entries(match_id)]


def to_turn(app: Ringside, match_id: uuid.UUID) -> int:
    """The seat to act now (after the deal)."""
    fold = app.fold(match_id)
    assert fold.decision.seats, fold.decision
    return fold.decision.seats[0]


def assert_linear_and_verified(app: Ringside, match_id: uuid.UUID, trusted: bool = True) -> None:
    """The record is one unbroken chain 1..n and verifies (intact, and trusted when it was recorded
    here): nothing lost, doubled or reordered."""
    entries = app.entries(match_id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    for before, after in itertools.pairwise(entries):
        assert after.prev == before.hash
    report = app.verify_match(match_id)
    assert report.intact and report.ok == trusted, report.summary()


def all_at_once(calls: list[Callable[[], Any]]) -> tuple[list[Any], list[BaseException]]:
    """Run the calls from threads released together: their results, and what the others raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            result = call()
        except BaseException as error:
            with lock:
                errors.append(error)
        else:
            with lock:
                results.append(result)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors
