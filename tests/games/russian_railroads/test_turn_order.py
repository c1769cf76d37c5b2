"""Turn order (§12, RR-3.11, EX-16 to EX-19, AMB-17 to AMB-20): playing order, passing and its VP,
the restrictions on the turn-order spaces, the identity swap, reorganisation and the turn-order
worker's reuse. Rounds are driven whole, through the game's own round program.

Seats are named as in the rulebook's examples: Yellow 0, Blue 1, Green 2, Red 3.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.state import Placement, State
from domain.kernel.values import evolve

from .builders import TS, table, tracks
from .play_turn import at_turn, legal, play, refused, round_of, seat_to_move

YELLOW, BLUE, GREEN, RED = range(4)
COMPONENTS = default_components()
PASS_VP = COMPONENTS.constants.pass_vp


def take(space: str, workers: int = 1, **paid: int) -> mv.Place:
    return mv.Place(space=space, workers=workers, **paid)


def turns(state: State, *moves: Any) -> tuple[State, list[int]]:
    """Play `moves` in order, each by the seat to move; return the state and who moved."""
    seats = []
    for move in moves:
        seats.append(seat_to_move(state))
        state = play(state, move)
    return state, seats


def pass_lines(state: State) -> list[tuple[int, int]]:
    return [(line.seat, line.points) for line in state.lines if line.rule == "RR-12.4"]


def test_ex_16_rr_12_1_turn_order_positions_not_seats_and_back_to_first() -> None:
    """EX-16, RR-12.1: Turn order positions not seats and back to first."""
    state = round_of(table(4))
    state, seats = turns(state, take("industry_1"), take("rubles"), take("multiplier"), take("temporary_workers"))
    assert seats == [YELLOW, BLUE, GREEN, RED]
    assert seat_to_move(state) == YELLOW


def test_rr_12_1_rr_12_3_the_order_follows_positions_and_skips_who_passed() -> None:
    """RR-12.1, RR-12.3: The order follows positions and skips who passed."""
    state = round_of(table(4, positions=(3, 1, 4, 2)))  # order: Blue, Red, Yellow, Green
    state, seats = turns(state, take("industry_1"), mv.Pass(), take("rubles"), take("multiplier"),
                         take("industry_2", 2), take("temporary_workers"))
    assert seats == [BLUE, RED, YELLOW, GREEN, BLUE, YELLOW]
    assert state.players[RED].passed
    assert seat_to_move(state) == GREEN


def test_rr_12_4_passing_gains_the_vp_on_the_card_s_back() -> None:
    """RR-12.4: Passing gains the VP on the card's back."""
    state = round_of(table(4))
    state, _ = turns(state, mv.Pass(), mv.Pass(), mv.Pass())
    assert pass_lines(state) == [(BLUE, PASS_VP[1]), (GREEN, PASS_VP[2])]  # position 1 shows 0: no line
    assert PASS_VP == (0, 2, 3, 4)  # DATA-11 hint, the default set's fill-in
    assert all(state.players[seat].passed for seat in (YELLOW, BLUE, GREEN))
    assert seat_to_move(state) == RED


def test_rr_12_2_the_action_phase_ends_when_everyone_has_passed() -> None:
    """RR-12.2: The action phase ends when everyone has passed."""
    state = round_of(table(4))
    state, _ = turns(state, take("industry_1"), mv.Pass(), mv.Pass(), mv.Pass(), mv.Pass())
    assert pass_lines(state) == [(BLUE, PASS_VP[1]), (GREEN, PASS_VP[2]), (RED, PASS_VP[3])]
    # the round ran on: reorganisation, scoring (RR-14.9 for the industry marker), cleanup
    assert state.over  # nothing was left after this round's program
    assert state.placements == ()
    assert any(line.rule == "RR-14.9" and line.seat == YELLOW and line.points == 1 for line in state.lines)


def test_rr_12_7_rr_12_8_who_may_claim_which_turn_order_space() -> None:
    """RR-12.7, RR-12.8: Who may claim which turn order space."""
    state = at_turn(table(4), YELLOW)  # Yellow is first
    refused(state, take("turn_order_1"), "RR-12.8")
    assert "turn_order_2" in {m.space for m in legal(state) if isinstance(m, mv.Place)}
    second = at_turn(table(4), BLUE)
    refused(second, take("turn_order_2"), "RR-12.8")
    claimed = play(at_turn(table(4), GREEN), take("turn_order_1")).with_agenda(())
    refused(at_turn(claimed, GREEN), take("turn_order_2"), "RR-12.8")
    refused(at_turn(claimed, RED), take("turn_order_1"), "RR-5.3")


def test_rr_3_11_two_players_the_first_may_claim_first_and_only_that_space_exists() -> None:
    """RR-3.11: Two players the first may claim first and only that space exists."""
    state = at_turn(table(2), 0)
    spaces = {m.space for m in legal(state) if isinstance(m, mv.Place)}
    assert "turn_order_1" in spaces and "turn_order_2" not in spaces
    refused(state, take("turn_order_2"), "RR-3.6")
    claimed = play(state, take("turn_order_1"))
    assert claimed.placements == (Placement("turn_order_1", 0, 1),)


def test_rr_12_9_amb_17_a_ruble_on_a_turn_order_space_swaps_with_an_own_worker() -> None:
    """RR-12.9, AMB-17: A ruble on a turn order space swaps with an own worker."""
    state = play(at_turn(table(4), BLUE), take("industry_1")).with_agenda(())
    state = play(at_turn(state, BLUE), mv.Place(space="turn_order_1", rubles=1))
    assert state.placements == (Placement("industry_1", BLUE, 0, 0, 0, 1), Placement("turn_order_1", BLUE, 1))
    assert (state.players[BLUE].workers, state.players[BLUE].rubles) == (4, 0)


def test_rr_12_9_rr_10_11_a_temporary_worker_on_a_turn_order_space_swaps_too() -> None:
    """RR-12.9, RR-10.11: A temporary worker on a turn order space swaps too."""
    state = play(at_turn(table(4), BLUE), take("temporary_workers")).with_agenda(())
    state = play(at_turn(state, BLUE), mv.Place(space="turn_order_1", temporary=1))
    assert state.placements == (Placement("temporary_workers", BLUE, 0, 1), Placement("turn_order_1", BLUE, 1))
    assert state.players[BLUE].temporary == 1


def test_rr_12_9_amb_17_without_an_own_worker_elsewhere_the_swap_is_impossible() -> None:
    """RR-12.9, AMB-17: Without an own worker elsewhere the swap is impossible."""
    state = at_turn(table(4, {BLUE: {"rubles": 2}}), BLUE)
    refused(state, mv.Place(space="turn_order_1", rubles=1), "RR-12.9")
    paid_in_rubles = play(state, mv.Place(space="industry_1", rubles=1)).with_agenda(())
    refused(at_turn(paid_in_rubles, BLUE), mv.Place(space="turn_order_1", rubles=1), "RR-12.9", seat=BLUE)


def claim_round(start: State, first: int | None, second: int | None) -> State:
    """A round where `first` claims the first space and `second` the second (either may be None),
    everyone then passes, and each claimer declines to move the worker (RR-12.13)."""
    state = round_of(start)
    wanted = {seat: space for seat, space in ((first, "turn_order_1"), (second, "turn_order_2")) if seat is not None}
    while not state.over:
        seat = seat_to_move(state)
        options = legal(state, seat)
        if mv.Decline() in options:
            state = play(state, mv.Decline())
        elif seat in wanted:
            state = play(state, take(wanted.pop(seat)))
        else:
            state = play(state, mv.Pass())
    return state


def test_ex_17_rr_12_10_claimers_take_the_first_places_the_others_keep_their_order() -> None:
    """EX-17, RR-12.10: Claimers take the first places the others keep their order."""
    state = claim_round(table(4), first=GREEN, second=RED)
    assert state.positions == (3, 4, 1, 2)  # Green 1, Red 2, Yellow 3, Blue 4


def test_ex_18_rr_12_11_first_player_claiming_second_with_no_first_claim_changes_nothing() -> None:
    """EX-18, RR-12.11: First player claiming second with no first claim changes nothing."""
    state = claim_round(table(4), first=None, second=YELLOW)
    assert state.positions == (1, 2, 3, 4)


def test_amb_18_rr_12_10_formal_reorganisation_cases() -> None:
    """AMB-18, RR-12.10: Formal reorganisation cases."""
    assert claim_round(table(4), first=GREEN, second=None).positions == (2, 3, 1, 4)
    assert claim_round(table(4), first=RED, second=YELLOW).positions == (2, 3, 4, 1)
    assert claim_round(table(4, positions=(4, 3, 2, 1)), first=YELLOW, second=BLUE).positions == (1, 2, 4, 3)


def test_rr_12_12_the_new_order_plays_from_the_next_round() -> None:
    """RR-12.12: The new order plays from the next round."""
    state = claim_round(table(4), first=RED, second=None)
    assert state.positions == (2, 3, 4, 1)
    nxt = round_of(evolve(state, over=False), 2)
    assert seat_to_move(nxt) == RED


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(4)), st.sampled_from([None, 0, 1, 2, 3]), st.sampled_from([None, 0, 1, 2, 3]))
def test_amb_18_rr_12_10_rr_12_11_property_reorganisation(order: list[int], first: int | None,
                                                          second: int | None) -> None:
    """AMB-18, RR-12.10, RR-12.11: whoever claims takes that position and the others keep their
    relative order behind, except in the special case; the positions stay a permutation of 1..4."""
    positions = tuple(order.index(seat) + 1 for seat in range(4))
    if first is not None and positions[first] == 1:
        first = None  # RR-12.8: not the space below one's own position
    if second is not None and (positions[second] == 2 or second == first):
        second = None
    state = claim_round(table(4, positions=positions), first=first, second=second)
    assert sorted(state.positions) == [1, 2, 3, 4]
    if first is None and second is not None and positions[second] == 1:
        assert state.positions == positions
        return
    claims = {1: first, 2: second}
    fixed = {pos: seat for pos, seat in claims.items() if seat is not None}
    for pos, seat in fixed.items():
        assert state.positions[seat] == pos
    rest = [seat for seat in order if seat not in fixed.values()]
    assert [state.positions[seat] for seat in rest] == sorted(state.positions[seat] for seat in rest)


def reuse_table() -> State:
    """Red (position 4) has a brown track to move and an own 1-worker engineer; Green is first."""
    engineer = next(e for e in COMPONENTS.engineers if e.workers == 1 and e.rubles == 0)
    return table(4, {RED: {"tracks": tracks(trans_siberian={"black": 7, "grey": 3, "brown": 0}),
                           "locomotives": {TS: (1, 2)}, "engineers": (engineer.id,)}})


def to_reuse(state: State, claimer: int = RED) -> State:
    """Play a round up to `claimer`'s reuse decision: Red claims the first space, the rest pass."""
    state = round_of(state)
    while not (state.agenda and state.agenda[0].kind == "reuse_worker"):
        seat = seat_to_move(state)
        if seat == claimer and not state.players[seat].passed and not any(p.seat == seat for p in state.placements):
            state = play(state, take("turn_order_1"))
        else:
            state = play(state, mv.Pass())
    return state


def test_ex_19_rr_12_13_the_turn_order_worker_moves_to_the_brown_space_before_scoring() -> None:
    """EX-19, RR-12.13: The turn order worker moves to the brown space before scoring."""
    state = to_reuse(reuse_table())
    assert seat_to_move(state) == RED
    assert state.positions[RED] == 1  # reorganised already
    state = play(state, take("brown_1"))
    assert state.over
    assert state.players[RED].tracks[TS]["brown"] == 1
    # AMB-19: the moved worker's action counts in this round's scoring; reach 3: brown 2 + grey 1 + 1
    ts = sum(line.points for line in state.lines
             if line.seat == RED and line.category != "immediate" and line.refs.get("railway") == TS)
    assert ts == 2 + 1 + 1
    assert state.players[RED].workers == 5  # back at cleanup


def test_rr_12_14_amb_20_where_the_turn_order_worker_may_go() -> None:
    """RR-12.14, AMB-20: Where the turn order worker may go."""
    state = to_reuse(reuse_table())
    moves = legal(state)
    spaces = {m.space for m in moves if isinstance(m, mv.Place)}
    engineer = reuse_table().players[RED].engineers[0]
    assert {"brown_1", "black_or_grey", "industry_1", "multiplier", engineer} <= spaces
    assert not spaces & {"black_3", "industry_2", "locomotive_3", "any_2", "hire", "turn_order_1", "turn_order_2"}
    assert all((m.workers, m.temporary, m.black, m.rubles) == (1, 0, 0, 0) for m in moves if isinstance(m, mv.Place))
    assert mv.Decline() in moves
    refused(state, take("black_3"), "RR-12.14")
    refused(state, take("black_3", workers=1, rubles=1), "RR-12.14")
    refused(state, take("brown_1", workers=0, rubles=1), "RR-12.14")
    refused(state, mv.Pass(), "RR-12.3")


def test_rr_12_15_the_moved_worker_is_own_colour_never_the_black_worker() -> None:
    """RR-12.15: The moved worker is own colour never the black worker."""
    start = reuse_table()
    start = start.with_player(RED, black_worker=True, black_in_supply=True)
    state = to_reuse(start)
    refused(state, take("black_or_grey", workers=0, black=1), "RR-12.14")


def test_rr_12_14_the_reusable_space_is_open_to_the_moved_worker_even_when_used() -> None:
    """RR-12.14: The reusable space is open to the moved worker even when used."""
    state = to_reuse(reuse_table().with_player(YELLOW, workers=5))
    assert "black_or_grey" in {m.space for m in legal(state) if isinstance(m, mv.Place)}
    state = play(state, take("black_or_grey"), mv.Advance(railway=TS, colour="black"))
    assert state.players[RED].tracks[TS]["black"] == 8


def test_rr_12_13_the_second_space_s_claimer_moves_first() -> None:
    """RR-12.13: The second space's claimer moves first."""
    state = round_of(table(4))
    state, _ = turns(state, mv.Pass(), mv.Pass(), take("turn_order_1"), take("turn_order_2"))
    while not (state.agenda and state.agenda[0].kind == "reuse_worker"):
        state = play(state, mv.Pass())
    assert seat_to_move(state) == RED  # second space
    state = play(state, mv.Decline())
    assert seat_to_move(state) == GREEN
    # EX-18's special case keeps the reuse (RR-12.13)
    special = round_of(table(4))
    special, _ = turns(special, take("turn_order_2"))
    while not (special.agenda and special.agenda[0].kind == "reuse_worker"):
        special = play(special, mv.Pass())
    assert seat_to_move(special) == YELLOW and special.positions == (1, 2, 3, 4)


def test_rr_16_1_rr_16_3_no_turn_order_claims_in_the_last_round() -> None:
    """RR-16.1, RR-16.3: No turn order claims in the last round."""
    last = table(4, round=COMPONENTS.for_players(4).rounds)
    refused(at_turn(last, GREEN), take("turn_order_1"), "RR-16.1")
    state = claim_round(last, first=None, second=None)
    assert state.positions == (1, 2, 3, 4)


def test_rr_3_11_rr_12_10_two_players_claiming_first_place() -> None:
    """RR-3.11, RR-12.10: with 2 players the second player's claim swaps the order, and the first
    player's own claim keeps it."""
    assert claim_round(table(2), first=1, second=None).positions == (2, 1)
    assert claim_round(table(2), first=0, second=None).positions == (1, 2)


def test_rr_16_3_rr_12_4_passing_still_pays_in_the_last_round() -> None:
    """RR-16.3, RR-12.4: in the last round passing still earns the card's VP."""
    state = round_of(table(4, round=COMPONENTS.for_players(4).rounds))
    state, _ = turns(state, mv.Pass(), mv.Pass())
    assert pass_lines(state) == [(BLUE, PASS_VP[1])]
