"""Random legal play through a performance from random tables: every legal move validates, cubes
(general supply + cube supplies + cubes on cards = 125, DR-1.6) and trailers (18, DR-1.2) are
conserved, fame always equals its ledger, and a look's cards never show in another seat's view."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.circus import BIZARRE
from domain.games.drum_roll.components import default_components
from domain.games.drum_roll.state import Hired, State
from domain.kernel.viewers import Viewer

from .performing import hired, show, total_cubes, total_trailers

HELPERS = ("H02", "H03", "H04", "H05", "H06", "H11")
APPLAUSE = ("I08", "I09", "I10", "I11", "I12")


def random_circus(rng: random.Random, cards: list[str]) -> tuple[Hired, ...]:
    chosen = [cards.pop() for _ in range(rng.randint(0, 5))]
    circus = [hired(card, rng.choice((0, 1, 1, 2, 2, 3, 3, 3))) for card in chosen]
    trailers: set[int] = set()
    for index in range(len(circus)):
        if rng.random() < 0.25:
            circus[index] = Hired(circus[index].card, circus[index].cubes, trailer=True)
            trailers.add(index)
    free = [index for index in range(len(circus)) if index not in trailers]
    owners = [index for index in trailers if default_components().performer(circus[index].card).type == BIZARRE]
    if owners and free and rng.random() < 0.5:
        sharer = free[0]
        circus[sharer] = Hired(circus[sharer].card, circus[sharer].cubes, shares_trailer_of=circus[owners[0]].card)
    return tuple(circus)


def random_table(seed: int) -> State:
    rng = random.Random(seed)
    cards = [card.id for card in default_components().performers]
    rng.shuffle(cards)
    others = {seat: random_circus(rng, cards) for seat in (0, 2)}
    colours = default_components().colours()
    cubes = {colour: rng.randint(0, 2) for colour in colours}
    return show(*random_circus(rng, cards), others=others, money=rng.randint(0, 12), cubes=cubes,
                helpers=tuple(rng.sample(HELPERS, rng.randint(0, 2))),
                hand=tuple(rng.sample(APPLAUSE, rng.randint(0, 2))), region=rng.choice(("moscow", "paris", None)))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_dr_1_6_dr_1_2_random_legal_play_through_a_performance_conserves_cubes_and_trailers(seed: int) -> None:
    """Rules: DR-1.6, DR-1.2."""
    rng = random.Random(seed)
    state = random_table(seed)
    for _ in range(RULESET.max_events(state.config)):
        assert total_cubes(state) == 125 and total_trailers(state) == 18
        assert all(player.fame == sum(entry.points for entry in player.ledger) for player in state.players)
        decision = RULESET.decision(state)
        if decision.over:
            break
        if decision.chance is not None:
            spec = decision.chance
            state = RULESET.resolve(state, spec.pick(rng.randrange(spec.total_weight())))
            continue
        seat = decision.seats[0]
        moves = list(RULESET.legal_moves(state, seat))
        assert moves
        for candidate in moves:
            RULESET.validate(state, seat, candidate)
        looked = [card for step in state.agenda if step.kind in ("look_draw", "look_keep")
                  for card in step["cards"]]  # type: ignore[union-attr]
        for viewer in (0, 2):
            if viewer != seat:
                seen = str(RULESET.view(state, Viewer("seat", viewer))["agenda"])
                assert not any(f"'{card}'" in seen for card in looked)
        state = RULESET.apply(state, seat, rng.choice(moves))
    assert state.over
    assert all(card.performed == state.performance for player in state.players for card in player.performers)
