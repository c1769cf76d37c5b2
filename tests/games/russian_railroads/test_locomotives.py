"""Locomotives and factories (RR-0.6, RR-7, RR-8, EX-6 to EX-10) through real turns on the three
locomotive spaces: the lowest stack, the slots, replacing and chain reactions, factories from
unplaceable locomotives, the face-up pool, and AMB-11 with its option. Factory benefits are read
from the component set (their mapping is a fill-in, DATA-8).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import State
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import KV, SP, TS, player, table, tracks
from .test_tracks import ALL_CLAIMED
from .turns import done, head, place, play, refused, spaces_offered, turn

COMPONENTS = default_components()


def loco(railway: str, slot: int = 0) -> mv.PlaceLocomotive:
    return mv.PlaceLocomotive(railway=railway, slot=slot)


def factory(value: int, from_pool: bool = False, replace: int | None = None) -> mv.TakeFactory:
    return mv.TakeFactory(from_pool=from_pool, value=value, replace=replace)


def green(seats: int = 4, **changes: Any) -> State:
    return table(seats, {0: {"claimed": ALL_CLAIMED, **changes}})


def held(state: State, seat: int = 0) -> dict[str, tuple[int, ...]]:
    return {r: v for r, v in state.players[seat].locomotives.items() if v}


# ---- the three spaces (RR-7.1) --------------------------------------------------------------------


@pytest.mark.parametrize(("space", "workers", "players"), [
    ("locomotive_1", 1, (2, 3, 4)), ("locomotive_2", 2, (3, 4)), ("locomotive_3", 3, (2, 3, 4))])
def test_rr_7_1_the_locomotive_spaces_and_their_costs(space: str, workers: int, players: tuple[int, ...]) -> None:
    """RR-7.1: the top, middle and bottom spaces cost 1, 2 and 3 workers; the first two give a locomotive or a
    factory, the bottom one both, in either order."""
    data = COMPONENTS.space(space)
    assert (data.workers, tuple(data.players)) == (workers, players)
    state = turn(green())
    refused(state, 0, place(space, workers - 1), "RR-5.2")
    after = play(state, 0, place(space, workers))
    assert after.players[0].workers == 5 - workers
    if space == "locomotive_3":  # a locomotive and a factory, in the order the player picks
        assert {m.part for m in RULESET.legal_moves(after, 0)} == {"take:locomotive", "take:factory"}
    else:  # a locomotive or a factory
        legal = RULESET.legal_moves(after, 0)
        assert {type(m) for m in legal} == {mv.PlaceLocomotive, mv.TakeFactory}


def test_ex_6_rr_7_2_rr_7_4_the_top_space_takes_a_2_onto_st_petersburg() -> None:
    """EX-6, RR-7.2, RR-7.4: the top space takes the lowest stack's #2 onto the empty SP slot."""
    state = play(turn(green()), 0, place("locomotive_1", 1))
    assert set(RULESET.legal_moves(state, 0)) >= {loco(TS, 1), loco(SP), loco(KV), loco(TS, 0)}
    state = play(state, 0, loco(SP))
    assert done(state)
    assert held(state) == {TS: (1,), SP: (2,)} and state.stacks["2"] == 3


def test_ex_10_rr_8_3_rr_8_4_rr_8_8_the_top_space_takes_a_2_as_a_factory_into_the_first_space() -> None:
    """EX-10, RR-8.3, RR-8.4, RR-8.8: a #2 turned factory goes to the leftmost factory space and gives nothing
    yet."""
    state = play(turn(green()), 0, place("locomotive_1", 1), factory(2))
    assert done(state)  # the factory's benefit waits for an industry marker (RR-8.8)
    assert state.players[0].factories == (2, None, None, None, None)
    assert state.stacks["2"] == 3 and held(state) == {TS: (1,)}
    assert state.players[0].tracks == green().players[0].tracks


def test_rr_7_2_rr_0_6_locomotives_come_from_the_lowest_non_empty_stack() -> None:
    """RR-7.2, RR-0.6: the lowest non-empty stack, then the next when it is used up; reach is the locomotive's
    value, 0 without one."""
    stacks = {**table(4).stacks, "2": 0, "3": 1}
    state = play(turn(evolve(green(), stacks=stacks)), 0, place("locomotive_1", 1), loco(KV))
    assert held(state) == {TS: (1,), KV: (3,)} and state.stacks["3"] == 0
    assert state.players[0].reach(KV) == 3 and state.players[0].reach(SP) == 0
    refused(turn(evolve(state, placements=())), 0, place("locomotive_1", 0), "RR-5.2")
    state = play(turn(evolve(state, placements=())), 0, place("locomotive_1", 1), loco(SP))
    assert held(state)[SP] == (4,)  # the #3 stack is used up: the next higher value


def test_ex_9_rr_7_1_the_bottom_space_takes_the_last_3_first_and_then_a_4() -> None:
    """EX-9, RR-7.1: with one #3 left, whichever item comes first is the #3 and the second a #4."""
    stacks = {**table(4).stacks, "2": 0, "3": 1}
    start = play(turn(evolve(green(), stacks=stacks)), 0, place("locomotive_3", 3))
    # the locomotive first: the last #3 onto SP; the factory is then the #4, the only source
    first_loco = play(start, 0, mv.NextPart(part="take:locomotive"), loco(SP))
    assert done(first_loco)
    assert held(first_loco)[SP] == (3,) and first_loco.players[0].factories[0] == 4
    first_factory = play(start, 0, mv.NextPart(part="take:factory"), loco(SP))  # the #3 factory by itself
    assert done(first_factory)
    assert held(first_factory)[SP] == (4,) and first_factory.players[0].factories[0] == 3
    assert first_loco.stacks["4"] == first_factory.stacks["4"] == 3 and first_loco.stacks["3"] == 0


def test_rr_7_1_the_bottom_space_never_gives_two_locomotives_or_two_factories() -> None:
    """RR-7.1: the bottom space's two parts are one locomotive and one factory."""
    start = play(turn(evolve(green(), pool=(5,))), 0, place("locomotive_3", 3))
    refused(play(start, 0, mv.NextPart(part="take:locomotive")), 0, factory(2), "RR-7.1")
    refused(play(start, 0, mv.NextPart(part="take:factory")), 0, loco(SP), "RR-7.1")
    state = play(start, 0, mv.NextPart(part="take:locomotive"), loco(SP), factory(2))
    assert done(state) and held(state) == {TS: (1,), SP: (2,)} and state.players[0].factories == (2, *(None,) * 4)
    assert state.stacks["2"] == 2


# ---- slots and replacing (RR-7.3, RR-7.4) ----------------------------------------------------------


def test_rr_7_3_rr_7_4_ex_7_two_slots_on_the_ts_one_elsewhere_and_only_strictly_lower_replaced() -> None:
    """RR-7.3, RR-7.4, EX-7: two TS slots, one on SP and KV, and only a strictly lower locomotive is replaced;
    the TS reach is the sum (RR-0.6)."""
    state = play(turn(green(locomotives={TS: (1,), SP: (2,)})), 0, place("locomotive_1", 1))
    legal = {m for m in RULESET.legal_moves(state, 0) if isinstance(m, mv.PlaceLocomotive)}
    assert legal == {loco(TS, 0), loco(TS, 1), loco(KV)}  # the SP #2 is not lower than the new #2
    refused(state, 0, loco(SP), "RR-7.4")
    refused(state, 0, loco(SP, 1), "RR-7.4")  # SP has one slot
    refused(state, 0, loco(KV, 1), "RR-7.4")
    after = play(state, 0, loco(TS, 1))
    assert held(after)[TS] == (1, 2) and after.players[0].reach(TS) == 3  # EX-7: the TS sums its two
    assert player(locomotives={TS: (1, 4)}).reach(TS) == 5 and player(locomotives={TS: (4,)}).reach(TS) == 4


def test_rr_7_4_with_both_ts_locomotives_lower_the_player_picks_which_to_replace() -> None:
    """RR-7.4: both TS locomotives lower: either may be replaced; the displaced #3 that fits nowhere goes to
    the pool (RR-7.7)."""
    stacks = {**table(4).stacks, **{str(v): 0 for v in range(2, 5)}}
    base = green(locomotives={TS: (3, 1), SP: (9,), KV: (9,)})
    state = play(turn(evolve(base, stacks=stacks)), 0, place("locomotive_1", 1))
    assert {m for m in RULESET.legal_moves(state, 0) if isinstance(m, mv.PlaceLocomotive)} == {loco(TS, 0),
                                                                                               loco(TS, 1)}
    # replacing the #3: it must move on, but fits nowhere else (SP and KV hold #9s) -> the pool
    over_three = play(state, 0, loco(TS, 0))
    assert done(over_three) and held(over_three)[TS] == (5, 1) and over_three.pool == (3,)


# ---- chain reactions (RR-7.6 to RR-7.9, EX-8) ---------------------------------------------------------


def test_ex_8_rr_7_6_rr_7_7_a_chain_reaction_ends_with_the_1_in_the_factory_pool() -> None:
    """EX-8, RR-7.6, RR-7.7: the rulebook's chain reaction, to the #1 turned factory in the pool."""
    only_fours = {**table(4).stacks, "2": 0, "3": 0}
    state = evolve(green(locomotives={TS: (3, 1), SP: (2,)}), stacks=only_fours)
    # 1. a #4 onto the TS over the #1; 2. the #1 goes to KV, empty
    state = play(turn(state), 0, place("locomotive_1", 1), loco(TS, 1))
    # KV is the only place for the #1 (SP's #2 is not lower): it goes there by itself
    assert done(state) and held(state) == {TS: (3, 4), SP: (2,), KV: (1,)}
    # 3. later another #4 onto SP: the #2 must move and replaces the #1 on KV (TS #3, #4 are not lower)
    state = play(turn(evolve(state, placements=())), 0, place("locomotive_2", 2), loco(SP))
    # 4. the #1 fits nowhere (TS #4, #3, SP #4): it becomes a factory in the face-up pool
    assert done(state)
    assert held(state) == {TS: (3, 4), SP: (4,), KV: (2,)}
    assert state.pool == (1,) and state.players[0].factories == (None,) * 5
    assert state.stacks["4"] == 2


def test_rr_7_6_amb_10_a_displaced_locomotive_must_go_to_another_railway_if_it_can() -> None:
    """RR-7.6 (AMB-10): a displaced locomotive goes to another railway, and must if it can."""
    state = evolve(green(locomotives={TS: (1, 2)}), stacks={**table(4).stacks, "2": 0})
    state = play(turn(state), 0, place("locomotive_1", 1), loco(TS, 1))  # the #3 over the #2
    assert head(state) == "displaced"
    assert set(RULESET.legal_moves(state, 0)) == {loco(SP), loco(KV)}
    refused(state, 0, loco(TS, 0), "RR-7.6")  # it would replace the #1, but not on the railway it left
    refused(state, 0, mv.PlaceLocomotive(railway="pool", slot=0), "RR-7.6")  # no discarding it (AMB-10)
    state = play(state, 0, loco(KV))
    assert done(state) and held(state) == {TS: (1, 3), KV: (2,)} and state.pool == ()


def test_rr_8_6_a_locomotive_turned_factory_mid_action_can_be_taken_by_the_same_bottom_action() -> None:
    """RR-8.6: the #1 turned factory by the locomotive part is taken from the pool by the factory part of the
    same action (RR-8.3)."""
    state = evolve(green(locomotives={TS: (3, 1), SP: (9,), KV: (9,)}), stacks={**table(4).stacks, "2": 0, "3": 0})
    state = play(turn(state), 0, place("locomotive_3", 3), mv.NextPart(part="take:locomotive"), loco(TS, 1))
    assert state.pool == (1,)  # the #1 fit nowhere
    assert set(RULESET.legal_moves(state, 0)) == {factory(4), factory(1, from_pool=True)}
    state = play(state, 0, factory(1, from_pool=True))
    assert done(state) and state.pool == () and state.players[0].factories[0] == 1


def _reaches(state: State) -> tuple[int, ...]:
    return tuple(state.players[0].reach(r.id) for r in COMPONENTS.railways)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=30), min_size=20, max_size=60))
def test_rr_7_8_rr_7_9_chain_reactions_end_and_reach_never_decreases(picks: list[int]) -> None:
    """RR-7.8, RR-7.9 (a property): twelve locomotives taken one after another, every placement and every displaced
    locomotive's move any legal one: each chain ends after at most as many moves as there are
    locomotives on the board (values strictly fall along it), no locomotive is lost (on a
    railway or in the pool), and no railway's reach ever goes down."""
    steps = tuple(Step("take", items=("locomotive",), seat=0, p=True) for _ in range(12))
    state = AGENDA.advance(evolve(green(), agenda=(*steps, Step("turn", seat=0, stop=True))))
    supply = sum(state.stacks.values())
    reach = _reaches(state)
    chain = 0
    for pick in picks:
        if done(state):
            break
        chain = chain + 1 if head(state) == "displaced" else 0
        assert chain <= 4
        legal = RULESET.legal_moves(state, 0)
        state = RULESET.apply(state, 0, legal[pick % len(legal)])
        now = _reaches(state)
        assert all(after >= before for before, after in zip(reach, now, strict=True))
        reach = now
        on_board = sum(len(v) for v in state.players[0].locomotives.values())
        in_hand = 1 if head(state) == "displaced" else 0  # a displaced locomotive waiting for its move
        assert on_board + in_hand + len(state.pool) == 1 + supply - sum(state.stacks.values())
        assert on_board <= 4


def test_rr_7_10_a_locomotive_that_meets_a_special_space_triggers_it_at_once() -> None:
    """RR-7.10: sP 4 needs the black track and the locomotives to reach it (DATA-16): a #4 placed there
    brings the bonus token decision before the action ends."""
    claimed = tuple(k for k in ALL_CLAIMED if k != f"{SP}:4")
    state = evolve(green(claimed=claimed, tracks=tracks(st_petersburg={"black": 4})),
                   stacks={**table(4).stacks, "2": 0, "3": 0})
    state = play(turn(state), 0, place("locomotive_1", 1), loco(SP))
    assert head(state) == "token"
    assert f"{SP}:4" in state.players[0].claimed


# ---- AMB-11 and AMB-30 ---------------------------------------------------------------------------


def test_rr_7_5_amb_11_a_locomotive_that_fits_nowhere_cannot_be_taken_as_one() -> None:
    """RR-7.5 (AMB-11 (b)): the locomotive option is closed when it would fit nowhere; with no factory either,
    the space is closed (RR-5.5)."""
    full = {TS: (9, 9), SP: (9,), KV: (9,)}
    state = play(turn(green(locomotives=full)), 0, place("locomotive_1", 1))
    assert done(state)  # the only way left, the #2 as a factory, was taken by itself
    assert state.players[0].factories[0] == 2 and state.pool == ()
    # with no factory source either, the space cannot be chosen at all (RR-5.5)
    blocked = evolve(green(locomotives=full), stacks=dict.fromkeys(table(4).stacks, 0))
    assert "locomotive_1" not in spaces_offered(turn(blocked))
    refused(turn(blocked), 0, place("locomotive_1", 1), "RR-5.5")


def test_rr_7_5_amb_11_option_to_pool_sends_the_unplaceable_locomotive_to_the_pool() -> None:
    """RR-7.5 under AMB-11 (a), the option: the unplaceable locomotive may be taken and goes to the pool."""
    full = {TS: (9, 9), SP: (9,), KV: (9,)}
    state = table(4, {0: {"locomotives": full, "claimed": ALL_CLAIMED}},
                  options=RussianRailroadsOptions(unplaceable_locomotive="to_pool"))
    state = play(turn(state), 0, place("locomotive_1", 1))
    assert set(RULESET.legal_moves(state, 0)) == {mv.PlaceLocomotive(railway="pool", slot=0), factory(2)}
    state = play(state, 0, mv.PlaceLocomotive(railway="pool", slot=0))
    assert done(state) and state.pool == (2,) and state.stacks["2"] == 3
    assert held(state) == full and state.players[0].factories == (None,) * 5


def test_amb_30_rr_8_7_with_every_stack_used_up_only_pool_factories_remain() -> None:
    """AMB-30, RR-8.7: with every stack used up, no locomotive (RR-7.2); pool factories only as factories."""
    empty = dict.fromkeys(table(4).stacks, 0)
    state = evolve(green(), stacks=empty, pool=(3, 5))
    state = play(turn(state), 0, place("locomotive_1", 1))
    assert set(RULESET.legal_moves(state, 0)) == {factory(3, True), factory(5, True)}  # never as a locomotive
    refused(state, 0, loco(SP), "RR-7.2")
    state = play(state, 0, factory(5, True))
    assert state.pool == (3,) and state.players[0].factories[0] == 5


# ---- factories (RR-8) -----------------------------------------------------------------------------


def test_rr_8_3_rr_8_4_a_factory_from_the_pool_goes_to_the_leftmost_empty_space() -> None:
    """RR-8.3, RR-8.4: a pool factory goes to the leftmost empty space; a stack other than the lowest is no
    source."""
    state = evolve(green(factories=(3, None, 5, None, None)), pool=(7,))
    state = play(turn(state), 0, place("locomotive_1", 1))
    refused(state, 0, factory(7, True, replace=3), "RR-8.4")
    refused(state, 0, factory(6), "RR-8.3")  # not the lowest stack
    state = play(state, 0, factory(7, True))
    assert state.players[0].factories == (3, 7, 5, None, None) and state.pool == ()


def test_rr_8_5_amb_12_when_all_five_are_full_one_is_replaced_and_goes_to_the_pool() -> None:
    """RR-8.5 (AMB-12): with five factories the player names any one to replace; it goes to the pool and the
    markers stay."""
    state = green(factories=(2, 3, 4, 5, 6), markers=(9,))
    state = play(turn(state), 0, place("locomotive_1", 1))
    refused(state, 0, factory(2), "RR-8.5")  # name the one to replace
    state = play(state, 0, factory(2, replace=3))  # any of the five, not only the first
    assert state.players[0].factories == (2, 3, 4, 2, 6)
    assert state.pool == (5,) and state.stacks["2"] == 3
    assert state.players[0].markers == (9,)  # markers stay put


def test_rr_8_2_a_factory_comes_through_an_effect_too() -> None:
    """RR-8.2: factory F2 (#3 in the default set) says "1 locomotive or 1 factory": reached by an
    industry marker, it lets the player take a factory."""
    f2 = next(f for f in COMPONENTS.factories if any(e.kind == "locomotive_or_factory" for e in f.effects))
    lane = [place_.kind for place_ in COMPONENTS.industry]
    gap = lane.index("gap")
    state = green(factories=(f2.locomotive, None, None, None, None), markers=(gap - 1,))
    state = play(turn(state), 0, place("industry_1", 1))
    assert head(state) == "take"
    state = play(state, 0, factory(2))
    assert done(state) and state.players[0].factories == (f2.locomotive, 2, None, None, None)


def test_rr_7_1_rr_5_5_amb_11_the_bottom_space_closes_when_its_locomotive_fits_nowhere() -> None:
    """RR-7.1 with RR-5.5 and AMB-11: the bottom space needs both a placeable locomotive and a
    factory; the top space still gives the factory."""
    state = turn(green(locomotives={TS: (9, 9), SP: (9,), KV: (9,)}))
    assert "locomotive_3" not in spaces_offered(state) and "locomotive_1" in spaces_offered(state)
    refused(state, 0, place("locomotive_3", 3), "RR-5.5")
