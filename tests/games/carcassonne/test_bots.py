"""Whole bot matches through the kernel driver at every variant and player count."""

from __future__ import annotations

import pytest

from domain.kernel.driver import play
from domain.kernel.registry import get_game

from .helpers import RULES, config

CASES = [(variant, seats) for variant, info in RULES.variants.items()
         for seats in range(info.min_seats, info.max_seats + 1)]


def test_registered() -> None:
    assert get_game("carcassonne").name == "carcassonne"
    assert set(RULES.bots()) >= {"random", "greedy"}


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_random_bots_finish(variant: str, seats: int) -> None:
    """CB-6.1: the match ends when the stack is empty, within max_events, with ranks."""
    cfg = config(seats, variant)
    match = play(RULES, cfg, seed=seats * 31 + len(variant))
    state = match.state
    assert state.phase == "over" and state.tiles_left() == 0
    assert len(match.steps) <= RULES.max_events(cfg)
    placed_tiles = len(state.board) - 1
    assert placed_tiles + len(state.discarded) == sum(
        t.count - t.start_copies for t in state.catalog.components.tiles
        if t.kind == "base" or (t.kind == "circus" and state.parts.circus)
        or (t.kind == "acrobat" and state.parts.acrobats))
    result = RULES.result(state, RULES.score(state))
    assert min(result.ranks) == 1


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_greedy_bots_finish_and_beat_random(seats: int) -> None:
    """The greedy bot plays whole matches; against random bots it scores more (fixed seeds)."""
    greedy = RULES.bots()["greedy"]
    wins = 0
    for seed in range(2):
        match = play(RULES, config(seats, "big-top"), seed=seed, bots={0: greedy})
        totals = RULES.score(match.state).totals()
        wins += totals[0] == max(totals)
    assert wins >= 1


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_greedy_and_random_many_seeds(variant: str, seats: int) -> None:
    """Heavier run: greedy against random bots over several seeds in every variant and seat count;
    every match ends with non-negative totals."""
    greedy = RULES.bots()["greedy"]
    for seed in range(5):
        match = play(RULES, config(seats, variant), seed=seed, bots={0: greedy})
        assert match.state.phase == "over"
        assert min(RULES.score(match.state).totals()) >= 0
