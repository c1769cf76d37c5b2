"""Helpers for the Drum Roll tests: a match config, setup run with chosen chance outcomes, and a
whole match played with random legal moves and chance."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.components import DrumRollComponents, default_components
from domain.games.drum_roll.state import State
from domain.kernel.canonical import JSON
from domain.kernel.contract import MatchConfig
from domain.kernel.errors import IllegalMoveError
from domain.kernel.viewers import Viewer


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


def random_match(seats: int, seed: int, **options: Any) -> tuple[State, set[str]]:
    """A match from setup to its end with random legal moves and chance (bounded by max_events:
    cards played add moves). Along the way every legal move validates, every state round-trips, and
    every seat's view hides the decks, the other hands and draft draws, and the other seats' looks
    at investment cards (DR-18.9). Returns the last state and the step kinds that came first."""
    rng = random.Random(seed)
    state = RULESET.setup(config(seats, **options))
    kinds: set[str] = set()
    for _ in range(RULESET.max_events(state.config)):
        decision = RULESET.decision(state)
        if decision.over:
            break
        if decision.chance is not None:
            spec = decision.chance
            state = RULESET.resolve(state, spec.pick(rng.randrange(spec.total_weight())))
        else:
            seat = decision.seats[0]
            moves = list(RULESET.legal_moves(state, seat))
            assert moves
            for candidate in moves:
                RULESET.validate(state, seat, candidate)
            state = RULESET.apply(state, seat, rng.choice(moves))
        kinds.update(step.kind for step in state.agenda[:1])
        back = RULESET.decode_state(RULESET.encode_state(state), state.config)
        assert RULESET.state_hash(back) == RULESET.state_hash(state)
        for seat in range(seats):
            seen = RULESET.view(state, Viewer("seat", seat))
            assert isinstance(seen["performer_deck"], dict)
            for other, player in enumerate(seen["players"]):
                if other != seat:
                    assert isinstance(player["hand"], dict) and isinstance(player["drawn"], dict)
            for record in seen["agenda"]:  # DR-18.9: a look's cards are the looking seat's alone
                if record["t"] in ("look_draw", "look_keep"):
                    assert isinstance(record["cards"], dict) == (record["seat"] != seat)
    return state, kinds
