"""Every engineer action E1 to E15 (§22), played through the machine: from a changing action space,
where it must be performed in full (RR-11.4, RR-5.5), and as the seat's own hired engineer, where
whatever can be done is done (RR-11.8, RR-22.16); and the repeat E7 with AMB-29's spaces.

The action each engineer carries is the digest's (E1..E15 are its labels, the component set's ids);
the costs and printed values are fill-ins (DATA-9), so the tests read them from the component set.
Seat 0 plays on a 4-seat table; seat 1's turn behind it marks the end of the action (`done`).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.state import Placement, State

from .builders import KV, SP, TS, table, tracks
from .late_drive import at_turn, done, lines_of, play, refused

COMPONENTS = default_components()
LEFT = "engineer_left"

# TS black 5, grey 3, brown 1 (TS 2 and 6 already claimed); SP and KV black on 1.
RICH: dict[str, Any] = {
    "tracks": tracks(trans_siberian={"black": 5, "grey": 3, "brown": 1}),
    "claimed": ("trans_siberian:2", "trans_siberian:6"),
}


def every_claim() -> tuple[str, ...]:
    """Every one-time special space and terminus, so a blocked table triggers nothing."""
    claims = [f"{r.id}:{s.space}" for r in COMPONENTS.railways for s in r.specials]
    return (*claims, *(f"{r.id}:terminus" for r in COMPONENTS.railways), "industry")


def ends(**changes: int) -> dict[str, dict[str, int]]:
    """Every black track on its railway's last space (it cannot move), with `changes` on top:
    `ends(kiev=8)` leaves the Kiev black track one space to go."""
    black = {r.id: r.spaces for r in COMPONENTS.railways}
    black.update(changes)
    return tracks(**{railway: {"black": space} for railway, space in black.items()})


def own(engineer: str, **player: Any) -> State:
    return at_turn(table(4, {0: {**player, "engineers": (engineer,)}}))


def pay(space: str, engineer: str) -> mv.Place:
    """The engineer's printed cost, from the component set (DATA-9)."""
    data = COMPONENTS.engineer(engineer)
    return mv.Place(space=space, workers=data.workers, rubles=data.rubles)


def summary(state: State) -> dict[str, Any]:
    seat = state.players[0]
    return {
        TS: dict(seat.tracks[TS]), SP: dict(seat.tracks[SP]), KV: dict(seat.tracks[KV]),
        "markers": seat.markers, "multipliers": seat.multipliers, "locomotives": dict(seat.locomotives),
        "lines": lines_of(state),
    }


def adv(railway: str, colour: str) -> mv.Advance:
    return mv.Advance(railway=railway, colour=colour)


def part(label: str) -> mv.NextPart:
    return mv.NextPart(part=label)


USED_INDUSTRY = (Placement("industry_1", 0, workers=1),)

# engineer, its rule, the moves after the placement, what changes from the RICH table
FULL = [
    ("E1", "RR-22.1", [], {"markers": (1,), "lines": [("RR-22.1", 3)]}),
    ("E2", "RR-22.2", [adv(TS, "grey"), adv(TS, "brown")], {TS: {"black": 5, "grey": 4, "brown": 2}}),
    ("E3", "RR-22.3", [], {"multipliers": 1, "lines": [("RR-22.3", 3)]}),
    ("E4", "RR-22.4", [part("advance:black"), adv(TS, "black")], {TS: {"black": 6, "grey": 4, "brown": 1}}),
    ("E5", "RR-22.5", [], {TS: {"black": 5, "grey": 4, "brown": 1}, "lines": [("RR-22.5", 5)]}),
    ("E6", "RR-22.6", [adv(TS, "brown")], {TS: {"black": 5, "grey": 3, "brown": 2}, "lines": [("RR-22.6", 3)]}),
    ("E7", "RR-22.7", [], {"markers": (1,)}),
    ("E8", "RR-22.8", [adv(KV, "black")], {KV: {"black": 2}, "lines": [("RR-22.8", 3)]}),
    ("E9", "RR-22.9", [], {"markers": (2,)}),
    ("E10", "RR-22.10", [part("industry"), adv(SP, "black")], {"markers": (1,), SP: {"black": 2}}),
    ("E11", "RR-22.11", [part("advance:any"), adv(TS, "grey"), adv(TS, "black")],
     {TS: {"black": 6, "grey": 4, "brown": 1}}),
    ("E12", "RR-22.12", [mv.PlaceLocomotive(railway=SP, slot=0)], {"locomotives": {TS: (1,), SP: (2,)}}),
    ("E13", "RR-22.13", [part("advance:brown")], {TS: {"black": 5, "grey": 4, "brown": 2}}),
    ("E14", "RR-22.14", [adv(TS, "black"), adv(SP, "black")], {TS: {"black": 6, "grey": 3, "brown": 1},
                                                              SP: {"black": 2}}),
    ("E15", "RR-22.15", [], {TS: {"black": 5, "grey": 3, "brown": 2}, "lines": [("RR-22.15", 5)]}),
]


@pytest.mark.parametrize(("engineer", "rule", "moves", "changes"), FULL, ids=[row[0] for row in FULL])
def test_rr_11_4_rr_22_each_engineer_on_a_changing_space_in_full(engineer: str, rule: str, moves: list[Any],
                                                                  changes: dict[str, Any]) -> None:
    """RR-11.4: the changing engineer is a board space taken at its printed cost and performed in
    full; RR-22.1 to RR-22.15: each action does what the rulebook prints, its VP under its rule."""
    placements = USED_INDUSTRY if engineer == "E7" else ()
    start = at_turn(table(4, {0: {**RICH, "workers": 5 - len(placements)}}, placements=placements,
                          strip=(None, None, None, None, engineer, None, None)))
    state = play(start, pay(LEFT, engineer), *moves)
    assert done(state)
    expected = {**summary(start), **changes}
    assert summary(state) == expected
    assert all(line.rule == rule for line in state.lines)
    data = COMPONENTS.engineer(engineer)
    placed = state.placements[-1]
    assert (placed.space, placed.workers + placed.rubles) == (LEFT, data.workers + data.rubles)
    assert state.players[0].workers == start.players[0].workers - data.workers
    assert state.strip == start.strip  # RR-11.4: a changing engineer cannot be hired; it stays


GREY_ONLY: dict[str, Any] = {"tracks": {**ends(), TS: {"black": 15, "grey": 3}}}
BLOCKED: dict[str, Any] = {"tracks": ends(), "claimed": every_claim()}
PARTIAL = [
    ("E1", {"markers": (4,)}, [], {"lines": [("RR-22.1", 3)]}),
    ("E2", {"tracks": ends(kiev=8)}, [], {KV: {"black": 9}}),
    ("E3", {"multipliers": 8}, [], {"lines": [("RR-22.3", 3)]}),
    ("E4", {"tracks": ends(kiev=8)}, [part("advance:black")], {KV: {"black": 9}}),
    ("E5", {}, [], {"lines": [("RR-22.5", 5)]}),
    ("E6", {}, [], {"lines": [("RR-22.6", 3)]}),
    ("E7", {}, [], {}),
    ("E8", {}, [], {"lines": [("RR-22.8", 3)]}),
    ("E9", {"markers": (3,)}, [], {"markers": (4,)}),
    ("E10", {"tracks": ends(kiev=8), "markers": (4,)}, [part("advance:black")], {KV: {"black": 9}}),
    ("E11", GREY_ONLY, [part("advance:any")], {TS: {"black": 15, "grey": 4}}),
    ("E12", {}, [], {}),
    ("E13", GREY_ONLY, [part("advance:grey")], {TS: {"black": 15, "grey": 4}}),
    ("E14", {"tracks": ends(kiev=8)}, [], {KV: {"black": 9}}),
    ("E15", {}, [], {"lines": [("RR-22.15", 5)]}),
]
EMPTY_SUPPLY = {"stacks": {value: 0 for value in default_components().locomotives if value != "1"}}


@pytest.mark.parametrize(("engineer", "player", "moves", "changes"), PARTIAL, ids=[row[0] for row in PARTIAL])
def test_rr_11_8_rr_22_16_own_engineer_does_what_it_can_the_board_refuses_it(
        engineer: str, player: dict[str, Any], moves: list[Any], changes: dict[str, Any]) -> None:
    """RR-11.8, RR-22.16: on a table where part of the action cannot be done, the seat's own
    engineer still performs the rest (and the placement counts); the same engineer on a changing
    space is refused under RR-5.5 and nothing changes."""
    seat = {**BLOCKED, **player}
    extra = EMPTY_SUPPLY if engineer == "E12" else {}
    start = at_turn(table(4, {0: {**seat, "engineers": (engineer,)}}, **extra))
    state = play(start, pay(engineer, engineer), *moves)
    assert done(state)
    assert summary(state) == {**summary(start), **changes}
    assert state.placements[-1].space == engineer
    board = at_turn(table(4, {0: seat}, strip=(None, None, None, None, engineer, None, None), **extra))
    refused(board, pay(LEFT, engineer), "RR-5.5")


def test_rr_11_6_amb_16_own_engineer_once_a_round_and_nobody_else_uses_it() -> None:
    """RR-11.6, AMB-16: a hired engineer is its owner's private space, usable once a round."""
    state = own("E1")
    state = play(state, pay("E1", "E1"))
    assert state.players[0].markers == (1,)
    again = at_turn(state)
    assert not any(isinstance(m, mv.Place) and m.space == "E1" for m in RULESET.legal_moves(again, 0))
    refused(again, pay("E1", "E1"), "RR-11.6")
    other = at_turn(table(4, {0: {"engineers": ("E1",)}}), seat=1)
    refused(other, pay("E1", "E1"), "RR-11.6")


# ---- E7 and AMB-29 ---------------------------------------------------------------------------------


def repeats(state: State) -> set[str]:
    return {m.space for m in RULESET.legal_moves(state, 0) if isinstance(m, mv.Repeat)}


def test_rr_22_7_amb_29_which_spaces_qualify_for_a_repeat() -> None:
    """RR-22.7, AMB-29: only spaces needing exactly one worker, used this round with exactly one
    worker or one ruble: 1-worker board spaces, the reusable space, a changing engineer and an own
    engineer costing 1 worker; never the hiring space, the worker-and-ruble space, a 2-worker space
    or a turn-order space."""
    one_worker = [e.id for e in COMPONENTS.engineers if (e.workers, e.rubles) == (1, 0) and e.id != "E7"]
    two_workers = [e.id for e in COMPONENTS.engineers if e.workers == 2]
    changing, own_one, own_two = one_worker[0], one_worker[1], two_workers[0]
    placements = (
        Placement("industry_1", 0, workers=1),
        Placement("multiplier", 0, rubles=1),
        Placement("black_or_grey", 0, temporary=1),
        Placement("industry_2", 0, workers=2),
        Placement("industry_black", 0, workers=1, rubles=1),
        Placement("any_2", 0, workers=1, rubles=1),
        Placement("hire", 0, rubles=1),
        Placement("turn_order_1", 0, workers=1),
        Placement(LEFT, 0, workers=1),
        Placement(own_one, 0, workers=1),
        Placement(own_two, 0, workers=2),
        Placement("rubles", 1, workers=1),  # another seat's
    )
    strip = (None, None, None, None, changing, "E7", None)
    state = table(4, {0: {"engineers": (own_one, own_two), "markers": (0,)}}, placements=placements, strip=strip)
    state = play(at_turn(state), mv.Place(space="engineer_right", workers=1))
    assert repeats(state) == {"industry_1", "multiplier", "black_or_grey", LEFT, own_one}
    refused(state, mv.Repeat(space="industry_2"), "RR-22.7")
    refused(state, mv.Repeat(space="hire"), "RR-22.7")
    refused(state, mv.Repeat(space="rubles"), "RR-22.7")
    before = state.players[0].multipliers
    state = play(state, mv.Repeat(space="multiplier"))
    assert done(state)
    assert state.players[0].multipliers == before + 1
    assert state.placements[-1].space == "engineer_right"  # the repeat itself places nothing


def test_rr_22_7_rr_20_3_a_repeat_of_the_black_workers_space_gives_no_extra_black() -> None:
    """RR-20.3 (derived): the black worker's extra comes only when it is placed, not on a repeat."""
    placements = (Placement("black_or_grey", 0, black=1),)
    state = table(4, {0: {"engineers": ("E7",), "black_worker": True, "black_in_supply": False}},
                  placements=placements)
    state = play(at_turn(state), pay("E7", "E7"), adv(SP, "black"))
    assert done(state)
    assert state.players[0].tracks[SP]["black"] == 2
    assert [dict(t) for t in state.players[0].tracks.values()] == [{"black": 1}, {"black": 2}, {"black": 1}]


@settings(max_examples=25, deadline=None)
@given(engineer=st.sampled_from([e.id for e in COMPONENTS.engineers if e.id != "E7"]),
       black=st.integers(1, 9), markers=st.integers(0, 4), multipliers=st.integers(0, 8))
def test_rr_11_8_rr_5_5_own_engineer_is_always_usable_and_the_board_only_when_it_can_be_done(
        engineer: str, black: int, markers: int, multipliers: int) -> None:
    """RR-11.8 vs RR-5.5: on any such table the own engineer can always be used (whatever the
    outcome), and the changing engineer's placement is legal exactly when the action can be
    carried out in full, which the machine's search decides (RR-5.5)."""
    seat = {"tracks": tracks(kiev={"black": black}), "markers": (markers,), "multipliers": multipliers,
            "claimed": every_claim()}
    mine = at_turn(table(4, {0: {**seat, "engineers": (engineer,)}}))
    assert pay(engineer, engineer) in RULESET.legal_moves(mine, 0)
    board = at_turn(table(4, {0: seat}, strip=(None, None, None, None, engineer, None, None)))
    legal = pay(LEFT, engineer) in RULESET.legal_moves(board, 0)
    effects = COMPONENTS.engineer(engineer).effects
    kinds = {e.kind for e in effects}
    coloured = any(e.kind == "advance" and e.colour in ("grey", "brown") for e in effects)
    feasible = (not coloured and ("multiplier" not in kinds or multipliers < 8)
                and ("industry" not in kinds or markers + sum(e.count for e in effects if e.kind == "industry") <= 4))
    assert legal == feasible


def test_rr_22_16_rr_5_7_an_engineers_advancements_in_either_order_but_only_orders_that_finish() -> None:
    """RR-22.16: the advancements may be done in any order (RR-5.7): E4's grey first or black first
    ends the same; with grey right behind black on the TS only black first can finish the changing
    engineer's action in full (RR-5.5), so only that order is offered, and grey first is refused."""
    start = at_turn(table(4, {0: RICH}, strip=(None, None, None, None, "E4", None, None)))
    black_first = play(start, pay(LEFT, "E4"), part("advance:black"), adv(TS, "black"))
    grey_first = play(start, pay(LEFT, "E4"), part("advance:grey"), adv(TS, "black"))
    assert done(black_first) and done(grey_first)
    assert summary(black_first) == summary(grey_first)
    assert summary(grey_first)[TS] == {"black": 6, "grey": 4, "brown": 1}
    tight = {**RICH, "tracks": tracks(trans_siberian={"black": 5, "grey": 4, "brown": 1})}
    state = play(at_turn(table(4, {0: tight}, strip=(None, None, None, None, "E4", None, None))), pay(LEFT, "E4"))
    assert list(RULESET.legal_moves(state, 0)) == [part("advance:black")]
    refused(state, part("advance:grey"), "RR-5.5")
    state = play(state, part("advance:black"))
    assert list(RULESET.legal_moves(state, 0)) == [adv(TS, "black")]  # SP or KV would leave grey stuck
