"""Industrialisation (§9, RR-13.10, EX-11 to EX-13): the three industry spaces, the gaps and the
factories that fill them, the last space, two markers, factory benefits and lost advancements.

The lane is the default set's (DATA-6 hint): start 0; 1, 2, 3, 5; gap 1; 10; gap 2; 15; gap 3;
the token space; gap 4; 20; gap 5; 25; 30. Indexes below are places on that lane, read from the
component set. Which factory carries which benefit is a fill-in (DATA-8), so factories are looked
up by their effect.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import TS, table
from .play_turn import at_turn, immediate, legal, parked, place, places, play, refused, with_steps

COMPONENTS = default_components()
LANE = COMPONENTS.industry
GAPS = [i for i, place_ in enumerate(LANE) if place_.kind == "gap"]
TOKEN_SPACE = next(i for i, place_ in enumerate(LANE) if place_.token)
LAST = len(LANE) - 1


def factory_with(kind: str) -> int:
    """The locomotive value of the factory whose benefit is `kind` (DATA-8 is a fill-in)."""
    return next(f.locomotive for f in COMPONENTS.factories if any(e.kind == kind for e in f.effects))


RUBLE = factory_with("rubles")
TWO_ANY = factory_with("advance")
TWO_MULTIPLIERS = factory_with("multiplier")


def factories(*filled: int, value: int = RUBLE) -> tuple[int | None, ...]:
    """Factory spaces 1..5 with `value` in the ones numbered in `filled`."""
    return tuple(value if n in filled else None for n in range(1, 6))


def seat0(**changes: Any) -> Any:
    return table(4, {0: changes})


def test_rr_9_2_amb_13_the_default_lane_has_four_spaces_then_five_gaps() -> None:
    """RR-9.2, AMB-13: The default lane has four spaces then five gaps."""
    assert [p.vp for p in LANE[:5]] == [0, 1, 2, 3, 5]
    assert GAPS == [5, 7, 9, 11, 13]
    assert TOKEN_SPACE == 10 and LANE[TOKEN_SPACE].vp is None


def test_ex_11_rr_9_1_top_industry_space_one_worker_one_advancement() -> None:
    """EX-11, RR-9.1: Top industry space one worker one advancement."""
    state = place(table(4), 0, "industry_1", 1)
    assert state.players[0].markers == (1,)
    assert state.players[0].workers == 4
    assert parked(state)


def test_rr_9_1_middle_industry_space_two_workers_two_advancements() -> None:
    """RR-9.1: Middle industry space two workers two advancements."""
    state = place(table(4), 0, "industry_2", 2)
    assert state.players[0].markers == (2,)
    assert state.players[0].workers == 3


def test_rr_9_1_bottom_industry_space_one_industry_and_one_black() -> None:
    """RR-9.1: Bottom industry space one industry and one black."""
    state = play(at_turn(table(4), 0), mv.Place(space="industry_black", workers=2), mv.NextPart(part="industry"),
                 mv.Advance(railway=TS, colour="black"))
    player = state.players[0]
    assert player.markers == (1,)
    assert player.tracks[TS]["black"] == 2
    assert player.tracks[TS]["grey"] == 0  # RR-6.7: TS black on 2 gives grey
    assert player.workers == 3
    assert parked(state)


def test_rr_9_3_rr_9_7_an_empty_gap_stops_the_marker_and_the_board_space_is_refused() -> None:
    """RR-9.3, RR-9.7: An empty gap stops the marker and the board space is refused."""
    state = at_turn(seat0(markers=(4,)), 0)
    assert "industry_1" not in places(state)
    assert "industry_2" not in places(state)
    refused(state, mv.Place(space="industry_1", workers=1), "RR-5.5")
    # RR-9.7: the black half could be done, the industry half not: the whole space is unavailable.
    refused(state, mv.Place(space="industry_black", workers=2), "RR-5.5")


def test_rr_9_7_rr_5_5_two_advancements_with_room_for_one_is_refused() -> None:
    """RR-9.7, RR-5.5: Two advancements with room for one is refused."""
    state = at_turn(seat0(markers=(3,)), 0)
    assert "industry_1" in places(state)
    refused(state, mv.Place(space="industry_2", workers=2), "RR-5.5")


def test_amb_13_reading_a_puts_the_first_gap_one_place_earlier() -> None:
    """AMB-13: Reading a puts the first gap one place earlier."""
    options = RussianRailroadsOptions(industry_first_gap="after_start_and_three")
    state = at_turn(table(4, {0: {"markers": (3,)}}, options=options), 0)
    assert "industry_1" not in places(state)
    refused(state, mv.Place(space="industry_1", workers=1), "RR-5.5")
    # and with a factory in gap 1 the marker steps onto it (place 4 under reading a)
    filled = at_turn(table(4, {0: {"markers": (3,), "factories": factories(1)}}, options=options), 0)
    after = place(filled.with_agenda(()), 0, "industry_1", 1)
    assert after.players[0].markers == (4,)
    assert after.players[0].rubles == 1 + 1  # entered the factory: its 1-ruble benefit


def test_ex_12_rr_9_3_a_factory_opens_its_gap_and_the_space_after_it() -> None:
    """EX-12, RR-9.3: A factory opens its gap and the space after it."""
    state = place(seat0(markers=(4,), factories=factories(1)), 0, "industry_2", 2)
    assert state.players[0].markers == (GAPS[0] + 1,)
    assert LANE[state.players[0].markers[0]].vp == 10
    # the next gap is empty: no further
    assert "industry_1" not in places(at_turn(state.with_agenda(()), 0))


def test_ex_13_rr_9_6_the_factory_benefit_comes_before_the_second_advancement() -> None:
    """EX-13, RR-9.6: The factory benefit comes before the second advancement."""
    start = seat0(markers=(4,), factories=factories(1, value=TWO_ANY))
    state = play(at_turn(start, 0), mv.Place(space="industry_2", workers=2))
    # the first advancement entered the factory; its 2 track advancements are asked for now,
    # while the marker still stands on the factory (the second industry advancement waits)
    assert state.players[0].markers == (GAPS[0],)
    assert state.agenda[0].kind == "advance"
    state = play(state, mv.Advance(railway=TS, colour="black"), mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS]["black"] == 3
    assert state.players[0].markers == (GAPS[0] + 1,)
    assert parked(state)


def test_amb_35_reading_b_the_benefit_joins_the_parts_still_to_do() -> None:
    """AMB-35: Reading b the benefit joins the parts still to do."""
    options = RussianRailroadsOptions(benefits="any_time")
    start = table(4, {0: {"markers": (4,), "factories": factories(1, value=TWO_ANY)}}, options=options)
    state = play(at_turn(start, 0), mv.Place(space="industry_2", workers=2))
    assert {m.part for m in legal(state) if isinstance(m, mv.NextPart)} == {"industry", "advance:any"}
    state = play(state, mv.NextPart(part="industry"))  # the second industry advancement first
    assert state.players[0].markers == (GAPS[0] + 1,)
    state = play(state, mv.Advance(railway=TS, colour="black"), mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS]["black"] == 3
    assert parked(state)


def test_rr_9_6_amb_14_a_benefit_usable_in_part_is_done_in_part_and_the_action_stays_legal() -> None:
    """RR-9.6, AMB-14: A benefit usable in part is done in part and the action stays legal."""
    start = seat0(markers=(4,), factories=factories(1, value=TWO_MULTIPLIERS), multipliers=7)
    state = place(start, 0, "industry_1", 1)
    assert state.players[0].markers == (GAPS[0],)
    assert state.players[0].multipliers == 8  # one placed, the second lost
    assert state.multipliers_left == 19


def test_rr_9_6_amb_14_an_unusable_benefit_is_lost_not_a_reason_to_refuse() -> None:
    """RR-9.6, AMB-14: An unusable benefit is lost not a reason to refuse."""
    start = seat0(markers=(4,), factories=factories(1, value=TWO_MULTIPLIERS), multipliers=8)
    assert "industry_1" in places(at_turn(start, 0))
    state = place(start, 0, "industry_1", 1)
    assert state.players[0].markers == (GAPS[0],)
    assert state.players[0].multipliers == 8
    assert parked(state)


def test_rr_9_4_the_last_space_needs_all_five_factories() -> None:
    """RR-9.4: The last space needs all five factories."""
    four = seat0(markers=(GAPS[4] - 1,), factories=factories(1, 2, 3, 4))
    assert "industry_1" not in places(at_turn(four, 0))
    five = place(seat0(markers=(GAPS[4] - 1,), factories=factories(1, 2, 3, 4, 5)), 0, "industry_2", 2)
    assert five.players[0].markers == (GAPS[4] + 1,)
    assert five.players[0].rubles == 1 + 1  # entered factory 5 on the way
    last = place(evolve(five, agenda=(), placements=()), 0, "industry_1", 1)
    assert last.players[0].markers == (LAST,)
    assert LANE[LAST].vp == 30


def test_rr_9_7_the_end_of_the_track_stops_the_marker() -> None:
    """RR-9.7: The end of the track stops the marker."""
    state = at_turn(seat0(markers=(LAST,), factories=factories(1, 2, 3, 4, 5)), 0)
    assert "industry_1" not in places(state)
    refused(state, mv.Place(space="industry_1", workers=1), "RR-5.5")


def test_rr_9_5_amb_15_a_marker_never_enters_the_other_markers_space() -> None:
    """RR-9.5, AMB-15: A marker never enters the other marker's space."""
    # marker 0 on 3 is blocked by marker 1 on 4; marker 1 is blocked by the empty gap
    blocked = at_turn(seat0(markers=(3, 4)), 0)
    refused(blocked, mv.Place(space="industry_1", workers=1), "RR-5.5")
    # with gap 1 filled only marker 1 can move first; the second advancement may go to either
    state = play(at_turn(seat0(markers=(3, 4), factories=factories(1)), 0), mv.Place(space="industry_2", workers=2))
    assert state.players[0].markers == (3, GAPS[0])
    assert set(legal(state)) == {mv.MoveMarker(marker=0), mv.MoveMarker(marker=1)}
    state = play(state, mv.MoveMarker(marker=0))
    assert state.players[0].markers == (4, GAPS[0])
    assert state.players[0].rubles == 1 + 1


def test_rr_9_5_amb_15_each_advancement_moves_one_marker_one_space() -> None:
    """RR-9.5, AMB-15: Each advancement moves one marker one space."""
    state = play(at_turn(seat0(markers=(2, 0)), 0), mv.Place(space="industry_2", workers=2))
    assert set(legal(state)) == {mv.MoveMarker(marker=0), mv.MoveMarker(marker=1)}
    state = play(state, mv.MoveMarker(marker=1))
    # marker 1 is now on 1 and cannot jump marker 0 on 2: the second advancement goes to marker 0
    assert state.players[0].markers == (3, 1)
    assert parked(state)


def test_rr_13_10_rr_9_8_the_industrial_token_space_gives_a_token_once() -> None:
    """RR-13.10, RR-9.8: The industrial token space gives a token once."""
    start = seat0(markers=(TOKEN_SPACE - 2,), factories=factories(1, 2, 3))
    state = play(at_turn(start, 0), mv.Place(space="industry_2", workers=2))
    assert state.players[0].markers == (TOKEN_SPACE,)
    assert state.agenda[0].kind == "token"
    state = play(state, mv.ChooseToken(token="T5"))
    player = state.players[0]
    assert player.tokens == ("T5",) and player.revalued
    assert "industry" in player.claimed
    assert player.rubles == 1 + 1  # factory 3 on the way
    assert parked(state)


def test_rr_13_10_the_second_marker_gets_no_token_there() -> None:
    """RR-13.10: The second marker gets no token there."""
    start = seat0(markers=(GAPS[3] + 1, TOKEN_SPACE - 1), factories=factories(1, 2, 3, 4),
                  tokens=("T3",), claimed=("industry",))
    state = place(start, 0, "industry_1", 1)
    assert state.players[0].markers == (GAPS[3] + 1, TOKEN_SPACE)
    assert state.players[0].tokens == ("T3",)
    assert parked(state)


def reachable_end(filled: set[int]) -> int:
    """The furthest place a single marker can reach with these factory spaces filled (RR-9.3)."""
    for number, gap in enumerate(GAPS, start=1):
        if number not in filled:
            return gap - 1
    return LAST


@settings(max_examples=25, deadline=None)
@given(st.sets(st.integers(1, 5)))
def test_rr_9_3_rr_9_6_property_top_space_until_blocked(filled: set[int]) -> None:
    """RR-9.3, RR-9.6: Taking the top industry space again and again moves the marker up to the first empty gap
    exactly, gains each passed factory's ruble once, and then the space is refused (RR-9.7)."""
    state = seat0(markers=(0,), factories=factories(*filled), workers=20)
    moves = 0
    while "industry_1" in places(at_turn(state, 0)):
        state = evolve(place(state, 0, "industry_1", 1), agenda=(), placements=())
        moves += 1
    end = reachable_end(filled)
    assert state.players[0].markers == (end,)
    assert moves == end
    assert state.players[0].rubles == 1 + sum(1 for n in filled if GAPS[n - 1] <= end)
    assert immediate(state) == []


# ---- every factory benefit, gained by entering its space (RR-9.6, §23) ------------------------------


def entering(kind: str, **changes: Any) -> Any:
    """Seat 0 takes the top industry space and enters factory space 1, holding the factory whose
    benefit is `kind`."""
    start = seat0(markers=(GAPS[0] - 1,), factories=factories(1, value=factory_with(kind)), **changes)
    return play(at_turn(start, 0), mv.Place(space="industry_1", workers=1))


def test_rr_23_1_rr_11_9_f1_gains_the_printed_values_of_the_engineers() -> None:
    """RR-23.1, RR-11.9: F1 gains the printed values of the engineers."""
    owned = ("E1", "E2")
    state = entering("vp_engineer_values", engineers=owned)
    values = sum(COMPONENTS.engineer(e).value for e in owned)
    assert immediate(state) == [("RR-23.1", values)]
    assert parked(state)


def test_rr_23_2_f2_takes_a_locomotive_or_a_factory() -> None:
    """RR-23.2: F2 takes a locomotive or a factory."""
    state = entering("locomotive_or_factory")
    assert mv.TakeFactory(from_pool=False, value=2, replace=None) in legal(state)
    assert mv.PlaceLocomotive(railway=TS, slot=1) in legal(state)
    state = play(state, mv.TakeFactory(from_pool=False, value=2, replace=None))
    assert state.players[0].factories[:2] == (factory_with("locomotive_or_factory"), 2)
    assert parked(state)


def test_rr_23_3_amb_28_f3_places_two_multipliers() -> None:
    """RR-23.3, AMB-28: F3 places two multipliers."""
    state = entering("multiplier")
    assert state.players[0].multipliers == 2
    assert state.multipliers_left == COMPONENTS.constants.multiplier_supply - 2


def test_rr_23_4_amb_29_f4_repeats_a_one_worker_space_used_this_round() -> None:
    """RR-23.4, AMB-29: F4 repeats a one worker space used this round."""
    state = place(seat0(markers=(GAPS[0] - 1,), factories=factories(1, value=factory_with("repeat"))), 0, "rubles", 1)
    assert state.players[0].rubles == 3
    state = play(at_turn(state.with_agenda(()), 0), mv.Place(space="industry_1", workers=1))
    assert set(legal(state)) == {mv.Repeat(space="rubles"), mv.Repeat(space="industry_1")}
    state = play(state, mv.Repeat(space="rubles"))
    assert state.players[0].rubles == 5
    assert parked(state)


def test_rr_23_5_f5_one_ruble() -> None:
    """RR-23.5: F5 one ruble."""
    state = entering("rubles")
    assert state.players[0].rubles == 1 + 1


def test_rr_23_6_f6_the_two_best_locomotives() -> None:
    """RR-23.6: F6 the two best locomotives."""
    state = entering("vp_two_best_locomotives", locomotives={TS: (6, 2), "kiev": (3,)})
    assert immediate(state) == [("RR-23.6", 6 + 3)]


def test_rr_23_7_f7_one_more_industry_advancement() -> None:
    """RR-23.7: F7 one more industry advancement."""
    state = entering("industry")
    assert state.players[0].markers == (GAPS[0] + 1,)
    assert parked(state)


def test_rr_23_8_f8_two_advancements_of_any_track() -> None:
    """RR-23.8: F8 two advancements of any track."""
    state = play(entering("advance"), mv.Advance(railway=TS, colour="black"),
                 mv.Advance(railway="kiev", colour="black"))
    assert (state.players[0].tracks[TS]["black"], state.players[0].tracks["kiev"]["black"]) == (2, 2)
    assert parked(state)


def test_rr_23_9_amb_27_f9_a_final_bonus_card_or_10_vp() -> None:
    """RR-23.9, AMB-27: F9 a final bonus card or 10 vp."""
    state = entering("final_bonus")
    assert mv.TakeBonusVP() in legal(state)
    vp = play(state, mv.TakeBonusVP())
    assert immediate(vp) == [("RR-21.2", 10)]
    card = state.bonus_deck[0]
    kept = play(state, mv.TakeBonusCard(card=card))
    assert kept.players[0].bonus_cards == (card,) and card not in kept.bonus_deck
    assert immediate(kept) == []


def test_rr_9_9_rr_14_9_each_scoring_phase_scores_the_industry_markers() -> None:
    """RR-9.9, RR-14.9: Each scoring phase scores the industry markers."""
    state = seat0(markers=(GAPS[0], 4), factories=factories(1))
    scored = with_steps(state, Step("scoring", round=1))
    lines = [(line.rule, line.points) for line in scored.lines if line.seat == 0]
    assert sorted(lines) == [("RR-14.9", 5), ("RR-14.9", 5)]  # the factory space scores the 5 before it


def test_amb_35_reading_b_a_deferred_f2_benefit_is_a_part_the_player_can_name() -> None:
    """AMB-35 (b), RR-23.2: under "any_time" the F2 factory entered by the first of two industry
    advancements joins the remaining parts as "take:locomotive_or_factory", a part name the
    NextPart move accepts, and it can be taken after the second advancement."""
    options = RussianRailroadsOptions(benefits="any_time")
    f2 = factory_with("locomotive_or_factory")
    start = table(4, {0: {"markers": (4,), "factories": factories(1, value=f2)}}, options=options)
    state = play(at_turn(start, 0), mv.Place(space="industry_2", workers=2))
    parts = {m.part for m in legal(state) if isinstance(m, mv.NextPart)}
    assert parts == {"industry", "take:locomotive_or_factory"}
    state = play(state, mv.NextPart(part="industry"))
    assert state.players[0].markers == (GAPS[0] + 1,)
    state = play(state, mv.PlaceLocomotive(railway="kiev", slot=0))
    assert state.players[0].locomotives["kiev"] == (2,)
    assert parked(state)
