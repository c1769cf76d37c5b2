"""Bots decide from their seat's view only (A-6, CT-0.15).

Circus Train draws nothing face down and has no secret choice, so the conformance suite's
counterfactual bot check finds nothing hidden to vary here. What the views do hide is what is left
in the Local News bag, the Destination deck and the event cards (only their counts show); this
test replaces those contents by others of the same sizes and checks that no bot notices.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from domain.games.circus_train.state import State, sorted_tuple
from domain.kernel.chance import derive_outcome
from domain.kernel.viewers import Viewer

from .helpers import R, cfg

MODES = [("basic", 3, {}), ("advanced", 2, {"special_characters": True, "event_cards": True}),
         ("solitaire", 1, {"event_cards": True})]


def _unseen_otherwise(state: State, rng: random.Random) -> State:
    """The same state with other contents, of the same sizes, in the bag, deck and event cards."""
    catalog = state.catalog

    def other(items: tuple[str, ...], universe: list[str]) -> tuple[str, ...]:
        return sorted_tuple(rng.choice(universe) for _ in items)

    return replace(state, bag=other(state.bag, sorted(catalog.counters)),
                   deck=other(state.deck, sorted(catalog.destination_city)),
                   events_left=other(state.events_left, sorted(catalog.events)))


@pytest.mark.parametrize(("variant", "seats", "options"), MODES, ids=[m[0] for m in MODES])
def test_a_6_bots_ignore_what_is_left_in_the_bag_deck_and_events(variant: str, seats: int,
                                                                  options: dict[str, Any]) -> None:
    """Every bot picks the same move (same generator seed) when the hidden contents differ, at
    decision point of a random match; the views agree, as a sanity check."""
    config = cfg(seats, variant, **options)
    bots = R.bots()
    rng = random.Random(seats)
    state = R.setup(config)
    checked = 0
    for step in range(R.max_events(config) + 1):
        decision = R.decision(state)
        if decision.over:
            break
        if decision.chance is not None:
            state = R.resolve(state, derive_outcome(f"{step:064x}", "bots", [], step, decision.chance).outcome)
            continue
        seat = decision.seats[0]
        other = _unseen_otherwise(state, rng)
        for viewer in (Viewer.spectator(), *(Viewer.of_seat(s) for s in range(seats))):
            assert R.view(other, viewer) == R.view(state, viewer)
        for bot in bots.values():
            assert bot(other, seat, random.Random(step)) == bot(state, seat, random.Random(step))
        checked += 1
        state = R.apply(state, seat, R.random_bot(state, seat, rng))
    assert R.decision(state).over and checked >= 20
