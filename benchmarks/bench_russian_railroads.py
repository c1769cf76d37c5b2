"""Russian Railroads engine benchmarks (issue 15).

- a whole random-bot match in memory (kernel driver) for each player count;
- legal-move enumeration at a mid-game turn (every free space x every way to pay, each checked
  for full performance, RR-5.5), and at a composite part;
- verification of recorded matches, Russian Railroads beside Carcassonne in the same run, in
  events per second (`extra_info["events_per_second"]`).

Run: .venv/bin/pytest benchmarks/bench_russian_railroads.py --benchmark-only -p no:xdist
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.support import bench_verification, bench_whole_match, mid_game, record_bot_match
from domain.games.russian_railroads.rules import RussianRailroadsRules

RULES = RussianRailroadsRules()
SEATS = [2, 3, 4]


@pytest.mark.benchmark(group="russian-railroads-match")
@pytest.mark.parametrize("seats", SEATS, ids=[f"{n}p" for n in SEATS])
def test_whole_random_bot_match(benchmark: Any, seats: int) -> None:
    bench_whole_match(benchmark, RULES, seats)


@pytest.mark.benchmark(group="russian-railroads-legal-moves")
@pytest.mark.parametrize("kind", ["turn", "advance"])
def test_legal_moves_mid_game(benchmark: Any, kind: str) -> None:
    state = mid_game(RULES, 4, 7, kind)
    seat = RULES.decision(state).seats[0]
    moves = benchmark(RULES.legal_moves, state, seat)
    assert moves
    benchmark.extra_info["moves"] = len(moves)


RECORDED = {
    "russian-railroads": ("standard", ["A", "B", "C", "D"]),
    "carcassonne": ("base", ["A", "B", "C", "D"]),
}


@pytest.mark.benchmark(group="russian-railroads-verification")
@pytest.mark.parametrize("game", sorted(RECORDED))
def test_verify_recorded_match(benchmark: Any, tmp_path: Path, game: str) -> None:
    """Russian Railroads' verification rate beside Carcassonne's, in the same run."""
    variant, players = RECORDED[game]
    bundle, events = record_bot_match(tmp_path / "data", game, players, variant, "a5" * 32)
    bench_verification(benchmark, bundle, events)
