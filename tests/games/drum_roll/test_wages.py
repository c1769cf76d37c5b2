"""Wage payment (DR-12): helpers' and performers' current wages (DR-12.2, DR-17.8 with AMB-40,
DR-20.2, DR-17.10, bizarre wages by count DR-18.4), skipped wages (DR-18.8, AMB-36), paying all one
can and 1 fame per coin short (DR-12.3, DR-12.4, EX-11), the deposit not being money (DR-12.5),
and EX-12 under both readings of AMB-40."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll.components import DrumRollComponents, default_components, load_components
from domain.games.drum_roll.state import Hired, State
from domain.games.drum_roll.tasks import AGENDA
from domain.games.drum_roll.wages import wage_bill, wage_of
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .test_setup import cubes_taken

# Printed wages (default data): P01 1 (secondary 0), P08 3 (2), P09 3 (2), P10 1 (0), P17 3 (2);
# bizarre P37 [2, 1, 0] by count, P40, P41 and P43 [3, 2, 1] (secondary 1); helpers H01 1, H03 2.


def table(seats: int = 3, components: DrumRollComponents | None = None, **options: Any) -> State:
    """The setup done (start player seat 1, round 1 about to be played); every circus emptied and
    every player at 0 money, so a test gives the seats it looks at what it needs."""
    if components is not None:
        options["components"] = components
    state = cubes_taken(seats, start_player=1, **options)
    for seat in range(seats):
        state = state.with_player(seat, performers=(), helpers=(), money=0)
    return evolve(state, performance=1, round=5)


def circus(state: State, seat: int, *performers: Hired | str, helpers: tuple[str, ...] = (), **changes: Any) -> State:
    hired = tuple(Hired(p) if isinstance(p, str) else p for p in performers)
    return state.with_player(seat, performers=hired, helpers=helpers, **changes)


def run(state: State, *steps: Step) -> State:
    """Run these steps (and what they push) until a decision or the end of the agenda."""
    return AGENDA.advance(evolve(state, agenda=steps))


def secondary_one() -> DrumRollComponents:
    """EX-12's card: base wage 3, secondary wage 1 (P08 with its secondary wage changed from 2)."""
    data = default_components().model_dump(mode="json")
    for card in data["performers"]:
        if card["id"] == "P08":
            card["secondary_wage"] = 1
    return load_components(data)


def test_dr_12_3_ex_11_a_wage_of_9_with_6_money_pays_6_and_loses_3_fame() -> None:
    state = circus(table(), 0, "P08", "P09", "P17", money=6)
    assert wage_bill(state, 0) == 9
    state = run(state, Step("wages"))
    player = state.players[0]
    assert (player.money, player.fame) == (0, -3)
    entry = player.ledger[-1]
    assert (entry.points, entry.rule, entry.category) == (-3, "DR-12.3", "wages")


def test_dr_12_4_a_player_pays_the_whole_wage_when_it_can() -> None:
    """Rules: DR-12.4."""
    state = run(circus(table(), 0, "P08", "P01", helpers=("H01",), money=8), Step("wages"))
    assert (state.players[0].money, state.players[0].fame, state.players[0].ledger) == (3, 0, ())


def test_dr_12_5_dr_19_6_the_deposit_cannot_pay_wages() -> None:
    """Rules: DR-12.5, DR-19.6."""
    state = circus(table(), 0, "P08", "P09", helpers=("H05",), money=2, deposit=10)
    assert wage_bill(state, 0) == 7  # 3 + 3 + the bank clerk's 1
    state = run(state, Step("wages"))
    assert (state.players[0].money, state.players[0].deposit, state.players[0].fame) == (0, 10, -5)


def test_dr_12_1_dr_12_2_every_seat_pays_helpers_and_performers() -> None:
    """Rules: DR-12.1, DR-12.2."""
    state = circus(table(), 0, "P01", helpers=("H01", "H03"), money=10)  # 1 + 1 + 2
    state = circus(state, 1, "P08", money=1)  # 3: 2 short
    state = circus(state, 2, money=5)  # nothing to pay
    state = run(state, Step("wages"))
    assert [p.money for p in state.players] == [6, 0, 5]
    assert [p.fame for p in state.players] == [0, -2, 0]


def test_dr_17_8_ex_12_a_flipped_performer_with_a_trailer() -> None:
    """Rules: DR-17.8."""
    state = circus(table(components=secondary_one()), 0, Hired("P08", flipped=1, trailer=True), money=10)
    hired = state.players[0].performers[0]
    wages = [wage_of(evolve(state, performance=n), 0, hired) for n in (1, 2, 3)]
    assert wages == [2, 0, 0]  # EX-12: 3 - 1 in the flip performance, then 1 - 1
    assert run(state, Step("wages")).players[0].money == 8


def test_dr_17_8_amb_40_ex_12_with_the_secondary_wage_one_performance_later() -> None:
    """Rules: DR-17.8."""
    state = table(components=secondary_one(), secondary_wage_delay=1)
    state = circus(state, 0, Hired("P08", flipped=1, trailer=True))
    hired = state.players[0].performers[0]
    assert [wage_of(evolve(state, performance=n), 0, hired) for n in (1, 2, 3)] == [2, 2, 0]


def test_dr_17_8_amb_40_a_flip_in_the_second_performance_pays_base_then_secondary() -> None:
    """Rules: DR-17.8."""
    state = circus(table(), 0, Hired("P08", flipped=2))
    hired = state.players[0].performers[0]
    assert [wage_of(evolve(state, performance=n), 0, hired) for n in (2, 3)] == [3, 2]
    delayed = circus(table(secondary_wage_delay=1), 0, Hired("P08", flipped=2))
    assert [wage_of(evolve(delayed, performance=n), 0, hired) for n in (2, 3)] == [3, 3]


def test_dr_18_4_a_bizarre_performers_wage_depends_on_the_bizarre_count() -> None:
    """Rules: DR-18.4."""
    state = table()
    for performers, wages in (
        (("P43",), [3]),
        (("P43", "P40", "P01"), [2, 2, 1]),
        (("P43", "P40", "P41"), [1, 1, 1]),
        (("P43", "P40", "P41", "P37"), [1, 1, 1, 0]),  # 3 or more: the last entry
        (("P37", "P10"), [2, 1]),
    ):
        state = circus(state, 0, *performers)
        assert [wage_of(state, 0, hired) for hired in state.players[0].performers] == wages, performers


def test_dr_18_4_dr_17_8_a_flipped_bizarre_performer_pays_its_count_wage_then_its_secondary() -> None:
    """Rules: DR-18.4, DR-17.8."""
    state = circus(table(), 0, Hired("P43", flipped=1), "P40")
    flipped = state.players[0].performers[0]
    assert wage_of(state, 0, flipped) == 2  # two bizarre performers: the base wage is 2
    assert wage_of(evolve(state, performance=2), 0, flipped) == 1  # the secondary wage


def test_dr_20_2_dr_17_10_a_trailer_lowers_a_wage_but_never_below_0() -> None:
    """Rules: DR-20.2, DR-17.10."""
    state = circus(table(), 0, Hired("P08", trailer=True), Hired("P01", trailer=True),
                   Hired("P10", flipped=1, trailer=True))
    state = evolve(state, performance=2)
    assert [wage_of(state, 0, hired) for hired in state.players[0].performers] == [2, 0, 0]


def test_dr_20_3_dr_20_2_amb_18_a_shared_trailer_lowers_both_wages() -> None:
    """Rules: DR-20.3, DR-20.2."""
    state = circus(table(), 0, Hired("P43", trailer=True), Hired("P08", shares_trailer_of="P43"),
                   Hired("P01", shares_trailer_of="P43"))
    assert [wage_of(state, 0, hired) for hired in state.players[0].performers] == [2, 2, 0]


def test_dr_18_8_amb_36_skipped_wages_are_not_paid_and_the_skips_are_used_up() -> None:
    """Rules: DR-18.8."""
    state = circus(table(), 0, "P08", "P09", helpers=("H03",), money=10, skipped=("P08", "H03"))
    assert wage_bill(state, 0) == 3
    state = run(state, Step("wages"))
    assert (state.players[0].money, state.players[0].skipped) == (7, ())
    assert wage_bill(state, 0) == 8  # next performance: everything is due again


def test_dr_12_3_dr_0_4_fame_may_fall_below_0_and_the_ledger_says_why() -> None:
    """Rules: DR-12.3, DR-0.4."""
    state = circus(table(), 2, "P08", "P09", money=0)
    state = run(state, Step("wages"))
    assert state.players[2].fame == -6
    assert state.players[2].ledger[-1].detail == "wages 6, paid 0, 6 short"
