"""Player-board special spaces (§13, RR-6.7, EX-20 to EX-22, AMB-31): a scenario table for every
special space of every railway, each reached by a real track advancement (the reusable black or
grey space, the brown space) or by a locomotive placement.

Each row gives the railway, the space, the track that must reach it, the position one short of it,
the locomotives that reach it (or none where none is needed) and what the space gives. The spaces
and their conditions are read from the component set and checked against the digest's list.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import board
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.scoring import round_lines
from domain.games.russian_railroads.state import State
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import KV, SP, TS, table
from .play_turn import at_turn, immediate, legal, parked, play, refused, with_steps

COMPONENTS = default_components()
RAILWAY = {railway.id: railway for railway in COMPONENTS.railways}


def specials_of(railway: str) -> dict[int, Any]:
    return {special.space: special for special in RAILWAY[railway].specials}


def test_rr_13_1_the_special_spaces_and_their_conditions_match_the_digest() -> None:
    """RR-13.1: The special spaces and their conditions match the digest."""
    found = {(r, s.space, s.track, s.locomotive, s.benefit) for r in RAILWAY for s in RAILWAY[r].specials}
    assert found == {
        (TS, 2, "black", False, "tracks"), (TS, 6, "black", False, "tracks"), (TS, 10, "black", False, "tracks"),
        (TS, 3, "brown", True, "worker"), (TS, 13, "black", True, "token"), (TS, 15, "black", False, "white"),
        (SP, 4, "black", True, "token"), (SP, 6, "black", True, "token"), (SP, 7, "grey", True, "doubling"),
        (KV, 1, "black", True, "star"), (KV, 2, "black", True, "star"), (KV, 3, "black", True, "star"),
        (KV, 4, "black", True, "star"), (KV, 8, "black", True, "star"), (KV, 5, "grey", True, "medal"),
        (KV, 7, "black", False, "worker"),
    }


# ---- building a board one step short of a space --------------------------------------------------


def owned_colours(ts_black: int) -> list[str]:
    """The colours a seat owns once its TS black track has reached `ts_black` (RR-6.7)."""
    return ["black", *[s.colour for s in RAILWAY[TS].specials if s.benefit == "tracks" and s.space <= ts_black]]


def developed(ts_black: int, **lines: dict[str, int]) -> dict[str, dict[str, int]]:
    """Tracks of a seat whose TS black is on `ts_black`: every colour it owns, at 0 unless `lines`
    says otherwise (railway -> colour -> position)."""
    colours = owned_colours(ts_black)
    result: dict[str, dict[str, int]] = {}
    for railway in COMPONENTS.railways:
        result[railway.id] = {c: (1 if c == "black" else 0) for c in colours if c in railway.colours}
    result[TS]["black"] = ts_black
    for railway, colours_at in lines.items():
        result[railway].update(colours_at)
    return result


def claimed_below(ts_black: int, **railways: int) -> tuple[str, ...]:
    """The one-time spaces already used: the new-track spaces up to `ts_black` (RR-6.7) and each
    named railway's spaces below its given space (so only the space under test can trigger)."""
    keys = [board.key(RAILWAY[TS], s) for s in RAILWAY[TS].specials if s.benefit == "tracks" and s.space <= ts_black]
    for railway, space in railways.items():
        keys += [board.key(RAILWAY[railway], s) for s in RAILWAY[railway].specials if s.space < space]
    return tuple(dict.fromkeys(keys))


def advance(state: State, railway: str, colour: str) -> State:
    """Seat 0 advances `colour` on `railway` by one with a real board space (RR-6.2, RR-6.10)."""
    space = "black_or_grey" if colour in ("black", "grey") else f"{colour}_1"
    state = play(at_turn(state, 0), mv.Place(space=space, workers=1))
    if not parked(state) and state.agenda[0].kind == "advance":
        state = play(state, mv.Advance(railway=railway, colour=colour))
    return state


def worker_gained(before: State, after: State) -> bool:
    b, a = before.players[0], after.players[0]
    return (a.reserve, a.workers, a.gained_workers) == (b.reserve - 1, b.workers - 1 + 1, b.gained_workers + 1)


# ---- without a locomotive ---------------------------------------------------------------------------


@pytest.mark.parametrize(("space", "colour", "railways"), [
    (2, "grey", [TS, SP, KV]),
    (6, "brown", [TS, SP, KV]),
    (10, "beige", [TS, SP]),
])
def test_rr_13_2_rr_6_7_ex_2_ts_black_reaching_2_6_10_gives_new_tracks(space: str, colour: str,
                                                                      railways: list[str]) -> None:
    """RR-13.2, RR-6.7, EX-2: TS black reaching 2 6 10 gives new tracks."""
    start = table(4, {0: {"tracks": developed(int(space) - 1), "claimed": claimed_below(int(space) - 1)}})
    state = advance(start, TS, "black")
    tracks = state.players[0].tracks
    assert [r for r in RAILWAY if tracks[r].get(colour) == 0] == railways
    assert board.key(RAILWAY[TS], specials_of(TS)[int(space)]) in state.players[0].claimed
    assert parked(state)


def test_rr_6_8_black_on_sp_or_kv_reaching_2_or_6_gives_nothing() -> None:
    """RR-6.8: Black on SP or kv reaching 2 or 6 gives nothing."""
    start = table(4, {0: {"tracks": developed(1, st_petersburg={"black": 1}), "reserve": 2}})
    state = advance(start, SP, "black")
    assert state.players[0].tracks[SP] == {"black": 2}
    assert "grey" not in state.players[0].tracks[TS]


def test_rr_13_3_rr_13_4_ts_15_gives_white_up_to_two_advancements_and_the_terminus() -> None:
    """RR-13.3, RR-13.4: TS 15 gives white up to two advancements and the terminus."""
    start = table(4, {0: {"tracks": developed(14, trans_siberian={"grey": 8, "brown": 6, "beige": 3}),
                          "claimed": claimed_below(14)}})
    state = advance(start, TS, "black")
    assert state.players[0].tracks[TS]["white"] == 0
    assert immediate(state) == [("RR-13.4", COMPONENTS.constants.terminus_vp)]
    assert set(legal(state)) == {mv.Advance(railway=TS, colour="white"), mv.Decline()}
    state = play(state, mv.Advance(railway=TS, colour="white"))
    # white must stay behind beige (on 3): onto 2, and that is both advancements
    state = play(state, mv.Advance(railway=TS, colour="white"))
    assert state.players[0].tracks[TS]["white"] == 2
    assert parked(state)


def test_rr_13_3_white_advancements_that_cannot_be_made_are_lost() -> None:
    """RR-13.3: White advancements that cannot be made are lost."""
    start = table(4, {0: {"tracks": developed(14, trans_siberian={"grey": 8, "brown": 6, "beige": 2}),
                          "claimed": claimed_below(14)}})
    state = advance(start, TS, "black")
    state = play(state, mv.Advance(railway=TS, colour="white"))
    assert state.players[0].tracks[TS]["white"] == 1
    assert parked(state)  # the second is lost: white may not reach beige on 2 (RR-6.4)
    refused_start = table(4, {0: {"tracks": developed(14, trans_siberian={"grey": 8, "brown": 6, "beige": 3}),
                                  "claimed": claimed_below(14)}})
    asked = advance(refused_start, TS, "black")
    refused(asked, mv.Advance(railway=TS, colour="beige"), "RR-6.2")


def test_rr_13_3_the_white_advancements_may_be_declined() -> None:
    """RR-13.3: The white advancements may be declined."""
    start = table(4, {0: {"tracks": developed(14, trans_siberian={"grey": 8, "brown": 6, "beige": 3}),
                          "claimed": claimed_below(14)}})
    state = play(advance(start, TS, "black"), mv.Decline())
    assert state.players[0].tracks[TS]["white"] == 0
    assert parked(state)


@pytest.mark.parametrize("railway", [TS, SP, KV])
def test_rr_13_4_a_black_track_on_the_last_space_gives_10_vp_once(railway: str) -> None:
    """RR-13.4: A black track on the last space gives 10 VP once."""
    last = RAILWAY[railway].spaces
    ts_black = last - 1 if railway == TS else 9
    lines = {railway: {"black": last - 1}} if railway != TS else {}
    claimed = claimed_below(ts_black, **{railway: last})
    start = table(4, {0: {"tracks": developed(ts_black, **lines), "claimed": claimed}})
    state = advance(start, railway, "black")
    if not parked(state):
        state = play(state, mv.Decline())  # TS 15 is also the white-track space
    assert state.players[0].tracks[railway]["black"] == last
    assert [line for line in immediate(state) if line[0] == "RR-13.4"] == [("RR-13.4", 10)]
    assert board.terminus_key(RAILWAY[railway]) in state.players[0].claimed
    # no track moves beyond the last space
    assert (railway, "black") not in board.advance_targets(state, state.players[0], "black")


def test_rr_13_5_kv_7_black_gives_a_worker_from_the_reserve_usable_at_once() -> None:
    """RR-13.5: KV 7 black gives a worker from the reserve usable at once."""
    start = table(4, {0: {"tracks": developed(1, kiev={"black": 6}), "workers": 1}})
    state = advance(start, KV, "black")
    player = state.players[0]
    assert (player.reserve, player.workers, player.gained_workers) == (1, 1, 1)  # 1 - 1 placed + 1 new
    assert worker_gained(start, state)
    assert "industry_1" in {m.space for m in legal(at_turn(state, 0)) if isinstance(m, mv.Place)}


# ---- with a locomotive -----------------------------------------------------------------------------


def brown_to_3(locomotives: tuple[int, ...]) -> State:
    tracks = developed(6, trans_siberian={"black": 6, "grey": 5, "brown": 2})
    return table(4, {0: {"tracks": tracks, "claimed": claimed_below(6), "locomotives": {TS: locomotives}}})


def test_ex_20_rr_13_6_ts_3_needs_brown_and_the_ts_locomotives_both() -> None:
    """EX-20, RR-13.6: TS 3 needs brown and the TS locomotives both."""
    reached = brown_to_3((2, 1))
    state = advance(reached, TS, "brown")
    assert worker_gained(reached, state)
    short = brown_to_3((1,))
    state = advance(short, TS, "brown")
    assert state.players[0].reserve == 2
    assert board.key(RAILWAY[TS], specials_of(TS)[3]) not in state.players[0].claimed


def test_amb_31_rr_13_6_a_locomotive_placement_meets_the_last_condition() -> None:
    """AMB-31, RR-13.6: A locomotive placement meets the last condition."""
    short = advance(brown_to_3((1,)), TS, "brown")
    assert short.players[0].reserve == 2
    state = play(at_turn(evolve(short, agenda=(), placements=()), 0), mv.Place(space="locomotive_1", workers=1))
    state = play(state, mv.PlaceLocomotive(railway=TS, slot=1))
    assert state.players[0].locomotives[TS] == (1, 2)  # reach 3
    assert state.players[0].reserve == 1 and state.players[0].gained_workers == 1
    assert parked(state)


def test_rr_13_12_both_new_worker_spaces_empty_the_reserve_exactly() -> None:
    """RR-13.12: Both new worker spaces empty the reserve exactly."""
    tracks = developed(6, trans_siberian={"black": 6, "grey": 5, "brown": 2}, kiev={"black": 6})
    start = table(4, {0: {"tracks": tracks, "claimed": claimed_below(6), "locomotives": {TS: (2, 1)}}})
    state = advance(start, TS, "brown")
    state = advance(evolve(state, agenda=(), placements=()), KV, "black")
    player = state.players[0]
    assert (player.reserve, player.gained_workers) == (0, 2)


TOKEN_ROWS = [
    (TS, 13, {"trans_siberian": {"black": 12}}, {TS: (7, 6)}, 12),
    (SP, 4, {"st_petersburg": {"black": 3}}, {TS: (1,), SP: (5,)}, 1),
    (SP, 6, {"st_petersburg": {"black": 5}}, {TS: (1,), SP: (6,)}, 1),
]


@pytest.mark.parametrize(("railway", "space", "lines", "locomotives", "ts_black"), TOKEN_ROWS)
def test_rr_13_9_rr_13_11_token_spaces_give_one_unused_token_once(railway: str, space: int, lines: Any,
                                                                  locomotives: Any, ts_black: int) -> None:
    """RR-13.9, RR-13.11: Token spaces give one unused token once."""
    claimed = claimed_below(ts_black, **{railway: space})
    start = table(4, {0: {"tracks": developed(ts_black, **lines), "locomotives": locomotives,
                          "claimed": claimed, "tokens": ("T3",)}})
    state = advance(start, railway, "black")
    assert state.agenda[0].kind == "token"
    assert mv.ChooseToken(token="T3") not in legal(state)
    refused(state, mv.ChooseToken(token="T3"), "RR-13.11")
    state = play(state, mv.ChooseToken(token="T6"))
    player = state.players[0]
    assert player.tokens == ("T3", "T6") and player.medal
    assert board.key(RAILWAY[railway], specials_of(railway)[space]) in player.claimed
    assert parked(state)
    # the space never gives a token again: the track moves on, the locomotives change
    again = advance(evolve(state, agenda=(), placements=()), railway, "black")
    assert again.players[0].tokens == ("T3", "T6")


def test_ex_22_rr_13_9_sp_black_on_4_and_a_5_on_sp_give_a_token_and_its_benefit() -> None:
    """EX-22, RR-13.9: SP black on 4 and a 5 on SP give a token and its benefit."""
    start = table(4, {0: {"tracks": developed(1, st_petersburg={"black": 3}), "locomotives": {TS: (1,), SP: (5,)}}})
    state = advance(start, SP, "black")
    state = play(state, mv.ChooseToken(token="T5"))
    assert state.players[0].revalued
    assert state.players[0].tokens == ("T5",)


def test_rr_13_9_without_the_locomotive_no_token_until_one_arrives_amb_31() -> None:
    """RR-13.9: Without the locomotive no token until one arrives."""
    start = table(4, {0: {"tracks": developed(1, st_petersburg={"black": 3})}}, stacks={
        **table(4).stacks, "2": 0, "3": 0})
    state = advance(start, SP, "black")
    assert parked(state) and state.players[0].tokens == ()
    state = play(at_turn(evolve(state, agenda=(), placements=()), 0), mv.Place(space="locomotive_1", workers=1))
    state = play(state, mv.PlaceLocomotive(railway=SP, slot=0))
    assert state.players[0].locomotives[SP] == (4,)
    assert state.agenda[0].kind == "token"
    state = play(state, mv.ChooseToken(token="T5"))
    assert state.players[0].tokens == ("T5",) and parked(state)


def scoring(state: State) -> State:
    return with_steps(evolve(state, agenda=(), placements=()), Step("scoring", round=state.round))


def test_ex_21_rr_13_8_kv_black_reaching_3_with_a_3_gives_6_in_each_scoring() -> None:
    """EX-21, RR-13.8: KV black reaching 3 with a 3 gives 6 in each scoring."""
    start = table(4, {0: {"tracks": developed(1, kiev={"black": 2}), "locomotives": {TS: (1,), KV: (3,)}}})
    state = advance(start, KV, "black")
    assert parked(state)
    scored = scoring(state)
    assert sum(line.points for line in scored.lines if line.rule == "RR-13.8") == 1 + 2 + 3


def test_rr_13_7_rr_13_13_sp_grey_reaching_7_doubles_sp_from_then_on() -> None:
    """RR-13.7, RR-13.13: SP grey reaching 7 doubles SP from then on."""
    tracks = developed(2, st_petersburg={"black": 9, "grey": 6})
    claimed = (*claimed_below(2, st_petersburg=7), board.terminus_key(RAILWAY[SP]))
    start = table(4, {0: {"tracks": tracks, "locomotives": {TS: (1,), SP: (7,)}, "claimed": claimed}})
    before = [line for line in round_lines(start, 1) if line.refs.get("railway") == SP]
    assert [(line.rule, line.points) for line in before] == [("RR-14.4", 6)]
    state = advance(start, SP, "grey")
    after = [line for line in round_lines(state, 1) if line.refs.get("railway") == SP]
    assert [(line.rule, line.points) for line in after] == [("RR-14.7", 2 * 7)]
    # an ongoing benefit: checked again in every scoring phase, never used up (RR-13.13)
    twice = scoring(scoring(state))
    assert [line.points for line in twice.lines if line.rule == "RR-14.7"] == [14, 14]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([TS, SP, KV]), min_size=1, max_size=14))
def test_rr_6_7_rr_13_1_property_black_advancements_never_give_a_benefit_twice(railways: list[str]) -> None:
    """RR-6.7, RR-13.1: Black advancements on any railways, one a turn: the new colours are exactly those of the TS
    thresholds passed, each space is claimed at most once, and each terminus pays 10 VP once."""
    state = table(4, {0: {"workers": 30}})
    for railway in railways:
        if (railway, "black") not in board.advance_targets(state, state.players[0], "black"):
            continue
        state = advance(evolve(state, agenda=(), placements=()), railway, "black")
        while not parked(state):
            state = play(state, mv.Decline() if mv.Decline() in legal(state) else legal(state)[0])
    player = state.players[0]
    ts_black = player.tracks[TS]["black"]
    for special in RAILWAY[TS].specials:
        if special.benefit == "tracks":
            assert (player.tracks[TS].get(special.colour) is not None) == (ts_black >= special.space)
    assert len(player.claimed) == len(set(player.claimed))
    terminus = sum(1 for r in RAILWAY if player.tracks[r]["black"] == RAILWAY[r].spaces)
    assert immediate(state).count(("RR-13.4", 10)) == terminus


def token_mid_action(options: Any = None) -> State:
    """Seat 0 takes 3 black advancements with SP black on 3 and a #5 on SP, and sends the first to SP."""
    start = table(4, {0: {"tracks": developed(1, st_petersburg={"black": 3}), "locomotives": {TS: (1,), SP: (5,)}}},
                  options=options)
    return play(at_turn(start, 0), mv.Place(space="black_3", workers=2), mv.Advance(railway=SP, colour="black"))


def test_amb_35_rr_5_7_a_token_is_resolved_before_the_next_advancement() -> None:
    """AMB-35 (a), RR-5.7: the token space reached by the first of three advancements gives its
    token at once; the other two advancements wait, and may use what the token gave (AMB-6)."""
    state = token_mid_action()
    assert state.agenda[0].kind == "token"
    assert state.players[0].tracks[SP]["black"] == 4
    state = play(state, mv.ChooseToken(token="T3"))
    assert state.players[0].markers == (0, 0)
    assert state.agenda[0].kind == "advance"
    state = play(state, mv.Advance(railway=TS, colour="black"), mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS]["black"] == 3
    assert parked(state)


def test_amb_35_option_b_the_token_may_wait_until_later_in_the_action() -> None:
    """AMB-35 (b): with benefits "any_time" the token joins the action's remaining parts."""
    from domain.games.russian_railroads.options import RussianRailroadsOptions

    state = token_mid_action(RussianRailroadsOptions(benefits="any_time"))
    assert {m.part for m in legal(state) if isinstance(m, mv.NextPart)} == {"advance:black", "token"}
    state = play(state, mv.NextPart(part="advance:black"), mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tokens == ()
    state = play(state, mv.NextPart(part="advance:black"), mv.Advance(railway=TS, colour="black"))
    assert state.agenda[0].kind == "token"
    state = play(state, mv.ChooseToken(token="T5"))
    assert state.players[0].tokens == ("T5",) and parked(state)


STARS = {s.space: s.vp for s in RAILWAY[KV].specials if s.benefit == "star"}


@pytest.mark.parametrize("space", sorted(STARS))
@pytest.mark.parametrize("short", [False, True])
def test_rr_13_8_rr_13_1_each_kiev_star_needs_black_and_the_kv_locomotive(space: int, short: bool) -> None:
    """RR-13.8, RR-13.1: the black track reaching star `space` by a real advancement, with the KV
    locomotive reaching it too, scores every star up to it at the next scoring; a locomotive one
    short scores the stars it reaches only. Star values 4 and 8 are fill-ins, read from the set."""
    reach = space - 1 if short else space
    lines = {"kiev": {"black": space - 1, "grey": 0, "brown": 0}}
    start = table(4, {0: {"tracks": developed(2, **lines), "locomotives": {TS: (1,), KV: (reach,)} if reach else
                          {TS: (1,)}, "claimed": claimed_below(2, kiev=space)}})
    state = advance(start, KV, "black")
    assert state.players[0].tracks[KV]["black"] == space
    scored = scoring(state)
    stars = sum(line.points for line in scored.lines if line.rule == "RR-13.8")
    assert stars == sum(vp for s, vp in STARS.items() if s <= min(space, reach))


@pytest.mark.parametrize(("grey", "reach", "medal", "vp"), [
    (5, 5, True, 20), (4, 5, True, 0), (5, 4, True, 0), (5, 5, False, 0),
])
def test_rr_19_7_rr_14_8_kv_5_medal_needs_grey_and_locomotive(grey: int, reach: int, medal: bool, vp: int) -> None:
    """RR-19.7, RR-14.8: KV space 5 pays 20 VP a scoring only with the medal, grey on 5 and the KV
    locomotive reaching 5."""
    tracks = developed(2, kiev={"black": 8, "grey": grey})
    start = table(4, {0: {"tracks": tracks, "locomotives": {TS: (1,), KV: (reach,)}, "medal": medal}})
    scored = scoring(start)
    assert sum(line.points for line in scored.lines if line.rule == "RR-19.7") == vp
