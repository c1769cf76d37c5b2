"""Scenario helpers: set a match up with fixed draws and dice, craft positions, play moves."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from domain.games.circus_train.moves import ChooseStart, PickTalent
from domain.games.circus_train.rules import CircusTrainRules
from domain.games.circus_train.state import State
from domain.kernel.contract import MatchConfig
from domain.kernel.driver import make_config
from domain.kernel.errors import IllegalMoveError

R = CircusTrainRules()


def cfg(seats: int = 3, variant: str = "basic", **options: Any) -> MatchConfig[Any]:
    return make_config(R, seats, variant, options)


def settle(state: State, outcomes: Iterable[Any] = ()) -> State:
    """Resolve pending chance decisions: first the scripted outcomes, then each spec's first one."""
    queue = list(outcomes)
    while True:
        decision = R.decision(state)
        if decision.chance is None or decision.over:
            assert not queue, f"unused scripted outcomes {queue}"
            return state
        outcome = queue.pop(0) if queue else decision.chance.outcomes[0][0]
        state = R.resolve(state, outcome)


def roll(state: State, *faces: int) -> State:
    for face in faces:
        decision = R.decision(state)
        assert decision.chance is not None and decision.chance.kind.startswith("die"), decision
        state = R.resolve(state, face)
    return state


def play(state: State, seat: int, move: Any) -> State:
    R.validate(state, seat, move)
    return R.apply(state, seat, move)


def illegal(state: State, seat: int, move: Any, rule: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        R.validate(state, seat, move)
    assert caught.value.rule == rule, caught.value.message
    return caught.value


def started(seats: int = 3, variant: str = "basic", picks: str = "acrobat", start: str | None = None,
            **options: Any) -> State:
    """A match set up with the first outcome of every draw, then at the first turn."""
    state = R.setup(cfg(seats, variant, **options))
    while True:
        state = settle(state)
        task = state.head()
        assert task is not None
        if task["t"] == "turn":
            return state
        seat = task["seat"]
        if task["t"] == "pick":
            state = play(state, seat, PickTalent(talent=picks))
        elif task["t"] == "start":
            city = start or R.legal_moves(state, seat)[0].city  # type: ignore[attr-defined]
            state = play(state, seat, ChooseStart(city=city))
        else:
            raise AssertionError(task)


def empty_board(state: State) -> State:
    return replace(state, news={}, talents={}, characters={})


def player(state: State, seat: int, **changes: Any) -> State:
    return state.update_player(seat, **changes)


def agenda(state: State, *tasks: dict[str, Any]) -> State:
    from domain.games.circus_train.flow import advance

    return advance(replace(state, agenda=tuple(tasks), over=False))


def turn_of(state: State, seat: int) -> State:
    """Only `seat`'s turn is left on the agenda (then the match would end)."""
    return agenda(state, {"t": "turn", "seat": seat})


def legal_types(state: State, seat: int) -> set[str]:
    return {m.type for m in R.legal_moves(state, seat)}  # type: ignore[attr-defined]
