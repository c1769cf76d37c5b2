"""The action phase (DR-4 to DR-7): placing markers within DR-5's limits, resolution in DR-6.1's
order, hires and declines, and the discount tokens of DR-7.1 (EX-8)."""

from __future__ import annotations

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import RowCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step, hold
from domain.kernel.values import evolve

from .builders import chance, illegal, move
from .test_setup import cubes_taken

# After setup (3 players, start player seat 1): money 8, 6, 7; each seat has a white and a yellow
# cube; performer row P01 P10 P19 P28 (cost 2 each), helper row H01 (3) H02 (4) H03 (5).


def placing(**options: object) -> State:
    return cubes_taken(3, start_player=1, **options)


def place(state: State, seat: int, space: str) -> State:
    return move(state, seat, {"type": "place_marker", "space": space})


def pass_(state: State, seat: int) -> State:
    return move(state, seat, {"type": "pass_marker"})


def test_dr_4_1_markers_go_clockwise_from_the_start_player() -> None:
    """Rules: DR-4.1."""
    state = placing()
    assert [player.markers for player in state.players] == [3, 3, 3]
    assert (state.round, state.performance) == (1, 1)
    seen = []
    for _ in range(4):
        seat = RULESET.decision(state).seats[0]
        seen.append(seat)
        state = pass_(state, seat)
    assert seen == [1, 2, 0, 1]


def test_dr_4_4_dr_4_2_a_placement_does_nothing_yet_and_stacks_in_order() -> None:
    """Rules: DR-4.4, DR-4.2."""
    state = placing()
    state = place(state, 1, "investment")
    state = place(state, 2, "investment")
    assert [p.money for p in state.players] == [8, 6, 7]
    assert [(step.kind, step.seat) for step in state.placements()] == [("investment", 1), ("investment", 2)]


def test_dr_5_2_a_cube_action_is_taken_once_per_round() -> None:
    state = place(placing(), 1, "red")
    illegal(state, 2, {"type": "place_marker", "space": "red"}, "DR-5.2")


def test_dr_5_3_ex_9_three_players_use_at_most_three_cube_actions() -> None:
    state = place(place(place(placing(), 1, "white"), 2, "yellow"), 0, "green")
    error = illegal(state, 1, {"type": "place_marker", "space": "blue"}, "DR-5.3")
    assert "3 cube actions" in error.reason
    assert "blue" not in [m.space for m in RULESET.legal_moves(state, 1) if hasattr(m, "space")]  # type: ignore[attr-defined]


def test_dr_5_4_amb_32_one_player_may_take_two_cube_actions() -> None:
    """Rules: DR-5.4."""
    state = place(placing(), 1, "white")
    state = pass_(pass_(state, 2), 0)
    state = place(state, 1, "blue")
    assert [step["colour"] for step in state.placements()] == ["white", "blue"]


def test_dr_5_6_amb_1_at_most_two_ticket_sales_per_player() -> None:
    state = place(placing(), 1, "ticket")
    state = place(place(state, 2, "ticket"), 0, "ticket")  # others may sell too (AMB-1 (a))
    state = place(place(state, 1, "ticket"), 2, "ticket")
    state = pass_(state, 0)
    illegal(state, 1, {"type": "place_marker", "space": "ticket"}, "DR-5.6")


def test_dr_5_6_amb_1_in_total_reading_two_ticket_sales_in_all() -> None:
    state = place(place(placing(action_limits="in_total"), 1, "ticket"), 2, "ticket")
    illegal(state, 0, {"type": "place_marker", "space": "ticket"}, "DR-5.6")


def test_dr_5_7_amb_3_no_sale_past_the_last_ticket_space() -> None:
    state = placing()
    state = state.with_player(1, ticket=5)  # the track has 6 spaces
    state = place(state, 1, "ticket")
    state = pass_(pass_(state, 2), 0)
    illegal(state, 1, {"type": "place_marker", "space": "ticket"}, "DR-5.7")
    state = state.with_player(2, ticket=6)
    state = pass_(state, 1)
    illegal(state, 2, {"type": "place_marker", "space": "ticket"}, "DR-5.7")


def test_dr_5_9_at_most_two_investments_per_player() -> None:
    state = place(placing(), 1, "investment")
    state = pass_(pass_(state, 2), 0)
    state = place(state, 1, "investment")
    state = pass_(pass_(state, 2), 0)
    illegal(state, 1, {"type": "place_marker", "space": "investment"}, "DR-5.9")


def test_dr_5_12_dr_5_14_one_hire_of_each_kind_per_player() -> None:
    state = place(placing(), 1, "hire_performer")
    state = place(state, 2, "hire_performer")  # several players may share the space
    state = place(state, 0, "hire_helper")
    state = place(state, 1, "hire_helper")
    illegal(state, 2, {"type": "place_marker", "space": "hire_performer"}, "DR-5.12")
    state = pass_(state, 2)
    illegal(state, 0, {"type": "place_marker", "space": "hire_helper"}, "DR-5.14")


def test_dr_4_3_an_unknown_space_is_refused() -> None:
    illegal(placing(), 1, {"type": "place_marker", "space": "juggling"}, "DR-4.3")


def test_dr_4_1_another_seat_cannot_place_now() -> None:
    illegal(placing(), 0, {"type": "place_marker", "space": "red"}, "DR-4.1")


def test_dr_5_16_amb_2_passing_pays_one_money_at_once() -> None:
    """Rules: DR-5.16."""
    state = pass_(placing(), 1)
    assert state.players[1].money == 7 and state.players[1].markers == 2


def test_dr_5_17_a_player_with_no_legal_space_passes() -> None:
    """Rules: DR-5.17."""
    state = placing(action_limits="in_total")
    for step in (Step("cube", seat=0, colour="white"), Step("cube", seat=2, colour="yellow"),
                 Step("cube", seat=0, colour="green"), Step("ticket", seat=2), Step("ticket", seat=0),
                 Step("investment", seat=0), Step("investment", seat=2), Step("hire_performer", seat=1),
                 Step("hire_helper", seat=1)):
        state = hold(state, "resolve", step)
    assert RULESET.decision(state).seats == (1,)
    state = AGENDA.advance(state)
    assert state.players[1].money == 7 and state.players[1].markers == 2  # passed, paid 1
    assert RULESET.decision(state).seats == (2,)


def resolving() -> State:
    """Every marker placed: seat 1 red + hire performer + pass, seat 2 ticket + hire performer +
    hire helper, seat 0 investment ×2 + pass."""
    state = placing()
    state = place(state, 1, "hire_performer")
    state = place(state, 2, "hire_performer")
    state = place(state, 0, "investment")
    state = place(state, 1, "red")
    state = place(state, 2, "ticket")
    state = place(state, 0, "investment")
    state = pass_(state, 1)
    state = place(state, 2, "hire_helper")
    return pass_(state, 0)


def test_dr_6_1_cube_actions_then_tickets_then_investments_in_stack_order() -> None:
    """Rules: DR-6.1."""
    state = resolving()
    # cube and ticket resolved by themselves: seat 1 +1 red, seat 2 +1 money (ticket space 1)
    assert state.players[1].cubes == {"white": 1, "yellow": 1, "red": 1} and state.cubes["red"] == 24
    assert state.players[1].money == 6 + 1  # its pass
    assert state.players[2].ticket == 1 and state.players[2].money == 7 + 1
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.kind == "investment card drawn" and spec.visible_to == (0,)
    state = chance(state, "I27", "I15")
    assert [card.card for card in state.players[0].hand] == ["I27", "I15"]
    assert state.players[0].money == 8 + 1 - 2  # its pass, two investments at 1 each
    assert RULESET.decision(state).seats == (1,)  # hire performer: bottom marker first


def test_dr_6_1_dr_6_2_dr_5_11_amb_4_hires_in_stack_order_and_a_hired_card_is_gone() -> None:
    """Rules: DR-6.1, DR-6.2."""
    state = chance(resolving(), "I27", "I15")
    state = evolve(state, performer_row=(RowCard("P01", 1), *state.performer_row[1:]), discounts=43)
    state = move(state, 1, {"type": "hire_performer", "card": "P01"})
    assert [hired.card for hired in state.players[1].performers][-1] == "P01"
    assert state.players[1].money == 7 - 1  # cost 2, one discount token
    assert state.discounts == 44  # the token went back
    assert RULESET.decision(state).seats == (2,)
    illegal(state, 2, {"type": "hire_performer", "card": "P01"}, "DR-5.11")
    assert "P01" not in [getattr(m, "card", None) for m in RULESET.legal_moves(state, 2)]


def test_dr_5_18_a_declined_hire_gets_no_money_and_dr_5_13_the_helper_hire() -> None:
    """Rules: DR-5.18, DR-5.13."""
    state = chance(resolving(), "I27", "I15")
    state = move(state, 1, {"type": "decline"})
    assert state.players[1].money == 7
    state = move(state, 2, {"type": "hire_performer", "card": "P19"})
    assert state.players[2].money == 8 - 2
    state = move(state, 2, {"type": "hire_helper", "card": "H01"})
    assert state.players[2].helpers == ("H01",) and state.players[2].money == 6 - 3
    assert [c.card for c in state.helper_row] == ["H02", "H03"]


def test_dr_5_15_amb_33_a_card_must_be_paid_in_full() -> None:
    state = chance(resolving(), "I27", "I15")
    state = state.with_player(1, money=1)
    illegal(state, 1, {"type": "hire_performer", "card": "P10"}, "DR-5.15")
    assert RULESET.legal_moves(state, 1) == [RULESET.parse_move({"type": "decline"})]


def test_dr_5_15_dr_5_18_with_nothing_affordable_the_hire_has_no_effect() -> None:
    """Rules: DR-5.15, DR-5.18."""
    state = placing()
    state = place(state, 1, "hire_performer").with_player(1, money=0)
    state = place(pass_(pass_(state, 2), 0), 1, "red")
    state = place(pass_(pass_(state, 2), 0), 1, "green")
    state = pass_(pass_(state, 2), 0)
    # seat 1 has 0 money: its hire is passed over with no choice and no money; the upkeep ran
    assert state.players[1].money == 0 and len(state.players[1].performers) == 2
    assert state.players[1].cubes == {"white": 1, "yellow": 1, "red": 1, "green": 1}
    assert state.agenda[0] == Step("share", round=1, seat=1)  # DR-3.2: the sharing phase follows


def test_dr_5_10_amb_33_an_investment_with_no_money_has_no_effect() -> None:
    """Rules: DR-5.10."""
    state = place(placing(), 1, "investment")
    state = state.with_player(1, money=0)
    for _ in range(8):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert state.players[1].hand == () and state.players[1].money == 2
    assert len(state.investment_deck) == 30


def test_dr_7_1_ex_8_discount_progression_and_discard() -> None:
    """Rules: DR-7.1."""
    state = placing()
    state = evolve(state, performer_row=(RowCard("P03"),), helper_row=(), agenda=(Step("upkeep"),))
    assert RULESET.default_components().performer("P03").hire_cost == 3  # type: ignore[attr-defined]
    seen = []
    for _ in range(3):  # the ends of rounds 2, 3, 4
        state = AGENDA.advance(evolve(state, agenda=(Step("upkeep"),), over=False))
        seen.append((state.performer_row[0].discounts, state.discounts))
    assert seen == [(1, 43), (2, 42), (3, 41)]  # effective costs 2, 1, 0 (free during round 5)
    state = AGENDA.advance(evolve(state, agenda=(Step("upkeep"),), over=False))  # end of round 5
    assert state.performer_row == () and state.performer_discard[-1] == "P03"
    assert state.discounts == 44


def test_dr_7_1_a_whole_round_puts_one_token_on_each_card_left() -> None:
    """Rules: DR-7.1."""
    state = placing()
    for _ in range(9):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert [c.discounts for c in state.performer_row] == [1, 1, 1, 1]
    assert [c.discounts for c in state.helper_row] == [1, 1, 1]
    assert state.discounts == 44 - 7
    assert [p.money for p in state.players] == [8 + 3, 6 + 3, 7 + 3]
    assert state.agenda[0] == Step("share", round=1, seat=1)  # DR-3.2, DR-8.8: sharing follows


def test_dr_16_2_with_no_tokens_left_cards_get_none() -> None:
    """Rules: DR-16.2."""
    state = placing()
    state = evolve(state, performer_row=(RowCard("P03", 1), RowCard("P10")), helper_row=(RowCard("H01"),),
                   discounts=1, agenda=(Step("upkeep"),))
    state = AGENDA.advance(state)
    assert [c.discounts for c in state.performer_row] == [2, 0]
    assert [c.discounts for c in state.helper_row] == [0]
    assert state.discounts == 0
