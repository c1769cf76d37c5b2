"""Drum Roll engine benchmarks (issue 16).

- a whole random-bot match in memory (kernel driver) for each player count: setup, three
  performances of five to seven preparation rounds each, wages and the end of the game;
- legal-move enumeration at a placement turn and at a sharing turn of a mid-game round (the two
  decisions a match asks most often);
- verification of recorded matches, Drum Roll beside Carcassonne in the same run, in events per
  second (`extra_info["events_per_second"]`).

Run: .venv/bin/pytest benchmarks/bench_drum_roll.py --benchmark-enable --benchmark-only -p no:xdist
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.support import bench_verification, bench_whole_match, mid_game, record_bot_match
from domain.games.drum_roll.rules import DrumRollRules

RULES = DrumRollRules()
SEATS = [2, 3, 4]


@pytest.mark.benchmark(group="drum-roll-match")
@pytest.mark.parametrize("seats", SEATS, ids=[f"{n}p" for n in SEATS])
def test_whole_random_bot_match(benchmark: Any, seats: int) -> None:
    bench_whole_match(benchmark, RULES, seats)


@pytest.mark.benchmark(group="drum-roll-legal-moves")
@pytest.mark.parametrize("kind", ["place_marker", "share"])
def test_legal_moves_mid_game(benchmark: Any, kind: str) -> None:
    state = mid_game(RULES, 4, 7, kind)
    seat = RULES.decision(state).seats[0]
    moves = benchmark(RULES.legal_moves, state, seat)
    assert moves
    benchmark.extra_info["moves"] = len(moves)


RECORDED = {
    "drum-roll": ("standard", ["A", "B", "C", "D"]),
    "carcassonne": ("base", ["A", "B", "C", "D"]),
}


@pytest.mark.benchmark(group="drum-roll-verification")
@pytest.mark.parametrize("game", sorted(RECORDED))
def test_verify_recorded_match(benchmark: Any, tmp_path: Path, game: str) -> None:
    """Drum Roll's verification rate beside Carcassonne's, in the same run."""
    variant, players = RECORDED[game]
    bundle, events = record_bot_match(tmp_path / "data", game, players, variant, "d7" * 32)
    bench_verification(benchmark, bundle, events)
