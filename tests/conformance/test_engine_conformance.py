"""Engine-tier conformance for every registered game, variant and player count (brief §9).

CI runs at least 200 seeded matches per game; `-m slow` runs five times as many. Bots are checked
counterfactually to decide from their seat's view only: one match per case, every third decision
point with something hidden from the acting seat, in CI; eight matches at every such point with
`-m slow`.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from domain.kernel.contract import Bot
from domain.kernel.registry import all_games
from tests.conformance.harness import BlindReport, Case, cases, check_bots_blind, play_checked

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


BOT_CHECK_EVERY = 3
"""In CI, every third decision point with hidden information (a few seconds for the heaviest case)."""


@pytest.mark.parametrize("case", cases(), ids=str)
def test_bots_decide_from_their_seats_view_only(case: Case) -> None:
    """Every bot of the game chooses the same move, with the same generator seed, whatever the
    information hidden from its seat is: along a bot-played match, the latest steps hidden from
    the acting seat (a face-down Big Top token, BT-3.7; another seat's hand, TG-1.1; a secret
    vote still open, TG-2.1) are replayed otherwise, and every alternative that looks the same
    from the seat must give the same move. Otherwise a bot plays with information its seat lacks,
    and its moves let spectators narrow the hidden information down."""
    report = BlindReport()
    check_bots_blind(case, seed=1, report=report, every=BOT_CHECK_EVERY)
    assert not report.leaks, report.summary()
    assert report.alternatives or not report.states, f"no counterfactual was possible: {report.summary()}"


@pytest.mark.slow
@pytest.mark.parametrize("case", cases(), ids=str)
def test_bots_decide_from_their_seats_view_only_many_seeds(case: Case) -> None:
    """The same check at every decision point with hidden information, over eight matches."""
    report = BlindReport()
    for seed in range(8):
        check_bots_blind(case, seed=100 + seed, report=report)
    assert not report.leaks, report.summary()


def _peek_at_next_hand(state: Any, seat: int, rng: random.Random) -> Any:
    """Plays from the next seat's hand total, which only that seat may know (TG-1.1)."""
    moves = all_games()["test-dicevote"].legal_moves(state, seat)
    return moves[sum(state.hands[(seat + 1) % state.seats]) % len(moves)]


def _copy_a_secret_vote(state: Any, seat: int, rng: random.Random) -> Any:
    """Votes as another seat already did while the votes are still secret (TG-2.1)."""
    moves = list(all_games()["test-dicevote"].legal_moves(state, seat))
    cast = [vote for other, vote in enumerate(state.votes) if vote is not None and other != seat]
    chosen = [move for move in moves if cast and getattr(move, "choice", None) == cast[0]]
    return (chosen or moves)[0]


def _peek_at_big_top_token(state: Any, seat: int, rng: random.Random) -> Any:
    """Picks a legal move by the face-down token under the Big Top (BT-3.7)."""
    moves = all_games()["carcassonne"].legal_moves(state, seat)
    return moves[len(state.big_top_token or "") % len(moves)]


@pytest.mark.parametrize(("case", "bot"), [
    (Case("test-dicevote", "standard", 3), _peek_at_next_hand),
    (Case("test-dicevote", "standard", 3), _copy_a_secret_vote),
    (Case("carcassonne", "big-top-circus", 2), _peek_at_big_top_token),
], ids=["TG-1.1-hand", "TG-2.1-secret-vote", "BT-3.7-big-top-token"])
def test_the_bot_check_catches_a_bot_that_peeks(case: Case, bot: Bot) -> None:
    """The check is not vacuous: a bot reading each kind of hidden information is caught."""
    report = BlindReport()
    for seed in range(3):
        check_bots_blind(case, seed=seed, report=report, every=BOT_CHECK_EVERY, bots={"peek": bot})
    assert report.leaks.get("peek"), report.summary()
