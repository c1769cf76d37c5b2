"""Around a performance: the show organiser's return just before it (DR-19.2, AMB-15), the order
of the performance's parts (DR-3.5), and the end of performance (DR-13.1 to DR-13.6, AMB-27,
AMB-28, DR-22.2 to DR-22.4)."""

from __future__ import annotations

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import RowCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import chance, illegal, move, until_move
from .test_wages import circus, run, table

# `table(seats)`: start player seat 1, performance 1; rows H01 H02 H03 (H04 too for 4 seats) and
# P01 P10 P19 (P28, P37 for 3, 4 seats), types magician, acrobat, juggler, tamer, bizarre; regions
# seat 0 moscow, seat 1 paris, seat 2 london, seat 3 rome (2 seats: london is the neutral one);
# the circuses empty (so nobody pays wages), every player at 0 money.


def with_tokens(state: State) -> State:
    """One discount token on every row card, taken from the supply."""
    performers = tuple(RowCard(c.card, 1) for c in state.performer_row)
    helpers = tuple(RowCard(c.card, 1) for c in state.helper_row)
    return evolve(state, performer_row=performers, helper_row=helpers,
                  discounts=state.discounts - len(performers) - len(helpers))


def organiser_owned(state: State) -> State:
    """Seat 0 owns the show organiser (H01), the helper row holding H02 H03 H04 instead."""
    state = circus(state, 0, helpers=("H01",), money=5)
    row = (RowCard("H02"), RowCard("H03"), RowCard("H04"))
    return evolve(state, helper_row=row, helper_deck=tuple(c for c in state.helper_deck if c != "H04"))


def test_dr_13_1_amb_28_both_rows_are_discarded_with_their_tokens_and_dealt_again() -> None:
    """Rules: DR-13.1."""
    before = with_tokens(circus(table(), 0, "P09"))
    assert before.discounts == 44 - 7
    state = run(before, Step("after_performance"))
    assert (state.helper_row, state.performer_row) == ((), ())
    assert state.helper_discard == ("H01", "H02", "H03")
    assert state.performer_discard == ("P01", "P10", "P19", "P28")
    assert state.discounts == 44  # DR-7.4, AMB-4: the tokens are back in the supply
    assert [h.card for h in state.players[0].performers] == ["P09"]  # circuses keep their cards
    decision = RULESET.decision(state)
    assert decision.chance is not None and decision.chance.visible_to == "all"
    assert decision.chance.weight_of("H01") == 0  # the discarded cards are not in the deck
    state = chance(state, "H07", "H04", "H12")
    assert state.helper_row == (RowCard("H07"), RowCard("H04"), RowCard("H12"))
    state = chance(state, "P11", "P12", "P13", "P20", "P29")  # P13: a third acrobat (DR-2.6)
    assert [c.card for c in state.performer_row] == ["P11", "P12", "P20", "P29"]
    assert state.performer_discard[-1] == "P13"
    assert RULESET.decision(state).chance is None  # DR-13.6: round 1 is being played


def test_dr_13_1_dr_22_3_dr_22_4_two_players_get_3_helpers_and_3_different_types() -> None:
    """Rules: DR-13.1, DR-22.3, DR-22.4."""
    state = run(table(2), Step("after_performance"))
    state = chance(state, "H04", "H05", "H06")
    assert len(state.helper_row) == 3 and RULESET.decision(state).chance is not None
    state = chance(state, "P02", "P09", "P11", "P12", "P20")  # a second magician, then acrobat: discarded
    assert [c.card for c in state.performer_row] == ["P02", "P11", "P20"]
    assert state.performer_discard[-2:] == ("P09", "P12")


def test_dr_13_1_four_players_get_4_helpers_and_5_performers() -> None:
    """Rules: DR-13.1."""
    state = until_move(run(table(4), Step("after_performance")))
    assert (len(state.helper_row), len(state.performer_row)) == (4, 5)
    assert all(c.discounts == 0 for c in (*state.helper_row, *state.performer_row))


def test_dr_13_1_dr_16_3_an_empty_deck_takes_its_discard_pile_with_the_old_row() -> None:
    """Rules: DR-13.1, DR-16.3."""
    state = evolve(table(), helper_deck=(), helper_discard=("H09",))
    state = run(state, Step("after_performance"))
    decision = RULESET.decision(state)
    assert decision.chance is not None
    assert [card for card, _ in decision.chance.outcomes] == ["H01", "H02", "H03", "H09"]
    state = chance(state, "H02", "H09", "H01")
    assert [c.card for c in state.helper_row] == ["H02", "H09", "H01"]
    assert (state.helper_deck, state.helper_discard) == (("H03",), ())


def test_dr_13_2_dr_13_6_the_next_performance_starts_at_round_1() -> None:
    """Rules: DR-13.2, DR-13.6."""
    state = until_move(run(evolve(table(), round=7), Step("after_performance")))
    assert (state.performance, state.round) == (2, 1)
    assert [p.markers for p in state.players] == [3, 3, 3]
    assert RULESET.decision(state).seats == (2,)  # the placement of round 1, by the new start player
    assert state.agenda[0].kind == "place_marker"


def test_dr_13_3_three_players_pass_their_regions_left() -> None:
    """Rules: DR-13.3."""
    state = until_move(run(table(3), Step("after_performance")))
    assert [p.region for p in state.players] == ["london", "moscow", "paris"]


def test_dr_13_3_four_players_pass_their_regions_left() -> None:
    """Rules: DR-13.3."""
    state = until_move(run(table(4), Step("after_performance")))
    assert [p.region for p in state.players] == ["rome", "moscow", "paris", "london"]


def test_dr_22_2_amb_29_two_players_rotate_over_the_neutral_seat() -> None:
    """Rules: DR-22.2."""
    state = table(2)
    assert ([p.region for p in state.players], state.neutral_region) == (["moscow", "paris"], "london")
    state = until_move(run(state, Step("after_performance")))
    assert ([p.region for p in state.players], state.neutral_region) == (["london", "moscow"], "paris")
    state = until_move(run(state, Step("after_performance")))
    assert ([p.region for p in state.players], state.neutral_region) == (["paris", "london"], "moscow")
    # each player has visited all three regions: seat 0 moscow, london, paris; seat 1 paris, moscow, london


def test_dr_13_4_ticket_cubes_go_back_to_the_start() -> None:
    """Rules: DR-13.4."""
    state = table().with_player(0, ticket=3).with_player(2, ticket=6)
    state = until_move(run(state, Step("after_performance")))
    assert [p.ticket for p in state.players] == [0, 0, 0]


def test_dr_13_5_the_start_player_passes_to_the_left() -> None:
    """Rules: DR-13.5."""
    state = until_move(run(evolve(table(), start_player=2), Step("after_performance")))
    assert state.start_player == 0 and RULESET.decision(state).seats == (0,)


def test_dr_3_5_dr_12_6_the_organisers_return_then_the_performing_then_wages_then_the_end_of_performance() -> None:
    """Rules: DR-3.5."""
    state = organiser_owned(table())
    state = circus(state, 2, "P08", money=5)
    state = run(state, Step("performance"))
    assert state.agenda[0] == Step("return_organiser_before_show", seat=0, performance=1)
    assert [p.money for p in state.players] == [5, 0, 5]  # no wages yet
    state = move(state, 0, {"type": "return_organiser", "returned": False})
    # then the performing: seat 2's P08 has no cube, so it is fired (DR-11.8: severance of its cost 5,
    # -1 fame); then the wages: H01's 1 for seat 0, nothing for the fired P08 (DR-12.6)
    assert [p.money for p in state.players] == [4, 0, 0]
    assert [(e.category, e.points) for e in state.players[2].ledger] == [("fired", -1)]
    assert RULESET.decision(state).chance is not None and state.helper_row == ()  # DR-13.1's deal


def test_dr_19_2_amb_15_the_organiser_returned_before_the_show_makes_its_owner_start() -> None:
    state = run(organiser_owned(table()), Step("performance"))
    illegal(state, 1, {"type": "return_organiser", "returned": True}, "DR-19.2")  # not its decision
    illegal(state, 0, {"type": "pass_marker"}, "DR-4.1")
    assert len(RULESET.legal_moves(state, 0)) == 2
    state = move(state, 0, {"type": "return_organiser", "returned": True})
    assert state.players[0].helpers == () and state.players[0].money == 5  # no wage for it any more
    assert "H01" in state.helper_discard  # it went to the row, and was discarded with it (DR-13.1)
    state = until_move(state)
    assert (state.performance, state.start_player) == (2, 0)  # instead of seat 2 (DR-13.5)
    assert RULESET.decision(state).seats == (0,)


def test_dr_19_2_a_kept_organiser_lets_the_start_player_pass() -> None:
    """Rules: DR-19.2."""
    state = run(organiser_owned(table()), Step("performance"))
    state = until_move(move(state, 0, {"type": "return_organiser", "returned": False}))
    assert state.players[0].helpers == ("H01",) and state.start_player == 2


def test_dr_13_5_amb_15_a_return_at_an_earlier_end_of_round_does_not_choose_the_next_start_player() -> None:
    """Rules: DR-13.5."""
    state = evolve(table(), start_player=0, organiser_returned=2)  # returned at the end of round 4
    state = until_move(run(state, Step("performance")))
    assert (state.performance, state.start_player) == (2, 1)


def test_amb_27_dr_14_1_after_the_third_performance_no_clean_up_and_the_match_ends() -> None:
    """Rules: DR-14.1."""
    before = with_tokens(table()).with_player(0, ticket=2)
    before = evolve(before, performance=3, round=6)
    state = run(before, Step("performance"))
    assert state.over and state.agenda == () and RULESET.decision(state).over
    assert (state.performer_row, state.helper_row) == (before.performer_row, before.helper_row)
    assert [p.region for p in state.players] == [p.region for p in before.players]
    assert (state.players[0].ticket, state.start_player, state.performance) == (2, 1, 3)


def test_dr_19_2_the_organiser_may_be_returned_before_the_third_performance_too() -> None:
    """Rules: DR-19.2."""
    state = run(evolve(organiser_owned(table()), performance=3), Step("performance"))
    assert RULESET.decision(state).seats == (0,)
    state = move(state, 0, {"type": "return_organiser", "returned": True})
    assert state.over and state.helper_row[-1] == RowCard("H01") and state.start_player == 1


def test_dr_10_2_dr_13_2_the_last_votes_ballots_do_not_reveal_the_next_performances_votes() -> None:
    """Rules: DR-10.2, DR-13.2."""
    state = evolve(table(), votes=("perform", "postpone", "perform"), vote_round=5)
    assert "vote-1-5" in RULESET.reveals(state)
    state = until_move(run(state, Step("after_performance")))
    assert state.performance == 2 and state.votes == (None, None, None) and state.vote_round == 0
    assert not [point for point in RULESET.reveals(state) if point.startswith("vote-")]
    state = AGENDA.advance(evolve(state, round=5, agenda=(Step("after_sharing", round=5),)))
    state = move(state, 2, {"type": "cast_vote", "postpone": True})  # the start player is seat 2 now
    assert "vote-2-5" not in RULESET.reveals(state)
    assert RULESET.view(state, Viewer("seat", 0))["votes"] == [None, None, "cast"]
