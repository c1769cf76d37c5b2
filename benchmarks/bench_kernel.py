"""Kernel benchmarks (issue 2), each beside a raw eventsourcing baseline measured in the same run.

- append one move vs the raw single-event save (target ≤ 2×);
- the state at a random position of a 300-event match vs the raw rebuild from the nearest snapshot
  (target ≤ 2×);
- full verification of a 300-event match.

Run: .venv/bin/python -m pytest benchmarks/bench_kernel.py --benchmark-only -p no:cacheprovider
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Viewer


class RawRecord(Aggregate):
    """The baseline: an aggregate whose events carry a payload like a move entry, nothing else."""

    @event("Created")
    def __init__(self) -> None:
        self.count = 0

    @event("Appended")
    def append(self, entry: dict[str, Any]) -> None:
        self.count += 1


class RawApp(Application[uuid.UUID]):
    snapshotting_intervals = {RawRecord: 100}


def _entry(i: int) -> dict[str, Any]:
    return {"seq": i, "kind": "move", "actor": {"kind": "seat", "seat": 0}, "at": "2026-01-01T00:00:00.000000Z",
            "payload": {"seat": 0, "move": {"type": "pass"}}, "prev": "0" * 64, "hash": "1" * 64,
            "sig": "2" * 128, "key": "3" * 16}


@pytest.fixture
def raw_app(tmp_path: Path) -> Iterator[RawApp]:
    app = RawApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "raw.sqlite3"),
                  "AGGREGATE_CACHE_MAXSIZE": "500"})
    yield app
    app.close()


@pytest.fixture
def ringside(tmp_path: Path) -> Iterator[Ringside]:
    app = Ringside.open(data_dir=tmp_path / "data", key=ServerKey.from_seed(b"bench"), clock=FixedStepClock())
    yield app
    app.close()


def _long_match(app: Ringside, events: int = 300) -> uuid.UUID:
    """A 4-seat test-game match played by bots until it has at least `events` events."""
    match_id = uuid.UUID(app.create_match("test-dicevote", ["A", "B", "C", "D"], options={"rounds": 40},
                                          seed="be" * 32).receipt.match_id)
    step = 0
    while app.fold(match_id).seq < events and app.play_bot(match_id, seed=step):
        step += 1
    assert app.fold(match_id).seq >= events
    return match_id


@pytest.mark.benchmark(group="append")
def test_raw_single_event_save(benchmark: Any, raw_app: RawApp) -> None:
    record = RawRecord()
    raw_app.save(record)
    counter = iter(range(1, 10**9))

    def save_one() -> None:
        aggregate = raw_app.repository.get(record.id)
        aggregate.append(_entry(next(counter)))
        raw_app.save(aggregate)

    benchmark(save_one)


@pytest.mark.benchmark(group="append")
def test_ringside_append_one_move(benchmark: Any, ringside: Ringside) -> None:
    """A checked, hash-chained, signed move on a warm match (passes in a solo game, then undone,
    so every round appends to the same long-lived match)."""
    match_id = uuid.UUID(ringside.create_match("test-dicevote", ["Solo"], variant="solo",
                                               options={"rounds": 40}, seed="be" * 32).receipt.match_id)
    state = {"moved": False}

    def setup() -> None:
        if state["moved"]:
            ringside.request_undo(match_id, 0)
        state["moved"] = False
        ringside.fold(match_id)

    def append() -> None:
        ringside.submit_move(match_id, 0, {"type": "pass"})
        state["moved"] = True

    benchmark.pedantic(append, setup=setup, rounds=300, warmup_rounds=5)


@pytest.mark.benchmark(group="time-travel")
def test_raw_rebuild_from_nearest_snapshot(benchmark: Any, raw_app: RawApp) -> None:
    record = RawRecord()
    raw_app.save(record)
    for i in range(300):
        aggregate = raw_app.repository.get(record.id)
        aggregate.append(_entry(i))
        raw_app.save(aggregate)
    rng = random.Random(7)
    benchmark(lambda: raw_app.repository.get(record.id, version=rng.randint(2, 300)))


@pytest.mark.benchmark(group="time-travel")
def test_ringside_state_at_random_position(benchmark: Any, ringside: Ringside) -> None:
    match_id = _long_match(ringside)
    rng = random.Random(7)
    benchmark(lambda: ringside.state(match_id, Viewer.spectator(), at=rng.randint(2, 300)))


@pytest.mark.benchmark(group="verification")
def test_ringside_full_verification_of_300_events(benchmark: Any, ringside: Ringside) -> None:
    match_id = _long_match(ringside)
    bundle = ringside.export_bundle(match_id)
    report = benchmark(verify_bundle, bundle, trust=ringside.trust())
    assert report.ok and report.events >= 300
