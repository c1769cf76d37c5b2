"""Each game's round as the game itself counts it (`Ruleset.round_of`, which the replay viewer's
round jumps read, docs/viewer.md): whole bot matches played in memory, the hook read at every
state and checked against the rules that define a round, plus Carcassonne's count on states set
up by hand (it has no counter of its own).

The end-to-end check, the round starts `GET /view/{id}/log` lists for a real match of each game,
is in tests/viewer/test_pages.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.games.carcassonne import RULESET as CARCASSONNE
from domain.games.carcassonne.state import Phase
from domain.games.circus_train import RULESET as CIRCUS_TRAIN
from domain.games.drum_roll import RULESET as DRUM_ROLL
from domain.games.russian_railroads import RULESET as RUSSIAN_RAILROADS
from domain.kernel.contract import Ruleset
from domain.kernel.driver import Step, make_config, play
from domain.kernel.registry import all_games


def states(ruleset: Ruleset[Any, Any], seats: int, seed: int) -> tuple[list[Any], list[Step]]:
    """Every state of a whole random-bot match (setup first) and the steps between them."""
    config = make_config(ruleset, seats)
    played = play(ruleset, config, seed)
    state = ruleset.setup(config)
    every = [state]
    for step in played.steps:
        if step.kind == "chance":
            state = ruleset.resolve(state, step.data)
        else:
            assert step.seat is not None
            state = ruleset.apply(state, step.seat, ruleset.parse_move(step.data))
        every.append(state)
    assert ruleset.decision(state).over
    return every, played.steps


def rounds(ruleset: Ruleset[Any, Any], every: list[Any]) -> list[Any]:
    """The rounds in the order the match went through them (each once, setup's None left out)."""
    seen: list[Any] = []
    for state in every:
        value = ruleset.round_of(state)
        if value is not None and (not seen or seen[-1] != value):
            seen.append(value)
    return seen


def test_a_game_without_rounds_has_none() -> None:
    """The contract's default: no rounds (the test game counts its own, but does not say so)."""
    ruleset = all_games()["test-dicevote"]
    assert type(ruleset).round_of is Ruleset.round_of
    every, _ = states(ruleset, 2, seed=1)
    assert {ruleset.round_of(state) for state in every} == {None}


# ---- Russian Railroads: the round counter ------------------------------------------------------------
@pytest.mark.parametrize(("seats", "last"), [(2, 6), (4, 7)])
def test_rr_3_1_rr_4_2_the_round_is_the_round_counter_none_in_setup(seats: int, last: int) -> None:
    every, _ = states(RUSSIAN_RAILROADS, seats, seed=seats)
    assert RUSSIAN_RAILROADS.round_of(every[0]) is None  # RR-2: setup
    for state in every:
        assert RUSSIAN_RAILROADS.round_of(state) == (state.round or None)
    assert rounds(RUSSIAN_RAILROADS, every) == list(range(1, last + 1))  # RR-3.1: 6 rounds, 7 for 4 players


# ---- Drum Roll: the preparation round within its performance ----------------------------------------------
def test_dr_0_12_dr_3_1_dr_3_4_a_round_is_a_preparation_round_of_a_performance_cycle() -> None:
    every, _ = states(DRUM_ROLL, 3, seed=5)
    assert DRUM_ROLL.round_of(every[0]) is None  # DR-2: setup
    for state in every:
        value = DRUM_ROLL.round_of(state)
        assert value is None or value == (state.performance, state.round)
    seen = rounds(DRUM_ROLL, every)
    performances = sorted({performance for performance, _ in seen})
    assert performances == [1, 2, 3]  # DR-3.1
    for performance in performances:
        played = [number for cycle, number in seen if cycle == performance]
        assert played == list(range(1, len(played) + 1)) and 5 <= len(played) <= 7  # DR-3.4, DR-13.2
    assert seen == sorted(seen)  # later rounds compare greater, as the viewer needs


# ---- Circus Train: the weeks of the calendar ----------------------------------------------------------------
def test_ct_0_2_ct_0_3_a_round_is_a_week_of_the_calendar() -> None:
    every, _ = states(CIRCUS_TRAIN, 2, seed=2)
    values = [CIRCUS_TRAIN.round_of(state) for state in every]
    assert values[0] is None  # CT-5: setup
    first = next(index for index, value in enumerate(values) if value is not None)
    assert all(value is None for value in values[:first])
    # the first week begins with its Ringmaster Phase (CT-6.1): the setup's `round` step has run
    assert any(step.kind == "round" for step in every[first - 1].agenda)
    assert not any(step.kind == "round" for step in every[first].agenda)
    for state, value in zip(every[first:], values[first:], strict=True):
        assert value == min(state.week + 1, 27)  # CT-12.4: the Calendar marker, one week on each round
    assert rounds(CIRCUS_TRAIN, every) == list(range(1, 28))  # CT-0.3: 27 weeks, April to September
    assert values[-1] == 27 and every[-1].over  # CT-6.2: the last week stays the round at the end


# ---- Carcassonne: one turn of every seat -----------------------------------------------------------------------
def test_cb_1_3_a_round_begins_with_each_tile_the_first_seat_lays() -> None:
    every, steps = states(CARCASSONNE, 3, seed=4)
    assert CARCASSONNE.round_of(every[0]) is None and CARCASSONNE.round_of(every[1]) is None  # drawn, not laid
    laid = 0
    for step, before, after in zip(steps, every, every[1:], strict=False):
        tile = step.kind == "move" and isinstance(step.data, dict) and step.data.get("type") == "place"
        laid += tile
        changed = CARCASSONNE.round_of(after) != CARCASSONNE.round_of(before)
        assert changed == (tile and step.seat == 0), (step, before.turn, after.turn)
    assert rounds(CARCASSONNE, every) == list(range(1, (laid - 1) // 3 + 2))  # CB-6.1: the last turn's round


@pytest.mark.parametrize(("phase", "turn", "seats", "expected"), [
    ("draw", 1, 3, None), ("place", 1, 3, None),  # before the first tile
    ("figure", 1, 3, 1), ("token", 3, 3, 1), ("draw", 4, 3, 1), ("place", 4, 3, 1),  # CB-3.3: drawn, not laid
    ("figure", 4, 3, 2), ("figure", 9, 5, 2), ("draw", 11, 5, 2), ("place", 11, 5, 2), ("token", 11, 5, 3),
    ("over", 10, 3, 3),  # CB-6.1: after the last turn (turn 9) the count stays at it
])
def test_cb_1_3_cb_2_1_a_turn_counts_from_its_tile(phase: Phase, turn: int, seats: int, expected: int | None) -> None:
    config = make_config(CARCASSONNE, seats)
    state = replace(CARCASSONNE.setup(config), phase=phase, turn=turn, seat=(turn - 1) % seats)
    assert CARCASSONNE.round_of(state) == expected
