"""Engineers (§11, EX-14, EX-15, AMB-16, RR-15.4): the strip, the changing spaces used like board
spaces, hiring for 1 ruble, own engineers once a round and performed in part.

Which engineer shows which action, its cost and value are fill-ins (DATA-9): engineers are found
by their effects and their costs read from the component set.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import State
from domain.kernel.agenda import Step

from .builders import TS, table
from .play_turn import at_turn, immediate, legal, parked, places, play, refused, with_steps

COMPONENTS = default_components()
SLOTS = [slot.kind for slot in COMPONENTS.for_players(4).engineer_slots]
LEFT, RIGHT = [i for i, kind in enumerate(SLOTS) if kind == "changing"]
HIRE = SLOTS.index("hire")


def engineer_with(*kinds: str) -> Any:
    """The engineer whose effects are exactly these kinds (DATA-9 is a fill-in)."""
    return next(e for e in COMPONENTS.engineers if sorted(x.kind for x in e.effects) == sorted(kinds))


MULTIPLIER_3VP = engineer_with("vp", "multiplier")  # E3
INDUSTRY_BLACK = engineer_with("industry", "advance")  # E10
BLACK_3VP = next(e for e in COMPONENTS.engineers
                 if [(x.kind, x.colour) for x in e.effects] == [("vp", None), ("advance", "black")])  # E8


def pay(engineer: Any, **extra: int) -> mv.Place:
    """A Place paying `engineer`'s printed cost with own workers and rubles."""
    return mv.Place(space=extra.pop("space", engineer.id), workers=engineer.workers, rubles=engineer.rubles, **extra)


def strip(**at: str) -> tuple[str | None, ...]:
    slots: list[str | None] = [None] * len(SLOTS)
    for index, engineer in at.items():
        slots[int(index.removeprefix("s"))] = engineer
    return tuple(slots)


def on_strip(players: dict[int, dict[str, Any]] | None = None, **at: str) -> State:
    return table(4, players or {0: {"rubles": 3}}, strip=strip(**at))


def test_rr_11_1_rr_11_2_rr_11_3_only_the_changing_engineers_and_the_hiring_space_are_usable() -> None:
    """RR-11.1, RR-11.2, RR-11.3: the 4-player strip is four previews, two changing spaces and the
    hiring space; with an engineer on each, the two light-side (changing) ones and the hiring space
    can be taken, the dark-side previews cannot."""
    assert SLOTS == ["preview", "preview", "preview", "preview", "changing", "changing", "hire"]
    assert [s.deck for s in COMPONENTS.for_players(4).engineer_slots] == ["X"] * 4 + ["Y"] * 3
    cheap = [e.id for e in COMPONENTS.engineers
             if e.workers <= 1 and e.rubles == 0 and all(x.kind != "repeat" for x in e.effects)]
    full = table(4, {0: {"rubles": 2}}, strip=tuple(cheap[:7]))
    usable = places(at_turn(full, 0))
    assert {"engineer_left", "engineer_right", "hire"} <= usable
    assert not usable & set(cheap[:7])


def test_ex_15_rr_11_4_a_changing_engineer_is_a_board_space_for_everyone() -> None:
    """EX-15, RR-11.4: A changing engineer is a board space for everyone."""
    state = on_strip(**{f"s{LEFT}": MULTIPLIER_3VP.id})
    before = state.players[0].workers
    state = play(at_turn(state, 0), pay(MULTIPLIER_3VP, space="engineer_left"))
    assert state.players[0].multipliers == 1
    assert immediate(state) == [(MULTIPLIER_3VP.rule, 3)]
    assert state.players[0].workers == before - MULTIPLIER_3VP.workers
    assert state.strip[LEFT] == MULTIPLIER_3VP.id  # it stays on the strip: not hired (RR-11.4)
    assert parked(state)
    # once a round: nobody else may use it now (RR-5.3)
    refused(at_turn(state.with_agenda(()), 1), pay(MULTIPLIER_3VP, space="engineer_left"), "RR-5.3", seat=1)


def test_rr_11_4_rr_5_5_a_changing_engineer_must_be_performed_in_full() -> None:
    """RR-11.4, RR-5.5: A changing engineer must be performed in full."""
    state = at_turn(on_strip({0: {"multipliers": 8, "rubles": 3}}, **{f"s{RIGHT}": MULTIPLIER_3VP.id}), 0)
    assert "engineer_right" not in places(state)
    refused(state, pay(MULTIPLIER_3VP, space="engineer_right"), "RR-5.5")


def test_rr_11_4_an_empty_changing_space_cannot_be_used() -> None:
    """RR-11.4: An empty changing space cannot be used."""
    state = at_turn(on_strip(), 0)
    assert "engineer_left" not in places(state)
    refused(state, mv.Place(space="engineer_left", workers=1), "RR-11.4")


def test_rr_11_3_preview_engineers_cannot_be_used_or_hired() -> None:
    """RR-11.3: Preview engineers cannot be used or hired."""
    state = at_turn(on_strip(s0=BLACK_3VP.id), 0)
    assert BLACK_3VP.id not in places(state)
    refused(state, pay(BLACK_3VP), "RR-11.6")
    refused(state, mv.Place(space="hire", rubles=1), "RR-11.5")  # the hiring space is empty


def test_ex_14_rr_11_5_hiring_takes_the_engineer_for_one_ruble() -> None:
    """EX-14, RR-11.5: Hiring takes the engineer for one ruble."""
    state = play(at_turn(on_strip(**{f"s{HIRE}": BLACK_3VP.id}), 0), mv.Place(space="hire", rubles=1))
    player = state.players[0]
    assert player.engineers == (BLACK_3VP.id,)
    assert player.rubles == 2 and player.workers == 5
    assert state.strip[HIRE] is None
    assert immediate(state) == []  # hiring gives the engineer, not its action
    # only one a round: the hiring space is occupied
    refused(at_turn(state.with_agenda(()), 1), mv.Place(space="hire", rubles=1), "RR-5.3", seat=1)


def test_rr_11_6_rr_11_7_an_own_engineer_is_used_like_a_board_space_in_the_round_it_was_hired() -> None:
    """RR-11.6, RR-11.7: An own engineer is used like a board space in the round it was hired."""
    state = play(at_turn(on_strip(**{f"s{HIRE}": BLACK_3VP.id}), 0), mv.Place(space="hire", rubles=1))
    state = play(at_turn(state.with_agenda(()), 0), pay(BLACK_3VP), mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS]["black"] == 2
    assert immediate(state) == [(BLACK_3VP.rule, 3)]
    assert parked(state)


def test_rr_11_6_amb_16_an_own_engineer_once_a_round_and_nobody_else_s() -> None:
    """RR-11.6, AMB-16: An own engineer once a round and nobody else's."""
    start = table(4, {0: {"engineers": (BLACK_3VP.id,)}})
    once = play(at_turn(start, 0), pay(BLACK_3VP), mv.Advance(railway=TS, colour="black")).with_agenda(())
    assert BLACK_3VP.id not in places(at_turn(once, 0))
    refused(at_turn(once, 0), pay(BLACK_3VP), "RR-11.6")
    refused(at_turn(start, 1), pay(BLACK_3VP), "RR-11.6", seat=1)
    # the next round it is free again (cleanup takes the workers back)
    cleaned = with_steps(once, Step("cleanup"))
    assert BLACK_3VP.id in places(at_turn(cleaned, 0))


def test_amb_16_option_unlimited_own_engineer_uses() -> None:
    """AMB-16: Option unlimited own engineer uses."""
    options = RussianRailroadsOptions(own_engineers="unlimited")
    start = table(4, {0: {"engineers": (BLACK_3VP.id,)}}, options=options)
    once = play(at_turn(start, 0), pay(BLACK_3VP), mv.Advance(railway=TS, colour="black")).with_agenda(())
    twice = play(at_turn(once, 0), pay(BLACK_3VP), mv.Advance(railway=TS, colour="black"))
    assert twice.players[0].tracks[TS]["black"] == 3
    assert immediate(twice) == [(BLACK_3VP.rule, 3), (BLACK_3VP.rule, 3)]


def test_rr_11_8_rr_22_16_an_own_engineer_is_performed_as_far_as_possible() -> None:
    """RR-11.8, RR-22.16: An own engineer is performed as far as possible."""
    # the industry marker stands before an empty gap: the industry half cannot be done
    blocked = {"markers": (4,), "rubles": 3}
    own = table(4, {0: {**blocked, "engineers": (INDUSTRY_BLACK.id,)}})
    state = play(at_turn(own, 0), pay(INDUSTRY_BLACK))
    # the industry part first: it cannot be done and is lost, without refusing the action
    state = play(state, mv.NextPart(part="industry"))
    assert state.agenda[0].kind == "advance"
    state = play(state, mv.Advance(railway=TS, colour="black"))
    assert state.players[0].tracks[TS]["black"] == 2
    assert state.players[0].markers == (4,)
    assert parked(state)
    # the same engineer on a changing space must be done in full (RR-11.4)
    board = at_turn(table(4, {0: blocked}, strip=strip(**{f"s{LEFT}": INDUSTRY_BLACK.id})), 0)
    refused(board, pay(INDUSTRY_BLACK, space="engineer_left"), "RR-5.5")


def test_rr_11_8_an_own_engineer_that_can_do_nothing_is_still_a_legal_action() -> None:
    """RR-11.8: An own engineer that can do nothing is still a legal action."""
    own = table(4, {0: {"multipliers": 8, "engineers": (MULTIPLIER_3VP.id,)}})
    state = play(at_turn(own, 0), pay(MULTIPLIER_3VP))
    assert state.players[0].multipliers == 8
    assert immediate(state) == [(MULTIPLIER_3VP.rule, 3)]


def test_rr_11_10_rr_15_4_cleanup_moves_engineers_right_and_boxes_the_unhired_one() -> None:
    """RR-11.10, RR-15.4: Cleanup moves engineers right and boxes the unhired one."""
    ids = [e.id for e in COMPONENTS.engineers[:7]]
    state = table(4, strip=tuple(ids))
    cleaned = with_steps(state, Step("cleanup"))
    assert cleaned.strip == (None, *ids[:6])
    assert ids[6] not in cleaned.strip
    assert all(ids[6] not in p.engineers for p in cleaned.players)


def test_rr_15_4_after_a_hire_the_strip_still_moves_right() -> None:
    """RR-15.4: After a hire the strip still moves right."""
    ids = [e.id for e in COMPONENTS.engineers[:7]]
    hired = play(at_turn(table(4, {0: {"rubles": 1}}, strip=tuple(ids)), 0), mv.Place(space="hire", rubles=1))
    cleaned = with_steps(hired.with_agenda(()), Step("cleanup"))
    assert cleaned.strip == (None, *ids[:6])
    assert cleaned.players[0].engineers == (ids[6],)
    # the engineer that was on the right changing space is now on the hiring space
    assert cleaned.strip[HIRE] == ids[RIGHT]
    assert cleaned.strip[LEFT] == ids[LEFT - 1]


REPEAT = engineer_with("repeat")  # E7


def test_rr_11_4_rr_22_7_amb_29_a_changing_repeat_engineer_needs_something_to_repeat() -> None:
    """RR-11.4, RR-22.7, AMB-29: the repeat engineer on a changing space must be performed in full,
    so it is refused until the seat has used a one-worker space with exactly one worker or ruble;
    then it repeats that action with nothing placed (a two-worker space does not qualify)."""
    start = table(4, {0: {"rubles": 1}}, strip=strip(**{f"s{LEFT}": REPEAT.id}))
    refused(at_turn(start, 0), pay(REPEAT, space="engineer_left"), "RR-5.5")
    two = play(at_turn(start, 0), mv.Place(space="industry_2", workers=2)).with_agenda(())
    refused(at_turn(two, 0), pay(REPEAT, space="engineer_left"), "RR-5.5")
    used = play(at_turn(two, 0), mv.Place(space="rubles", workers=1)).with_agenda(())
    assert used.players[0].rubles == 3
    state = play(at_turn(used, 0), pay(REPEAT, space="engineer_left"))
    assert state.players[0].rubles == 5
    assert parked(state)


def test_rr_10_7_rr_11_6_an_engineer_costing_a_ruble_takes_no_worker() -> None:
    """RR-10.7, RR-11.6: an own engineer whose cost is a ruble is paid with that ruble only."""
    ruble_cost = next(e for e in COMPONENTS.engineers if e.rubles == 1 and e.workers == 0)
    start = table(4, {0: {"rubles": 1, "engineers": (ruble_cost.id,)}})
    refused(at_turn(start, 0), mv.Place(space=ruble_cost.id, workers=1), "RR-10.7")
    offered = {(m.workers, m.temporary, m.black, m.rubles) for m in legal(at_turn(start, 0))
               if isinstance(m, mv.Place) and m.space == ruble_cost.id}
    assert offered == {(0, 0, 0, 1)}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([None, *[e.id for e in COMPONENTS.engineers if e.id != "E6"]]), min_size=7, max_size=7,
                unique_by=lambda e: e if e is not None else object()))
def test_rr_15_4_rr_11_10_property_cleanup_shifts_the_strip_one_space_right(slots: list[str | None]) -> None:
    """RR-15.4, RR-11.10: whatever lies on the strip, cleanup moves every engineer one space right,
    the one on the hiring space leaves the game, and the leftmost space is left empty; hired
    engineers stay with their owners (RR-15.7)."""
    state = table(4, {1: {"engineers": ("E6",)}}, strip=tuple(slots))
    cleaned = with_steps(state, Step("cleanup"))
    assert cleaned.strip == (None, *slots[:-1])
    assert cleaned.players[1].engineers == ("E6",)
