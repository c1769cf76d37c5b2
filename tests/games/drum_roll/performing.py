"""Builders for the performance tests: a table where the performance begins, with the circuses,
money, cubes, helpers, hands and regions a test names, and everything else empty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.drum_roll.components import ANY, default_components
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .test_sharing import sharing

SEAT = 1
"""The seat the tests watch: the start player of `sharing()` (3 players), so it performs first."""


def hired(card: str, filled: int = 0, **changes: Any) -> Hired:
    """`card` with the cubes of its levels 1 to `filled` on it (its printed colours; "any" as white)."""
    levels = default_components().performer(card).levels
    cubes = tuple(tuple("white" if colour == ANY else colour for colour in printed.cubes) if index < filled else ()
                  for index, printed in enumerate(levels))
    return Hired(card, cubes=cubes, **changes)


def show(*performers: Hired, money: int = 10, cubes: Mapping[str, int] | None = None, helpers: tuple[str, ...] = (),
         hand: tuple[str, ...] = (), region: str | None = None, others: Mapping[int, tuple[Hired, ...]] | None = None,
         supply: Mapping[str, int] | None = None, **changes: Any) -> State:
    """Three players, start player seat 1 (`SEAT`), the seats' performances of performance 1
    beginning. Seat 1's circus is `performers`; the other seats have `others` (or nothing), 10
    money, no cubes. The general supply holds every cube not on a card or in a cube supply (or
    `supply` where given), and every trailer not on a performer, so the totals are the game's (125
    cubes, 18 trailers)."""
    state = sharing()
    circuses = {seat: () for seat in range(3)} | dict(others or {}) | {SEAT: performers}
    for seat in range(3):
        state = state.with_player(seat, performers=circuses[seat], helpers=(), hand=(), region=None, money=10,
                                  cubes={})
    state = state.with_player(SEAT, money=money, cubes=dict(cubes or {}), helpers=helpers,
                              hand=tuple(HandCard(card) for card in hand), region=region)
    general = {colour.id: colour.supply for colour in default_components().resources}
    trailers = default_components().constants.trailers
    for player in state.players:
        for colour, count in player.cubes.items():
            general[colour] -= count
        for card in player.performers:
            trailers -= card.trailer
            for level in card.cubes:
                for colour in level:
                    general[colour] -= 1
    general |= dict(supply or {})
    state = evolve(state, **{"cubes": general, "trailers": trailers, **changes})
    # The seats' performances alone (what `performance.begin` pushes between the organiser's return
    # and the wages), so the agenda runs out when the last seat has performed and a test reads the
    # table before the wages (tested in test_wages.py) change it.
    seats = tuple(Step("seat_performance", seat=seat) for seat in state.clockwise())
    return AGENDA.advance(evolve(state, agenda=seats))


def circus_of(state: State, seat: int = SEAT) -> dict[str, Hired]:
    return {card.card: card for card in state.players[seat].performers}


def total_cubes(state: State) -> int:
    placed = sum(len(level) for player in state.players for card in player.performers for level in card.cubes)
    return sum(state.cubes.values()) + sum(sum(player.cubes.values()) for player in state.players) + placed


def total_trailers(state: State) -> int:
    return state.trailers + sum(card.trailer for player in state.players for card in player.performers)
