"""Helpers for the Drum Roll tests: a match config, and setup run with chosen chance outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.components import DrumRollComponents, default_components
from domain.games.drum_roll.state import State
from domain.kernel.canonical import JSON
from domain.kernel.contract import MatchConfig
from domain.kernel.errors import IllegalMoveError


def config(seats: int = 3, components: DrumRollComponents | None = None, **options: Any) -> MatchConfig[State]:
    return MatchConfig("standard", RULESET.parse_options(options), seats, components or default_components())


def chance(state: State, *outcomes: JSON) -> State:
    """Resolve the pending chance events with these outcomes, in order."""
    for outcome in outcomes:
        decision = RULESET.decision(state)
        assert decision.chance is not None, f"no chance pending: {decision}"
        assert decision.chance.weight_of(outcome) > 0, f"{outcome!r} cannot come out of {decision.chance.kind}"
        state = RULESET.resolve(state, outcome)
    return state


def until_move(state: State) -> State:
    """Resolve chance with the first outcome each until a seat is to move."""
    while (decision := RULESET.decision(state)).chance is not None:
        state = RULESET.resolve(state, decision.chance.outcomes[0][0])
    return state


def move(state: State, seat: int, data: dict[str, Any]) -> State:
    parsed = RULESET.parse_move(data)
    RULESET.validate(state, seat, parsed)
    return RULESET.apply(state, seat, parsed)


def illegal(state: State, seat: int, data: dict[str, Any], rule: str) -> IllegalMoveError:
    """The move is refused under `rule`, and the state is unchanged."""
    before = RULESET.encode_state(state)
    with pytest.raises(IllegalMoveError) as caught:
        RULESET.validate(state, seat, RULESET.parse_move(data))
    assert caught.value.rule == rule, caught.value
    assert RULESET.encode_state(state) == before
    return caught.value
