"""The setup of a match (RR-2, RR-3): the table for the player count, and the setup's draws and
draft on the agenda, run up to the first of them.

Everything random is a chance decision on the agenda, never done here: the two final bonus cards
removed unseen (RR-2.3), each engineer placed from its shuffled deck (RR-2.8), each turn-order card
dealt (RR-2.18). Then the starting bonus draft (RR-2.20), the rounds and the final scoring.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Step
from domain.kernel.contract import MatchConfig

from .components import RussianRailroadsComponents
from .state import Player, State
from .tasks import AGENDA


def starting_player(components: RussianRailroadsComponents, seats: int) -> Player:
    """RR-2.12 to RR-2.17, RR-3.4, RR-3.9, RR-3.10: the #1 on the Trans-Siberian, a black track on
    space 1 of each railway (AMB-1), the workers and rubles for the player count."""
    count = components.for_players(seats)
    first = components.railways[0].id
    return Player(
        tracks={railway.id: {components.colours[0].id: 1} for railway in components.railways},
        locomotives={first: (components.constants.starting_locomotive,)},
        factories=(None,) * components.constants.factory_slots,
        markers=(0,),
        multipliers=0,
        workers=count.workers,
        reserve=count.reserve,
        gained_workers=0,
        temporary=0,
        black_worker=False,
        black_in_supply=False,
        rubles=count.rubles,
        engineers=(),
        tokens=(),
        claimed=(),
        revalued=False,
        medal=False,
        bonus_cards=(),
        passed=False,
    )


def setup(config: MatchConfig[Any]) -> State:
    components = config.components
    assert isinstance(components, RussianRailroadsComponents)
    seats = config.seats
    count = components.for_players(seats)
    constants = components.constants
    stacks = {}
    for value, number in components.locomotives.items():
        left = number - count.locomotives_removed  # RR-3.2, RR-3.7, AMB-25 (the #1 stack too)
        if int(value) == constants.locomotive_card_value:
            left -= 1  # RR-2.4: one lies on face-up card C4
        if int(value) == constants.starting_locomotive:
            left -= seats  # RR-2.12
        stacks[value] = max(left, 0)
    decks = {deck: tuple(sorted(e.id for e in components.engineers if e.deck == deck)) for deck in ("X", "Y")}
    agenda: list[Step] = [Step("remove_bonus") for _ in range(constants.final_bonus_removed)]
    agenda += [Step("place_engineer", slot=index, deck=slot.deck)
               for index, slot in enumerate(count.engineer_slots) if slot.deck is not None]
    agenda += [Step("deal", seat=seat) for seat in range(seats)]
    agenda += [Step("drafts"), Step("game"), Step("final_scoring")]
    state = State(
        config=config,
        seats=seats,
        round=0,
        positions=(0,) * seats,
        players=tuple(starting_player(components, seats) for _ in range(seats)),
        placements=(),
        stacks=stacks,
        pool=(),
        strip=(None,) * len(count.engineer_slots),
        multipliers_left=constants.multiplier_supply,
        face_up=tuple(card.id for card in components.face_up_cards),
        bonus_deck=tuple(sorted(card.id for card in components.final_bonus_cards)),
        removed_bonus=(),
        starting_cards=tuple(card.id for card in components.starting_bonus_cards),
        decks=decks,
        lines=(),
        agenda=tuple(agenda),
    )
    return AGENDA.advance(state)
