"""Drive turns of Russian Railroads through the real machine, for the scenario tests of industry,
workers and rubles, engineers, turn order and the player-board special spaces.

Why a parked turn: a table from `builders.table` has an empty agenda. `at_turn` gives a seat its
turn and parks a second turn of the same seat behind it, so once the action and everything it
triggers are done the state stops at a decision again instead of ending the match; the test then
reads the outcome, or plays on. `round_of` runs a whole round (actions in turn order,
reorganisation, the turn-order workers' reuse, scoring, cleanup) as the game's program does.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.state import State
from domain.kernel.agenda import Step
from domain.kernel.errors import IllegalMoveError


def at_turn(state: State, seat: int) -> State:
    """`state` with `seat` to take an action (RR-5.1), a parked turn of the same seat behind it."""
    return state.with_agenda((Step("turn", seat=seat), Step("turn", seat=seat, parked=True)))


def with_steps(state: State, *steps: Step) -> State:
    """`state` with `steps` (a phase such as cleanup or scoring) at the head, seat 0's turn parked
    behind them, advanced to the first decision."""
    from domain.games.russian_railroads.tasks import AGENDA

    agenda = (*steps, Step("turn", seat=0, parked=True))
    return AGENDA.advance(state.with_agenda(agenda))


def round_of(state: State, number: int | None = None) -> State:
    """`state` at the start of a whole round (RR-4.2): its program with nothing after it."""
    from domain.games.russian_railroads.tasks import AGENDA

    return AGENDA.advance(state.with_agenda((Step("round", round=number or state.round),)))


def parked(state: State) -> bool:
    """The action in progress and all it triggered are done: only the parked turn is left."""
    return len(state.agenda) == 1 and bool(state.agenda[0].get("parked"))


def seat_to_move(state: State) -> int:
    decision = RULESET.decision(state)
    assert decision.seats, f"nobody is to move: {state.agenda[:2]!r}"
    return decision.seats[0]


def play(state: State, *moves: Any) -> State:
    """Validate and apply each move for the seat whose decision is pending."""
    for move in moves:
        seat = seat_to_move(state)
        RULESET.validate(state, seat, move)
        state = RULESET.apply(state, seat, move)
    return state


def place(state: State, seat: int, space: str, workers: int = 0, *, temporary: int = 0, black: int = 0,
          rubles: int = 0) -> State:
    """`seat` takes the action on `space` (RR-5.2), paid as given, from its turn."""
    move = mv.Place(space=space, workers=workers, temporary=temporary, black=black, rubles=rubles)
    return play(at_turn(state, seat), move)


def refused(state: State, move: Any, rule: str, seat: int | None = None) -> IllegalMoveError:
    """`move` is refused citing `rule`, is not among the legal moves, and the state is unchanged."""
    who = seat_to_move(state) if seat is None else seat
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        RULESET.validate(state, who, move)
    assert caught.value.rule == rule, (caught.value.rule, caught.value.reason)
    assert move not in RULESET.legal_moves(state, who)
    assert state.to_json() == before
    return caught.value


def legal(state: State, seat: int | None = None) -> list[Any]:
    return list(RULESET.legal_moves(state, seat_to_move(state) if seat is None else seat))


def places(state: State, seat: int | None = None) -> set[str]:
    """The action spaces `seat` may take now, by any payment (RR-5.2)."""
    return {move.space for move in legal(state, seat) if isinstance(move, mv.Place)}


def immediate(state: State, seat: int = 0) -> list[tuple[str, int]]:
    """(rule, points) of the seat's immediate VP lines, in order."""
    return [(line.rule, line.points) for line in state.lines if line.seat == seat and line.category == "immediate"]

