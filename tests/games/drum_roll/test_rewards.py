"""The reward effects (DR-11.4, DR-16.1, DR-18, DR-20.6): money, cubes with and without a choice of
colour and their shortage, the magicians' look at the investment deck (hidden from the others),
trailers for money, paid and free wage skips, and the animal trainers' conversion."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import HandCard, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step, pop
from domain.kernel.viewers import Viewer

from .builders import chance, illegal, move
from .performing import SEAT, circus_of, hired, show, total_cubes, total_trailers


def moves(state: State) -> list[dict[str, Any]]:
    return [m.model_dump() for m in RULESET.legal_moves(state, SEAT)]


def decline() -> dict[str, Any]:
    return {"type": "decline_reward"}


# ---- cubes (DR-18.5, DR-18.7, DR-16.1) --------------------------------------------------------


def test_dr_18_5_a_cube_choice_offers_the_colours_shown() -> None:
    state = show(hired("P19", 1))  # weak: one blue or yellow cube
    assert moves(state) == [{"type": "take_reward_cube", "colour": "yellow"},
                            {"type": "take_reward_cube", "colour": "blue"}]
    illegal(state, SEAT, {"type": "take_reward_cube", "colour": "red"}, "DR-18.5")
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "yellow"})
    assert state.players[SEAT].cubes == {"yellow": 1} and state.cubes["yellow"] == 24  # DR-18.7
    assert total_cubes(state) == 125


def test_dr_16_1_a_colour_the_supply_lacks_is_not_offered_and_a_single_colour_goes_by_itself() -> None:
    """Rules: DR-16.1."""
    state = show(hired("P19", 1), supply={"blue": 0})
    assert state.over and state.players[SEAT].cubes == {"yellow": 1}  # no choice left to make


def test_dr_16_1_amb_31_a_gain_the_supply_cannot_give_is_lost() -> None:
    """Rules: DR-16.1."""
    state = show(hired("P19", 1), supply={"blue": 0, "yellow": 0})
    assert state.over and state.players[SEAT].cubes == {}


def test_dr_18_5_any_colour_twice_and_a_refusal_of_an_empty_colour() -> None:
    """Rules: DR-18.5."""
    state = show(hired("P19", 3), supply={"green": 0})
    state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})  # any two cubes
    assert len(moves(state)) == 4  # white, yellow, blue, red: green is out
    illegal(state, SEAT, {"type": "take_reward_cube", "colour": "green"}, "DR-16.1")
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "red"})
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "red"})
    assert state.over and state.players[SEAT].cubes == {"red": 2}


def test_dr_18_5_a_fixed_cube_is_taken_and_lost_when_the_supply_is_out() -> None:
    """Rules: DR-18.5."""
    state = show(hired("P19", 2))  # good: one cube of any colour and one white
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "blue"})
    assert state.over and state.players[SEAT].cubes == {"blue": 1, "white": 1}
    short = show(hired("P19", 2), supply={"white": 0})
    short = move(short, SEAT, {"type": "take_reward_cube", "colour": "blue"})
    assert short.players[SEAT].cubes == {"blue": 1}  # DR-16.1: no white to give


# ---- looking at investment cards (DR-18.2, DR-18.9) -------------------------------------------


def test_dr_18_9_amb_37_look_at_two_keep_one_the_other_under_the_deck() -> None:
    state = show(hired("P01", 2))  # good: look at 2, keep 1
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.visible_to == (SEAT,) and spec.total_weight() == 30
    state = chance(state, "I05", "I20")
    assert moves(state) == [{"type": "keep_investment", "index": 0}, {"type": "keep_investment", "index": 1}]
    illegal(state, SEAT, {"type": "keep_investment", "index": 2}, "DR-18.9")
    keep = RULESET.parse_move({"type": "keep_investment", "index": 1})  # the second card drawn: I20
    assert RULESET.private_choice(state, SEAT, keep) is None  # a position tells nothing of the card
    after = AGENDA.rows["look_keep"].apply(pop(state), SEAT, state.agenda[0], keep)  # type: ignore[union-attr]
    assert after.agenda[0] == Step("hand_limit", seat=SEAT)  # DR-21.4: the hand limit applies at once
    state = move(state, SEAT, {"type": "keep_investment", "index": 1})
    assert state.players[SEAT].hand == (HandCard("I20"),)
    assert state.investment_bottom == ("I05",) and len(state.investment_deck) == 28


def test_dr_18_9_the_cards_looked_at_are_seen_by_the_looking_seat_alone() -> None:
    """Rules: DR-18.9."""
    state = chance(show(hired("P01", 2)), "I05", "I20")
    mine = RULESET.view(state, Viewer("seat", SEAT))["agenda"][0]
    assert mine["cards"] == ["I05", "I20"]
    for viewer in (Viewer("seat", 0), Viewer("seat", 2), Viewer("spectator")):
        seen = RULESET.view(state, viewer)
        assert seen["agenda"][0]["cards"] == {"count": 2}
        assert "I05" not in str(seen) and "I20" not in str(seen)
    assert RULESET.view(state, Viewer("arbiter"))["agenda"][0]["cards"] == ["I05", "I20"]
    middle = chance(show(hired("P01", 2)), "I05")  # one drawn, the next draw pending
    assert "I05" not in str(RULESET.view(middle, Viewer("seat", 0)))
    assert "I05" in str(RULESET.view(middle, Viewer("seat", SEAT)))


def test_dr_18_9_a_look_at_one_keeps_it_without_a_choice() -> None:
    """Rules: DR-18.9."""
    state = chance(show(hired("P01", 1)), "I07")
    assert state.players[SEAT].hand == (HandCard("I07"),) and state.investment_bottom == ()
    assert state.agenda[0].kind == "applause"  # a hand holding a card is asked (applause.py)


def test_dr_16_3_a_look_past_the_end_of_the_deck_sees_what_is_left() -> None:
    """Rules: DR-16.3."""
    state = show(hired("P01", 2), investment_deck=("I07",))
    state = chance(state, "I07")
    assert state.players[SEAT].hand == (HandCard("I07"),) and state.investment_deck == ()


# ---- trailers (DR-18.4, DR-20.6) --------------------------------------------------------------


def test_dr_20_6_a_trailer_for_money_goes_where_the_seat_puts_it() -> None:
    """Rules: DR-20.6."""
    state = show(hired("P37", 1), hired("P10", 0, flipped=1), performance=2)  # weak: pay 2, gain a trailer
    assert moves(state) == [{"type": "take_trailer", "performer": "P10", "shared_by": None},
                            {"type": "take_trailer", "performer": "P37", "shared_by": None},
                            {"type": "take_trailer", "performer": "P37", "shared_by": "P10"},
                            decline()]
    state = move(state, SEAT, {"type": "take_trailer", "performer": "P37", "shared_by": "P10"})
    circus = circus_of(state)
    assert circus["P37"].trailer and circus["P10"].shares_trailer_of == "P37"  # DR-20.3, AMB-18
    assert state.players[SEAT].money == 8 and state.trailers == 17 and total_trailers(state) == 18


def test_dr_20_1_dr_20_3_trailer_refusals() -> None:
    state = show(hired("P37", 1), hired("P10", 0, flipped=1, trailer=True), hired("P11", 0, flipped=1),
                 performance=2)
    illegal(state, SEAT, {"type": "take_trailer", "performer": "P10"}, "DR-20.1")
    illegal(state, SEAT, {"type": "take_trailer", "performer": "P11", "shared_by": "P37"}, "DR-20.3")
    illegal(state, SEAT, {"type": "take_trailer", "performer": "P37", "shared_by": "P10"}, "DR-20.3")
    illegal(state, SEAT, {"type": "take_trailer", "performer": "P37", "shared_by": "P37"}, "DR-20.3")
    illegal(state, SEAT, {"type": "take_trailer", "performer": "P20"}, "DR-20.6")


def test_dr_20_6_a_trailer_may_be_declined_and_nothing_is_paid() -> None:
    """Rules: DR-20.6."""
    state = move(show(hired("P37", 1)), SEAT, decline())
    assert state.over and state.players[SEAT].money == 10 and state.trailers == 18


def test_dr_20_6_amb_19_with_no_money_no_place_or_no_trailer_it_cannot_be_gained() -> None:
    """Rules: DR-20.6."""
    poor = show(hired("P37", 1), money=1)
    assert poor.over and poor.players[SEAT].money == 1 and poor.trailers == 18
    full = show(hired("P37", 1, trailer=True))
    assert full.over and full.players[SEAT].money == 10
    out = show(hired("P37", 1), trailers=0)  # DR-16.4
    assert out.over and out.players[SEAT].money == 10


# ---- wage skips (DR-18.8, AMB-36) -------------------------------------------------------------


def test_dr_18_8_a_paid_wage_skip_takes_a_cube_then_a_card() -> None:
    state = show(hired("P37", 2), cubes={"red": 1, "blue": 1}, helpers=("H04",))  # good: pay 1 cube, skip a wage
    assert moves(state) == [{"type": "pay_cubes", "cubes": ("blue",)}, {"type": "pay_cubes", "cubes": ("red",)},
                            decline()]
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["green"]}, "DR-18.8")
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["red", "blue"]}, "DR-18.8")
    state = move(state, SEAT, {"type": "pay_cubes", "cubes": ["red"]})
    assert state.players[SEAT].cubes == {"red": 0, "blue": 1} and state.cubes["red"] == 25  # DR-18.7
    assert moves(state) == [{"type": "skip_wage", "card": "P37"}, {"type": "skip_wage", "card": "H04"}]
    illegal(state, SEAT, decline(), "DR-18.8")  # paid for: a card must be named
    illegal(state, SEAT, {"type": "skip_wage", "card": "H03"}, "DR-18.8")  # not in the circus
    state = move(state, SEAT, {"type": "skip_wage", "card": "H04"})
    assert state.players[SEAT].skipped == ("H04",) and total_cubes(state) == 125


def test_dr_18_8_a_paid_wage_skip_may_be_declined_and_needs_a_cube() -> None:
    """Rules: DR-18.8."""
    state = move(show(hired("P37", 2), cubes={"red": 1}), SEAT, decline())
    assert state.over and state.players[SEAT].cubes == {"red": 1} and state.players[SEAT].skipped == ()
    assert show(hired("P37", 2)).over  # no cube to pay with: not offered


def test_dr_18_8_a_free_wage_skip_is_optional_and_once_per_card() -> None:
    """Rules: DR-18.8."""
    state = show(hired("P37", 3))
    state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    assert moves(state) == [{"type": "skip_wage", "card": "P37"}, decline()]
    state = move(state, SEAT, {"type": "skip_wage", "card": "P37"})
    assert state.players[SEAT].skipped == ("P37",)
    twice = show(hired("P43", 3, flipped=None))
    twice = move(twice, SEAT, {"type": "choose_dazzling", "flip": False})  # a free skip, then a trailer
    twice = move(twice, SEAT, {"type": "skip_wage", "card": "P43"})
    assert twice.agenda[0].kind == "reward_trailer"


# ---- conversion (DR-18.6, AMB-39) -------------------------------------------------------------


def test_dr_18_6_a_trainer_converts_a_cube_to_money() -> None:
    state = show(hired("P28", 1), cubes={"white": 2})  # weak: pay 1 cube, gain 3 money
    assert moves(state) == [{"type": "pay_cubes", "cubes": ("white",)}, decline()]
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["white", "white"]}, "DR-18.6")
    illegal(state, SEAT, {"type": "pay_cubes", "cubes": ["red"]}, "DR-18.6")
    state = move(state, SEAT, {"type": "pay_cubes", "cubes": ["white"]})
    assert state.over and state.players[SEAT].money == 13 and state.players[SEAT].cubes == {"white": 1}
    assert state.cubes["white"] == 24 and total_cubes(state) == 125


def test_dr_18_6_a_conversion_with_a_money_bonus_and_a_declined_one() -> None:
    """Rules: DR-18.6."""
    state = show(hired("P28", 3), cubes={"blue": 1})  # dazzling: pay 1 cube for 5, and 1 money
    state = move(state, SEAT, {"type": "choose_dazzling", "flip": False})
    state = move(state, SEAT, decline())
    assert state.over and state.players[SEAT].money == 11 and state.players[SEAT].cubes == {"blue": 1}


def test_dr_18_6_dr_11_2_cubes_gained_earlier_in_the_performance_can_pay_a_conversion() -> None:
    """Rules: DR-18.6, DR-11.2."""
    state = show(hired("P19", 1), hired("P28", 1))
    state = move(state, SEAT, {"type": "perform", "card": "P19"})
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "blue"})
    state = move(state, SEAT, {"type": "pay_cubes", "cubes": ["blue"]})
    assert state.over and state.players[SEAT].money == 13 and state.players[SEAT].cubes == {"blue": 0}
