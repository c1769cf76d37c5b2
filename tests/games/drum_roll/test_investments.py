"""Investment cards in play (DR-21), Unlock occupied action in placement (DR-21.10, DR-6.3, AMB-23)
and investment draws: the deck, the cards under it, the reshuffled discard pile (DR-5.8, DR-16.3,
DR-18.9, DR-5.10). Card kinds and amounts come from the default data (I01 Unlock, I03 Trailer,
I05 Fire performer, I07 Trailer bonus, I08 Longer applause, I15 Extra resource (white: 1 of any
colour or 2 white), I25 Double vote, I27 Extra income 4 coins, I29 Extra income 1 cube for 5)."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll import RULESET, actions
from domain.games.drum_roll.components import load_components
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step, hold
from domain.kernel.contract import MatchConfig
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import chance, illegal, move
from .test_actions import pass_, place, placing, resolving
from .test_sharing import sharing

# `placing()`: 3 players, start player seat 1 (first to place), each with 1 white and 1 yellow cube;
# money 8, 6, 7; the general supply 22 white, 22 yellow, 25 of the others; 18 trailers.


def hand(state: State, seat: int, *cards: str) -> State:
    return state.with_player(seat, hand=tuple(HandCard(card) for card in cards))


def play(card: str, **fields: Any) -> dict[str, Any]:
    return {"type": "play_investment", "card": card, **fields}


def unlock(space: str, card: str) -> dict[str, Any]:
    return {"type": "place_marker", "space": space, "unlock": card}


def with_components(state: State, change: Any) -> State:
    """The same state over a changed copy of the default component set."""
    data = state.components.model_dump(mode="json")
    change(data)
    config = state.config
    return evolve(state, config=MatchConfig(config.variant, config.options, config.seats, load_components(data)))


def card_data(data: dict[str, Any], card: str) -> dict[str, Any]:
    return next(entry for entry in data["investments"] if entry["id"] == card)


def cards_of(state: State, seat: int) -> list[str]:
    return [held.card for held in state.players[seat].hand]


# ---- Extra income, Extra resource (DR-21.17, DR-21.19, DR-21.20) ------------------------------


def test_dr_21_19_dr_21_6_extra_income_pays_its_coins_and_is_discarded_in_the_placement_turn() -> None:
    """Rules: DR-21.19."""
    state = move(hand(placing(), 1, "I27"), 1, play("I27"))
    assert state.players[1].money == 6 + 4 and state.players[1].hand == ()
    assert state.investment_discard == ("I27",)  # DR-21.6: its one use is spent
    assert RULESET.decision(state).seats == (1,) and state.players[1].markers == 3  # still its turn


def test_dr_21_20_amb_31_conversion_pays_a_cube_to_the_general_supply_for_five_money() -> None:
    state = hand(placing(), 1, "I29")
    illegal(state, 1, play("I29", colours=["red"]), "DR-21.20")  # no red cube in its cube supply
    illegal(state, 1, play("I29"), "DR-21.20")  # a cube must be paid
    illegal(state, 1, play("I29", colours=["white", "yellow"]), "DR-21.20")  # one cube, not two
    state = move(state, 1, play("I29", colours=["white"]))
    assert state.players[1].money == 6 + 5 and state.players[1].cubes == {"white": 0, "yellow": 1}
    assert state.cubes["white"] == 23 and state.investment_discard == ("I29",)


def test_dr_21_17_extra_resource_one_cube_of_any_colour_or_two_of_its_own() -> None:
    state = hand(placing(), 1, "I15")
    plays = [m for m in RULESET.legal_moves(state, 1) if m.type == "play_investment"]
    assert [list(m.colours) for m in plays] == [["white"], ["yellow"], ["green"], ["blue"], ["red"],
                                                ["white", "white"]]
    illegal(state, 1, play("I15", colours=["red", "red"]), "DR-21.17")  # two of its own colour only
    illegal(state, 1, play("I15", colours=["green", "red"]), "DR-21.17")
    illegal(state, 1, play("I15", performer="P07"), "DR-21.17")
    two = move(state, 1, play("I15", colours=["white", "white"]))
    assert two.players[1].cubes["white"] == 3 and two.cubes["white"] == 20 and two.investment_discard == ("I15",)
    one = move(state, 1, play("I15", colours=["red"]))
    assert one.players[1].cubes["red"] == 1 and one.cubes["red"] == 24


def test_dr_16_1_amb_31_extra_resource_gives_only_what_the_supply_has() -> None:
    state = hand(placing(), 1, "I15")
    short = evolve(state, cubes={**state.cubes, "white": 1})
    short = move(short, 1, play("I15", colours=["white", "white"]))
    assert short.players[1].cubes["white"] == 2 and short.cubes["white"] == 0  # the second is lost
    out = evolve(state, cubes={**state.cubes, "white": 0})
    illegal(out, 1, play("I15", colours=["white", "white"]), "DR-16.1")
    illegal(out, 1, play("I15", colours=["white"]), "DR-16.1")


# ---- Trailer and Fire performer (DR-21.11, DR-21.12, DR-20) -------------------------------------


def bizarre_circus(state: State, seat: int) -> State:
    """The seat's circus: P37 (bizarre) and P10 (acrobat), no trailers."""
    return state.with_player(seat, performers=(Hired("P37"), Hired("P10")))


def test_dr_21_11_dr_20_3_a_trailer_card_puts_a_trailer_on_a_free_performer_or_shares_a_bizarre_one() -> None:
    """Rules: DR-21.11, DR-20.3."""
    state = hand(bizarre_circus(placing(), 1), 1, "I03")
    plays = [(m.performer, m.shared_by) for m in RULESET.legal_moves(state, 1) if m.type == "play_investment"]
    assert plays == [("P10", None), ("P37", None), ("P37", "P10")]
    illegal(state, 1, play("I03", performer="P10", shared_by="P37"), "DR-20.6")  # only a bizarre one shares
    illegal(state, 1, play("I03", performer="P07"), "DR-20.6")  # not its performer
    illegal(state, 1, play("I03"), "DR-20.6")
    illegal(evolve(state, trailers=0), 1, play("I03", performer="P10"), "DR-16.4")
    state = move(state, 1, play("I03", performer="P37", shared_by="P10"))
    assert state.players[1].performers == (Hired("P37", trailer=True), Hired("P10", shares_trailer_of="P37"))
    assert state.trailers == 17 and state.investment_discard == ("I03",)


def test_dr_21_12_fire_performer_in_the_sharing_turn_no_severance_no_fame_cubes_back() -> None:
    state = sharing()  # seat 1 shares first
    state = hand(state.with_player(1, performers=(Hired("P07", cubes=(("yellow",), (), ())), Hired("P06"))),
                 1, "I05")
    money, fame = state.players[1].money, state.players[1].fame
    illegal(state, 1, play("I05", performer="P05"), "DR-21.12")  # another seat's performer
    state = move(state, 1, play("I05", performer="P07"))
    assert [h.card for h in state.players[1].performers] == ["P06"]
    assert state.performer_discard[-1] == "P07" and state.cubes["yellow"] == 23  # DR-8.4: cubes go back
    assert (state.players[1].money, state.players[1].fame, state.players[1].ledger) == (money, fame, ())
    assert state.agenda[0].kind == "share" and state.agenda[0].seat == 1  # its sharing turn goes on


def test_dr_20_7_amb_19_a_fired_performers_trailer_stays_with_its_sharer_or_returns() -> None:
    """Rules: DR-20.7."""
    state = bizarre_circus(placing(), 1)
    shared = state.with_player(1, performers=(Hired("P37", trailer=True), Hired("P10", shares_trailer_of="P37")))
    shared = move(hand(evolve(shared, trailers=17), 1, "I05"), 1, play("I05", performer="P37"))
    assert shared.players[1].performers == (Hired("P10", trailer=True),) and shared.trailers == 17
    own = state.with_player(1, performers=(Hired("P37"), Hired("P10", trailer=True)))
    own = move(hand(evolve(own, trailers=17), 1, "I05"), 1, play("I05", performer="P10"))
    assert own.players[1].performers == (Hired("P37"),) and own.trailers == 18


def test_dr_21_12_amb_24_no_fire_performer_during_a_performance() -> None:
    state = hand(placing(), 1, "I05")
    during = evolve(state, agenda=(*state.agenda, Step("wages")))  # a performance's wages are pending
    illegal(during, 1, play("I05", performer="P07"), "DR-21.12")
    assert not [m for m in RULESET.legal_moves(during, 1) if m.type == "play_investment"]


# ---- cards not played this way, uses, when cards are played (DR-21.2, DR-21.6, DR-21.8) --------


def test_dr_21_8_dr_21_10_dr_21_14_dr_21_18_cards_not_played_through_play_investment() -> None:
    state = hand(placing(), 1, "I07", "I08", "I25", "I01")
    illegal(state, 1, play("I07"), "DR-21.8")  # AMB-25: a bonus card is held, never played
    illegal(state, 1, play("I08"), "DR-21.14")  # during its owner's performance (branch dr-show)
    illegal(state, 1, play("I25"), "DR-21.18")  # after a vote is revealed
    illegal(state, 1, play("I01"), "DR-21.10")  # with a placement
    illegal(state, 1, play("I27"), "DR-21.2")  # not in its hand
    assert [m.type for m in RULESET.legal_moves(state, 1)].count("play_investment") == 0


def test_dr_21_2_cards_are_played_in_the_owners_own_decisions_only() -> None:
    """Rules: DR-21.2, DR-21.4."""
    state = hand(placing(), 2, "I27")
    illegal(state, 2, play("I27"), "DR-4.1")  # seat 1 is placing: not seat 2's decision
    hiring = hand(resolving(), 1, "I27")
    hiring = chance(hiring, "I28", "I15")  # seat 0's two investments; then seat 1's hire
    assert RULESET.decision(hiring).seats == (1,)
    illegal(hiring, 2, play("I27"), "DR-6.1")  # not seat 2's hire
    illegal(hiring, 1, {"type": "discard_investment", "card": "I27"}, "DR-21.4")


def test_dr_21_2_dr_5_15_extra_income_played_at_a_hire_pays_for_the_card() -> None:
    """Rules: DR-21.2, DR-5.15, DR-21.19. A seat that can afford nothing in the row but holds a card
    is still asked at its hire (any hand is asked: only its size is public); Extra income played
    there makes the card affordable, and the hire is asked again."""
    hiring = chance(hand(resolving(), 1, "I27").with_player(1, money=0), "I28", "I15")
    assert RULESET.decision(hiring).seats == (1,)
    assert [m.type for m in RULESET.legal_moves(hiring, 1)] == ["decline", "play_investment"]
    after = move(hiring, 1, play("I27"))
    assert after.players[1].money == 4 and after.players[1].hand == ()
    assert RULESET.decision(after).seats == (1,)  # the same hire, asked again
    affordable = [m.card for m in RULESET.legal_moves(after, 1) if m.type == "hire_performer"]
    assert affordable and all(actions.performer_cost(after, row) <= 4 for row in after.performer_row
                              if row.card in affordable)
    broke = chance(resolving().with_player(1, money=0), "I28", "I15")  # no card, nothing affordable:
    assert RULESET.decision(broke).seats == (2,)  # seat 1's marker returned by itself (DR-5.18)


def test_dr_21_6_amb_21_a_card_with_no_usage_mark_stays_and_one_with_two_uses_is_kept_once() -> None:
    def change(data: dict[str, Any]) -> None:
        card_data(data, "I27")["uses"] = None
        card_data(data, "I28")["uses"] = 2

    state = hand(with_components(placing(), change), 1, "I27", "I28")
    state = move(state, 1, play("I27"))
    assert state.players[1].hand == (HandCard("I27", 1), HandCard("I28")) and state.players[1].money == 10
    illegal(state, 1, play("I27"), "DR-21.6")  # once in this decision; again in a later one
    state = move(move(state, 1, play("I28")), 1, play("I28"))
    assert state.players[1].hand == (HandCard("I27", 1),) and state.investment_discard == ("I28",)
    state = place(state, 1, "ticket")
    state = pass_(pass_(state, 2), 0)
    state = move(state, 1, play("I27"))  # its next placement turn
    assert state.players[1].hand == (HandCard("I27", 2),) and state.players[1].money == 6 + 4 * 4


# ---- Unlock occupied action (DR-21.10, DR-5.2, DR-5.3, DR-6.3, AMB-23) --------------------------


def test_dr_21_10_dr_5_2_unlock_places_on_an_occupied_cube_action_and_both_get_a_cube() -> None:
    state = place(placing(), 1, "white")
    state = hand(state, 2, "I01")
    illegal(state, 2, {"type": "place_marker", "space": "white"}, "DR-5.2")
    illegal(state, 2, unlock("yellow", "I01"), "DR-21.10")  # open: no card needed
    illegal(state, 2, unlock("ticket", "I01"), "DR-21.10")  # cube actions only
    illegal(state, 2, unlock("white", "I02"), "DR-21.10")  # not in its hand
    legal = [(m.space, m.unlock) for m in RULESET.legal_moves(state, 2) if m.type == "place_marker" and m.unlock]
    assert legal == [("white", "I01")]
    state = move(state, 2, unlock("white", "I01"))
    assert state.players[2].hand == () and state.investment_discard == ("I01",)  # played as placed
    assert [(s.kind, s.seat, s.get("colour")) for s in state.placements()] == [("cube", 1, "white"),
                                                                             ("cube", 2, "white")]
    for _ in range(7):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert state.players[1].cubes["white"] == 2 and state.players[2].cubes["white"] == 2
    assert state.cubes["white"] == 20


def test_dr_21_10_unlock_is_not_for_a_space_of_ones_own() -> None:
    state = hand(place(placing(), 1, "white"), 1, "I01")
    state = pass_(pass_(state, 2), 0)
    illegal(state, 1, unlock("white", "I01"), "DR-21.10")


def test_dr_21_10_dr_5_3_unlock_opens_a_cube_action_closed_by_the_player_count() -> None:
    """Rules: DR-21.10."""
    state = place(place(place(placing(), 1, "white"), 2, "yellow"), 0, "green")
    state = hand(state, 1, "I02")
    illegal(state, 1, {"type": "place_marker", "space": "blue"}, "DR-5.3")
    state = move(state, 1, unlock("blue", "I02"))
    assert state.placements()[-1] == Step("cube", seat=1, colour="blue")
    illegal(state, 2, {"type": "place_marker", "space": "red"}, "DR-5.3")  # four spaces occupied now


def test_dr_6_3_amb_23_a_short_supply_goes_to_the_earlier_marker_first() -> None:
    """Rules: DR-6.3."""
    state = evolve(place(placing(), 1, "white"), cubes={**placing().cubes, "white": 1})
    state = move(hand(state, 2, "I01"), 2, unlock("white", "I01"))
    for _ in range(7):
        state = pass_(state, RULESET.decision(state).seats[0])
    assert state.players[1].cubes["white"] == 2 and state.players[2].cubes["white"] == 1
    assert state.cubes["white"] == 0


def test_dr_5_17_dr_21_10_with_every_space_closed_an_unlock_card_still_gives_a_choice() -> None:
    """Rules: DR-5.17, DR-21.10."""
    state = placing(action_limits="in_total")
    for step in (Step("cube", seat=0, colour="white"), Step("cube", seat=2, colour="yellow"),
                 Step("cube", seat=0, colour="green"), Step("ticket", seat=2), Step("ticket", seat=0),
                 Step("investment", seat=0), Step("investment", seat=2), Step("hire_performer", seat=1),
                 Step("hire_helper", seat=1)):
        state = hold(state, "resolve", step)
    assert AGENDA.advance(state).players[1].markers == 2  # no card: seat 1 passes by itself
    state = AGENDA.advance(hand(state, 1, "I01"))
    assert RULESET.decision(state).seats == (1,) and state.players[1].markers == 3
    legal = [(m.type, getattr(m, "space", None)) for m in RULESET.legal_moves(state, 1)
             if m.type != "play_investment"]
    assert legal == [("place_marker", colour) for colour in ("white", "yellow", "green", "blue", "red")] + [
        ("pass_marker", None)]


# ---- drawing (DR-5.8, DR-18.9, DR-16.3, DR-5.10) ----------------------------------------------


def test_dr_18_9_dr_5_8_once_the_deck_is_empty_the_cards_under_it_are_drawn_in_order() -> None:
    """Rules: DR-18.9, DR-5.8."""
    state = evolve(resolving(), investment_deck=(), investment_bottom=("I03", "I27"))
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.outcomes == (("I03", 1),) and spec.visible_to == (0,)
    state = chance(state, "I03")
    assert state.investment_bottom == ("I27",) and cards_of(state, 0) == ["I03"]
    state = chance(state, "I27")
    assert state.investment_bottom == () and cards_of(state, 0) == ["I03", "I27"]
    assert state.players[0].money == 8 + 1 - 2


def test_dr_16_3_an_empty_deck_takes_the_discard_pile_and_the_draw_is_over_it() -> None:
    """Rules: DR-16.3."""
    state = evolve(resolving(), investment_deck=(), investment_discard=("I27", "I15", "I28"))
    spec = RULESET.decision(state).chance
    assert spec is not None and spec.visible_to == (0,)
    assert dict(spec.outcomes) == {"I15": 1, "I27": 1, "I28": 1}
    state = chance(state, "I15")
    assert state.investment_discard == () and sorted(state.investment_deck) == ["I27", "I28"]
    state = chance(state, "I28")  # the next draw is from the new deck
    assert state.investment_deck == ("I27",) and cards_of(state, 0) == ["I15", "I28"]


def test_dr_5_10_dr_16_3_with_nothing_to_draw_the_marker_returns_with_no_money() -> None:
    """Rules: DR-5.10, DR-16.3."""
    state = AGENDA.advance(evolve(resolving(), investment_deck=()))
    assert RULESET.decision(state).seats == (1,)  # both investments passed over: the hires
    assert state.players[0].hand == () and state.players[0].money == 8 + 1
    assert not any(step.kind == "hand_limit" for step in state.agenda)


# ---- what other seats see ----------------------------------------------------------------------


def test_dr_21_views_show_no_hand_card_and_no_card_under_the_deck_to_other_seats() -> None:
    state = evolve(hand(resolving(), 0, "I05"), investment_deck=(), investment_bottom=("I03", "I27"))
    state = chance(state, "I03")
    for viewer in (Viewer("seat", 1), Viewer("seat", 2)):
        seen = RULESET.view(state, viewer)
        assert seen["players"][0]["hand"] == {"count": 2}
        assert seen["investment_bottom"] == {"count": 1}
        assert "I03" not in str(seen) and "I27" not in str(seen) and "I05" not in str(seen)
    own = RULESET.view(state, Viewer("seat", 0))
    assert own["players"][0]["hand"] == [["I05", 0], ["I03", 0]] and own["investment_bottom"] == {"count": 1}
    assert RULESET.view(state, Viewer("arbiter"))["investment_bottom"] == ["I27"]
