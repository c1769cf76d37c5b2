"""The setup of a match: the board, the seats and the first agenda, run to the first decision.

The pending work of a match is its agenda (state.py), run by the kernel's machine over the table
of step kinds (tasks.py); the ruleset hands every decision, move and outcome to that machine.
`advance` runs the automatic steps until the head needs a decision or a chance outcome.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Step
from domain.kernel.contract import MatchConfig

from .board import draw_destination, quota, seat_order
from .course import DIE, place_counter
from .state import PlayerState, State, catalog_for, sorted_tuple
from .tasks import AGENDA


def setup(config: MatchConfig[Any]) -> State:
    """The starting position (section 5), with the setup's draws and choices on the agenda (CT-5.12
    to CT-5.20), run up to the first of them."""
    catalog = catalog_for(config.components)
    components = catalog.components
    constants = components.constants
    seats = config.seats
    options = config.options
    advanced = config.variant in ("advanced", "solitaire-advanced")
    simpler = bool(getattr(options, "simpler", False))
    characters = bool(getattr(options, "special_characters", False))
    pool = {t.id: t.counters for t in components.talent_types}
    hand: list[str] = []
    for card in components.action_cards:
        if card.advanced_only and not advanced:
            continue
        if card.min_players > seats:
            continue
        if simpler and card.effect == "move_then_wages":
            continue
        hand.extend([card.id] * card.copies)
    players = []
    for _ in range(seats):
        clowns = min(constants.starting_clowns, pool["clown"])
        pool["clown"] -= clowns
        players.append(
            PlayerState(
                circus=("clown",) * clowns,
                hand=sorted_tuple(hand),
                discard=(),
                city=None,
                money=constants.starting_money,
                vp=constants.vp_start,
                best=constants.best_performance_start,
                requests=(),
                reputation=components.reputation.start_level if advanced else 0,
            )
        )
    first_season = components.months[0].season
    events_left: tuple[str, ...] = ()
    if getattr(options, "event_cards", False) and not simpler:  # CT-21.20: no events in the simpler variant
        events_left = sorted_tuple(e.id for e in components.event_cards if e.min_players <= seats)
    agenda: list[Step] = []
    if seats > 1:
        agenda.append(Step("first_player"))
    agenda += [
        Step("picks"),
        Step("init_requests"),
        Step("fill", quota=constants.initial_cities_with_counters, setup=True),
        Step("starts"),
        Step("round"),
    ]
    state = State(
        config=config,
        seats=seats,
        week=0,
        first=0,
        players=tuple(players),
        bag=catalog.season_counters(first_season, characters),
        deck=sorted_tuple(d.id for d in components.destination_cards),
        dest_discard=(),
        pool=pool,
        news={},
        talents={},
        characters={},
        reserve=(),
        agenda=tuple(agenda),
        events_left=events_left,
    )
    return advance(state)


def advance(state: State) -> State:
    """Run automatic steps until a decision is needed or the match is over."""
    return AGENDA.advance(state)


__all__ = [
    "DIE",
    "advance",
    "draw_destination",
    "place_counter",
    "quota",
    "seat_order",
    "setup",
]
