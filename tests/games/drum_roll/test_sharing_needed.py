"""The sharing and placing phases' "is there anything to decide" questions, asked directly of the
rules (DR-8.1 to DR-8.5, DR-19.7 to DR-19.9, DR-5.17), agree with their definition: some legal
move other than finishing (sharing) or passing (placing) exists.

Why a test of its own: `share_needed` and `place_needed` were once the legal-move lists' lengths,
which cost half of a Drum Roll replay; they are now predicates that stop at the first move found.
Checked here on every state of random whole matches, for every seat and every count of cubes
placed and exchanges used, so that a skipped seat is skipped exactly when it has nothing to do."""

from __future__ import annotations

import random

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll import actions as ac
from domain.games.drum_roll import sharing as sh
from domain.games.drum_roll.state import State
from domain.kernel.agenda import Step

from .builders import config


def _states(seats: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    state = RULESET.setup(config(seats))
    seen = [state]
    for _ in range(RULESET.max_events(state.config)):
        decision = RULESET.decision(state)
        if decision.over:
            break
        if decision.chance is not None:
            spec = decision.chance
            state = RULESET.resolve(state, spec.pick(rng.randrange(spec.total_weight())))
        else:
            seat = decision.seats[0]
            state = RULESET.apply(state, seat, rng.choice(list(RULESET.legal_moves(state, seat))))
        seen.append(state)
    return seen


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_dr_8_share_needed_is_some_placement_or_exchange(seats: int, seed: int) -> None:
    checked = needed = 0
    for state in _states(seats, seed)[::3]:
        for seat in range(seats):
            for placed in (0, 1, 2, 3):
                for agent in (False, True):
                    for secretary in (False, True):
                        step = Step("share", seat=seat, placed=placed, agent=agent, secretary=secretary)
                        expected = len(sh.share_legal(state, seat, step)) > 1
                        assert sh.share_needed(state, step) == expected, (seat, placed, agent, secretary)
                        checked += 1
                        needed += expected
    assert 0 < needed < checked  # both answers were asked for


@pytest.mark.parametrize(("seats", "seed"), [(2, 4), (4, 5)])
def test_dr_5_17_place_needed_is_some_open_space(seats: int, seed: int) -> None:
    checked = needed = 0
    for state in _states(seats, seed)[::3]:
        for seat in range(seats):
            step = Step("place", seat=seat)
            expected = any(not isinstance(move, type(ac.place_legal(state, seat, step)[-1]))
                           for move in ac.place_legal(state, seat, step))
            assert ac.place_needed(state, step) == expected, seat
            checked += 1
            needed += expected
    assert needed > 0 and checked > 100  # hires stay open to a seat without a marker there, so mostly True
