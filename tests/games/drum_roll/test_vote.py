"""The vote (DR-3.4, DR-10, DR-21.18, DR-22.5, AMB-7, AMB-8, AMB-26, EX-10) and the start of the performance."""

from __future__ import annotations

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import HandCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.contract import PrivateChoice
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import config, illegal, move
from .test_sharing import sharing

# `sharing()`: 3 players, start player seat 1, fame 0 each.


def voting(number: int, state: State | None = None, **changes: object) -> State:
    state = sharing() if state is None else state
    return AGENDA.advance(evolve(state, round=number, agenda=(Step("after_sharing", round=number),), **changes))


def performing(state: State) -> bool:
    """The performance has begun (DR-3.5): its seats' parts, then the wages, are on the agenda."""
    return not state.over and Step("wages") in state.agenda and state.votes is not None


def ballot(state: State, seat: int, postpone: bool) -> State:
    return move(state, seat, {"type": "cast_vote", "postpone": postpone})


def two_players() -> State:
    from .test_setup import cubes_taken

    state = cubes_taken(2, start_player=0)
    return evolve(state, round=5, agenda=(Step("after_sharing", round=5),))


def test_dr_10_2_ballots_are_private_until_every_seat_has_voted() -> None:
    """Rules: DR-10.2."""
    state = voting(5)
    assert RULESET.decision(state).seats == (1,)  # clockwise from the start player
    choice = RULESET.private_choice(state, 1, RULESET.parse_move({"type": "cast_vote", "postpone": True}))
    assert choice == PrivateChoice(until="vote-1-5")
    state = ballot(state, 1, True)
    assert "vote-1-5" not in RULESET.reveals(state)
    assert RULESET.view(state, Viewer("seat", 0))["votes"] == [None, "cast", None]
    assert RULESET.view(state, Viewer("seat", 1))["votes"] == [None, "postpone", None]
    state = ballot(ballot(state, 2, False), 0, False)
    assert "vote-1-5" in RULESET.reveals(state)
    assert RULESET.view(state, Viewer("seat", 0))["votes"] == ["perform", "postpone", "perform"]


def test_dr_10_4_dr_3_5_perform_now_wins_and_the_performance_begins() -> None:
    """Rules: DR-10.4, DR-3.5."""
    state = ballot(ballot(ballot(voting(5), 1, True), 2, False), 0, False)
    assert performing(state) and state.round == 5 and state.start_player == 1  # no end of round (AMB-6)
    assert [p.fame for p in state.players] == [0, 0, 0]  # DR-10.7: no fame lost after round 5


def test_dr_10_4_dr_10_5_postpone_wins_and_round_6_follows_an_end_of_round() -> None:
    """Rules: DR-10.4, DR-10.5."""
    state = ballot(ballot(ballot(voting(5), 1, True), 2, True), 0, False)
    assert not state.over and (state.round, state.start_player) == (6, 2)  # DR-9.6
    assert RULESET.decision(state).seats == (2,)


def test_dr_10_4_amb_8_a_tie_goes_the_start_players_way() -> None:
    # three seats cannot tie without a Double vote: seat 0 doubles its perform vote, 2 against 2
    """Rules: DR-10.4."""
    state = voting(5, state=sharing().with_player(0, hand=(HandCard("I25"),)))
    state = ballot(ballot(ballot(state, 1, True), 2, True), 0, False)
    assert RULESET.decision(state).seats == (0,)  # DR-10.3: the Double vote after the reveal
    state = move(state, 0, {"type": "play_double_vote", "play": True})
    assert state.round == 6 and not state.over  # 2 : 2, the start player (seat 1) voted postpone
    assert state.players[0].hand == () and state.investment_discard == ("I25",)  # DR-21.6


def test_dr_21_18_amb_26_a_double_vote_counts_twice_and_one_card_per_vote() -> None:
    """Rules: DR-21.18."""
    state = voting(5, state=sharing().with_player(1, hand=(HandCard("I25"), HandCard("I26"))))
    state = ballot(ballot(ballot(state, 1, False), 2, True), 0, True)
    illegal(state, 0, {"type": "play_double_vote", "play": True}, "DR-10.3")  # seat 0 holds none: not asked
    state = move(state, 1, {"type": "play_double_vote", "play": True})
    # perform 2 (seat 1 doubled) against postpone 2: a tie, the start player (seat 1) performs
    assert performing(state) and state.round == 5
    assert state.players[1].hand == (HandCard("I26"),)  # AMB-26: one card per player per vote


def test_dr_21_18_a_double_vote_may_be_kept() -> None:
    """Rules: DR-21.18."""
    state = voting(5, state=sharing().with_player(1, hand=(HandCard("I25"),)))
    state = ballot(ballot(ballot(state, 1, False), 2, True), 0, True)
    state = move(state, 1, {"type": "play_double_vote", "play": False})
    assert state.round == 6 and state.players[1].hand == (HandCard("I25"),)  # 2 : 1 postpone


def test_dr_22_5_ex_10_the_two_player_votes() -> None:
    """Rules: DR-22.5."""
    state = AGENDA.advance(two_players())
    assert RULESET.decision(state).seats == (0,)
    state = ballot(ballot(state, 0, False), 1, True)  # A perform, B postpone, + imaginary postpone
    assert (state.round, state.start_player) == (6, 1)
    state = AGENDA.advance(evolve(state, agenda=(Step("after_sharing", round=6),)))
    state = ballot(ballot(state, 1, True), 0, False)  # 1 : 1, the start player (B) decides
    assert state.round == 7 and not state.over
    assert [p.fame for p in state.players] == [0, -1]  # DR-10.7: B loses 1 fame (DR-0.4: below 0)


def test_dr_10_7_amb_7_every_postpone_voter_after_round_6_loses_1_fame() -> None:
    """Rules: DR-10.7."""
    state = ballot(ballot(ballot(voting(6), 1, True), 2, False), 0, False)
    assert performing(state)  # perform won
    assert [p.fame for p in state.players] == [0, -1, 0]


def test_dr_10_7_amb_7_b_only_if_postponed() -> None:
    """Rules: DR-10.7."""
    state = sharing()
    reading = config(3, start_player=1, postpone_fame_loss="if_postponed")
    state = RULESET.decode_state(RULESET.encode_state(state), reading)
    state = ballot(ballot(ballot(voting(6, state=state), 1, True), 2, False), 0, False)
    assert performing(state) and [p.fame for p in state.players] == [0, 0, 0]


def test_dr_10_7_no_fame_lost_after_round_5() -> None:
    """Rules: DR-10.7."""
    state = ballot(ballot(ballot(voting(5), 1, True), 2, True), 0, True)
    assert state.round == 6 and [p.fame for p in state.players] == [0, 0, 0]


def test_dr_10_6_dr_3_4_after_round_7_the_performance_begins_with_no_vote() -> None:
    """Rules: DR-10.6, DR-3.4."""
    state = voting(7)
    assert performing(state) and state.votes == (None, None, None)


def test_dr_10_1_votes_only_after_rounds_5_and_6() -> None:
    state = sharing()
    illegal(state, 1, {"type": "cast_vote", "postpone": True}, "DR-10.1")
    voted = voting(5)
    illegal(voted, 0, {"type": "cast_vote", "postpone": True}, "DR-10.2")  # seat 1 votes first


def test_dr_21_18_any_hand_is_asked_so_the_question_reveals_no_card() -> None:
    """Seat 2 holds a card that is not a Double vote: it is asked too, and may only decline, so the
    question tells the table nothing about which cards a hand holds."""
    hands = sharing().with_player(1, hand=(HandCard("I25"),)).with_player(2, hand=(HandCard("I01"),))
    state = ballot(ballot(ballot(voting(5, state=hands), 1, False), 2, True), 0, True)
    state = move(state, 1, {"type": "play_double_vote", "play": False})
    assert RULESET.decision(state).seats == (2,)
    assert RULESET.legal_moves(state, 2) == [RULESET.parse_move({"type": "play_double_vote", "play": False})]
    illegal(state, 2, {"type": "play_double_vote", "play": True}, "DR-21.18")
    state = move(state, 2, {"type": "play_double_vote", "play": False})
    assert state.round == 6  # 2 postpone : 1 perform
