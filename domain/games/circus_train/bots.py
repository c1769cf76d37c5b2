"""Bots, named by `bots(rules)` (the ruleset's `bots`): the inherited uniform random bot, and a
greedy one that scores each legal move by its immediate gain (performance level, talent hired, VP,
money kept) with a few plain heuristics."""

from __future__ import annotations

import random
from typing import Any

from domain.kernel.contract import Bot, Ruleset

from .limits import perform_error
from .moves import (
    BuyAfterFailure,
    BuyFromPool,
    ClaimCharacter,
    Hire,
    KeepTalent,
    LongSteal,
    Pass,
    Perform,
    PickTalent,
    PlayCard,
    PocketWages,
    RestBonus,
    Steal,
)
from .scoring import performance_level, wage_of
from .state import State
from .tasks import AGENDA


def _city_value(state: State, seat: int, city: str) -> int:
    """How attractive it is to end a move in `city`."""
    catalog = state.catalog
    value = 0
    counter = state.news.get(city)
    if counter is not None:
        if catalog.is_request(counter):
            request = catalog.request(counter)
            busy = any(p.show == city for other, p in enumerate(state.players) if other != seat)
            if not busy:
                value += 10 + performance_level(state, seat, request, None, city)
        elif catalog.is_points(counter):
            value += 8
    value += 3 * len(state.talents.get(city, ()))
    if city in state.characters:
        value += 6
    return value


def _score(state: State, seat: int, move: Any) -> int:
    catalog = state.catalog
    player = state.players[seat]
    if isinstance(move, Perform):
        counter = state.news[player.city or ""]
        return 1000 + performance_level(state, seat, catalog.request(counter), move.famous, player.city)
    if isinstance(move, PlayCard):
        card = catalog.cards[move.card]
        city = move.path[-1] if move.path else (player.city or "")
        base = _city_value(state, seat, city) if move.path else 0
        if card.effect in ("move_then_perform_hire",):
            base = _city_value(state, seat, city) * 2
        if move.option == "perform_hire" or card.effect == "hold":
            base = (
                2 * _city_value(state, seat, city)
                if perform_error(state, seat) is None or state.talents.get(city)
                else -5
            )
        if move.option == "parade":
            base = 4
        if card.effect == "move_then_wages":
            base -= 4 if player.money < sum(wage_of(state, seat, t, state.solitaire) for t in player.circus) else 0
        if move.source == "replay":
            base -= 30  # reputation or VP are dear: replay only for a big performance
        elif move.source == "eddie":
            base -= 8
        return base
    if isinstance(move, (Hire, BuyAfterFailure, ClaimCharacter)):
        return 50
    if isinstance(move, Steal):
        return 40 + len(move.talents)
    if isinstance(move, BuyFromPool):
        return 20 + (catalog.talent_types[move.talent].wage if move.talent in catalog.talent_types else 10)
    if isinstance(move, KeepTalent):
        return sum(wage_of(state, seat, t, state.solitaire) for t in move.talents) * 10 + len(move.talents)
    if isinstance(move, LongSteal):
        kind = catalog.talent_types.get(move.talent)
        return 30 + (kind.wage if kind is not None else 15)
    if isinstance(move, PickTalent):
        return {"acrobat": 3, "horse": 2, "freak": 1}.get(move.talent, 0)
    if isinstance(move, RestBonus):
        return 5
    if isinstance(move, PocketWages):
        return -20
    if isinstance(move, Pass):
        return 0
    return 1


def greedy_bot(state: State, seat: int, rng: random.Random) -> Any:
    """The legal move with the best heuristic score, ties broken by the bot's generator."""
    moves = AGENDA.legal_moves(state, seat)
    scored = [(_score(state, seat, move), index) for index, move in enumerate(moves)]
    best = max(score for score, _ in scored)
    choices = [index for score, index in scored if score == best]
    return moves[choices[rng.randrange(len(choices))]]


def bots(rules: Ruleset[State, Any]) -> dict[str, Bot]:
    """The named bots of the game (the ruleset's `bots`): "random" first, as every game has it."""
    return {"random": rules.random_bot, "greedy": greedy_bot}
