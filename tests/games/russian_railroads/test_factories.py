"""Every factory benefit F1 to F9 (§23), gained as an industry marker enters the factory's space
(RR-9.6), played through the machine from the 1-worker industry space.

Which locomotive value carries which benefit is a fill-in (DATA-8), so each test finds the
factory by its benefit's rule in the component set and builds the seat's industry track with it:
the marker on the space before the first gap (which shows 5 VP), that factory in the gap. A
benefit that cannot be used then is lost and the action still counts (RR-23 intro, AMB-14).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.state import Placement, State

from .builders import KV, SP, TS, table, tracks
from .late_drive import at_turn, done, lines_of, play, refused

COMPONENTS = default_components()
INDUSTRY = mv.Place(space="industry_1", workers=1)
BEFORE_GAP = 4
"""The marker's place on the space just before the first factory gap (default lane, AMB-13 (b))."""


def factory_for(rule: str) -> int:
    """The locomotive value whose factory carries the benefit printed under `rule`."""
    (value,) = [f.locomotive for f in COMPONENTS.factories if f.rule == rule]
    return value


def entering(rule: str, *, seat: int = 0, state_changes: dict[str, Any] | None = None, **player: Any) -> State:
    """Seat 0 at its turn, its marker before the gap holding the factory of `rule`."""
    value = factory_for(rule)
    changes = {"markers": (BEFORE_GAP,), "factories": (value, None, None, None, None), **player}
    return at_turn(table(4, {seat: changes}, **(state_changes or {})))


def test_rr_23_1_f1_vp_of_the_engineers_values() -> None:
    """RR-23.1: VP equal to the sum of the printed values of the seat's engineers (fill-ins, read)."""
    engineers = ("E3", "E12")
    state = play(entering("RR-23.1", engineers=engineers), INDUSTRY)
    assert done(state)
    points = sum(COMPONENTS.engineer(e).value for e in engineers)
    assert lines_of(state) == [("RR-23.1", points)]
    assert state.players[0].markers == (BEFORE_GAP + 1,)


def test_rr_23_1_f1_without_engineers_gives_nothing() -> None:
    """RR-23.1: no engineers, no VP: the benefit is lost, the industry advancement stands."""
    state = play(entering("RR-23.1"), INDUSTRY)
    assert done(state) and lines_of(state) == [] and state.players[0].markers == (BEFORE_GAP + 1,)


def test_rr_23_2_f2_a_locomotive_or_a_factory() -> None:
    """RR-23.2: take 1 locomotive (placed at once) or 1 factory (the next empty factory space)."""
    start = entering("RR-23.2")
    lowest = min(int(v) for v, n in start.stacks.items() if n)
    state = play(start, INDUSTRY, mv.PlaceLocomotive(railway=KV, slot=0))
    assert done(state)
    assert state.players[0].locomotives[KV] == (lowest,)
    assert state.stacks[str(lowest)] == start.stacks[str(lowest)] - 1
    state = play(start, INDUSTRY, mv.TakeFactory(value=lowest))
    assert done(state)
    assert state.players[0].factories == (factory_for("RR-23.2"), lowest, None, None, None)


def test_rr_23_2_f2_lost_when_nothing_can_be_taken() -> None:
    """RR-23.2 with every stack and the pool empty (AMB-30): the benefit is lost."""
    empty = {value: 0 for value in COMPONENTS.locomotives if value != "1"}
    start = entering("RR-23.2", state_changes={"stacks": empty})
    state = play(start, INDUSTRY)
    assert done(state)
    assert state.players[0].locomotives == start.players[0].locomotives
    assert state.players[0].factories == start.players[0].factories


@pytest.mark.parametrize(("placed", "after"), [(0, 2), (7, 8), (8, 8)])
def test_rr_23_3_amb_28_f3_two_multipliers_as_many_as_fit(placed: int, after: int) -> None:
    """RR-23.3, AMB-28: 2 multipliers; with fewer free spaces as many as fit, the rest lost."""
    start = entering("RR-23.3", multipliers=placed)
    state = play(start, INDUSTRY)
    assert done(state)
    assert state.players[0].multipliers == after
    assert state.multipliers_left == start.multipliers_left - (after - placed)


def test_rr_23_4_f4_repeats_a_single_worker_space_used_this_round() -> None:
    """RR-23.4 (= RR-22.7, AMB-29): repeat the multiplier space used with 1 worker, without placing."""
    placements = (Placement("multiplier", 0, workers=1), Placement("industry_2", 0, workers=2))
    start = entering("RR-23.4", workers=2, multipliers=1, state_changes={"placements": placements})
    state = play(start, INDUSTRY)
    assert {m.space for m in RULESET.legal_moves(state, 0) if isinstance(m, mv.Repeat)} == {"multiplier", "industry_1"}
    refused(state, mv.Repeat(space="industry_2"), "RR-22.7")
    state = play(state, mv.Repeat(space="multiplier"))
    assert done(state)
    assert state.players[0].multipliers == 2
    assert len(state.placements) == 3


def test_rr_23_5_f5_one_ruble() -> None:
    """RR-23.5: 1 ruble from the general supply."""
    start = entering("RR-23.5")
    state = play(start, INDUSTRY)
    assert done(state)
    assert state.players[0].rubles == start.players[0].rubles + 1


def test_rr_23_6_f6_vp_of_the_two_best_locomotives() -> None:
    """RR-23.6: the two highest-valued locomotives on the seat's railways: 7 + 5 of 7, 5, 4, 1."""
    start = entering("RR-23.6", locomotives={TS: (1, 5), SP: (7,), KV: (4,)})
    state = play(start, INDUSTRY)
    assert done(state)
    assert lines_of(state) == [("RR-23.6", 12)]


def test_rr_23_7_f7_one_more_industry_advancement() -> None:
    """RR-23.7: 1 industry advancement at once: the marker goes on from the factory to the 10."""
    state = play(entering("RR-23.7"), INDUSTRY)
    assert done(state)
    assert state.players[0].markers == (BEFORE_GAP + 2,)


def test_rr_23_8_amb_6_f8_two_advancements_of_any_track() -> None:
    """RR-23.8: 2 advancements of any track; a track gained by the first may take the second (AMB-6)."""
    start = entering("RR-23.8")
    state = play(start, INDUSTRY, mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS] == {"black": 2, "grey": 0}
    state = play(state, mv.Advance(railway=TS, colour="grey"))
    assert done(state)
    assert state.players[0].tracks[TS] == {"black": 2, "grey": 1}


def test_rr_23_9_rr_21_2_f9_a_final_bonus_card_or_10_vp() -> None:
    """RR-23.9, RR-21.2: look through the deck and take any card face down, or 10 VP instead."""
    start = entering("RR-23.9")
    state = play(start, INDUSTRY)
    assert {type(m).__name__ for m in RULESET.legal_moves(state, 0)} == {"TakeBonusCard", "TakeBonusVP"}
    card = play(state, mv.TakeBonusCard(card="B6"))
    assert done(card)
    assert card.players[0].bonus_cards == ("B6",) and "B6" not in card.bonus_deck
    assert lines_of(card) == []
    vp = play(state, mv.TakeBonusVP())
    assert done(vp)
    assert lines_of(vp) == [("RR-21.2", COMPONENTS.constants.final_bonus_vp)]
    assert vp.bonus_deck == start.bonus_deck


def test_rr_19_4_rr_9_6_second_marker_gains_the_factory_again() -> None:
    """RR-19.4: when the second marker enters a factory space, its benefit comes again."""
    start = entering("RR-23.5", markers=(BEFORE_GAP + 2, BEFORE_GAP))
    state = play(start, INDUSTRY)  # only the second marker can move: the first's next gap is empty
    assert done(state)
    assert state.players[0].markers == (BEFORE_GAP + 2, BEFORE_GAP + 1)
    assert state.players[0].rubles == start.players[0].rubles + 1


def test_rr_9_6_a_benefit_comes_only_on_entering_not_on_standing() -> None:
    """RR-9.6: a marker already on the factory gains nothing more when another space is used."""
    start = entering("RR-23.5", markers=(BEFORE_GAP + 1,), tracks=tracks())
    state = play(start, mv.Place(space="rubles", workers=1))
    assert state.players[0].rubles == start.players[0].rubles + 2
