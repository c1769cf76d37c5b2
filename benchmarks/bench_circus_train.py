"""Circus Train engine benchmarks (issue 6).

- a whole random-bot match in memory (kernel driver) for each player count and mode;
- a whole greedy-bot match at 4 players;
- legal-move enumeration at a turn (every card x every destination);
- verification of a recorded match (bundle exported from the application), in events per second.

Run: .venv/bin/pytest benchmarks/bench_circus_train.py --benchmark-only -p no:cacheprovider
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.support import bench_verification, record_bot_match
from domain.games.circus_train.rules import CircusTrainRules
from domain.kernel.driver import make_config, play

RULES = CircusTrainRules()
MODES = [("solitaire", 1), ("basic", 2), ("basic", 3), ("basic", 4), ("basic", 5), ("advanced", 4)]


@pytest.mark.benchmark(group="circus-train-match")
@pytest.mark.parametrize(("variant", "seats"), MODES, ids=[f"{v}-{n}p" for v, n in MODES])
def test_whole_random_bot_match(benchmark: Any, variant: str, seats: int) -> None:
    config = make_config(RULES, seats, variant)
    counter = iter(range(10**9))
    played = benchmark(lambda: play(RULES, config, seed=next(counter)))
    assert RULES.decision(played.state).over
    benchmark.extra_info["steps"] = len(played.steps)


@pytest.mark.benchmark(group="circus-train-match")
def test_whole_greedy_bot_match(benchmark: Any) -> None:
    config = make_config(RULES, 4, "basic", {"special_characters": True, "event_cards": True})
    greedy = RULES.bots()["greedy"]
    played = benchmark.pedantic(lambda: play(RULES, config, seed=3, bots={s: greedy for s in range(4)}),
                                rounds=5, iterations=1)
    assert RULES.decision(played.state).over


@pytest.mark.benchmark(group="circus-train-legal-moves")
def test_legal_moves_at_a_turn(benchmark: Any) -> None:
    config = make_config(RULES, 4, "advanced")
    played = play(RULES, config, seed=5)
    state = RULES.setup(config)
    for step in played.steps:
        state = (RULES.resolve(state, step.data) if step.kind == "chance"
                 else RULES.apply(state, step.seat or 0, RULES.parse_move(step.data)))
        head = state.head()
        if head is not None and head["t"] == "turn" and state.week >= 10:
            break
    seat = RULES.decision(state).seats[0]
    moves = benchmark(RULES.legal_moves, state, seat)
    assert moves


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[str, int]:
    return record_bot_match(tmp_path / "data", "circus-train", ["A", "B", "C", "D"], "basic", "c7" * 32)


@pytest.mark.benchmark(group="circus-train-verification")
def test_verify_recorded_match(benchmark: Any, recorded: tuple[str, int]) -> None:
    bench_verification(benchmark, *recorded)
