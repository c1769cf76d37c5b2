"""Auxiliary actions, rubles replacing workers, the spaces needing rubles, temporary workers and
multipliers (§10, RR-12.5, RR-12.6, AMB-9, AMB-34)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.actions import payments
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import Placement
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import TS, table
from .play_turn import at_turn, legal, parked, place, places, play, refused, with_steps

COMPONENTS = default_components()
MULTIPLIER_SPACES = len(COMPONENTS.constants.multiplier_spaces)


def seat0(**changes: Any) -> Any:
    return table(4, {0: changes})


def payments_for(state: Any, space: str) -> set[tuple[int, int, int, int]]:
    """(own, temporary, black, rubles) of every legal Place on `space` for seat 0."""
    return {(m.workers, m.temporary, m.black, m.rubles) for m in legal(at_turn(state, 0), 0)
            if isinstance(m, mv.Place) and m.space == space}


@pytest.mark.parametrize("space", ["multiplier", "rubles", "temporary_workers"])
def test_rr_10_1_each_auxiliary_space_costs_one_worker(space: str) -> None:
    """RR-10.1: Each auxiliary space costs one worker."""
    data = COMPONENTS.space(space)
    assert (data.section, data.workers, data.rubles) == ("auxiliary", 1, 0)
    assert payments_for(table(4), space) == {(1, 0, 0, 0), (0, 0, 0, 1)}


def test_rr_10_2_the_multiplier_space_places_one_from_the_supply() -> None:
    """RR-10.2: The multiplier space places one from the supply."""
    state = place(table(4), 0, "multiplier", 1)
    assert state.players[0].multipliers == 1
    assert state.multipliers_left == COMPONENTS.constants.multiplier_supply - 1
    assert state.players[0].workers == 4


def test_rr_10_2_rr_10_3_multipliers_fill_eight_spaces_then_the_space_is_refused() -> None:
    """RR-10.2, RR-10.3: Multipliers fill eight spaces then the space is refused."""
    seven = place(seat0(multipliers=MULTIPLIER_SPACES - 1), 0, "multiplier", 1)
    assert seven.players[0].multipliers == MULTIPLIER_SPACES == 8
    full = at_turn(seat0(multipliers=MULTIPLIER_SPACES), 0)
    assert "multiplier" not in places(full)
    refused(full, mv.Place(space="multiplier", workers=1), "RR-5.5")


def test_amb_34_an_empty_multiplier_supply_refuses_the_space() -> None:
    """AMB-34: An empty multiplier supply refuses the space."""
    empty = at_turn(table(4, multipliers_left=0), 0)
    refused(empty, mv.Place(space="multiplier", workers=1), "RR-5.5")


def test_amb_34_option_unlimited_multipliers_never_run_out() -> None:
    """AMB-34: Option unlimited multipliers never run out."""
    options = RussianRailroadsOptions(multiplier_limit=False)
    state = place(table(4, options=options, multipliers_left=0), 0, "multiplier", 1)
    assert state.players[0].multipliers == 1
    assert state.multipliers_left == 0
    # the eight spaces still bound it (RR-10.3)
    full = at_turn(table(4, {0: {"multipliers": 8}}, options=options, multipliers_left=0), 0)
    refused(full, mv.Place(space="multiplier", workers=1), "RR-5.5")


def test_rr_10_5_two_rubles() -> None:
    """RR-10.5: Two rubles."""
    state = place(table(4), 0, "rubles", 1)
    assert state.players[0].rubles == 1 + 2


def test_rr_10_6_every_mix_of_workers_temporary_black_and_rubles_pays_a_two_worker_space() -> None:
    """RR-10.6: Every mix of workers temporary black and rubles pays a two worker space."""
    rich = seat0(workers=5, temporary=2, rubles=2, black_worker=True, black_in_supply=True)
    ways = payments_for(rich, "black_3")
    assert ways == {
        (2, 0, 0, 0), (1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 0, 1),
        (0, 2, 0, 0), (0, 1, 1, 0), (0, 1, 0, 1), (0, 0, 1, 1), (0, 0, 0, 2),
    }


def test_rr_10_6_one_worker_and_one_ruble_pay_for_two_workers() -> None:
    """RR-10.6: One worker and one ruble pay for two workers."""
    state = play(at_turn(seat0(rubles=2), 0), mv.Place(space="black_3", workers=1, rubles=1))
    assert (state.players[0].workers, state.players[0].rubles) == (4, 1)
    assert state.placements == (Placement("black_3", 0, 1, 0, 0, 1),)
    state = play(state, *[mv.Advance(railway=TS, colour="black")] * 3)
    assert state.players[0].tracks[TS]["black"] == 4
    assert parked(state)


def test_rr_10_6_two_rubles_pay_for_two_workers() -> None:
    """RR-10.6: Two rubles pay for two workers."""
    state = play(at_turn(seat0(rubles=2), 0), mv.Place(space="industry_2", rubles=2))
    assert (state.players[0].workers, state.players[0].rubles) == (5, 0)
    assert state.players[0].markers == (2,)


def test_rr_5_2_rr_10_6_a_payment_short_or_over_or_without_cover_is_refused() -> None:
    """RR-5.2, RR-10.6: A payment short or over or without cover is refused."""
    state = at_turn(seat0(rubles=1), 0)
    refused(state, mv.Place(space="black_3", workers=1), "RR-5.2")
    refused(state, mv.Place(space="black_3", workers=3), "RR-5.2")
    refused(state, mv.Place(space="black_3", rubles=2), "RR-10.6")
    refused(state, mv.Place(space="black_3", workers=1, temporary=1), "RR-10.11")
    refused(state, mv.Place(space="black_3", workers=1, black=1), "RR-20.3")
    poor = at_turn(seat0(workers=1), 0)
    refused(poor, mv.Place(space="black_3", workers=2), "RR-5.2")


def test_rr_10_7_amb_9_worker_and_ruble_space_needs_a_ruble_never_two_workers() -> None:
    """RR-10.7, AMB-9: Worker and ruble space needs a ruble never two workers."""
    data = COMPONENTS.space("any_2")
    assert (data.workers, data.rubles) == (1, 1)
    state = seat0(rubles=2, temporary=1)
    assert payments_for(state, "any_2") == {(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 0, 2)}
    refused(at_turn(state, 0), mv.Place(space="any_2", workers=2), "RR-10.7")
    refused(at_turn(state, 0), mv.Place(space="any_2", workers=1, temporary=1), "RR-10.7")
    paid = play(at_turn(state, 0), mv.Place(space="any_2", rubles=2))
    assert paid.players[0].rubles == 0 and paid.players[0].workers == 5


def test_ex_4_rr_6_9_worker_and_ruble_black_then_grey() -> None:
    """EX-4, RR-6.9: Worker and ruble black then grey."""
    state = play(at_turn(seat0(rubles=1), 0), mv.Place(space="any_2", workers=1, rubles=1),
                 mv.Advance(railway=TS, colour="black"), mv.Advance(railway=TS, colour="grey"))
    assert state.players[0].tracks[TS] == {"black": 2, "grey": 1}
    assert (state.players[0].workers, state.players[0].rubles) == (4, 0)


def test_rr_10_7_hiring_space_takes_exactly_one_ruble_and_no_worker() -> None:
    """RR-10.7: Hiring space takes exactly one ruble and no worker."""
    engineer = COMPONENTS.engineers[0].id
    state = seat0(rubles=1, temporary=1)
    state = evolve(state, strip=(*state.strip[:-1], engineer))
    assert payments_for(state, "hire") == {(0, 0, 0, 1)}
    refused(at_turn(state, 0), mv.Place(space="hire", workers=1), "RR-10.7")
    refused(at_turn(state, 0), mv.Place(space="hire", temporary=1), "RR-10.7")
    refused(at_turn(state, 0), mv.Place(space="hire", workers=1, rubles=1), "RR-5.2")


def test_rr_10_8_a_space_paid_with_rubles_is_occupied() -> None:
    """RR-10.8: A space paid with rubles is occupied."""
    state = play(at_turn(seat0(rubles=1), 0), mv.Place(space="multiplier", rubles=1))
    assert state.players[0].multipliers == 1
    refused(at_turn(state, 1), mv.Place(space="multiplier", workers=1), "RR-5.3", seat=1)
    assert "multiplier" not in places(at_turn(state, 1), 1)


def test_rr_10_9_rr_15_2_rubles_on_spaces_are_spent_at_cleanup() -> None:
    """RR-10.9, RR-15.2: Rubles on spaces are spent at cleanup."""
    state = play(at_turn(seat0(rubles=2), 0), mv.Place(space="industry_2", workers=1, rubles=1))
    cleaned = with_steps(state.with_agenda(()), Step("cleanup"))
    assert cleaned.players[0].rubles == 1  # the placed ruble is not returned
    assert cleaned.players[0].workers == 5  # the worker is (RR-15.1)
    assert cleaned.placements == ()


def test_rr_10_10_rr_10_11_temporary_workers_used_singly_with_own_and_rubles() -> None:
    """RR-10.10, RR-10.11: Temporary workers used singly with own and rubles."""
    state = place(seat0(rubles=1), 0, "temporary_workers", 1)
    assert state.players[0].temporary == 2
    state = play(at_turn(state.with_agenda(()), 0), mv.Place(space="black_3", temporary=1, rubles=1),
                 *[mv.Advance(railway=TS, colour="black")] * 3)
    assert (state.players[0].temporary, state.players[0].rubles, state.players[0].workers) == (1, 0, 4)
    state = play(at_turn(state.with_agenda(()), 0), mv.Place(space="industry_2", workers=1, temporary=1))
    assert (state.players[0].temporary, state.players[0].workers) == (0, 3)
    assert state.players[0].markers == (2,)


def test_rr_10_11_rr_15_3_unused_temporary_workers_go_back_at_cleanup() -> None:
    """RR-10.11, RR-15.3: Unused temporary workers go back at cleanup."""
    state = place(table(4), 0, "temporary_workers", 1)
    cleaned = with_steps(state.with_agenda(()), Step("cleanup"))
    assert cleaned.players[0].temporary == 0
    assert cleaned.players[0].workers == 5


def test_rr_10_12_only_one_player_a_round_gets_the_temporary_workers() -> None:
    """RR-10.12: Only one player a round gets the temporary workers."""
    state = place(table(4), 0, "temporary_workers", 1)
    refused(at_turn(state.with_agenda(()), 1), mv.Place(space="temporary_workers", workers=1), "RR-5.3", seat=1)


def test_rr_12_5_no_workers_left_rubles_still_pay() -> None:
    """RR-12.5: No workers left rubles still pay."""
    state = at_turn(seat0(workers=0, rubles=1), 0)
    assert {m.space for m in legal(state) if isinstance(m, mv.Place)} >= {"industry_1", "rubles", "multiplier"}
    after = play(state, mv.Place(space="industry_1", rubles=1))
    assert after.players[0].markers == (1,)


def test_rr_12_6_a_seat_with_nothing_to_pay_with_can_only_pass() -> None:
    """RR-12.6: A seat with nothing to pay with can only pass."""
    state = at_turn(seat0(workers=0, rubles=0), 0)
    assert legal(state) == [mv.Pass()]
    refused(state, mv.Place(space="industry_1", workers=1), "RR-5.2")


@settings(max_examples=60, deadline=None)
@given(workers=st.integers(0, 4), temporary=st.integers(0, 2), rubles=st.integers(0, 3), black=st.booleans(),
       space=st.sampled_from(["industry_1", "black_3", "locomotive_3", "any_2", "rubles"]))
def test_rr_10_6_rr_10_7_property_every_legal_payment_is_exact_and_comes_from_the_supply(
        workers: int, temporary: int, rubles: int, black: bool, space: str) -> None:
    """RR-10.6, RR-10.7: Every legal way to pay a space pays exactly its cost, rubles cover the rubles it needs, and
    each kind is at most what the seat holds; and every such split is offered (RR-10.6, RR-10.7)."""
    state = seat0(workers=workers, temporary=temporary, rubles=rubles, black_worker=black, black_in_supply=black)
    data = COMPONENTS.space(space)
    expected = set()
    for own in range(workers + 1):
        for temp in range(temporary + 1):
            for blk in range(2 if black else 1):
                for rub in range(rubles + 1):
                    if own + temp + blk + rub == data.workers + data.rubles and rub >= data.rubles:
                        expected.add((own, temp, blk, rub))
    assert set(payments(state, 0, data.workers, data.rubles)) == expected
    if expected:  # one application per example keeps the property fast; the offers are checked in full
        own, temp, blk, rub = max(expected)
        after = play(at_turn(state, 0), mv.Place(space=space, workers=own, temporary=temp, black=blk, rubles=rub))
        player = after.players[0]
        assert (player.workers, player.temporary, player.rubles - (2 if space == "rubles" else 0)) == (
            workers - own, temporary - temp, rubles - rub)
        assert player.black_in_supply == (black and not blk)


def test_rr_10_4_rr_14_6_a_multiplier_doubles_the_ts_space_below_it() -> None:
    """RR-10.4, RR-14.6: the multiplier taken this round doubles TS space 1 in this round's scoring."""
    board_ = {"tracks": {TS: {"black": 3, "grey": 2}, "st_petersburg": {"black": 1}, "kiev": {"black": 1}},
              "locomotives": {TS: (1, 2)}}
    plain = with_steps(seat0(**board_), Step("scoring", round=1))
    assert [(line.rule, line.points) for line in plain.lines if line.seat == 0] == [("RR-14.4", 1 + 1)]
    state = place(seat0(**board_), 0, "multiplier", 1)
    scored = with_steps(evolve(state, agenda=()), Step("scoring", round=1))
    assert [(line.rule, line.points) for line in scored.lines if line.seat == 0] == [("RR-14.6", 2 * 1 + 1)]
