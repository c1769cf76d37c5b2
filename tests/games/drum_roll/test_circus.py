"""The circus primitives (circus.py): trailer spots, assignment and sharing (DR-20.1, DR-20.3,
DR-20.6, AMB-18, AMB-19), and firing (DR-11.8, DR-20.7, DR-21.5)."""

from __future__ import annotations

from domain.games.drum_roll import circus
from domain.games.drum_roll.components import default_components
from domain.games.drum_roll.state import Hired, State
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .performing import SEAT, circus_of, hired, show, total_cubes, total_trailers


def table(*performers: Hired) -> State:
    """Seat 1's circus at the performance (flipped earlier, so nobody performs: the match is over)."""
    return show(*performers, performance=2)


def test_the_type_ids_circus_reads_are_in_the_data() -> None:
    types = {kind.id for kind in default_components().performer_types}
    assert {circus.MAGICIAN, circus.BIZARRE} <= types


def test_dr_20_1_dr_20_3_amb_18_trailer_spots() -> None:
    """Rules: DR-20.1, DR-20.3."""
    state = table(hired("P37", 0, flipped=1), hired("P10", 0, flipped=1), hired("P11", 0, flipped=1, trailer=True))
    assert circus.trailer_spots(state, SEAT) == (("P10", None), ("P37", None), ("P37", "P10"))
    none_bizarre = table(hired("P10", 0, flipped=1), hired("P12", 0, flipped=1))
    assert circus.trailer_spots(none_bizarre, SEAT) == (("P10", None), ("P12", None))  # DR-20.4: no sharing


def test_dr_16_4_dr_20_6_no_spot_without_a_trailer_in_the_supply_or_a_performer_without_one() -> None:
    """Rules: DR-16.4, DR-20.6."""
    state = table(hired("P37", 0, flipped=1), hired("P10", 0, flipped=1))
    assert circus.trailer_spots(evolve(state, trailers=0), SEAT) == ()
    assert circus.trailer_spots(table(hired("P10", 0, flipped=1, trailer=True)), SEAT) == ()
    assert circus.trailer_spots(table(), SEAT) == ()


def test_dr_20_3_a_shared_trailer_fills_both_performers() -> None:
    """Rules: DR-20.3."""
    state = table(hired("P37", 0, flipped=1), hired("P38", 0, flipped=1), hired("P10", 0, flipped=1))
    state = circus.assign_trailer(state, SEAT, "P37", "P38")
    found = circus_of(state)
    assert found["P37"].trailer and found["P38"].shares_trailer_of == "P37" and not found["P38"].trailer
    assert state.trailers == 17 and total_trailers(state) == 18
    assert circus.trailer_spots(state, SEAT) == (("P10", None),)  # AMB-18: exactly one sharer


def test_dr_20_7_amb_19_a_fired_performers_shared_trailer_stays_with_its_sharer() -> None:
    """Rules: DR-20.7."""
    state = table(hired("P37", 2, flipped=None, trailer=True), hired("P10", 0, flipped=1, shares_trailer_of="P37"))
    state = circus.fire(state, SEAT, "P37")
    found = circus_of(state)
    assert "P37" not in found and found["P10"].trailer and found["P10"].shares_trailer_of is None
    assert state.trailers == 18 - 1 and total_trailers(state) == 18
    assert state.performer_discard == ("P37",) and total_cubes(state) == 125  # DR-11.8: cubes back


def test_dr_20_7_a_fired_sharer_leaves_the_trailer_to_its_owner() -> None:
    """Rules: DR-20.7."""
    state = table(hired("P37", 0, flipped=1, trailer=True), hired("P10", 0, flipped=1, shares_trailer_of="P37"))
    state = circus.fire(state, SEAT, "P10")
    assert circus_of(state)["P37"].trailer and state.trailers == 17 and total_trailers(state) == 18


def test_dr_20_7_an_unshared_trailer_goes_back_to_the_supply() -> None:
    """Rules: DR-20.7."""
    state = table(hired("P10", 0, flipped=1, trailer=True))
    state = circus.fire(state, SEAT, "P10")
    assert state.trailers == 18 and circus_of(state) == {}


def test_dr_21_5_firing_a_magician_checks_the_hand_limit() -> None:
    """Rules: DR-21.5."""
    state = circus.fire(table(hired("P01", 0, flipped=1)), SEAT, "P01")
    assert state.agenda[0] == Step("hand_limit", seat=SEAT)
    other = circus.fire(table(hired("P10", 0, flipped=1)), SEAT, "P10")
    assert Step("hand_limit", seat=SEAT) not in other.agenda


def test_dr_11_8_dr_20_7_a_performer_fired_in_the_performance_leaves_its_trailer_to_its_sharer() -> None:
    """Rules: DR-11.8, DR-20.7."""
    state = show(hired("P37", 0, trailer=True), hired("P10", 0, flipped=1, shares_trailer_of="P37"), performance=2)
    assert state.over and state.players[SEAT].money == 10 - 2 and state.players[SEAT].fame == -1
    found = circus_of(state)
    assert list(found) == ["P10"] and found["P10"].trailer and total_trailers(state) == 18
