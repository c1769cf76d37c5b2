"""Build Russian Railroads tables directly, for tests that start from a given position.

`table(seats, ...)` is the table right after setup as the engine lays it out for every seat
(RR-2.12 to RR-2.17: black tracks on space 1 of each railway, AMB-1; the #1 locomotive on the
Trans-Siberian, AMB-2; the player count's workers, reserve and rubles; one industry marker on
space 0), with no starting bonus drafted, no engineers on the strip, every final bonus card in the
deck, nothing placed, no lines and an empty agenda. Keyword overrides per seat change any
`Player` field: `table(4, players={0: {"locomotives": {"trans_siberian": (6, 2)}}})`. Helpers
`tracks` and `player` spell the common cases. It never plays a move: tests of the engine start
from it and apply moves; tests of the scoring read it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.russian_railroads.components import RussianRailroadsComponents, default_components
from domain.games.russian_railroads.flow import starting_player
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import Player, State
from domain.kernel.contract import MatchConfig
from domain.kernel.values import evolve

TS = "trans_siberian"
SP = "st_petersburg"
KV = "kiev"


def config(seats: int = 4, options: RussianRailroadsOptions | None = None,
           components: RussianRailroadsComponents | None = None) -> MatchConfig[Any]:
    return MatchConfig("standard", options or RussianRailroadsOptions(), seats, components or default_components())


def start_player(components: RussianRailroadsComponents, seats: int) -> Player:
    """A seat after setup, before the starting bonus draft (RR-2.12 to RR-2.17): the engine's own."""
    return starting_player(components, seats)


def tracks(**railways: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """`tracks(trans_siberian={"black": 9, "grey": 7, "brown": 3})`: a seat's whole `tracks` field;
    a railway not named keeps only its black track on space 1."""
    result = {railway.id: {"black": 1} for railway in default_components().railways}
    result.update({railway: dict(colours) for railway, colours in railways.items()})
    return result


def player(seats: int = 4, components: RussianRailroadsComponents | None = None, **changes: Any) -> Player:
    """A start player with `changes` applied (any `Player` field)."""
    return evolve(start_player(components or default_components(), seats), **changes)


def supply(components: RussianRailroadsComponents, seats: int) -> dict[str, int]:
    """The locomotive stacks after setup (RR-2.4, RR-2.12, RR-3.2, AMB-25): every value less the
    copies removed for the player count, the #1s handed out, and the #9 lying on card C4."""
    removed = components.for_players(seats).locomotives_removed
    stacks: dict[str, int] = {}
    for value, copies in components.locomotives.items():
        left = copies - removed
        if int(value) == components.constants.starting_locomotive:
            left -= seats
        if int(value) == components.constants.locomotive_card_value:
            left -= 1
        if int(value) != components.constants.starting_locomotive:
            stacks[value] = max(left, 0)
    return stacks


def table(seats: int = 4, players: Mapping[int, Mapping[str, Any]] | None = None, *,
          options: RussianRailroadsOptions | None = None,
          components: RussianRailroadsComponents | None = None, **changes: Any) -> State:
    """A blank table for `seats` seats in round 1, with per-seat `Player` overrides (`players`) and
    any `State` field overridden by keyword (`round=7`, `lines=(...)`)."""
    match = config(seats, options, components)
    parts = match.components
    assert isinstance(parts, RussianRailroadsComponents)
    base = start_player(parts, seats)
    seated = tuple(evolve(base, **dict((players or {}).get(seat, {}))) for seat in range(seats))
    state = State(
        config=match,
        seats=seats,
        round=1,
        positions=tuple(range(1, seats + 1)),
        players=seated,
        placements=(),
        stacks=supply(parts, seats),
        pool=(),
        strip=(None,) * len(parts.for_players(seats).engineer_slots),
        multipliers_left=parts.constants.multiplier_supply,
        face_up=tuple(card.id for card in parts.face_up_cards),
        bonus_deck=tuple(sorted(card.id for card in parts.final_bonus_cards)),
        removed_bonus=(),
        starting_cards=tuple(card.id for card in parts.starting_bonus_cards),
        decks={"X": (), "Y": ()},
        lines=(),
        agenda=(),
    )
    return evolve(state, **changes) if changes else state
