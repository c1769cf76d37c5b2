"""Engine-tier conformance for every registered game, variant and player count (brief §9).

CI runs at least 200 seeded matches per game; `-m slow` runs five times as many.
"""

from __future__ import annotations

import os

import pytest

from tests.conformance.harness import Case, cases, play_checked

SEEDS_PER_GAME = int(os.environ.get("RINGSIDE_CONFORMANCE_SEEDS", "200"))


def _seeded(multiplier: int) -> list[tuple[Case, int]]:
    """Spread SEEDS_PER_GAME × multiplier seeds over each game's variant/player-count cases."""
    by_game: dict[str, list[Case]] = {}
    for case in cases():
        by_game.setdefault(case.game, []).append(case)
    params = []
    for game_cases in by_game.values():
        per_case = max(2, -(-SEEDS_PER_GAME * multiplier // len(game_cases)))
        params.extend((case, seed) for case in game_cases for seed in range(per_case))
    return params


def _batches(multiplier: int) -> list[tuple[Case, list[int]]]:
    grouped: dict[Case, list[int]] = {}
    for case, seed in _seeded(multiplier):
        grouped.setdefault(case, []).append(seed)
    return list(grouped.items())


def _ids(value: object) -> str:
    return str(value) if isinstance(value, Case) else f"{len(value)}seeds" if isinstance(value, list) else ""


@pytest.mark.parametrize(("case", "seeds"), _batches(1), ids=_ids)
def test_bots_play_whole_matches_with_every_engine_check(case: Case, seeds: list[int]) -> None:
    """Bots finish every seeded match; legality, illegal-move refusal, purity, encoding, hidden
    information and the termination bound are checked along the way."""
    for seed in seeds:
        play_checked(case, seed)


@pytest.mark.parametrize("case", [c for c in cases() if c.preset == "standard"] or cases(), ids=str)
def test_same_seed_same_match(case: Case) -> None:
    """Determinism: the same seed and bots give the same final state, bit for bit."""
    assert play_checked(case, 12345) == play_checked(case, 12345)


@pytest.mark.slow
@pytest.mark.parametrize(("case", "seeds"), _batches(5), ids=_ids)
def test_many_more_seeds(case: Case, seeds: list[int]) -> None:
    for seed in seeds:
        play_checked(case, 10_000 + seed, deep_every=13)
