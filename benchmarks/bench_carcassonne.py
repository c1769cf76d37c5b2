"""Carcassonne engine benchmarks (issue 3).

- legal-move enumeration at a mid-game position (placements, then figure options);
- a whole random-bot match in memory (kernel driver), and one with greedy bots;
- verification of a recorded match (bundle exported from the application), in events per second.

Run: .venv/bin/pytest benchmarks/bench_carcassonne.py --benchmark-only -p no:cacheprovider
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.support import bench_verification, record_bot_match
from domain.games.carcassonne.moves import PlaceTile
from domain.games.carcassonne.rules import CarcassonneRules
from domain.games.carcassonne.state import CarcassonneState
from domain.kernel.driver import make_config, play

RULES = CarcassonneRules()


def mid_game(seats: int = 4) -> CarcassonneState:
    """A big-top match played by random bots until about 45 tiles lie on the table, stopped with a
    tile in hand (place step)."""
    config = make_config(RULES, seats, "big-top")
    played = play(RULES, config, seed=11)
    state = RULES.setup(config)
    for step in played.steps:
        state = (RULES.resolve(state, step.data) if step.kind == "chance"
                 else RULES.apply(state, step.seat or 0, RULES.parse_move(step.data)))
        if len(state.board) >= 45 and state.phase == "place":
            return state
    raise AssertionError("no mid-game position found")


@pytest.mark.benchmark(group="carcassonne-legal-moves")
def test_legal_placements_mid_game(benchmark: Any) -> None:
    state = mid_game()
    moves = benchmark(RULES.legal_moves, state, state.seat)
    assert moves


@pytest.mark.benchmark(group="carcassonne-legal-moves")
def test_legal_figure_moves_mid_game(benchmark: Any) -> None:
    state = mid_game()
    placement = RULES.legal_moves(state, state.seat)[0]
    assert isinstance(placement, PlaceTile)
    after = RULES.apply(state, state.seat, placement)
    moves = benchmark(RULES.legal_moves, after, after.seat)
    assert moves


@pytest.mark.benchmark(group="carcassonne-match")
def test_whole_random_bot_match(benchmark: Any) -> None:
    config = make_config(RULES, 4, "big-top")
    counter = iter(range(10**9))
    played = benchmark(lambda: play(RULES, config, seed=next(counter)))
    assert played.state.phase == "over"


@pytest.mark.benchmark(group="carcassonne-match")
def test_whole_greedy_bot_match(benchmark: Any) -> None:
    config = make_config(RULES, 4, "big-top")
    greedy = RULES.bots()["greedy"]
    played = benchmark.pedantic(lambda: play(RULES, config, seed=3, bots={s: greedy for s in range(4)}),
                                rounds=3, iterations=1)
    assert played.state.phase == "over"


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[str, int]:
    return record_bot_match(tmp_path / "data", "carcassonne", ["A", "B", "C", "D"], "big-top", "ca" * 32)


@pytest.mark.benchmark(group="carcassonne-verification")
def test_verify_recorded_match(benchmark: Any, recorded: tuple[str, int]) -> None:
    bench_verification(benchmark, *recorded)
