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
- `undos`: the same position count in matches with none, a few and many take-backs before it;
- `per position`: each position read cold beside the raw rebuild at the same version, both the
  best of a few tries, interleaved: the ratio at every position (issue 14 asks for <= 2x at each).

Why every position the same number of times (`_time_positions`): the costs of a window's positions
fall in two clusters (just past a snapshot, and up to 99 events past it), so a median over rounds
that visit some positions once more than others lands in one cluster or the other by the round
count alone, which pytest-benchmark's calibration chose. Each read here visits the window whole,
after one whole warm-up pass, and the ratio to compare is of the means (`stats.mean`): the cost of
the same positions, each once.

Run: .venv/bin/python -m pytest benchmarks/bench_time_travel.py --benchmark-enable --benchmark-only
     -p no:xdist -p no:cacheprovider
"""

from __future__ import annotations

import random
import statistics
import time
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
PASSES = 4
TRIES = 3
"""Reads per position and side in the per-position sweep (the best counts)."""
"""Measured passes over a window's positions (after one warm-up pass)."""


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


def _time_positions(benchmark: Any, read_at: Any, positions: list[int]) -> None:
    """Read every position of the window `PASSES` times, in order, one read per round, after one
    warm-up pass (see the module: the rounds must cover the window whole)."""
    order = iter(positions * (PASSES + 1))
    benchmark.pedantic(lambda: read_at(next(order)), rounds=len(positions) * PASSES, iterations=1,
                       warmup_rounds=len(positions))


def _undo_share(app: Ringside, match_id: uuid.UUID) -> float:
    kinds = [entry.kind for entry in app.entries(match_id)]
    return sum(kind in ("undo-requested", "undo-answered", "retracted", "redone") for kind in kinds) / len(kinds)


@pytest.mark.parametrize("where", ["early", "middle", "late", "random"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.benchmark(group="time-travel-undo")
def test_raw(benchmark: Any, worlds: dict[str, Any], game: str, where: str) -> None:
    head = worlds["heads"][game]
    record_id, raw = worlds["raws"][head], worlds["raw"]
    _time_positions(benchmark, lambda at: raw.repository.get(record_id, version=at), _positions(head, where))


@pytest.mark.parametrize("mode", ["warm", "cold"])
@pytest.mark.parametrize("where", ["early", "middle", "late", "random"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.benchmark(group="time-travel-undo")
def test_ringside(benchmark: Any, worlds: dict[str, Any], game: str, where: str, mode: str) -> None:
    app: Ringside = worlds["app"]
    match_id = worlds["matches"][game]
    benchmark.extra_info["undo_share"] = round(_undo_share(app, match_id), 3)
    benchmark.extra_info["events"] = worlds["heads"][game]

    def read(at: int) -> None:
        if mode == "cold":
            app._positions = PositionCache(app, app.CACHE_SIZE, app._project)
        app.state(match_id, Viewer.spectator(), at=at)

    _time_positions(benchmark, read, _positions(worlds["heads"][game], where))


@pytest.mark.parametrize("where", ["early", "middle", "late", "random"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.benchmark(group="time-travel-per-position")
def test_per_position(benchmark: Any, worlds: dict[str, Any], game: str, where: str) -> None:
    """Every position of the window, cold, beside the raw rebuild at the same version: each the
    best of `TRIES` reads, the two interleaved so that both see the machine as it is then. The
    timed sweep is one round; `extra_info` holds the ratio at each position and their spread."""
    app: Ringside = worlds["app"]
    match_id, head = worlds["matches"][game], worlds["heads"][game]
    record_id, raw = worlds["raws"][head], worlds["raw"]
    positions = sorted(set(_positions(head, where)))
    ratios: dict[int, float] = {}

    def best(call: Any, at: int) -> float:
        times = []
        for _ in range(TRIES):
            start = time.perf_counter()
            call(at)
            times.append(time.perf_counter() - start)
        return min(times)

    def theirs(at: int) -> None:
        raw.repository.get(record_id, version=at)

    def ours(at: int) -> None:
        app._positions = PositionCache(app, app.CACHE_SIZE, app._project)
        app.state(match_id, Viewer.spectator(), at=at)

    def sweep() -> None:
        for at in positions:
            raw_time = best(theirs, at)
            ratios[at] = best(ours, at) / raw_time

    benchmark.pedantic(sweep, rounds=1, iterations=1, warmup_rounds=0)
    values = sorted(ratios.values())
    benchmark.extra_info["ratio_per_position"] = {
        "min": round(values[0], 2), "median": round(statistics.median(values), 2), "max": round(values[-1], 2),
        "at_most_2": f"{sum(v <= 2 for v in values)}/{len(values)}",
    }
    benchmark.extra_info["ratios"] = {str(at): round(ratio, 2) for at, ratio in sorted(ratios.items())}


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

    def read(at: int) -> None:
        if mode == "cold":
            app._positions = PositionCache(app, app.CACHE_SIZE, app._project)
        app.state(match_id, Viewer.spectator(), at=at)

    _time_positions(benchmark, read, undo_counts["positions"])
