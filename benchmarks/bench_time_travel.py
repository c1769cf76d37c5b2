"""Time travel in matches full of take-backs (issue 14, target 1), beside the raw baseline.

For each game a long match is built through the application, about a third of its events undo
requests, answers, retractions and redos (tests/kernel/undo_play.py). `Ringside.state(match,
spectator, at=N)` is timed at early, middle, late and random positions, each beside the raw
eventsourcing rebuild (`RawRecord`, as in bench_kernel.py) from the nearest snapshot of an
aggregate with as many events and the same snapshot interval (100), in the same run.

- `warm`: as a commentator scrubs a match: the positions read before are kept per process
  (`PositionCache`), so a position costs fewer than 10 folded events;
- `cold`: the position cache emptied before each read: the nearest stored snapshot and up to 99
  events through the rules engine (the cost of a first visit);
- `undos`: the same position count in matches with none, a few and many take-backs before it.

Run: .venv/bin/python -m pytest benchmarks/bench_time_travel.py --benchmark-enable --benchmark-only
     -p no:xdist -p no:cacheprovider
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.bench_kernel import RawApp, RawRecord, _entry
from domain.application import Ringside
from domain.application.cache import PositionCache
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer
from tests.kernel.undo_play import undo_heavy_match

GAMES = ["carcassonne", "circus-train", "russian-railroads", "drum-roll", "test-dicevote"]
EVENTS = 600


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One application with an undo-heavy match per game, and a raw aggregate of as many events."""
    root = tmp_path_factory.mktemp("time-travel")
    app = Ringside.open(data_dir=root / "data", key=ServerKey.from_seed(b"bench"), clock=FixedStepClock())
    raw = RawApp({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(root / "raw.sqlite3"),
                  "AGGREGATE_CACHE_MAXSIZE": "500"})
    matches = {game: undo_heavy_match(app, game, EVENTS, seed=14, match_id=uuid.uuid5(uuid.NAMESPACE_URL, game))
               for game in GAMES}  # the same matches every run: runs compare like with like
    heads = {game: app.fold(match_id).seq for game, match_id in matches.items()}
    raws: dict[int, uuid.UUID] = {}
    for head in sorted(set(heads.values())):
        record = RawRecord()
        raw.save(record)
        for i in range(head - 1):
            aggregate = raw.repository.get(record.id)
            aggregate.append(_entry(i))
            raw.save(aggregate)
        raws[head] = record.id
    yield {"app": app, "raw": raw, "matches": matches, "heads": heads, "raws": raws}
    app.close()
    raw.close()


def _positions(head: int, where: str) -> list[int]:
    if where == "random":
        rng = random.Random(7)
        return [rng.randint(2, head) for _ in range(50)]
    centre = {"early": 60, "middle": head // 2, "late": head - 30}[where]
    return list(range(centre - 25, centre + 25))  # across a snapshot's window: 1 to 99 events past it


def _undo_share(app: Ringside, match_id: uuid.UUID) -> float:
    kinds = [entry.kind for entry in app.entries(match_id)]
    return sum(kind in ("undo-requested", "undo-answered", "retracted", "redone") for kind in kinds) / len(kinds)


@pytest.mark.parametrize("where", ["early", "middle", "late", "random"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.benchmark(group="time-travel-undo")
def test_raw(benchmark: Any, worlds: dict[str, Any], game: str, where: str) -> None:
    head = worlds["heads"][game]
    record_id, raw = worlds["raws"][head], worlds["raw"]
    positions = iter(_positions(head, where) * 10**4)
    benchmark(lambda: raw.repository.get(record_id, version=next(positions)))


@pytest.mark.parametrize("mode", ["warm", "cold"])
@pytest.mark.parametrize("where", ["early", "middle", "late", "random"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.benchmark(group="time-travel-undo")
def test_ringside(benchmark: Any, worlds: dict[str, Any], game: str, where: str, mode: str) -> None:
    app: Ringside = worlds["app"]
    match_id = worlds["matches"][game]
    positions = iter(_positions(worlds["heads"][game], where) * 10**4)
    benchmark.extra_info["undo_share"] = round(_undo_share(app, match_id), 3)
    benchmark.extra_info["events"] = worlds["heads"][game]

    def read() -> None:
        if mode == "cold":
            app._positions = PositionCache(app, app.CACHE_SIZE, app._project)
        app.state(match_id, Viewer.spectator(), at=next(positions))

    benchmark(read)


@pytest.fixture(scope="module")
def undo_counts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Carcassonne matches with no take-backs and with about 200 take-back events, read over the
    same 99 positions."""
    root = tmp_path_factory.mktemp("undo-counts")
    app = Ringside.open(data_dir=root / "data", key=ServerKey.from_seed(b"bench"), clock=FixedStepClock())
    matches = {"none": uuid.UUID(app.create_match("carcassonne", ["A", "B", "C"], seed="cc" * 32)
                                 .receipt.match_id)}
    step = 0
    while app.fold(matches["none"]).seq < 600 and app.play_bot(matches["none"], seed=step):
        step += 1
    matches["many"] = undo_heavy_match(app, "carcassonne", 600, seed=3, match_id=uuid.uuid5(uuid.NAMESPACE_URL, "many"))
    top = min(app.fold(match_id).seq for match_id in matches.values())
    yield {"app": app, "matches": matches, "positions": list(range(top - 99, top))}
    app.close()


@pytest.mark.parametrize("mode", ["warm", "cold"])
@pytest.mark.parametrize("undos", ["none", "many"])
@pytest.mark.benchmark(group="time-travel-undo-count")
def test_cost_against_undos_before(benchmark: Any, undo_counts: dict[str, Any], undos: str, mode: str) -> None:
    app: Ringside = undo_counts["app"]
    match_id = undo_counts["matches"][undos]
    benchmark.extra_info["undo_events_before"] = round(_undo_share(app, match_id) * app.fold(match_id).seq)
    positions = iter(undo_counts["positions"] * 10**4)

    def read() -> None:
        if mode == "cold":
            app._positions = PositionCache(app, app.CACHE_SIZE, app._project)
        app.state(match_id, Viewer.spectator(), at=next(positions))

    benchmark(read)
