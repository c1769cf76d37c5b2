"""The sharing phase (DR-8): one seat at a time clockwise from the start player (DR-8.8, AMB-41),
up to 2 cubes (3 with the handyman) onto matching unfilled requirements of the seat's own
unflipped performers, one agent and one secretary exchange (DR-19.7 to DR-19.9, AMB-17)."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.sharing import fits, unfilled
from domain.games.drum_roll.state import State
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import illegal, move
from .test_actions import pass_, placing

# Sharing after a round of passes (3 players, start player seat 1): every seat has one white and
# one yellow cube; the general supply has 22 white, 22 yellow and 25 of each other colour.
# Circuses: seat 0 P05 (red / white / yellow), P03 (green / blue / red); seat 1 P07 (yellow / blue
# / red), P06 (white / green / blue); seat 2 P04 (blue / red / white), P08 (green / red / white).


def sharing(**cubes: int) -> State:
    state = placing()
    for _ in range(9):
        state = pass_(state, RULESET.decision(state).seats[0])
    if cubes:
        state = state.with_player(1, cubes={"white": 1, "yellow": 1, **cubes})
    return state


def cube(state: State, seat: int, performer: str, level: str, colour: str) -> State:
    return move(state, seat, place_cube(performer, level, colour))


def place_cube(performer: str, level: str, colour: str) -> dict[str, Any]:
    return {"type": "place_cube", "performer": performer, "level": level, "colour": colour}


def exchange(helper: str, give: str, take: str) -> dict[str, Any]:
    return {"type": "exchange_cube", "helper": helper, "give": give, "take": take}


def done(state: State, seat: int) -> State:
    return move(state, seat, {"type": "done_sharing"})


def cubes_on(state: State, seat: int, card: str) -> tuple[tuple[str, ...], ...]:
    return next(h.cubes for h in state.players[seat].performers if h.card == card)


def test_dr_8_8_amb_41_seats_share_one_at_a_time_clockwise_from_the_start_player() -> None:
    """Rules: DR-8.8."""
    state = sharing()
    seen = []
    for _ in range(3):
        seat = RULESET.decision(state).seats[0]
        seen.append(seat)
        state = done(state, seat)
    assert seen == [1, 2, 0]
    # DR-3.4, DR-9: the end of round (rows full: nothing to refill), the start player passes left
    # (DR-9.6) and round 2 begins with its placements
    assert (state.round, state.start_player) == (2, 2)
    assert RULESET.decision(state).seats == (2,) and [p.markers for p in state.players] == [3, 3, 3]


def test_dr_8_1_dr_8_3_a_cube_moves_from_the_supply_onto_a_matching_requirement() -> None:
    """Rules: DR-8.1."""
    state = cube(sharing(), 1, "P07", "poor", "yellow")
    assert cubes_on(state, 1, "P07") == (("yellow",), (), ())
    assert state.players[1].cubes == {"white": 1, "yellow": 0}
    assert RULESET.decision(state).seats == (1,)  # still seat 1's turn: one cube per move
    state = cube(state, 1, "P06", "poor", "white")  # DR-8.3: any level, any order
    assert cubes_on(state, 1, "P06") == (("white",), (), ())
    assert state.players[1].cubes == {"white": 0, "yellow": 0}
    assert state.cubes["white"] == 22 and state.cubes["yellow"] == 22  # DR-8.4: not to the supply
    assert RULESET.decision(state).seats == (2,)  # nothing left to do: the turn passes by itself


def test_dr_8_3_a_cube_must_match_an_unfilled_requirement() -> None:
    state = sharing(yellow=2)
    illegal(state, 1, place_cube("P07", "poor", "white"), "DR-8.3")
    illegal(state, 1, place_cube("P07", "good", "yellow"), "DR-8.3")  # good needs blue
    illegal(state, 1, place_cube("P07", "great", "yellow"), "DR-8.3")
    state = cube(state, 1, "P07", "poor", "yellow")
    illegal(state, 1, place_cube("P07", "poor", "yellow"), "DR-8.3")  # filled
    assert state.players[1].cubes == {"white": 1, "yellow": 1}


def test_dr_8_3_amb_35_any_requirements_and_lists() -> None:
    """Rules: DR-8.3."""
    assert fits(["any"], (), "red")
    assert fits(["red", "any"], ("blue",), "red")
    assert not fits(["red", "any"], ("blue", "red"), "green")
    assert not fits(["red"], (), "blue")
    assert unfilled(["red", "any", "any"], ("red", "green")) == {"any": 1}


def test_dr_8_1_only_own_performers_and_cubes_from_the_own_supply() -> None:
    state = sharing()
    illegal(state, 1, place_cube("P05", "good", "white"), "DR-8.1")  # seat 0's performer
    illegal(state, 1, place_cube("P07", "good", "blue"), "DR-8.1")  # seat 1 has no blue cube


def test_dr_8_5_amb_10_no_cubes_on_a_flipped_performer() -> None:
    state = sharing()
    performers = tuple(evolve(h, flipped=1) if h.card == "P07" else h for h in state.players[1].performers)
    state = state.with_player(1, performers=performers)
    illegal(state, 1, place_cube("P07", "poor", "yellow"), "DR-8.5")


def test_dr_8_1_at_most_two_cubes_per_sharing_phase() -> None:
    state = sharing(blue=1).with_player(1, helpers=("H10",))  # an agent keeps the turn open
    state = cube(cube(state, 1, "P07", "poor", "yellow"), 1, "P06", "poor", "white")
    illegal(state, 1, place_cube("P07", "good", "blue"), "DR-8.1")
    assert state.players[1].cubes == {"white": 0, "yellow": 0, "blue": 1}


def test_dr_8_2_dr_19_3_the_handyman_places_three() -> None:
    """Rules: DR-19.3."""
    state = sharing(blue=2).with_player(1, helpers=("H02", "H10"))
    state = cube(cube(state, 1, "P07", "poor", "yellow"), 1, "P06", "poor", "white")
    state = cube(state, 1, "P07", "good", "blue")
    assert cubes_on(state, 1, "P07") == (("yellow",), ("blue",), ())
    illegal(state, 1, place_cube("P06", "outstanding", "blue"), "DR-8.2")
    assert state.players[1].cubes == {"white": 0, "yellow": 0, "blue": 1}


def test_dr_19_7_amb_17_an_agent_exchanges_any_own_cube_with_the_general_supply() -> None:
    state = sharing().with_player(1, helpers=("H10",))  # red / white
    state = move(state, 1, exchange("H10", "yellow", "red"))
    assert state.players[1].cubes == {"white": 1, "yellow": 0, "red": 1}
    assert (state.cubes["yellow"], state.cubes["red"]) == (23, 24)
    illegal(state, 1, exchange("H10", "white", "red"), "DR-19.7")  # once per sharing phase


def test_dr_19_7_dr_19_8_an_exchange_takes_only_the_colours_shown() -> None:
    state = sharing().with_player(1, helpers=("H10", "H12"))  # agent red / white; secretary yellow -> others
    illegal(state, 1, exchange("H10", "yellow", "blue"), "DR-19.7")
    illegal(state, 1, exchange("H12", "white", "red"), "DR-19.8")  # gives yellow only
    illegal(state, 1, exchange("H10", "blue", "red"), "DR-19.7")  # no blue cube of its own
    illegal(state, 1, exchange("H06", "yellow", "white"), "DR-8.6")  # not its helper


def test_dr_19_9_one_agent_and_one_secretary_per_phase() -> None:
    """Rules: DR-19.9."""
    state = sharing().with_player(1, helpers=("H06", "H10", "H12"))
    state = move(state, 1, exchange("H10", "white", "red"))
    illegal(state, 1, exchange("H06", "red", "yellow"), "DR-19.7")  # a second agent
    state = move(state, 1, exchange("H12", "yellow", "green"))  # the secretary is separate
    assert state.players[1].cubes == {"white": 0, "yellow": 0, "red": 1, "green": 1}
    illegal(state, 1, exchange("H12", "yellow", "blue"), "DR-19.8")
    assert (state.cubes["white"], state.cubes["yellow"], state.cubes["red"], state.cubes["green"]) == (23, 23, 24, 24)


def test_dr_16_1_dr_8_8_an_exchange_needs_the_colour_in_the_general_supply() -> None:
    """Rules: DR-8.8."""
    state = sharing().with_player(1, helpers=("H10",))
    state = evolve(state, cubes={**state.cubes, "red": 0})
    illegal(state, 1, exchange("H10", "yellow", "red"), "DR-16.1")
    state = move(state, 1, exchange("H10", "yellow", "white"))
    assert state.players[1].cubes == {"white": 2, "yellow": 0}


def test_dr_8_6_sharing_moves_only_in_the_sharing_phase() -> None:
    state = placing()
    illegal(state, 1, place_cube("P07", "poor", "yellow"), "DR-8.1")
    illegal(state, 1, {"type": "done_sharing"}, "DR-8.6")
    assert state.agenda[0].kind != "share" and Step("share", round=1, seat=1) not in state.agenda
