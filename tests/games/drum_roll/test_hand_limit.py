"""The investment hand limit (DR-21.3 to DR-21.5, DR-21.8, DR-5.8, AMB-20, AMB-25): 2 plus 1 per
magician in the circus, flipped ones included; over it, the seat plays or discards one card at a
time, the new cards among them, until back at the limit."""

from __future__ import annotations

from typing import Any

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.circus import fire
from domain.games.drum_roll.investments import hand_limit
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.games.drum_roll.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import chance, illegal, move
from .test_actions import resolving
from .test_investments import hand, play
from .test_sharing import sharing

# P01 to P09 are magicians, P10 to P18 acrobats (default data).


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard_investment", "card": card}


def acrobats(state: State, seat: int) -> State:
    return state.with_player(seat, performers=(Hired("P10"), Hired("P11")))


def test_dr_21_3_amb_20_two_plus_one_per_magician_flipped_ones_included() -> None:
    """Rules: DR-21.3."""
    state = sharing()
    assert hand_limit(acrobats(state, 0), 0) == 2
    circus = (Hired("P01"), Hired("P02", flipped=1), Hired("P10"))
    assert hand_limit(state.with_player(0, performers=circus), 0) == 4
    assert hand_limit(state, 0) == 4  # P05 and P03, the starting magicians


def test_dr_5_8_dr_21_4_over_the_limit_after_a_draw_the_new_card_may_be_discarded() -> None:
    """Rules: DR-5.8."""
    state = hand(acrobats(resolving(), 0), 0, "I27", "I15")  # seat 0: two investments to resolve
    state = chance(state, "I29")
    assert state.agenda[0] == Step("hand_limit", seat=0) and RULESET.decision(state).seats == (0,)
    legal = RULESET.legal_moves(state, 0)
    assert [m.card for m in legal if m.type == "discard_investment"] == ["I27", "I15", "I29"]
    plays = {(m.card, tuple(m.colours)) for m in legal if m.type == "play_investment"}
    assert ("I27", ()) in plays and ("I15", ("white", "white")) in plays and ("I29", ("yellow",)) in plays
    illegal(state, 0, discard("I30"), "DR-21.4")  # not in its hand
    illegal(state, 1, discard("I27"), "DR-21.4")  # seat 0's decision
    state = move(state, 0, discard("I29"))  # the card just drawn
    assert [c.card for c in state.players[0].hand] == ["I27", "I15"] and state.investment_discard == ("I29",)
    assert RULESET.decision(state).chance is not None  # back at the limit: the second investment
    state = chance(state, "I30")
    state = move(state, 0, play("I27"))  # DR-21.4: a card may be played instead of discarded
    assert [c.card for c in state.players[0].hand] == ["I15", "I30"]
    assert state.players[0].money == 8 + 1 - 2 + 4 and state.investment_discard == ("I29", "I27")
    assert RULESET.decision(state).seats == (1,)  # within the limit: the hires follow


def test_dr_21_4_at_the_limit_nothing_is_asked() -> None:
    """Rules: DR-21.4."""
    state = chance(hand(acrobats(resolving(), 0), 0, "I27"), "I29")
    assert len(state.players[0].hand) == 2 and RULESET.decision(state).chance is not None


def test_dr_21_4_amb_21_a_play_that_keeps_the_card_in_hand_is_not_a_way_down() -> None:
    from .test_investments import card_data, with_components

    def change(data: dict[str, Any]) -> None:
        card_data(data, "I27")["uses"] = None

    state = with_components(hand(acrobats(resolving(), 0), 0, "I27", "I15"), change)
    state = chance(state, "I29")
    illegal(state, 0, play("I27"), "DR-21.4")
    assert not any(m.type == "play_investment" and m.card == "I27" for m in RULESET.legal_moves(state, 0))


def test_dr_21_8_amb_25_bonus_cards_count_towards_the_limit_and_can_only_be_discarded() -> None:
    state = hand(acrobats(resolving(), 0), 0, "I07", "I13")
    state = chance(state, "I14")
    assert RULESET.decision(state).seats == (0,)
    assert [m.type for m in RULESET.legal_moves(state, 0)] == ["discard_investment"] * 3
    illegal(state, 0, play("I14"), "DR-21.8")


def test_dr_21_5_amb_20_a_magician_leaving_brings_the_excess_at_once() -> None:
    """Rules: DR-21.5."""
    state = sharing()  # seat 1 shares first; its circus: P07 and P06, both magicians
    state = hand(state, 1, "I27", "I15", "I03", "I28")  # at its limit of 4
    assert RULESET.decision(state).seats == (1,)
    state = AGENDA.advance(fire(state, 1, "P07"))  # as a performance's firing would (DR-11.8)
    assert hand_limit(state, 1) == 3 and state.agenda[0] == Step("hand_limit", seat=1)
    state = move(state, 1, discard("I28"))
    assert state.agenda[0].kind == "share" and state.agenda[0].seat == 1  # its turn goes on


def test_dr_21_5_fire_performer_on_a_magician_checks_the_hand_after_the_card_is_spent() -> None:
    """Rules: DR-21.5."""
    state = hand(sharing(), 1, "I05", "I27", "I15", "I28")  # 4 cards, limit 4
    state = move(state, 1, play("I05", performer="P07"))
    assert len(state.players[1].hand) == 3 and hand_limit(state, 1) == 3
    assert RULESET.decision(state).seats == (1,) and state.agenda[0].kind == "share"  # not over: no decision
    state = hand(state, 1, "I05", "I27", "I15", "I28", "I29")  # 5 cards; with P06 gone too the limit is 2
    state = move(state, 1, play("I05", performer="P06"))
    assert state.agenda[0] == Step("hand_limit", seat=1) and hand_limit(state, 1) == 2
    for card in ("I27", "I15"):
        state = move(state, 1, discard(card))
    assert [c.card for c in state.players[1].hand] == ["I28", "I29"] and state.agenda[0].kind != "hand_limit"


def test_dr_21_4_other_seats_see_neither_the_hand_nor_the_card_drawn() -> None:
    """Rules: DR-21.4."""
    state = hand(acrobats(resolving(), 0), 0, "I27", "I15")
    state = evolve(state, investment_deck=(), investment_bottom=("I29",))
    state = chance(state, "I29")
    assert RULESET.decision(state).seats == (0,)
    for seat in (1, 2):
        seen = RULESET.view(state, Viewer("seat", seat))
        assert seen["players"][0]["hand"] == {"count": 3}
        assert {"t": "hand_limit", "seat": 0} in seen["agenda"]
        assert not any(card in str(seen) for card in ("I27", "I15", "I29"))
    state = move(state, 0, discard("I29"))
    seen = RULESET.view(state, Viewer("seat", 1))
    assert seen["investment_discard"] == ["I29"]  # a discarded card is public
    assert seen["players"][0]["hand"] == {"count": 2}
    assert state.players[0].hand == (HandCard("I27"), HandCard("I15"))
