"""Starting bonus cards (§18), bonus tokens (§19), face-up cards (§20) and final bonus cards in play
(§21), through the machine.

Tokens are gained on a pushed token step (what a token space pushes, RR-13.9) and, to show the
spaces themselves, through SP 4 and the industrial token space; face-up cards through token T7,
as the rulebook gains them (RR-20.1). Seat 0 plays on a 4-seat table unless said otherwise.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import State
from domain.kernel.agenda import Step
from domain.kernel.viewers import Viewer

from .builders import KV, SP, TS, table, tracks
from .late_drive import at_step, at_turn, done, lines_of, play, refused, started, waiting

COMPONENTS = default_components()
UNLETTERED = next(e.id for e in COMPONENTS.engineers if e.deck == "none")


def token_step(**player: Any) -> State:
    return at_step(table(4, {0: player}), Step("token", seat=0, p=True))


def adv(railway: str, colour: str = "black") -> mv.Advance:
    return mv.Advance(railway=railway, colour=colour)


# ---- starting bonus cards (§18) ----------------------------------------------------------------


def test_rr_18_1_rr_18_2_rr_2_20_the_draft_applies_each_card_and_triggers_special_spaces() -> None:
    """RR-2.20 / AMB-26: from the last position back to the second; RR-18.1 (a) one black
    advancement, which on the TS reaches space 2 and gives the grey tracks at once (RR-18.2);
    (b) one industry advancement; (c) one multiplier; the first player gets none."""
    state = started(4)
    assert state.positions == (1, 2, 3, 4)
    assert waiting(state) == 3
    state = play(state, mv.DraftBonus(card="S1"), adv(TS))
    assert state.players[3].tracks == {TS: {"black": 2, "grey": 0}, SP: {"black": 1, "grey": 0},
                                       KV: {"black": 1, "grey": 0}}
    assert waiting(state) == 2
    refused(state, mv.DraftBonus(card="S1"), "RR-2.20")
    state = play(state, mv.DraftBonus(card="S2"))
    assert state.players[2].markers == (1,)
    state = play(state, mv.DraftBonus(card="S3"))
    assert state.players[1].multipliers == 1
    assert state.multipliers_left == COMPONENTS.constants.multiplier_supply - 1
    assert state.round == 1 and waiting(state) == 0
    assert state.players[0] == started(4, draft=("S4", "S2", "S3")).players[0]  # no card for position 1
    assert state.starting_cards == ()  # the one left over goes back into the box (RR-2.20)


def test_rr_18_1_d_one_extra_ruble() -> None:
    """RR-18.1 (d): one more ruble, on top of the player count's starting rubles."""
    state = started(4, draft=("S4", "S2", "S3"))
    assert state.players[3].rubles == COMPONENTS.for_players(4).rubles + 1
    assert [p.rubles for p in state.players[:3]] == [COMPONENTS.for_players(4).rubles] * 3


# ---- bonus tokens (§19) --------------------------------------------------------------------------

TOKENS = [
    ("T1", "RR-19.2", {}, [adv(TS), adv(TS, "grey"), adv(TS), adv(TS, "grey")],
     lambda p: p.tracks[TS] == {"black": 3, "grey": 2}),
    ("T2", "RR-19.3", {}, [], lambda p: p.markers == (4,)),  # 5 advancements, 4 possible: the gap is empty
    ("T3", "RR-19.4", {"markers": (3,)}, [], lambda p: p.markers == (3, 0)),
    ("T4", "RR-19.5", {"multipliers": 6}, [], lambda p: p.multipliers == 8),  # AMB-28: 3, 2 fit
    ("T5", "RR-19.6", {}, [], lambda p: p.revalued),
    ("T6", "RR-19.7", {}, [], lambda p: p.medal),
    ("T7", "RR-19.8", {}, [mv.ChooseCard(card="C2"), mv.TakeBonusCard(card="B4")],
     lambda p: p.black_worker and p.bonus_cards == ("B4",)),
]


@pytest.mark.parametrize(("token", "rule", "player", "moves", "check"), TOKENS, ids=[row[0] for row in TOKENS])
def test_rr_19_1_rr_13_9_each_token_applied_with_its_effect(token: str, rule: str, player: dict[str, Any],
                                                            moves: list[Any], check: Any) -> None:
    """RR-19.1: the seat picks one of its unused tokens; RR-19.2 to RR-19.8: each does what it says,
    in part where it cannot be done in full (AMB-14), and stays used (RR-13.9)."""
    start = token_step(**player)
    assert {m.token for m in RULESET.legal_moves(start, 0)} == {t.id for t in COMPONENTS.tokens}
    state = play(start, mv.ChooseToken(token=token), *moves)
    assert done(state)
    seat = state.players[0]
    assert check(seat)
    assert seat.tokens == (token,)
    assert COMPONENTS.token(token).rule == rule


def test_rr_13_11_a_used_token_cannot_be_chosen_again() -> None:
    """RR-13.11: each token once; the used ones are not offered and are refused."""
    start = token_step(tokens=("T5", "T2"))
    assert {m.token for m in RULESET.legal_moves(start, 0)} == {"T1", "T3", "T4", "T6", "T7"}
    refused(start, mv.ChooseToken(token="T5"), "RR-13.11")


def test_rr_19_2_t1_uses_tracks_gained_by_its_own_advancements() -> None:
    """RR-19.2: tracks gained while resolving T1 may take its remaining advancements: black to TS 2
    gives grey, which the second advancement moves (already in the table above); here the grey
    gained is refused before it exists."""
    start = token_step()
    state = play(start, mv.ChooseToken(token="T1"))
    refused(state, adv(TS, "grey"), "RR-6.6")


def test_rr_19_4_amb_15_t3_second_marker_choice_and_no_shared_space() -> None:
    """RR-19.4, AMB-15: each industry advancement moves the marker the seat picks; markers never
    share a space, so a marker right behind the other cannot move (the choice is then forced)."""
    state = at_turn(table(4, {0: {"markers": (1, 0)}}))
    state = play(state, mv.Place(space="industry_2", workers=2))
    assert state.players[0].markers == (2, 0)  # the first could move only the front marker: no jumping
    assert {m.marker for m in RULESET.legal_moves(state, 0)} == {0, 1}
    state = play(state, mv.MoveMarker(marker=1))
    assert done(state)
    assert state.players[0].markers == (2, 1)


def test_rr_13_9_rr_19_1_token_space_sp_4_gives_a_token_at_once() -> None:
    """RR-13.9: SP 4 reached by the black track and a locomotive: a token now, the space used."""
    start = at_turn(table(4, {0: {"tracks": tracks(st_petersburg={"black": 3}), "locomotives": {TS: (1,), SP: (4,)}}}))
    state = play(start, mv.Place(space="black_2", workers=1), adv(SP))
    assert waiting(state) == 0 and state.agenda[0].kind == "token"  # before the second advancement
    state = play(state, mv.ChooseToken(token="T4"), adv(SP))
    assert done(state)
    assert state.players[0].multipliers == 3
    assert "st_petersburg:4" in state.players[0].claimed
    assert state.players[0].tracks[SP]["black"] == 5


def test_rr_13_10_rr_19_4_industrial_token_space_only_once() -> None:
    """RR-13.10: the industry track's token space gives a token to the first marker that reaches it;
    the second marker arriving later gets nothing."""
    token_place = next(i for i, place in enumerate(COMPONENTS.industry) if place.token)
    factories = (2, 2, 2, 2, None)
    start = at_turn(table(4, {0: {"markers": (token_place - 1,), "factories": factories}}))
    state = play(start, mv.Place(space="industry_1", workers=1), mv.ChooseToken(token="T3"))
    assert done(state)
    assert state.players[0].markers == (token_place, 0)
    again = at_turn(table(4, {0: {"markers": (token_place + 2, token_place - 1), "factories": factories,
                                  "claimed": ("industry",), "tokens": ("T3",)}}))
    state = play(again, mv.Place(space="industry_1", workers=1))
    assert done(state)
    assert state.players[0].markers == (token_place + 2, token_place)
    assert state.players[0].tokens == ("T3",)


def test_rr_19_8_rr_19_9_amb_14_t7_offers_only_cards_it_can_perform_in_full() -> None:
    """RR-19.9, RR-20.7: with all 8 multiplier spaces full, C1 is not offered and is refused; the
    chosen card leaves the game (RR-19.8), then the final bonus card follows."""
    start = token_step(multipliers=8)
    state = play(start, mv.ChooseToken(token="T7"))
    assert {m.card for m in RULESET.legal_moves(state, 0)} == {"C2", "C3", "C4", "C5"}
    refused(state, mv.ChooseCard(card="C1"), "RR-20.7")
    state = play(state, mv.ChooseCard(card="C3"))
    assert state.face_up == ("C1", "C2", "C4", "C5")
    assert state.agenda[0].kind == "final_bonus"
    state = play(state, mv.TakeBonusVP())
    assert done(state)
    assert lines_of(state) == [("RR-21.2", COMPONENTS.constants.final_bonus_vp)]


def test_rr_19_9_no_card_qualifies_so_t7_goes_straight_to_the_final_bonus_card() -> None:
    """RR-19.9 (derived): no remaining card can be performed in full: no card, then the deck."""
    nines = {TS: (9, 9), SP: (9,), KV: (9,)}
    start = at_step(table(4, {0: {"multipliers": 8, "locomotives": nines}}, face_up=("C1", "C4")),
                    Step("token", seat=0, p=True))
    state = play(start, mv.ChooseToken(token="T7"))
    assert state.agenda[0].kind == "final_bonus"
    assert state.face_up == ("C1", "C4")
    state = play(state, mv.TakeBonusCard(card="B9"))
    assert done(state) and state.players[0].bonus_cards == ("B9",)


# ---- face-up cards (§20), through T7 -------------------------------------------------------------


def through_t7(card: str, *, options: RussianRailroadsOptions | None = None, **player: Any) -> State:
    start = at_step(table(4, {0: player}, options=options), Step("token", seat=0, p=True))
    return play(start, mv.ChooseToken(token="T7"), mv.ChooseCard(card=card))


def test_rr_20_2_c1_four_actions_the_fourth_repeats_one() -> None:
    """RR-20.2: a multiplier, an industry advancement, a black advancement, then one of them again."""
    state = through_t7("C1")
    state = play(state, mv.NextPart(part="multiplier"), mv.NextPart(part="industry"), adv(SP))
    assert {m.part for m in RULESET.legal_moves(state, 0)} == {"multiplier", "industry", "advance:black"}
    refused(state, mv.NextPart(part="take:factory"), "RR-20.2")
    state = play(state, mv.NextPart(part="advance:black"), adv(SP), mv.TakeBonusVP())
    assert done(state)
    seat = state.players[0]
    assert (seat.multipliers, seat.markers, seat.tracks[SP]) == (1, (1,), {"black": 3})


def test_rr_20_3_amb_22_c2_black_worker_adds_a_black_advancement_anywhere() -> None:
    """RR-20.3, AMB-22: the black worker is usable at once; placed on a space giving black
    advancements it adds one more black advancement, on any railway."""
    state = play(through_t7("C2"), mv.TakeBonusVP())
    assert state.players[0].black_worker and state.players[0].black_in_supply
    state = play(at_turn(state), mv.Place(space="black_3", workers=1, black=1), adv(SP), adv(SP), adv(SP), adv(KV))
    assert done(state)
    assert [t["black"] for t in state.players[0].tracks.values()] == [1, 4, 2]
    assert not state.players[0].black_in_supply and state.placements[-1].black == 1


def test_amb_22_black_worker_on_the_reusable_space_only_with_the_black_option() -> None:
    """AMB-22: on the black-or-grey space the extra comes only when black is chosen; on the
    industry-and-black space it comes."""
    seat = {"black_worker": True, "black_in_supply": True, "tracks": tracks(trans_siberian={"black": 3, "grey": 1}),
            "claimed": ("trans_siberian:2",)}
    place = mv.Place(space="black_or_grey", black=1)
    grey = play(at_turn(table(4, {0: seat})), place, adv(TS, "grey"))
    assert done(grey) and grey.players[0].tracks[TS] == {"black": 3, "grey": 2}
    black = play(at_turn(table(4, {0: seat})), place, adv(TS), adv(KV))
    assert done(black) and [t["black"] for t in black.players[0].tracks.values()] == [4, 1, 2]
    both = play(at_turn(table(4, {0: seat})), mv.Place(space="industry_black", workers=1, black=1),
                mv.NextPart(part="industry"), adv(SP))
    assert list(RULESET.legal_moves(both, 0)) == [adv(TS), adv(SP), adv(KV)]  # the extra: no order to pick
    both = play(both, adv(SP))
    assert done(both) and both.players[0].markers == (1,) and both.players[0].tracks[SP] == {"black": 3}


def test_rr_20_4_amb_23_c3_engineer_and_ruble_usable_at_once() -> None:
    """RR-20.4: the unlettered engineer joins the seat's engineers and the ruble its supply; the
    engineer's action is the seat's own space from the next turn (AMB-23: it is an engineer owned)."""
    start_rubles = COMPONENTS.for_players(4).rubles
    state = play(through_t7("C3"), mv.TakeBonusVP())
    seat = state.players[0]
    assert (seat.engineers, seat.rubles) == ((UNLETTERED,), start_rubles + 1)
    data = COMPONENTS.engineer(UNLETTERED)
    use = mv.Place(space=UNLETTERED, workers=data.workers, rubles=data.rubles)
    assert use in RULESET.legal_moves(at_turn(state), 0)


def test_rr_20_5_rr_7_6_c4_the_9_displaces_in_a_chain_down_to_the_pool() -> None:
    """RR-20.5: the #9 goes on a railway at once and may displace, with the usual chain reaction
    (RR-7.4 to RR-7.7): 6 to SP, 5 to the TS, 3 fits nowhere and turns into a pool factory."""
    state = through_t7("C4", locomotives={TS: (3, 4), SP: (5,), KV: (6,)})
    state = play(state, mv.PlaceLocomotive(railway=KV, slot=0), mv.PlaceLocomotive(railway=SP, slot=0),
                 mv.PlaceLocomotive(railway=TS, slot=0), mv.TakeBonusVP())
    assert done(state)
    assert dict(state.players[0].locomotives) == {TS: (5, 4), SP: (6,), KV: (9,)}
    assert state.pool == (3,)


def test_rr_20_5_amb_11_c4_unlocks_a_token_space_at_once_and_needs_a_place() -> None:
    """RR-20.5, AMB-11: a placement's benefit comes at once (SP 4 gives a token); with every slot
    holding a #9 the card is not offered."""
    state = through_t7("C4", tracks=tracks(st_petersburg={"black": 4}))
    state = play(state, mv.PlaceLocomotive(railway=SP, slot=0), mv.ChooseToken(token="T5"), mv.TakeBonusVP())
    assert done(state)
    assert state.players[0].revalued and state.players[0].tokens == ("T7", "T5")
    nines = token_step(locomotives={TS: (9, 9), SP: (9,), KV: (9,)})
    nines = play(nines, mv.ChooseToken(token="T7"))
    assert "C4" not in {m.card for m in RULESET.legal_moves(nines, 0)}


def test_rr_20_6_c5_a_factory_then_two_industry_advancements() -> None:
    """RR-20.6: one factory (the lowest stack's) and two industry advancements, made at once."""
    state = through_t7("C5")
    lowest = min(int(v) for v, n in state.stacks.items() if n)
    state = play(state, mv.NextPart(part="take:factory"), mv.TakeBonusVP())  # one source: taken by itself
    assert done(state)
    assert state.players[0].factories[0] == lowest and state.players[0].markers == (2,)


def test_rr_20_7_amb_14_the_partial_reading_offers_c1_and_does_what_it_can() -> None:
    """AMB-14 as an option: with `face_up_cards_in_full` off, C1 is offered with no multiplier space
    free and its other parts are done."""
    options = RussianRailroadsOptions(face_up_cards_in_full=False)
    start = at_step(table(4, {0: {"multipliers": 8}}, options=options), Step("token", seat=0, p=True))
    state = play(start, mv.ChooseToken(token="T7"))
    assert "C1" in {m.card for m in RULESET.legal_moves(state, 0)}
    state = play(state, mv.ChooseCard(card="C1"), mv.NextPart(part="industry"), mv.NextPart(part="multiplier"),
                 adv(KV), mv.NextPart(part="industry"), mv.TakeBonusVP())
    assert done(state)
    assert (state.players[0].multipliers, state.players[0].markers) == (8, (2,))


# ---- final bonus cards in play (§21) -----------------------------------------------------------


def final_bonus(**changes: Any) -> State:
    return at_step(table(4, **changes), Step("final_bonus", seat=0, p=True))


def test_rr_21_2_amb_27_an_empty_deck_leaves_only_the_10_vp() -> None:
    """AMB-27: with the deck empty only the 10 VP; a card is refused under RR-21.2."""
    state = final_bonus(bonus_deck=())
    assert list(RULESET.legal_moves(state, 0)) == [mv.TakeBonusVP()]
    refused(state, mv.TakeBonusCard(card="B1"), "RR-21.2")
    state = play(state, mv.TakeBonusVP())
    assert lines_of(state) == [("RR-21.2", 10)]


def test_rr_21_2_the_10_vp_may_be_taken_while_cards_remain_and_a_card_must_be_in_the_deck() -> None:
    """RR-21.2: any card of the deck, or the 10 VP; a card not in the deck is refused."""
    state = final_bonus(bonus_deck=("B2", "B5"))
    assert set(map(repr, RULESET.legal_moves(state, 0))) == {
        repr(mv.TakeBonusCard(card="B2")), repr(mv.TakeBonusCard(card="B5")), repr(mv.TakeBonusVP())}
    refused(state, mv.TakeBonusCard(card="B1"), "RR-21.2")


def test_rr_21_1_rr_21_2_the_card_is_hidden_from_the_other_seats_until_final_scoring() -> None:
    """RR-21.1: two cards leave unseen at setup; RR-21.2: the deck is seen only by the seat looking
    through it, and the card taken stays face down: the other seats see a count until the end."""
    setup = started(4)
    assert len(setup.bonus_deck) == len(COMPONENTS.final_bonus_cards) - COMPONENTS.constants.final_bonus_removed
    assert len(setup.removed_bonus) == 2
    assert RULESET.view(setup, Viewer.of_seat(0))["removed_bonus"] == {"count": 2}
    state = final_bonus()
    assert RULESET.view(state, Viewer.of_seat(0))["bonus_deck"] == list(state.bonus_deck)
    assert RULESET.view(state, Viewer.of_seat(1))["bonus_deck"] == {"count": len(state.bonus_deck)}
    move = mv.TakeBonusCard(card="B8")
    private = RULESET.private_choice(state, 0, move)
    assert private is not None and private.until == "final_scoring" and private.fields == ("card",)
    state = play(state, move)
    assert RULESET.view(state, Viewer.of_seat(0))["players"][0]["bonus_cards"] == ["B8"]
    for viewer in (Viewer.of_seat(1), Viewer.spectator()):
        shown = RULESET.view(state, viewer)
        assert shown["players"][0]["bonus_cards"] == {"count": 1}
        assert "B8" not in repr(shown)
    assert RULESET.view(state, Viewer.of_seat(0))["bonus_deck"] == {"count": len(state.bonus_deck)}
    over = state.ended()
    assert RULESET.view(over, Viewer.of_seat(1))["players"][0]["bonus_cards"] == ["B8"]
    assert RULESET.reveals(over) == ("final_scoring",)


def test_rr_20_1_a_face_up_card_only_through_t7_and_once_a_game() -> None:
    """RR-20.1: a face-up card is gained only through T7 (at a turn it is refused under RR-20.1);
    each is used once a game: what seat 0 took is not offered to seat 1's T7 later, and what lay on
    it (the black worker) went to seat 0."""
    refused(at_turn(table(4)), mv.ChooseCard(card="C2"), "RR-20.1")
    state = play(through_t7("C2"), mv.TakeBonusVP())
    assert state.players[0].black_worker and not state.players[1].black_worker
    later = play(at_step(state, Step("token", seat=1, p=True)), mv.ChooseToken(token="T7"))
    assert waiting(later) == 1
    assert {m.card for m in RULESET.legal_moves(later, 1)} == {"C1", "C3", "C4", "C5"}
    refused(later, mv.ChooseCard(card="C2"), "RR-20.1")


@settings(max_examples=20, deadline=None)
@given(multipliers=st.integers(0, 8), markers=st.integers(0, 4), nines=st.integers(0, 4), seed=st.integers(0, 99))
def test_rr_20_7_every_card_t7_offers_can_be_carried_out_in_full(multipliers: int, markers: int, nines: int,
                                                                 seed: int) -> None:
    """RR-20.7 as a property: on tables with some multiplier spaces full, markers stuck before an
    empty gap and slots holding #9s, every card T7 offers is finished by any sequence of legal
    moves; C1 is offered exactly when a multiplier space is free and the marker can move, C4
    exactly when some slot can take the #9."""
    locomotives: dict[str, tuple[int, ...]] = {TS: (9,) * min(nines, 2) or (1,)}
    locomotives.update({railway: (9,) for railway in (SP, KV)[: max(nines - 2, 0)]})
    start = token_step(multipliers=multipliers, markers=(markers,), locomotives=locomotives)
    offered_state = play(start, mv.ChooseToken(token="T7"))
    offered = {m.card for m in RULESET.legal_moves(offered_state, 0) if isinstance(m, mv.ChooseCard)}
    assert ("C1" in offered) == (multipliers < 8 and markers < 4)  # a multiplier space, an industry step
    assert ("C4" in offered) == (nines < 4)
    rng = random.Random(seed)
    for card in sorted(offered):
        state = play(offered_state, mv.ChooseCard(card=card))
        for _ in range(40):
            if done(state):
                break
            moves = list(RULESET.legal_moves(state, 0))
            state = play(state, moves[rng.randrange(len(moves))])
        assert done(state)
        assert card not in state.face_up
