"""The private-choice checks are not vacuous: each catches a game that gives a private choice away.

Variants of the test-only Sealed Bonus that leak in one way each: a view showing every seat's
bonus cards, a score counting them before final scoring, a refusal naming the pledges so far, and (registered
for the record tier) a view showing a pledge before the pledges are revealed; and a bot that
reads another seat's pledge.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from domain.kernel import registry
from domain.kernel.contract import MatchConfig, ScoreLine, ScoreSheet
from domain.kernel.errors import IllegalMoveError
from domain.kernel.viewers import Viewer
from tests.conformance.harness import BlindReport, Case, check_bots_blind, check_private_move
from tests.conformance.privacy import PrivacyReport, check_private_record
from tests.support.sealedbonus import Pledge, SealedBonus, SealedBonusOptions, State, Take


class _ShowsCards(SealedBonus):
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return {**super().view(state, viewer), "cards": [list(cards) for cards in state.cards]}


class _ScoresCardsEarly(SealedBonus):
    def score(self, state: State) -> ScoreSheet:
        early = tuple(ScoreLine(seat, 3, "points", "SB-3.2", "a star, counted early")
                      for seat, cards in enumerate(state.cards) for card in cards if card == "star")
        return super().score(state).with_lines(early)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        # the view's own totals leave the cards out: only the score sheet gives them away
        return {**super().view(state, viewer), "scores": list(SealedBonus.score(self, state).totals())}


class _RefusalNamesPledges(SealedBonus):
    def validate(self, state: State, seat: int, move: Any) -> None:
        if isinstance(move, Pledge) and not 0 <= move.coins <= state.coins[seat]:
            raise IllegalMoveError("SB-2.2", f"a pledge is 0 to {state.coins[seat]} coins (so far: {state.pledges})")
        super().validate(state, seat, move)


class _ShowsPledges(SealedBonus):
    name = "test-leakybonus"

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return {**super().view(state, viewer), "pledges": list(state.pledges)}


def _bonus_turn(ruleset: SealedBonus) -> State:
    """Round 0's bonus phase, seat 0 to take its card."""
    state = _pledge_turn(ruleset)
    for seat, coins in ((0, 2), (1, 1)):
        state = ruleset.apply(state, seat, Pledge(coins=coins))
    assert state.phase == "bonus" and state.acting == 0
    return state


def _pledge_turn(ruleset: SealedBonus) -> State:
    """Round 0 after the roll, seat 0 to pledge."""
    config = MatchConfig("standard", SealedBonusOptions(), 2, ruleset.default_components())
    return ruleset.resolve(ruleset.setup(config), 4)


def test_the_unchanged_game_passes_the_engine_check() -> None:
    ruleset = SealedBonus()
    before = _bonus_turn(ruleset)
    move = Take(card="star")
    compared = check_private_move(ruleset, before, 0, move, ruleset.apply(before, 0, move), 2, random.Random(1))
    assert compared == 2  # the laurel and the purse
    before = _pledge_turn(ruleset)
    move = Pledge(coins=2)
    compared = check_private_move(ruleset, before, 0, move, ruleset.apply(before, 0, move), 2, random.Random(1))
    assert compared == 3  # the first three other pledges


@pytest.mark.parametrize(("leaky", "message"), [
    (_ShowsCards, "can tell seat 0's private choice"),
    (_ScoresCardsEarly, "the scores show seat 0's private choice"),
    (_RefusalNamesPledges, "answered differently depending on seat 0's private choice"),
], ids=["view", "score", "refusal"])
def test_the_engine_check_catches_a_game_that_gives_a_private_choice_away(leaky: type[SealedBonus],
                                                                         message: str) -> None:
    ruleset = leaky()
    before, move = (_pledge_turn(ruleset), Pledge(coins=2)) if leaky is _RefusalNamesPledges \
        else (_bonus_turn(ruleset), Take(card="star"))
    with pytest.raises(AssertionError, match=message):
        check_private_move(ruleset, before, 0, move, ruleset.apply(before, 0, move), 2, random.Random(1))


def test_the_record_check_catches_a_game_that_shows_a_pledge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, _ShowsPledges.name, _ShowsPledges())
    with pytest.raises(AssertionError, match="sees another state"):
        check_private_record(Case(_ShowsPledges.name, "standard", 2), tmp_path, PrivacyReport())


def _copy_a_private_pledge(state: State, seat: int, rng: random.Random) -> Any:
    """Pledges what an earlier seat pledged this round, which only that seat may know (SB-2.2)."""
    moves = list(SealedBonus().legal_moves(state, seat))
    pledged = [pledge for other, pledge in enumerate(state.pledges) if pledge is not None and other != seat]
    if state.phase == "pledge" and pledged:
        return Pledge(coins=min(pledged[0], state.coins[seat]))
    return moves[0]


def test_the_bot_check_catches_a_bot_that_reads_a_private_pledge() -> None:
    report = BlindReport()
    for seed in range(3):
        check_bots_blind(Case("test-sealedbonus", "standard", 3), seed=seed, report=report,
                         bots={"peek": _copy_a_private_pledge})
    assert report.leaks.get("peek"), report.summary()
