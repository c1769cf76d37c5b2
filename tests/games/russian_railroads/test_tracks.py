"""Tracks (RR-0.1 to RR-0.5, RR-6, EX-1 to EX-5): every track action space in a scenario table,
splitting, legality, new colours, the worker-and-ruble space and the reusable space, driven
through real turns. The railways' lengths and special spaces are read from the component set
(DATA-2, DATA-16).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import RULESET, board
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.state import State
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import KV, SP, TS, table, tracks
from .turns import adv, done, head, place, play, refused, spaces_offered, turn

COMPONENTS = default_components()
LENGTH = {railway.id: railway.spaces for railway in COMPONENTS.railways}
ALL_CLAIMED = (*(board.key(r, s) for r in COMPONENTS.railways for s in r.specials),
               *(board.terminus_key(r) for r in COMPONENTS.railways))
"""Every special space and terminus already claimed: the tests see only the advancements themselves."""

ROOMY: dict[str, Any] = {
    "tracks": tracks(trans_siberian={"black": 13, "grey": 9, "brown": 6, "beige": 3, "white": 0},
                     st_petersburg={"black": 5, "grey": 3, "brown": 1, "beige": 0},
                     kiev={"black": 5, "grey": 3, "brown": 1}),
    "claimed": ALL_CLAIMED,
}


def roomy(seats: int = 4, **changes: Any) -> State:
    return table(seats, {0: {**ROOMY, **changes}})


def positions(state: State, railway: str, seat: int = 0) -> dict[str, int]:
    return dict(state.players[seat].tracks[railway])


# space, workers, rubles, colour moved in the scenario, advancements, player counts (black moves
# on St. Petersburg, the others on the Trans-Siberian, where ROOMY leaves them room)
TRACK_SPACES = [
    ("black_2", 1, 0, "black", 2, (3, 4)),
    ("black_3", 2, 0, "black", 3, (2, 3, 4)),
    ("grey_2", 1, 0, "grey", 2, (3, 4)),
    ("grey_3", 2, 0, "grey", 3, (2, 3, 4)),
    ("brown_1", 1, 0, "brown", 1, (2, 3, 4)),
    ("brown_2", 2, 0, "brown", 2, (2, 3, 4)),
    ("beige_1", 1, 0, "beige", 1, (2, 3, 4)),
    ("beige_2", 2, 0, "beige", 2, (2, 3, 4)),
    ("white_1", 1, 0, "white", 1, (2, 3, 4)),
    ("white_2", 2, 0, "white", 2, (2, 3, 4)),
    ("any_2", 1, 1, "brown", 2, (2, 3, 4)),
    ("black_or_grey", 1, 0, "grey", 1, (2, 3, 4)),
]


def test_rr_6_2_the_table_lists_every_track_space_of_the_board() -> None:
    """RR-6.2: the scenario table covers every track space of the board, with the data's cost and player counts."""
    assert sorted(row[0] for row in TRACK_SPACES) == sorted(s.id for s in COMPONENTS.spaces if s.section == "track")
    for space_id, workers, rubles, _, _, players in TRACK_SPACES:
        space = COMPONENTS.space(space_id)
        assert (space.workers, space.rubles, tuple(space.players)) == (workers, rubles, players)


@pytest.mark.parametrize(("space", "workers", "rubles", "colour", "count", "players"), TRACK_SPACES)
@pytest.mark.parametrize("seats", [2, 4])
def test_rr_6_2_rr_5_2_rr_0_4_each_track_space_costs_and_moves_its_count(
        seats: int, space: str, workers: int, rubles: int, colour: str, count: int, players: tuple[int, ...]) -> None:
    """RR-6.2, RR-5.2, RR-0.4: each space takes its cost and moves its colour one space per advancement; on
    the 2-player side the blocked ones are refused (RR-3.6)."""
    state = turn(roomy(seats, rubles=3))
    if seats not in players:
        refused(state, 0, place(space, workers, rubles), "RR-3.6")
        return
    railway = SP if colour == "black" else TS
    before = {r: positions(state, r) for r in (TS, SP, KV)}
    after = play(state, 0, place(space, workers, rubles))
    while head(after) == "advance":  # a choice; a single possible advancement is made by itself
        after = play(after, 0, adv(railway, colour))
    assert done(after)
    moved = {**before, railway: {**before[railway], colour: before[railway][colour] + count}}
    assert {r: positions(after, r) for r in (TS, SP, KV)} == moved  # one space per advancement
    player = after.players[0]
    start = roomy(seats).players[0]
    assert (player.workers, player.rubles) == (start.workers - workers, 3 - rubles)
    assert [(p.space, p.workers, p.rubles) for p in after.placements] == [(space, workers, rubles)]


def test_ex_1_rr_6_3_three_black_advancements_on_one_railway_or_split() -> None:
    """EX-1, RR-6.3: three black advancements all on the TS, or split 2 + 1."""
    state = play(turn(table(4, {0: {"claimed": ALL_CLAIMED}})), 0, place("black_3", 2))
    one = play(state, 0, adv(TS), adv(TS), adv(TS))
    assert done(one) and positions(one, TS)["black"] == 4
    split = play(state, 0, adv(TS), adv(SP), adv(TS))
    assert done(split)
    assert (positions(split, TS)["black"], positions(split, SP)["black"], positions(split, KV)["black"]) == (3, 2, 1)


def test_ex_2_rr_6_7_black_reaching_ts_2_gives_three_grey_tracks_left_of_the_railways() -> None:
    """EX-2, RR-6.7: black reaching TS 2 brings a grey track at position 0 on each railway; SP and KV reaching
    2 bring nothing (RR-6.8)."""
    state = play(turn(table(4)), 0, place("black_3", 2), adv(SP), adv(KV))
    assert "grey" not in positions(state, TS)  # black on SP and KV reaching 2 gives nothing (RR-6.8)
    state = play(state, 0, adv(TS))
    assert done(state)
    player = state.players[0]
    assert {r: player.tracks[r].get("grey") for r in (TS, SP, KV)} == {TS: 0, SP: 0, KV: 0}
    assert "brown" not in player.tracks[TS]


def test_ex_3_rr_6_5_two_grey_advancements_move_one_grey_track_from_the_left_to_space_2() -> None:
    """EX-3, RR-6.5: two grey advancements take one grey from position 0 to space 2, or split; a grey whose
    black is on 1 cannot start (RR-6.4)."""
    board_ = tracks(trans_siberian={"black": 4, "grey": 0}, st_petersburg={"black": 3, "grey": 0},
                    kiev={"black": 1, "grey": 0})
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED}})), 0, place("grey_2", 1))
    # KV grey cannot leave position 0: its black is on 1 (RR-6.5)
    assert {m.railway for m in RULESET.legal_moves(state, 0)} == {TS, SP}
    refused(state, 0, adv(KV, "grey"), "RR-6.4")
    same = play(state, 0, adv(TS, "grey"), adv(TS, "grey"))
    assert done(same) and positions(same, TS) == {"black": 4, "grey": 2}
    split = play(state, 0, adv(TS, "grey"), adv(SP, "grey"))
    assert (positions(split, TS)["grey"], positions(split, SP)["grey"]) == (1, 1)


def test_ex_4_rr_6_9_worker_and_ruble_space_black_then_grey() -> None:
    """EX-4, RR-6.9: 1 worker and 1 ruble (RR-10.7: not 2 workers) give 2 advancements of any colours, on one
    marker or two."""
    board_ = tracks(trans_siberian={"black": 3, "grey": 1}, st_petersburg={"black": 1, "grey": 0},
                    kiev={"black": 1, "grey": 0})
    state = turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED, "rubles": 1}}))
    refused(state, 0, place("any_2", 2), "RR-10.7")  # a worker cannot stand in for the ruble
    rich = turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED, "rubles": 2}}))
    assert mv.Place(space="any_2", rubles=2) in RULESET.legal_moves(rich, 0)  # 2 rubles, no worker (RR-10.7)
    state = play(state, 0, place("any_2", 1, 1))
    assert state.players[0].rubles == 0
    after = play(state, 0, adv(TS, "black"), adv(TS, "grey"))
    assert done(after) and positions(after, TS) == {"black": 4, "grey": 2}
    twice = play(state, 0, adv(TS, "black"), adv(TS, "black"))
    assert positions(twice, TS)["black"] == 5
    other = play(state, 0, adv(SP, "black"), adv(KV, "black"))
    assert (positions(other, SP)["black"], positions(other, KV)["black"]) == (2, 2)


def test_ex_5_rr_6_11_rr_5_3_the_reusable_space_is_never_occupied() -> None:
    """EX-5, RR-6.11: the reusable space is used by two players and by the same player twice in one round (the
    exception to RR-5.3)."""
    state = turn(table(4, {0: {"claimed": ALL_CLAIMED}, 1: {"claimed": ALL_CLAIMED}}), 0, 1, 0)
    state = play(state, 0, place("black_or_grey", 1), adv(TS))
    assert "black_or_grey" in spaces_offered(state, 1)
    state = play(state, 1, place("black_or_grey", 1), adv(SP))
    state = play(state, 0, place("black_or_grey", 1), adv(KV))  # the same player again, same round
    assert done(state)
    assert [(p.space, p.seat) for p in state.placements] == [("black_or_grey", 0), ("black_or_grey", 1),
                                                              ("black_or_grey", 0)]
    assert (positions(state, TS)["black"], positions(state, KV)["black"]) == (2, 2)
    assert positions(state, SP, seat=1)["black"] == 2


def test_rr_6_10_the_reusable_space_moves_black_or_grey_only() -> None:
    """RR-6.10 (AMB-8): the reusable space moves black or grey, nothing else (RR-6.2)."""
    state = play(turn(roomy()), 0, place("black_or_grey", 1))
    assert {m.colour for m in RULESET.legal_moves(state, 0)} == {"black", "grey"}
    refused(state, 0, adv(TS, "brown"), "RR-6.2")
    assert positions(play(state, 0, adv(SP, "black")), SP)["black"] == 6


def test_rr_6_1_rr_6_4_colours_by_railway_and_no_track_past_the_end() -> None:
    """RR-6.1 (AMB-7): SP has no white and KV no beige; RR-6.4 (a): no track past the railway's last space."""
    state = play(turn(roomy()), 0, place("any_2", 1, 1))
    refused(state, 0, adv(SP, "white"), "RR-6.1")
    refused(state, 0, adv(KV, "beige"), "RR-6.1")
    # SP beige stays at 0: its brown is on space 1 (RR-6.5)
    assert {(m.railway, m.colour) for m in RULESET.legal_moves(state, 0)} == {
        (TS, "black"), (TS, "grey"), (TS, "brown"), (TS, "beige"), (TS, "white"),
        (SP, "black"), (SP, "grey"), (SP, "brown"), (KV, "black"), (KV, "grey"), (KV, "brown")}
    end = roomy(tracks=tracks(kiev={"black": LENGTH[KV], "grey": 3}))
    state = play(turn(end), 0, place("black_3", 2))
    refused(state, 0, adv(KV, "black"), "RR-6.4")  # (a): space L+1 does not exist


def test_rr_6_4_grey_never_reaches_black() -> None:
    """RR-6.4 (c): grey may not reach the black track; black moves on freely, then grey may follow; RR-5.5: a
    grey space with no movable grey is closed."""
    board_ = tracks(trans_siberian={"black": 5, "grey": 4, "brown": 0})
    state = turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED}}))
    assert "grey_2" not in spaces_offered(state)  # SP and KV own no grey: only TS grey, and it is blocked
    refused(state, 0, place("grey_2", 1), "RR-5.5")
    state = play(state, 0, place("any_2", 1, 1))
    refused(state, 0, adv(TS, "grey"), "RR-6.4")
    # black is limited only by the end and by free spaces: it runs ahead, then grey may follow
    after = play(state, 0, adv(TS, "black"), adv(TS, "grey"))
    assert positions(after, TS) == {"black": 6, "grey": 5, "brown": 0}


def test_rr_6_5_rr_6_6_a_track_moves_only_when_owned_and_its_preceding_track_is_far_enough() -> None:
    """RR-6.5, RR-6.6: only owned colours move, position 0 to 1 needs the preceding track on 2 or more, and a
    colour whose preceding track is at 0 cannot move."""
    board_ = tracks(trans_siberian={"black": 2, "grey": 0, "brown": 0}, st_petersburg={"black": 1, "grey": 0},
                    kiev={"black": 1})
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED}})), 0, place("any_2", 1, 1))
    legal = {(m.railway, m.colour) for m in RULESET.legal_moves(state, 0)}
    assert legal == {(TS, "black"), (TS, "grey"), (SP, "black"), (KV, "black")}
    refused(state, 0, adv(SP, "grey"), "RR-6.4")  # its black is on space 1
    refused(state, 0, adv(TS, "brown"), "RR-6.4")  # its grey is still at position 0
    refused(state, 0, adv(KV, "grey"), "RR-6.6")  # not owned on Kiev
    after = play(state, 0, adv(TS, "grey"))
    refused(after, 0, adv(TS, "brown"), "RR-6.4")  # grey on 1: brown would reach it
    assert "brown_1" not in spaces_offered(turn(table(4, {0: {"tracks": board_}})))


def test_rr_6_4_rr_6_5_a_track_at_position_0_enters_space_1_when_its_preceding_track_is_on_2_or_more() -> None:
    """RR-6.4, RR-6.5: brown at 0 enters space 1 when grey is on 4."""
    board_ = tracks(trans_siberian={"black": 5, "grey": 4, "brown": 0})
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED}})), 0, place("any_2", 1, 1))
    after = play(state, 0, adv(TS, "brown"))  # brown to 1 is legal: grey is on 4
    assert positions(after, TS)["brown"] == 1


@pytest.mark.parametrize(("space", "colour", "gained"), [
    (2, "grey", {TS: 0, SP: 0, KV: 0}),
    (6, "brown", {TS: 0, SP: 0, KV: 0}),
    (10, "beige", {TS: 0, SP: 0}),
])
def test_rr_6_7_rr_0_5_new_colours_when_the_ts_black_reaches_or_passes(space: int, colour: str,
                                                                      gained: dict[str, int]) -> None:
    """RR-6.7, RR-0.5: TS 2, 6 and 10 bring grey, brown and beige on the railways that use them, once per
    game. The black track lies one space short; the table has every earlier colour already."""
    new = ("grey", "brown", "beige")
    earlier = {"black": space - 1, **{c: 0 for c in new[: new.index(colour)]}}
    others = {c: 0 for c in earlier if c != "black"}
    board_ = tracks(trans_siberian=earlier, st_petersburg={"black": 1, **others},
                    kiev={"black": 1, **{c: 0 for c in others if c != "beige"}})
    claimed = tuple(k for k in ALL_CLAIMED if not k.startswith(f"{TS}:{space}")
                    and k not in (f"{TS}:13", f"{TS}:15"))
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": claimed}})), 0, place("black_or_grey", 1))
    state = play(state, 0, adv(TS, "black"))
    player = state.players[0]
    assert done(state)
    assert {r: t[colour] for r, t in player.tracks.items() if colour in t} == gained
    # once per game: black moving on does not bring more (the same markers stay where they are)
    state = play(turn(state), 0, place("black_3", 2), adv(TS, "black"), adv(TS, "black"), adv(TS, "black"))
    assert {r: t[colour] for r, t in state.players[0].tracks.items() if colour in t} == gained


def test_rr_6_7_rr_0_5_a_black_track_passing_the_space_still_brings_the_colour() -> None:
    """RR-0.5, RR-6.7: reaches or passes. Reaches *or passes*: a table where the black track already stands
    past TS 2 unclaimed."""
    state = play(turn(table(4, {0: {"tracks": tracks(trans_siberian={"black": 3})}})), 0,
                 place("black_or_grey", 1), adv(SP, "black"))
    assert {r: t.get("grey") for r, t in state.players[0].tracks.items()} == {TS: 0, SP: 0, KV: 0}


def test_rr_6_7_rr_13_3_ts_15_gives_the_white_track_and_up_to_two_white_advancements() -> None:
    """RR-6.7, RR-13.3: TS 15 brings the white track on the TS only, then up to two white advancements that
    may be declined."""
    board_ = tracks(trans_siberian={"black": 14, "grey": 9, "brown": 7, "beige": 5})
    claimed = tuple(k for k in ALL_CLAIMED if k != f"{TS}:15")
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": claimed}})), 0, place("black_or_grey", 1),
                 adv(TS, "black"))
    assert positions(state, TS)["white"] == 0 and "white" not in positions(state, SP)
    assert head(state) == "advance" and mv.Decline() in RULESET.legal_moves(state, 0)
    state = play(state, 0, adv(TS, "white"), adv(TS, "white"))
    assert done(state) and positions(state, TS)["white"] == 2


def test_rr_6_8_black_reaching_2_6_10_15_on_sp_or_kv_gives_nothing() -> None:
    """RR-6.8: black tracks on SP and KV passing 2 and 6 bring no tracks."""
    board_ = tracks(st_petersburg={"black": 5}, kiev={"black": 1})
    state = play(turn(table(4, {0: {"tracks": board_}})), 0, place("black_3", 2),
                 adv(SP), adv(KV), adv(SP))
    assert done(state)
    assert state.players[0].tracks == tracks(st_petersburg={"black": 7}, kiev={"black": 2})


def test_rr_0_2_the_preceding_colours() -> None:
    """RR-0.2: black, grey, brown, beige, white; black has no preceding track."""
    assert [board.preceding(COMPONENTS, c) for c in ("black", "grey", "brown", "beige", "white")] == [
        None, "black", "grey", "brown", "beige"]


# ---- properties -----------------------------------------------------------------------------


def _in_order(state: State) -> bool:
    order = [c.id for c in COMPONENTS.colours]
    for railway, held in state.players[0].tracks.items():
        on = [(order.index(colour), pos) for colour, pos in held.items() if pos > 0]
        if len({pos for _, pos in on}) != len(on) or any(pos > LENGTH[railway] for _, pos in on):
            return False
        ranked = [pos for _, pos in sorted(on)]
        for ahead, behind in pairwise(ranked):
            if behind >= ahead:
                return False
        for colour, pos in held.items():  # a colour on the board has its preceding colour ahead of it
            before = board.preceding(COMPONENTS, colour)
            if pos > 0 and before is not None and held.get(before, 0) <= pos:
                return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=50), min_size=20, max_size=40))
def test_rr_6_5_rr_0_3_any_legal_advancements_keep_the_colour_order_and_one_track_a_space(picks: list[int]) -> None:
    """RR-6.5, RR-0.3 (a property): forty "any" advancements from the start, each choice any legal one (and
    whatever the special
    spaces they reach ask, chosen the same way): the tracks of each railway always stand in colour
    order, black in front, never two on a space, never past the end."""
    steps = tuple(Step("advance", colour="any", bonus=False, seat=0, p=True) for _ in range(40))
    state = AGENDA.advance(evolve(table(4), agenda=(*steps, Step("turn", seat=0, stop=True))))
    moved = 0
    for pick in picks:
        if done(state):
            break
        legal = RULESET.legal_moves(state, 0)
        move = legal[pick % len(legal)]
        state = RULESET.apply(state, 0, move)
        moved += isinstance(move, mv.Advance)
        assert _in_order(state)
    total = sum(pos for held in state.players[0].tracks.values() for pos in held.values())
    assert total - 3 >= moved  # each advancement moved a track one space (those made by themselves too)


def test_rr_5_5_rr_13_3_the_white_tracks_advancements_may_be_declined() -> None:
    """RR-5.5's exception for the white-track bonus (RR-13.3, "up to 2"): declining ends the action
    with the white track still at position 0."""
    board_ = tracks(trans_siberian={"black": 14, "grey": 9, "brown": 7, "beige": 5})
    claimed = tuple(k for k in ALL_CLAIMED if k != f"{TS}:15")
    state = play(turn(table(4, {0: {"tracks": board_, "claimed": claimed}})), 0, place("black_or_grey", 1),
                 adv(TS, "black"), mv.Decline())
    assert done(state) and positions(state, TS)["white"] == 0
    refused(play(turn(table(4, {0: {"claimed": ALL_CLAIMED}})), 0, place("black_3", 2)), 0, mv.Decline(), "RR-5.5")
