"""Drive real turns and a real setup for the setup, turn, track and locomotive tests.

Why a stop step: a table built by `builders.table` has an empty agenda, and the machine ends a
match whose agenda runs out. `turn(state, seat)` puts the seat's turn on the agenda with a second,
marked turn behind it, so the test can play the turn's decisions through `RULESET.validate` and
`RULESET.apply` and see the action finished (`done`) when the marked turn is at the head.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.state import State
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.contract import MatchConfig
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from .builders import config


def turn(state: State, *seats: int) -> State:
    """`state` with the turns of `seats` (seat 0 if none) on the agenda, then a stop."""
    order = seats or (0,)
    steps = [Step("turn", seat=seat) for seat in order]
    return AGENDA.advance(evolve(state, agenda=(*steps, Step("turn", seat=order[-1], stop=True))))


def done(state: State) -> bool:
    """The turns put on by `turn` are over: the stop is at the head."""
    return bool(state.agenda) and bool(state.agenda[0].get("stop"))


def head(state: State) -> str:
    return state.agenda[0].kind if state.agenda else ""


def play(state: State, seat: int, *moves: BaseModel) -> State:
    """Each move validated, then applied, as the service does."""
    for move in moves:
        RULESET.validate(state, seat, move)
        state = RULESET.apply(state, seat, move)
    return state


def refused(state: State, seat: int, move: BaseModel, rule: str) -> IllegalMoveError:
    """The move is refused naming `rule`, and the state is left exactly as it was."""
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        RULESET.validate(state, seat, move)
    assert caught.value.rule == rule, caught.value
    assert state.to_json() == before
    return caught.value


def place(space: str, workers: int = 0, rubles: int = 0, **more: int) -> mv.Place:
    return mv.Place(space=space, workers=workers, rubles=rubles, **more)


def adv(railway: str, colour: str = "black") -> mv.Advance:
    return mv.Advance(railway=railway, colour=colour)


def spaces_offered(state: State, seat: int = 0) -> set[str]:
    return {m.space for m in RULESET.legal_moves(state, seat) if isinstance(m, mv.Place)}


# ---- a real setup --------------------------------------------------------------------------


def set_up(seats: int, deal: Sequence[int] | None = None, options: dict[str, Any] | None = None) -> State:
    """A real setup up to the first decision after the chance draws: the two final bonus cards
    removed and the engineers placed take the first outcome offered; the turn-order cards are dealt
    as `deal` says (seat i gets card `deal[i]`, default 1..N in seat order)."""
    cards = list(deal or range(1, seats + 1))
    match: MatchConfig[Any] = config(seats, RULESET.parse_options(options or {}))
    state = RULESET.setup(match)
    while True:
        decision = RULESET.decision(state)
        if decision.chance is None:
            return state
        step = state.agenda[0]
        if step.kind == "deal":
            state = RULESET.resolve(state, cards[int(step["seat"])])
        else:
            state = RULESET.resolve(state, decision.chance.outcomes[0][0])


def drafted(state: State, picks: Iterable[str]) -> State:
    """Each drafting seat, in the machine's order, takes the next card of `picks`."""
    for card in picks:
        seat = RULESET.decision(state).seats[0]
        state = play(state, seat, mv.DraftBonus(card=card))
    return state
