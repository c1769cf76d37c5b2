"""The stages built so far played through with random choices and chance, for every seat count:
every state round-trips, every legal move validates, and the setup, then for each of the three
performances rounds 1 to 5, 6 or 7 (action phase, sharing phase, end of round between them, the
votes), the performance, the wages and the end of performance, end the match at the end of the game."""

from __future__ import annotations

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.investments import hand_limit

from .builders import config, random_match


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_match_plays_through_with_random_choices(seats: int, seed: int) -> None:
    state, kinds = random_match(seats, seed)
    assert RULESET.decision(state).over
    assert state.round in (5, 6, 7) and state.start_player is not None  # DR-3.4: the vote decided
    assert state.performance == 3 and state.agenda == () and "ballot" in kinds  # DR-14.1: the game ended
    # DR-11.2, DR-11.14: every performer left in a circus performed in the 3rd performance, or was
    # flipped earlier (the others were fired, DR-11.8)
    assert all(hired.performed == 3 or (hired.flipped or 3) < 3 for player in state.players
               for hired in player.performers)
    assert all(player.fame == sum(entry.points for entry in player.ledger) for player in state.players)
    trailers = state.trailers + sum(hired.trailer for player in state.players for hired in player.performers)
    assert trailers == 18  # DR-20.7: a trailer is on one performer or in the general supply
    hired = sum(len(player.performers) for player in state.players)
    assert hired + len(state.performer_row) + len(state.performer_deck) + len(state.performer_discard) == 45
    held = sum(len(player.hand) for player in state.players)
    assert held + len(state.investment_deck) + len(state.investment_bottom) + len(state.investment_discard) == 30
    for seat, player in enumerate(state.players):  # DR-21.3 to DR-21.5: every hand within its limit
        assert len(player.hand) <= hand_limit(state, seat)
    assert "share" in kinds  # the sharing phase was reached
    placed = sum(len(level) for p in state.players for h in p.performers for level in h.cubes)
    cubes = sum(state.cubes.values()) + sum(sum(p.cubes.values()) for p in state.players) + placed
    assert cubes == 125  # DR-8.4: placed cubes stay on the cards; exchanges keep the total
    tokens = state.discounts + sum(c.discounts for c in (*state.performer_row, *state.helper_row))
    assert tokens == 44


@pytest.mark.parametrize("preset", ["action-limits-in-total", "given-start-player", "region-count-performed-only",
                                    "secondary-wage-delayed", "postpone-fame-if-postponed"])
def test_every_preset_parses_and_sets_up(preset: str) -> None:
    options = RULESET.option_presets()[preset]
    state = RULESET.setup(config(2, **options))
    assert state.options.model_dump(exclude_defaults=True) == options
