"""The scoring phase (§14), the final scoring (§17, §21) and the sheet, on tables built directly.

The worked examples' boards are rebuilt from DATA-17 and the examples' text: Red (seat 0) has on
the Trans-Siberian brown on 3, grey on 7, black on 9, one multiplier (over space 1) and
locomotives #6 and #2; on St. Petersburg only its black track and no locomotive; on Kiev a #2 and
black on 2; its industry marker on the factory in gap 1, right after the space showing 5.
Values that are fill-ins in the default set (beige 4, white 7, revalued 3/6/10, star 4 = 4,
star 8 = 5) are read from it and said so where a test depends on them.
"""

from __future__ import annotations

from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import board
from domain.games.russian_railroads.components import default_components, load_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.scoring import (
    FINAL_BONUS,
    MAJORITY,
    card_vp,
    engineer_count,
    final_lines,
    industry_lines,
    railway_lines,
    round_lines,
    score_sheet,
    scored_spaces,
    track_vp,
)
from domain.games.russian_railroads.state import Player, State
from domain.kernel.contract import Ruleset, ScoreLine
from domain.kernel.values import evolve

from .builders import KV, SP, TS, player, table, tracks

COMPONENTS = default_components()
RED: dict[str, Any] = {
    "tracks": tracks(trans_siberian={"black": 9, "grey": 7, "brown": 3},
                     st_petersburg={"black": 1, "grey": 0, "brown": 0},
                     kiev={"black": 2, "grey": 0, "brown": 0}),
    "locomotives": {TS: (6, 2), KV: (2,)},
    "multipliers": 1,
    "factories": (3, None, None, None, None),
    "markers": (5,),
}


def red(**changes: Any) -> State:
    return table(4, {0: {**RED, **changes}})


def seat_lines(state: State, seat: int = 0, round_no: int = 1) -> list[ScoreLine]:
    return [line for line in round_lines(state, round_no) if line.seat == seat]


def one(seat_: int = 0, **changes: Any) -> State:
    """A 4-seat table where only `seat_` differs from the setup."""
    return table(4, {seat_: changes})


def railway_of(railway_id: str) -> Any:
    return COMPONENTS.railway(railway_id)


def by_railway(lines: list[ScoreLine], railway_id: str) -> list[tuple[str, int]]:
    return [(line.rule, line.points) for line in lines if line.refs.get("railway") == railway_id]


# ---- the rulebook's worked examples -----------------------------------------------------------


def test_ex_23_rr_14_4_virtual_tracks_take_the_colour_of_the_marker_ahead() -> None:
    state = red(locomotives={TS: (6, 3), KV: (2,)})
    spaces = scored_spaces(state, state.players[0], railway_of(TS))
    assert [s.colour for s in spaces] == ["brown"] * 3 + ["grey"] * 4 + ["black"] * 2


def test_ex_24_rr_14_6_trans_siberian_scores_12() -> None:
    lines = railway_lines(red(), 0, 3)
    ts = [line for line in lines if line.refs["railway"] == TS]
    assert [(line.rule, line.points) for line in ts] == [("RR-14.6", 12)]
    assert ts[0].detail == ("round 3: Trans-Siberian spaces 1-8: brown 4+2+2, grey 1+1+1+1 "
                            "(multiplier over space 1)")
    assert ts[0].refs == {"round": 3, "railway": TS}
    assert ts[0].category == "railway"


def test_ex_25_st_petersburg_without_locomotive_gives_no_line() -> None:
    assert by_railway(railway_lines(red(), 0, 1), SP) == []
    assert track_vp(red(), red().players[0], railway_of(SP)) == 0


def test_ex_26_rr_13_8_kiev_stars_1_and_2_and_no_black_vp() -> None:
    lines = railway_lines(red(), 0, 3)
    assert by_railway(lines, KV) == [("RR-13.8", 3)]
    star = next(line for line in lines if line.rule == "RR-13.8")
    assert star.detail == "round 3: Kiev stars on space 1, 2: 1+2"
    assert star.refs == {"round": 3, "railway": KV, "spaces": [1, 2]}


def test_ex_27_rr_14_9_marker_on_a_factory_scores_the_5_before() -> None:
    lines = industry_lines(red(), 0, 3)
    assert [(line.rule, line.points, line.category) for line in lines] == [("RR-14.9", 5, "industry")]
    assert lines[0].detail == ("round 3: industry marker 1 on the factory in gap 1, which shows no VP: "
                               "5 from the nearest earlier space")
    assert lines[0].refs == {"round": 3, "marker": 0, "place": 5}


def test_ex_28_rr_14_2_round_total_is_20_in_order_ts_sp_kv_industry() -> None:
    lines = seat_lines(red(), 0, 3)
    assert [(line.rule, line.points) for line in lines] == [("RR-14.6", 12), ("RR-13.8", 3), ("RR-14.9", 5)]
    assert sum(line.points for line in lines) == 20
    assert [line.seat for line in round_lines(red(), 3)] == [0, 0, 0]


def test_ex_21_rr_13_8_three_stars_give_6_in_every_later_scoring_phase() -> None:
    state = one(tracks=tracks(kiev={"black": 3, "grey": 0}), locomotives={TS: (1,), KV: (3,)})
    for round_no in (2, 3, 4):
        assert [(line.rule, line.points) for line in railway_lines(state, 0, round_no)] == [("RR-13.8", 6)]


def test_ex_29_summary_card_track_8_and_bonus_3() -> None:
    state = one(tracks=tracks(st_petersburg={"black": 6, "grey": 5, "brown": 3},
                              kiev={"black": 2, "grey": 0, "brown": 0}),
                locomotives={TS: (1,), SP: (5,), KV: (2,)})
    lines = railway_lines(state, 0, 1)
    assert by_railway(lines, SP) == [("RR-14.4", 8)]
    assert by_railway(lines, KV) == [("RR-13.8", 3)]
    sp = next(line for line in lines if line.refs["railway"] == SP)
    assert sp.detail == "round 1: St. Petersburg spaces 1-5: brown 2+2+2, grey 1+1"


def test_ex_30_rr_17_4_three_engineers_first_higher_value_wins_second() -> None:
    state = table(4, {0: {"engineers": ("E1", "E2", "E3")},   # Red, 3 engineers
                      1: {"engineers": ("E4", "E5")},          # Blue, highest 9
                      2: {"engineers": ("E6", "E15")},         # Yellow, highest 15
                      3: {}})                                  # Green, none
    lines = final_lines(state)
    assert [(line.seat, line.points, line.rule) for line in lines] == [(0, 40, "RR-17.4"), (2, 20, "RR-17.4")]
    assert lines[1].detail == "engineer majority: 2 engineer(s), highest value 15: second"
    assert lines[1].refs == {"place": 2, "count": 2, "highest": 15}
    assert {line.category for line in lines} == {MAJORITY}


# ---- each railway rule ------------------------------------------------------------------------


def test_rr_14_3_no_locomotive_no_track_vp_even_with_tracks() -> None:
    state = one(tracks=tracks(st_petersburg={"black": 8, "grey": 7, "brown": 5, "beige": 3}))
    assert by_railway(railway_lines(state, 0, 1), SP) == []


def test_rr_14_3_only_spaces_within_reach_score() -> None:
    layout = tracks(kiev={"black": 6, "grey": 5, "brown": 3})
    assert [track_vp(s, s.players[0], railway_of(KV)) for s in
            (one(tracks=layout, locomotives={KV: (value,)}) for value in (1, 2, 3, 4, 5, 6, 9))] == \
        [2, 4, 6, 7, 8, 8, 8]


def test_rr_14_3_rr_0_6_trans_siberian_reach_is_the_sum_capped_by_its_length() -> None:
    layout = tracks(trans_siberian={"black": 15, "grey": 14, "brown": 13, "beige": 12, "white": 11})
    state = one(tracks=layout, locomotives={TS: (9, 9)})
    spaces = scored_spaces(state, state.players[0], railway_of(TS))
    assert len(spaces) == 15
    # 11 white at 7, beige 4, brown 2, grey 1, black 0 (beige and white are the set's fill-ins)
    assert track_vp(state, state.players[0], railway_of(TS)) == 11 * 7 + 4 + 2 + 1
    shorter = one(tracks=layout, locomotives={TS: (9, 4)})
    assert track_vp(shorter, shorter.players[0], railway_of(TS)) == 11 * 7 + 4 + 2


def test_rr_14_4_spaces_with_no_marker_ahead_score_nothing() -> None:
    state = one(tracks=tracks(kiev={"black": 3, "grey": 2}), locomotives={TS: (1,), KV: (5,)})
    spaces = scored_spaces(state, state.players[0], railway_of(KV))
    assert [(s.colour, s.vp) for s in spaces] == [("grey", 1), ("grey", 1), ("black", 0), (None, 0), (None, 0)]


def test_rr_14_5_rr_14_10_each_colour_scores_its_value_and_black_none() -> None:
    layout = tracks(trans_siberian={"black": 5, "grey": 4, "brown": 3, "beige": 2, "white": 1})
    state = one(tracks=layout, locomotives={TS: (5,)})
    spaces = scored_spaces(state, state.players[0], railway_of(TS))
    assert [s.vp for s in spaces] == [7, 4, 2, 1, 0]
    assert [(c.id, c.vp) for c in COMPONENTS.colours] == [("black", 0), ("grey", 1), ("brown", 2),
                                                          ("beige", 4), ("white", 7)]


def test_rr_14_6_multipliers_double_only_spaces_within_reach() -> None:
    layout = tracks(trans_siberian={"black": 9, "grey": 8})
    state = one(tracks=layout, locomotives={TS: (3,)}, multipliers=8)
    lines = railway_lines(state, 0, 1)
    assert by_railway(lines, TS) == [("RR-14.6", 6)]
    assert lines[0].detail == "round 1: Trans-Siberian spaces 1-3: grey 2+2+2 (multiplier over space 1, 2, 3)"


def test_rr_14_6_a_multiplier_over_a_black_space_changes_nothing() -> None:
    state = one(tracks=tracks(trans_siberian={"black": 3, "grey": 2}), locomotives={TS: (4,)}, multipliers=4)
    assert by_railway(railway_lines(state, 0, 1), TS) == [("RR-14.6", 4)]
    only_black = one(tracks=tracks(trans_siberian={"black": 4, "grey": 0}), locomotives={TS: (4,)}, multipliers=4)
    assert by_railway(railway_lines(only_black, 0, 1), TS) == []


def test_rr_14_6_multipliers_are_on_the_trans_siberian_only() -> None:
    state = one(tracks=tracks(kiev={"black": 3, "grey": 2}), locomotives={TS: (1,), KV: (2,)}, multipliers=8)
    assert track_vp(state, state.players[0], railway_of(KV)) == 2


def test_rr_14_7_rr_13_7_st_petersburg_doubles_when_grey_and_locomotive_reach_7() -> None:
    layout = tracks(st_petersburg={"black": 8, "grey": 7, "brown": 2})
    state = one(tracks=layout, locomotives={TS: (1,), SP: (7,)})
    lines = railway_lines(state, 0, 2)
    assert by_railway(lines, SP) == [("RR-14.7", 18)]  # brown 2+2, grey 1 x 5 = 9, doubled
    assert track_vp(state, state.players[0], railway_of(SP)) == 18
    assert lines[0].detail == "round 2: St. Petersburg spaces 1-7: brown 2+2, grey 1+1+1+1+1 = 9, doubled to 18"


def test_rr_14_7_no_doubling_when_the_locomotive_falls_short() -> None:
    state = one(tracks=tracks(st_petersburg={"black": 8, "grey": 7, "brown": 2}), locomotives={TS: (1,), SP: (6,)})
    assert by_railway(railway_lines(state, 0, 2), SP) == [("RR-14.4", 8)]


def test_rr_14_7_no_doubling_when_grey_falls_short() -> None:
    state = one(tracks=tracks(st_petersburg={"black": 8, "grey": 6, "brown": 2}), locomotives={TS: (1,), SP: (9,)})
    assert by_railway(railway_lines(state, 0, 2), SP) == [("RR-14.4", 8)]


def test_rr_19_6_revaluation_raises_brown_beige_and_white() -> None:
    layout = tracks(trans_siberian={"black": 5, "grey": 4, "brown": 3, "beige": 2, "white": 1})
    plain = one(tracks=layout, locomotives={TS: (5,)})
    revalued = one(tracks=layout, locomotives={TS: (5,)}, revalued=True)
    # the set's fill-ins: brown 2 -> 3, beige 4 -> 6, white 7 -> 10; grey stays 1
    assert by_railway(railway_lines(plain, 0, 1), TS) == [("RR-14.4", 14)]
    lines = railway_lines(revalued, 0, 1)
    assert by_railway(lines, TS) == [("RR-14.4", 20)]
    assert lines[0].detail.endswith("(revalued)")


def test_rr_19_6_rr_14_7_revalued_and_doubled_st_petersburg() -> None:
    state = one(tracks=tracks(st_petersburg={"black": 9, "grey": 8, "brown": 4, "beige": 2}),
                locomotives={TS: (1,), SP: (9,)}, revalued=True)
    # spaces 1-2 beige 6, 3-4 brown 3, 5-8 grey 1, 9 black: 12 + 6 + 4 = 22, doubled
    assert by_railway(railway_lines(state, 0, 1), SP) == [("RR-14.7", 44)]


def test_rr_19_7_rr_14_8_kiev_medal_gives_20_while_grey_and_locomotive_reach_5() -> None:
    layout = tracks(kiev={"black": 6, "grey": 5})
    state = one(tracks=layout, locomotives={TS: (1,), KV: (5,)}, medal=True)
    lines = railway_lines(state, 0, 4)
    assert by_railway(lines, KV) == [("RR-14.4", 5), ("RR-13.8", 10), ("RR-19.7", 20)]
    assert lines[-1].detail == "round 4: Kiev medal under Kiev space 5"
    assert lines[-1].refs == {"round": 4, "railway": KV, "space": 5}


def test_rr_19_7_no_medal_line_without_the_token_or_the_reach() -> None:
    no_token = one(tracks=tracks(kiev={"black": 6, "grey": 5}), locomotives={TS: (1,), KV: (5,)})
    short_grey = one(tracks=tracks(kiev={"black": 6, "grey": 4}), locomotives={TS: (1,), KV: (5,)}, medal=True)
    short_loco = one(tracks=tracks(kiev={"black": 6, "grey": 5}), locomotives={TS: (1,), KV: (4,)}, medal=True)
    for state in (no_token, short_grey, short_loco):
        assert "RR-19.7" not in [line.rule for line in railway_lines(state, 0, 1)]


def test_rr_13_8_stars_4_and_8_with_the_fill_in_values() -> None:
    state = one(tracks=tracks(kiev={"black": 8, "grey": 0}), locomotives={TS: (1,), KV: (8,)})
    star = next(line for line in railway_lines(state, 0, 1) if line.rule == "RR-13.8")
    # stars 1, 2, 3 (rulebook) + 4 (fill-in 4) + 8 (fill-in 5)
    assert star.points == 15
    assert star.refs["spaces"] == [1, 2, 3, 4, 8]
    four = one(tracks=tracks(kiev={"black": 7, "grey": 0}), locomotives={TS: (1,), KV: (9,)})
    assert [line.points for line in railway_lines(four, 0, 1) if line.rule == "RR-13.8"] == [10]


def test_rr_13_8_stars_need_the_locomotive_too() -> None:
    state = one(tracks=tracks(kiev={"black": 8, "grey": 0}), locomotives={TS: (1,), KV: (2,)})
    assert [line.points for line in railway_lines(state, 0, 1)] == [3]
    no_loco = one(tracks=tracks(kiev={"black": 8, "grey": 0}))
    assert railway_lines(no_loco, 0, 1) == []


def test_rr_13_8_star_values_come_from_the_component_set() -> None:
    data = COMPONENTS.model_dump(mode="json")
    kiev = next(r for r in data["railways"] if r["id"] == KV)
    next(s for s in kiev["specials"] if s["space"] == 8)["vp"] = 8
    components = load_components(data)
    state = table(4, {0: {"tracks": tracks(kiev={"black": 8, "grey": 0}), "locomotives": {TS: (1,), KV: (8,)}}},
                  components=components)
    assert [line.points for line in railway_lines(state, 0, 1)] == [1 + 2 + 3 + 4 + 8]


# ---- industry ---------------------------------------------------------------------------------


def test_rr_14_9_marker_on_the_start_scores_nothing() -> None:
    assert industry_lines(table(4), 0, 1) == []
    assert round_lines(table(4), 1) == ()


def test_rr_14_9_marker_on_a_printed_space() -> None:
    lines = industry_lines(one(factories=(2, None, None, None, None), markers=(6,)), 0, 2)
    assert [(line.points, line.detail) for line in lines] == [
        (10, "round 2: industry marker 1 on the space showing 10")]


def test_rr_14_9_token_space_scores_the_space_before() -> None:
    lines = industry_lines(one(factories=(2, 3, 4, None, None), markers=(10,)), 0, 1)
    assert [line.points for line in lines] == [15]
    assert "the token space" in lines[0].detail


def test_rr_14_9_rr_19_4_both_markers_score() -> None:
    state = one(factories=(2, 3, 4, 5, 6), markers=(15, 4))
    lines = industry_lines(state, 0, 5)
    assert [(line.points, line.refs["marker"]) for line in lines] == [(30, 0), (5, 1)]


def test_rr_14_9_amb_13_the_other_reading_moves_the_first_gap_one_place_earlier() -> None:
    state = table(4, {0: {"factories": (2, None, None, None, None), "markers": (4,)}},
                  options=RussianRailroadsOptions(industry_first_gap="after_start_and_three"))
    assert [line.points for line in industry_lines(state, 0, 1)] == [3]
    assert [line.points for line in industry_lines(evolve(state, players=(
        evolve(state.players[0], markers=(5,)), *state.players[1:])), 0, 1)] == [5]


# ---- final bonus cards ------------------------------------------------------------------------


def cards(seat_changes: dict[str, Any]) -> list[tuple[str, int]]:
    lines = [line for line in final_lines(table(4, {0: seat_changes})) if line.category == FINAL_BONUS]
    return [(line.rule, line.points) for line in lines]


def test_rr_21_4_b1_15_vp() -> None:
    assert cards({"bonus_cards": ("B1",)}) == [("RR-21.4", 15)]


def test_rr_21_5_amb_21_b2_counts_black_tracks_on_the_last_space() -> None:
    two = tracks(trans_siberian={"black": 15}, st_petersburg={"black": 8}, kiev={"black": 9})
    assert cards({"bonus_cards": ("B2",), "tracks": two}) == [("RR-21.5", 20)]
    three = tracks(trans_siberian={"black": 15}, st_petersburg={"black": 9}, kiev={"black": 9})
    assert cards({"bonus_cards": ("B2",), "tracks": three}) == [("RR-21.5", 30)]
    assert cards({"bonus_cards": ("B2",)}) == [("RR-21.5", 0)]


def test_rr_21_5_b2_cap_30_with_a_longer_set() -> None:
    state = table(4, {0: {"bonus_cards": ("B2",)}})
    card = COMPONENTS.bonus_card("B2").model_copy(update={"vp": 20})
    everything = evolve(state.players[0], tracks=tracks(trans_siberian={"black": 15}, st_petersburg={"black": 9}))
    assert card_vp(state, everything, card) == 30


def test_rr_21_6_b3_4_per_factory_up_to_20() -> None:
    assert cards({"bonus_cards": ("B3",), "factories": (2, 3, 4, None, None)}) == [("RR-21.6", 12)]
    assert cards({"bonus_cards": ("B3",), "factories": (2, 3, 4, 5, 6)}) == [("RR-21.6", 20)]


def test_rr_21_7_b4_extra_workers_and_the_black_worker_up_to_30() -> None:
    assert cards({"bonus_cards": ("B4",), "gained_workers": 1}) == [("RR-21.7", 10)]
    assert cards({"bonus_cards": ("B4",), "gained_workers": 1, "black_worker": True}) == [("RR-21.7", 20)]
    assert cards({"bonus_cards": ("B4",), "gained_workers": 2, "black_worker": True}) == [("RR-21.7", 30)]
    assert cards({"bonus_cards": ("B4",), "temporary": 2}) == [("RR-21.7", 0)]
    capped = final_lines(table(4, {0: {"bonus_cards": ("B4",), "gained_workers": 4}}))
    assert [(line.points, line.detail) for line in capped] == [
        (30, "final bonus card B4 (10 VP per extra worker): 4 extra worker(s): 30 VP (40, capped at 30)")]


def test_rr_21_8_b5_sum_of_the_black_positions() -> None:
    layout = tracks(trans_siberian={"black": 9}, st_petersburg={"black": 1}, kiev={"black": 2})
    assert cards({"bonus_cards": ("B5",), "tracks": layout}) == [("RR-21.8", 12)]


def test_rr_21_9_b6_20_for_4_to_6_multipliers_30_for_7_or_8() -> None:
    assert [cards({"bonus_cards": ("B6",), "multipliers": n})[0][1] for n in range(9)] == \
        [0, 0, 0, 0, 20, 20, 20, 30, 30]


def test_rr_21_10_b7_0_vp_and_one_more_engineer() -> None:
    assert cards({"bonus_cards": ("B7",)}) == [("RR-21.10", 0)]
    state = table(4, {0: {"bonus_cards": ("B7",), "engineers": ("E1",)}})
    assert engineer_count(state, state.players[0]) == 2


def test_rr_21_11_amb_23_b8_6_per_engineer_the_c3_engineer_included() -> None:
    assert cards({"bonus_cards": ("B8",), "engineers": ("E1", "E6", "E9")}) == [("RR-21.11", 18)]
    assert cards({"bonus_cards": ("B8", "B7"), "engineers": ("E1",)}) == [("RR-21.11", 6), ("RR-21.10", 0)]


def test_rr_21_12_b9_sum_of_the_locomotives_on_the_railways() -> None:
    assert cards({"bonus_cards": ("B9",), "locomotives": {TS: (6, 2), SP: (4,), KV: (9,)}}) == [("RR-21.12", 21)]


def test_rr_21_13_b10_7_per_token_up_to_28() -> None:
    assert cards({"bonus_cards": ("B10",), "tokens": ("T1", "T4", "T6")}) == [("RR-21.13", 21)]
    assert cards({"bonus_cards": ("B10",), "tokens": ("T1", "T2", "T4", "T6")}) == [("RR-21.13", 28)]
    assert cards({"bonus_cards": ("B10",), "tokens": ("T1", "T2", "T3", "T4", "T6")}) == [("RR-21.13", 28)]


def test_rr_17_2_several_cards_score_in_the_order_taken_and_none_gives_no_line() -> None:
    state = table(4, {0: {"bonus_cards": ("B5", "B1")}, 1: {"bonus_cards": ("B6",), "multipliers": 7}})
    assert [(line.seat, line.rule, line.points) for line in final_lines(state)] == [
        (0, "RR-21.8", 3), (0, "RR-21.4", 15), (1, "RR-21.9", 30)]
    assert final_lines(table(4)) == ()


# ---- the engineer majority --------------------------------------------------------------------


def majority(players: dict[int, dict[str, Any]], **kw: Any) -> list[tuple[int, int]]:
    return [(line.seat, line.points) for line in final_lines(table(4, players, **kw)) if line.rule == "RR-17.4"]


def test_rr_17_4_a_lone_engineer_owner_gains_only_the_first_prize() -> None:
    assert majority({2: {"engineers": ("E14",)}}) == [(2, 40)]


def test_rr_17_4_tie_for_most_goes_to_the_highest_engineer_the_other_is_second() -> None:
    assert majority({0: {"engineers": ("E1", "E4")}, 1: {"engineers": ("E14", "E15")}, 2: {"engineers": ("E9",)}}) \
        == [(1, 40), (0, 20)]


def test_rr_17_3_amb_24_b7_alone_makes_a_seat_eligible_but_it_loses_ties() -> None:
    assert majority({0: {"bonus_cards": ("B7",)}, 1: {"engineers": ("E14",)}}) == [(1, 40), (0, 20)]
    assert majority({0: {"bonus_cards": ("B7",)}}) == [(0, 40)]


def test_rr_17_3_amb_24_b7_adds_to_the_count() -> None:
    assert majority({0: {"bonus_cards": ("B7",), "engineers": ("E14",)}, 1: {"engineers": ("E15",)}}) == \
        [(0, 40), (1, 20)]
    assert majority({0: {"bonus_cards": ("B7",), "engineers": ("E14",)}, 1: {"engineers": ("E1", "E4")}}) == \
        [(1, 40), (0, 20)]


def test_rr_17_4_complete_tie_shares_the_place_and_uses_it_up() -> None:
    data = COMPONENTS.model_dump(mode="json")
    next(e for e in data["engineers"] if e["id"] == "E2")["value"] = 3  # E1 is 3 too
    components = load_components(data)
    first = {0: {"engineers": ("E1",)}, 1: {"engineers": ("E2",)}, 2: {"engineers": ("E14",)}}
    assert majority(first, components=components) == [(0, 40), (1, 40)]
    second: dict[int, dict[str, Any]] = {0: {"engineers": ("E1",)}, 1: {"engineers": ("E2",)},
                                         3: {"engineers": ("E14", "E4")}}
    lines = [line for line in final_lines(table(4, second, components=components)) if line.rule == "RR-17.4"]
    assert [(line.seat, line.points) for line in lines] == [(3, 40), (0, 20), (1, 20)]
    assert lines[1].detail.endswith("(tied, shared)")


def test_rr_17_4_no_engineers_no_majority_lines() -> None:
    assert majority({}) == []


def test_rr_17_1_final_scoring_is_cards_then_majority() -> None:
    state = table(4, {0: {"bonus_cards": ("B8",), "engineers": ("E1",)}, 1: {"bonus_cards": ("B1",)}})
    assert [(line.seat, line.rule) for line in final_lines(state)] == [
        (0, "RR-21.11"), (1, "RR-21.4"), (0, "RR-17.4")]


# ---- the sheet and the result -----------------------------------------------------------------


def test_rr_17_5_sheet_is_the_lines_and_tied_totals_share_the_victory() -> None:
    state = table(3, {0: RED, 1: {"bonus_cards": ("B1",), "multipliers": 4},
                      2: {"bonus_cards": ("B6",), "multipliers": 4}})
    lines = (*round_lines(state, 1), *final_lines(state))
    state = evolve(state, lines=lines)
    sheet = score_sheet(state)
    assert sheet.lines == lines
    assert sheet.totals() == (20, 15, 20)
    result = Ruleset.result(cast(Any, None), state, sheet)  # the kernel default, which RR-17.5 needs
    assert result.ranks == (1, 3, 1)
    assert result.winners() == (0, 2)


# ---- properties -------------------------------------------------------------------------------


@st.composite
def players(draw: st.DrawFn) -> Player:
    """A legal player board: on each railway black on 1..L, every later colour strictly behind the
    one before it or off the railway (0, and then all colours after it too, RR-6.4, RR-6.5)."""
    layout: dict[str, dict[str, int]] = {}
    locomotives: dict[str, tuple[int, ...]] = {}
    for railway in COMPONENTS.railways:
        owned = draw(st.integers(1, len(railway.colours)))
        positions = {"black": draw(st.integers(1, railway.spaces))}
        previous = positions["black"]
        for colour in railway.colours[1:owned]:
            previous = draw(st.integers(0, previous - 1)) if previous > 0 else 0
            positions[colour] = previous
        layout[railway.id] = positions
        slots = draw(st.lists(st.integers(1, 9), min_size=0, max_size=railway.locomotive_slots))
        if slots:
            locomotives[railway.id] = tuple(slots)
    return player(
        tracks=layout, locomotives=locomotives,
        multipliers=draw(st.integers(0, 8)), revalued=draw(st.booleans()), medal=draw(st.booleans()),
        factories=(2, 3, 4, 5, 6), markers=(draw(st.integers(0, 15)),),
        engineers=tuple(draw(st.lists(st.sampled_from([e.id for e in COMPONENTS.engineers]),
                                      max_size=3, unique=True))),
        bonus_cards=tuple(draw(st.lists(st.sampled_from([c.id for c in COMPONENTS.final_bonus_cards]),
                                        max_size=2, unique=True))),
        tokens=tuple(draw(st.lists(st.sampled_from(["T1", "T2", "T4", "T5", "T6"]), max_size=4, unique=True))),
    )


def seat_total(state: State, seat: int = 0) -> int:
    return sum(line.points for line in railway_lines(state, seat, 1))


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(players(), st.data())
def test_rr_14_4_rr_6_4_a_legal_track_advance_never_lowers_the_railway_vp(seat: Player, data: st.DataObject) -> None:
    state = table(2, {0: {}})
    state = evolve(state, players=(seat, state.players[1]))
    movable = [(r, c) for r in COMPONENTS.railways for c in seat.tracks[r.id]
               if board.can_advance(state, seat, r, c) is None]
    if not movable:
        return
    railway, colour = data.draw(st.sampled_from(movable))
    moved_tracks = {**seat.tracks, railway.id: {**seat.tracks[railway.id], colour: seat.tracks[railway.id][colour] + 1}}
    after = evolve(state, players=(evolve(seat, tracks=moved_tracks), state.players[1]))
    assert track_vp(after, after.players[0], railway) >= track_vp(state, seat, railway)
    assert seat_total(after) >= seat_total(state)


def reference_round(state: State, seat: int) -> int:
    """RR-14.11 written out on its own: the formula, not the module's code."""
    p = state.players[seat]
    total = 0
    for railway in COMPONENTS.railways:
        positions = p.tracks.get(railway.id, {})
        railway_vp = 0
        for s in range(1, min(sum(p.locomotives.get(railway.id, ())), railway.spaces) + 1):
            ahead = [(pos, c) for c, pos in positions.items() if pos >= s]
            if not ahead:
                continue
            colour = min(ahead)[1]
            value = {"black": 0, "grey": 1, "brown": 3 if p.revalued else 2, "beige": 6 if p.revalued else 4,
                     "white": 10 if p.revalued else 7}[colour]
            railway_vp += value * (2 if railway.id == TS and s <= p.multipliers else 1)
        reach = sum(p.locomotives.get(railway.id, ()))
        if railway.id == SP and positions.get("grey", 0) >= 7 and reach >= 7:
            railway_vp *= 2
        if railway.id == KV:
            black = positions["black"]
            railway_vp += sum(vp for space, vp in ((1, 1), (2, 2), (3, 3), (4, 4), (8, 5))
                              if black >= space and reach >= space)
            if p.medal and positions.get("grey", 0) >= 5 and reach >= 5:
                railway_vp += 20
        total += railway_vp
    values = [0, 1, 2, 3, 5, 5, 10, 10, 15, 15, 15, 15, 20, 20, 25, 30]
    return total + sum(values[m] for m in p.markers)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(players(), players())
def test_rr_14_11_rr_17_1_lines_match_the_formula_and_the_sheet_totals(first: Player, second: Player) -> None:
    state = evolve(table(2), players=(first, second))
    phase = round_lines(state, 1)
    assert all(line.points > 0 and line.refs["round"] == 1 for line in phase)
    for seat in (0, 1):
        assert sum(line.points for line in phase if line.seat == seat) == reference_round(state, seat)
    final = final_lines(state)
    assert len([line for line in final if line.category == FINAL_BONUS]) == len(first.bonus_cards) + len(
        second.bonus_cards)
    state = evolve(state, lines=(*phase, *phase, *final))
    sheet = score_sheet(state)
    for seat in (0, 1):
        assert sheet.totals()[seat] == 2 * reference_round(state, seat) + sum(
            line.points for line in final if line.seat == seat)
