"""Between preparation rounds: the end of round (DR-9, AMB-6, AMB-15), the show organiser
(DR-19.2), deck exhaustion (DR-16.3), the bank clerk's deposit (DR-3.3, DR-19.6) and the rounds of
the first performance (DR-3.4)."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import RowCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import chance, illegal, move
from .test_actions import pass_, place
from .test_sharing import sharing

# `sharing()`: 3 players, start player seat 1, money 11, 9, 10, rows P01 P10 P19 P28 and H01 H02 H03
# with one discount token each; the helper deck is H04 to H15.


def ending(state: State, **changes: Any) -> State:
    """Run the end of round 1 and go on into round 2."""
    agenda = (Step("end_of_round", round=1), Step("prep_round", round=2))
    return AGENDA.advance(evolve(state, agenda=agenda, **changes))


def test_dr_9_2_amb_15_the_helper_row_refills_to_n_with_public_draws() -> None:
    """Rules: DR-9.2."""
    state = ending(sharing(), helper_row=(RowCard("H02", 1),))
    decision = RULESET.decision(state)
    assert decision.chance is not None and decision.chance.visible_to == "all"
    assert decision.chance.weight_of("H04") == 1 and decision.chance.weight_of("H02") == 0
    state = chance(state, "H07", "H04")
    assert state.helper_row == (RowCard("H02", 1), RowCard("H07"), RowCard("H04"))
    assert len(state.helper_deck) == 10 and state.round == 2


def test_dr_9_2_amb_15_the_refill_never_removes_cards() -> None:
    """Rules: DR-9.2."""
    row = (RowCard("H02", 1), RowCard("H03", 1), RowCard("H04"), RowCard("H05"))
    state = ending(sharing(), helper_row=row)
    assert state.helper_row == row and state.round == 2
    assert RULESET.decision(state).seats == (2,)  # no draw: round 2's placement is next


def test_dr_9_3_dr_2_6_amb_5_the_performer_row_refills_to_n_plus_1_within_the_type_limit() -> None:
    """Rules: DR-9.3, DR-2.6."""
    state = ending(sharing(), performer_row=(RowCard("P01", 1), RowCard("P10", 1)))
    state = chance(state, "P02", "P09")  # a third magician: discarded, another is drawn
    assert [c.card for c in state.performer_row] == ["P01", "P10", "P02"]
    assert state.performer_discard == ("P09",)
    state = chance(state, "P11")
    assert [c.card for c in state.performer_row] == ["P01", "P10", "P02", "P11"]
    assert RULESET.decision(state).chance is None and state.round == 2


def test_dr_9_4_dr_16_3_an_empty_deck_takes_its_discard_pile() -> None:
    """Rules: DR-9.4, DR-16.3."""
    state = sharing()
    state = ending(state, performer_row=state.performer_row[:3], performer_deck=(), performer_discard=("P20", "P21"))
    decision = RULESET.decision(state)
    assert decision.chance is not None
    assert [outcome for outcome, _ in decision.chance.outcomes] == ["P20", "P21"]
    state = chance(state, "P21")
    assert state.performer_row[-1] == RowCard("P21")
    assert (state.performer_deck, state.performer_discard) == (("P20",), ())


def test_dr_16_3_with_deck_and_discard_empty_the_row_stays_short() -> None:
    """Rules: DR-16.3."""
    state = sharing()
    state = ending(state, helper_row=(), helper_deck=(), helper_discard=())
    assert state.helper_row == () and state.round == 2 and RULESET.decision(state).seats == (2,)


def test_dr_9_6_the_start_player_passes_to_the_left() -> None:
    """Rules: DR-9.6."""
    state = ending(evolve(sharing(), start_player=2))
    assert state.start_player == 0 and RULESET.decision(state).seats == (0,)


def organiser_owned() -> State:
    state = sharing().with_player(0, helpers=("H01",))
    deck = tuple(card for card in state.helper_deck if card != "H04")
    return evolve(state, helper_row=(RowCard("H02", 1), RowCard("H03", 1), RowCard("H04")), helper_deck=deck)


def test_dr_9_1_dr_19_2_amb_15_the_returned_organiser_makes_its_owner_start() -> None:
    state = ending(organiser_owned())
    assert RULESET.decision(state).seats == (0,)
    illegal(state, 0, {"type": "place_marker", "space": "red"}, "DR-4.1")
    illegal(state, 1, {"type": "return_organiser", "returned": True}, "DR-9.1")  # not its card
    state = move(state, 0, {"type": "return_organiser", "returned": True})
    assert state.players[0].helpers == ()
    assert state.helper_row[-1] == RowCard("H01", 0) and len(state.helper_row) == 4  # DR-9.2: not refilled away
    assert state.start_player == 0 and state.round == 2  # DR-9.6: instead of passing to seat 2
    state = place(state, 0, "hire_helper")
    for _ in range(8):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert RULESET.decision(state).seats == (0,)
    illegal(state, 0, {"type": "hire_helper", "card": "H01"}, "DR-19.2")
    assert {"type": "hire_helper", "card": "H01"} not in [m.model_dump() for m in RULESET.legal_moves(state, 0)]
    state = move(state, 0, {"type": "hire_helper", "card": "H04"})  # another helper is fine
    assert state.players[0].helpers == ("H04",)


def test_dr_19_2_amb_15_the_bar_is_only_for_the_returner() -> None:
    """Rules: DR-19.2."""
    state = move(ending(organiser_owned()), 0, {"type": "return_organiser", "returned": True})
    state = pass_(state, 0)
    state = place(state, 1, "hire_helper")
    for _ in range(7):
        state = pass_(state, RULESET.decision(state).seats[0])
    state = move(state, 1, {"type": "hire_helper", "card": "H01"})
    assert state.players[1].helpers == ("H01",) and state.players[1].money == 9 + 2 - 3  # 2 passes; cost 3


def test_dr_19_2_a_kept_organiser_changes_nothing() -> None:
    """Rules: DR-19.2."""
    state = move(ending(organiser_owned()), 0, {"type": "return_organiser", "returned": False})
    assert state.players[0].helpers == ("H01",) and len(state.helper_row) == 3
    assert state.start_player == 2 and state.organiser_returned is None


def test_dr_3_3_dr_19_6_the_bank_clerk_deposit_at_a_rounds_start() -> None:
    """Rules: DR-3.3."""
    state = ending(sharing().with_player(2, helpers=("H05",)))
    assert RULESET.decision(state).seats == (2,) and state.round == 2  # before any marker is placed
    assert state.placements() == ()
    assert len(RULESET.legal_moves(state, 2)) == 11  # 0 to 10 money
    illegal(state, 2, {"type": "deposit", "amount": 11}, "DR-19.6")
    illegal(state, 2, {"type": "pass_marker"}, "DR-4.1")
    state = move(state, 2, {"type": "deposit", "amount": 4})
    assert (state.players[2].money, state.players[2].deposit) == (6, 4)
    assert state.players[2].markers == 3 and RULESET.decision(state).seats == (2,)  # now its first marker


def test_dr_3_4_amb_6_after_round_5_the_vote_comes_with_no_end_of_round() -> None:
    """Rules: DR-3.4."""
    before = sharing()
    state = AGENDA.advance(evolve(before, agenda=(Step("after_sharing", round=5),)))
    assert state.agenda[0] == Step("ballot", seat=1, round=5)
    assert (state.start_player, state.helper_row, state.performer_row) == (1, before.helper_row, before.performer_row)


def test_dr_3_4_rounds_1_to_4_each_end_with_an_end_of_round() -> None:
    """Rules: DR-3.4."""
    state = AGENDA.advance(evolve(sharing(), agenda=(Step("after_sharing", round=4),)))
    assert (state.round, state.start_player) == (5, 2) and not state.over
