"""Drive Russian Railroads through the real machine for the tests of the round's end, bonuses,
engineers, factories and changed component sets.

Why a driver: the scenarios start from a table built with `builders.table` and then play real
decisions (a `Place`, then each part's decision) through `RULESET.validate/apply`, so what a test
checks is what a player at the table would get, not what a handler returns when called alone.

- `at_turn(state, seat)`: the table with `seat` to take an action, and the next seat's turn
  behind it as a stopper, so the state after the action rests on that turn (`done`).
- `at_step(state, step)`: the table with one pushed step (a bonus token, a face-up card, a final
  bonus card) and the same stopper.
- `play(state, *moves)`: each move by the seat the decision waits for, validated then applied.
- `refused(state, move, rule)`: `validate` refuses the move under `rule` and the state is
  unchanged (the contract validates before it applies).
- `started(seats, ...)`: a real setup with its chance draws and draft decided by the caller.
- `match(...)`: a whole match played to the end by a seeded policy, every position recorded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import RussianRailroadsComponents, default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import State
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.contract import MatchConfig
from domain.kernel.errors import IllegalMoveError


def stopper(state: State, seat: int) -> Step:
    return Step("turn", seat=(seat + 1) % state.seats)


def at_turn(state: State, seat: int = 0) -> State:
    return AGENDA.advance(state.with_agenda((Step("turn", seat=seat), stopper(state, seat))))


def at_step(state: State, step: Step) -> State:
    seat = step.seat
    assert seat is not None
    return AGENDA.advance(state.with_agenda((step, stopper(state, seat))))


def done(state: State, seat: int = 0) -> bool:
    """The action of `seat` is over: only the stopper is left."""
    return state.agenda == (stopper(state, seat),)


def waiting(state: State) -> int:
    decision = RULESET.decision(state)
    assert not decision.over and decision.chance is None, decision
    return decision.seats[0]


def play(state: State, *moves: Any) -> State:
    for move in moves:
        seat = waiting(state)
        RULESET.validate(state, seat, move)
        state = RULESET.apply(state, seat, move)
    return state


def refused(state: State, move: Any, rule: str, seat: int | None = None) -> IllegalMoveError:
    """`move` is refused under `rule` and nothing changes (the state is a value; its encoding is
    compared anyway, so a refusal that mutated a shared dict would show)."""
    who = waiting(state) if seat is None else seat
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        RULESET.validate(state, who, move)
    assert caught.value.rule == rule, caught.value
    assert state.to_json() == before
    return caught.value


def lines_of(state: State, seat: int = 0, since: int = 0) -> list[tuple[str, int]]:
    return [(line.rule, line.points) for line in state.lines[since:] if line.seat == seat]


Chooser = Callable[[State, Any], Any]


def started(seats: int = 4, *, options: RussianRailroadsOptions | None = None,
            components: RussianRailroadsComponents | None = None,
            chance: Chooser | None = None, draft: Sequence[str] = ()) -> State:
    """A real setup: every chance draw decided by `chance(state, spec)` (default: the first outcome,
    which deals turn-order card n to seat n - 1), the starting bonus draft by `draft` (card ids in
    the draft's order); it stops at the first decision those do not make."""
    config = MatchConfig("standard", options or RussianRailroadsOptions(), seats, components or default_components())
    state = RULESET.setup(config)
    picks = list(draft)
    while True:
        decision = RULESET.decision(state)
        if decision.chance is not None:
            spec = decision.chance
            outcome = chance(state, spec) if chance else spec.outcomes[0][0]
            state = RULESET.resolve(state, outcome)
            continue
        if state.agenda and state.agenda[0].kind == "draft" and picks:
            state = play(state, mv.DraftBonus(card=picks.pop(0)))
            continue
        return state


@dataclass(frozen=True)
class Played:
    final: State
    history: tuple[tuple[State, int, Any], ...]
    """Every decision: the state before, the seat and its move."""


Policy = Callable[[State, int, list[Any], random.Random], Any]


def random_policy(state: State, seat: int, moves: list[Any], rng: random.Random) -> Any:
    return moves[rng.randrange(len(moves))]


def match(seats: int, seed: int, *, components: RussianRailroadsComponents | None = None,
          options: RussianRailroadsOptions | None = None, policy: Policy = random_policy) -> Played:
    """A whole match: chance by a seeded generator, every move by `policy` over the legal moves
    (each validated before it is applied)."""
    rng = random.Random(seed)
    config = MatchConfig("standard", options or RussianRailroadsOptions(), seats, components or default_components())
    state = RULESET.setup(config)
    history: list[tuple[State, int, Any]] = []
    while True:
        decision = RULESET.decision(state)
        if decision.over:
            return Played(state, tuple(history))
        if decision.chance is not None:
            state = RULESET.resolve(state, decision.chance.pick(rng.randrange(decision.chance.total_weight())))
            continue
        seat = decision.seats[0]
        move = policy(state, seat, list(RULESET.legal_moves(state, seat)), rng)
        RULESET.validate(state, seat, move)
        history.append((state, seat, move))
        state = RULESET.apply(state, seat, move)
