"""Turns (RR-0.7 to RR-0.9, RR-5): one action or a pass, free and occupied spaces, full performance
with its exceptions, what stays on the spaces, and the order of an action's parts, through real
turns and a real round. The engineers used are picked from the component set by their effects
(engineer actions are fill-ins, DATA-9).
"""

from __future__ import annotations

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.values import evolve

from .builders import KV, SP, TS, table, tracks
from .test_tracks import ALL_CLAIMED
from .turns import adv, done, drafted, head, place, play, refused, set_up, spaces_offered, turn

COMPONENTS = default_components()


def black_and_grey_engineer() -> str:
    """An engineer whose action is one black and one grey advancement (E4 in the default set)."""
    for engineer in COMPONENTS.engineers:
        kinds = sorted((e.kind, e.colour, e.count) for e in engineer.effects)
        if kinds == [("advance", "black", 1), ("advance", "grey", 1)] and engineer.rubles == 0:
            return engineer.id
    pytest.skip("no black-and-grey engineer in this component set")


def test_rr_5_1_rr_5_8_a_turn_is_one_placement_or_a_pass_and_passing_is_always_open() -> None:
    """RR-5.1: the turn offers only placements and the pass; RR-5.8: passing stays open with
    workers in hand."""
    state = turn(table(4))
    legal = RULESET.legal_moves(state, 0)
    assert {type(m) for m in legal} == {mv.Place, mv.Pass}
    assert legal[-1] == mv.Pass()
    passed = play(state, 0, mv.Pass())
    assert done(passed) and passed.players[0].passed and passed.placements == ()
    assert passed.players[0].workers == 5


def test_rr_5_2_rr_5_4_the_placement_pays_exactly_and_the_action_follows_at_once() -> None:
    """RR-5.2: exactly the required workers, from the personal supply, then the action at once;
    RR-5.4: no second action in the same turn."""
    state = turn(table(4, {0: {"claimed": ALL_CLAIMED}}))
    refused(state, 0, place("black_3", 1), "RR-5.2")
    refused(state, 0, place("black_3", 3), "RR-5.2")
    refused(turn(table(4, {0: {"workers": 1}})), 0, place("black_3", 2), "RR-5.2")
    state = play(state, 0, place("black_3", 2))
    assert head(state) == "advance" and state.players[0].workers == 3
    refused(state, 0, place("industry_1", 1), "RR-5.4")
    refused(state, 0, mv.Pass(), "RR-12.3")
    state = play(state, 0, adv(TS), adv(TS), adv(TS))
    assert done(state) and state.players[0].tracks[TS]["black"] == 4


def test_rr_5_3_rr_0_7_an_occupied_space_cannot_be_chosen_again_this_round() -> None:
    """RR-5.3: a space used this round is closed to everyone; RR-0.7: a name that is no action
    space is refused as such."""
    state = turn(table(4), 0, 1)
    state = play(state, 0, place("rubles", 1))
    assert "rubles" not in spaces_offered(state, 1)
    refused(state, 1, place("rubles", 1), "RR-5.3")
    refused(state, 1, place("nowhere", 1), "RR-0.7")
    assert state.players[0].rubles == 3


def test_rr_0_7_the_action_spaces_include_the_engineer_hiring_turn_order_and_last_round_spaces() -> None:
    """RR-0.7: every kind of action space the digest names is on the board."""
    sections = {s.section for s in COMPONENTS.spaces}
    assert sections >= {"track", "locomotive", "industry", "auxiliary", "engineer", "turn_order", "last_round"}
    kinds = {e.kind for s in COMPONENTS.spaces for e in s.effects}
    assert {"engineer", "hire", "turn_order"} <= kinds
    assert sum(1 for s in COMPONENTS.spaces if s.section == "engineer" and s.effects[0].kind == "engineer") == 2


def test_rr_5_5_amb_5_a_board_space_must_be_performable_in_full() -> None:
    """RR-5.5, AMB-5: two brown advancements where only one can be made: the space is closed."""
    board_ = tracks(trans_siberian={"black": 5, "grey": 3, "brown": 1},
                    st_petersburg={"black": 1, "grey": 0, "brown": 0}, kiev={"black": 1, "grey": 0, "brown": 0})
    state = turn(table(4, {0: {"tracks": board_, "claimed": ALL_CLAIMED}}))
    assert "brown_1" in spaces_offered(state)
    assert "brown_2" not in spaces_offered(state)
    refused(state, 0, place("brown_2", 2), "RR-5.5")


def test_rr_5_5_a_changing_engineer_needs_its_whole_action_but_an_own_engineer_does_not() -> None:
    """RR-5.5: a changing engineer follows the board's rule (all or nothing); a hired engineer of
    one's own is done as far as it goes (RR-11.8)."""
    engineer = black_and_grey_engineer()
    slots = COMPONENTS.for_players(4).engineer_slots
    changing = next(i for i, slot in enumerate(slots) if slot.kind == "changing")
    strip = tuple(engineer if i == changing else None for i in range(len(slots)))
    no_grey = table(4, {0: {"claimed": ALL_CLAIMED, "engineers": (engineer,)}}, strip=strip)
    state = turn(no_grey)
    cost = COMPONENTS.engineer(engineer).workers
    assert "engineer_left" not in spaces_offered(state)
    refused(state, 0, place("engineer_left", cost), "RR-5.5")
    own = play(state, 0, place(engineer, cost))
    refused(own, 0, adv(TS), "RR-5.7")
    own = play(own, 0, mv.NextPart(part="advance:black"), adv(TS))  # the grey part is lost, the black one made
    assert done(own) and own.players[0].tracks[TS] == {"black": 2}
    with_grey = turn(evolve(no_grey, players=(evolve(no_grey.players[0], engineers=(),
                                                     tracks=tracks(trans_siberian={"black": 3, "grey": 0})),
                                              *no_grey.players[1:])))
    assert "engineer_left" in spaces_offered(with_grey)


def test_rr_5_5_amb_14_a_starting_bonus_card_is_done_as_far_as_it_goes() -> None:
    """RR-5.5's exception for starting bonus cards: S3's multiplier with an empty supply is lost,
    the card is still taken."""
    card = next(c.id for c in COMPONENTS.starting_bonus_cards if [e.kind for e in c.effects] == ["multiplier"])
    state = evolve(table(4), multipliers_left=0)
    state = AGENDA.advance(evolve(state, agenda=(Step("draft", seat=0), Step("turn", seat=0, stop=True))))
    state = play(state, 0, mv.DraftBonus(card=card))
    assert done(state) and state.players[0].multipliers == 0 and card not in state.starting_cards


def test_rr_5_6_rr_5_3_workers_stay_on_their_spaces_until_cleanup() -> None:
    """RR-5.6: what was placed stays for the whole round and comes back at cleanup; the spaces are
    free again the next round (RR-0.7)."""
    state = drafted(set_up(2), ["S4"])  # seat 0 first, seat 1 drafted S4
    assert RULESET.decision(state).seats == (0,)
    state = play(state, 0, place("industry_1", 1))
    state = play(state, 1, place("rubles", 1))
    state = play(state, 0, mv.Pass())
    assert [(p.space, p.seat, p.workers) for p in state.placements] == [("industry_1", 0, 1), ("rubles", 1, 1)]
    assert state.players[0].workers == 5 and state.players[1].workers == 5
    state = play(state, 1, mv.Pass())
    assert state.round == 2 and state.placements == ()
    assert (state.players[0].workers, state.players[1].workers) == (6, 6)
    assert {"industry_1", "rubles"} <= spaces_offered(state, RULESET.decision(state).seats[0])


def test_rr_5_7_amb_6_a_track_gained_part_way_takes_the_rest_of_the_action() -> None:
    """RR-5.7, AMB-6: the first advancement takes the TS black to 2 and brings the grey tracks at
    once (before the second); the second may move the new grey track."""
    state = play(turn(table(4, {0: {"rubles": 1}})), 0, place("any_2", 1, 1), adv(TS, "black"))
    assert head(state) == "advance"
    assert state.players[0].tracks[SP] == {"black": 1, "grey": 0}
    assert mv.Advance(railway=TS, colour="grey") in RULESET.legal_moves(state, 0)
    state = play(state, 0, adv(TS, "grey"))
    assert done(state) and state.players[0].tracks[TS] == {"black": 2, "grey": 1}
    assert state.players[0].tracks[KV] == {"black": 1, "grey": 0}


def test_rr_5_7_the_player_orders_an_actions_different_parts() -> None:
    """RR-5.7: one industry and one black advancement, in either order, each finished before the
    next."""
    state = play(turn(table(4, {0: {"claimed": ALL_CLAIMED}})), 0, place("industry_black", 2))
    assert {m.part for m in RULESET.legal_moves(state, 0)} == {"industry", "advance:black"}
    refused(state, 0, adv(TS), "RR-5.7")
    black_first = play(state, 0, mv.NextPart(part="advance:black"), adv(KV))
    assert black_first.players[0].markers == (1,)  # the industry part then ran by itself
    assert done(black_first) and black_first.players[0].tracks[KV]["black"] == 2
    industry_first = play(state, 0, mv.NextPart(part="industry"))
    assert industry_first.players[0].markers == (1,) and head(industry_first) == "advance"
    industry_first = play(industry_first, 0, adv(SP))
    assert done(industry_first) and industry_first.players[0].tracks[SP]["black"] == 2


def test_rr_0_9_rr_5_2_a_seat_pays_with_temporary_and_black_workers_and_rubles() -> None:
    """RR-0.9: own, temporary and the black worker all count as workers (a ruble too, RR-10.6)."""
    state = turn(table(4, {0: {"workers": 0, "rubles": 1, "temporary": 1, "black_worker": True,
                               "black_in_supply": True, "claimed": ALL_CLAIMED}}))
    legal = {(m.workers, m.temporary, m.black, m.rubles) for m in RULESET.legal_moves(state, 0)
             if isinstance(m, mv.Place) and m.space == "locomotive_3"}
    assert legal == {(0, 1, 1, 1)}
    state = play(state, 0, mv.Place(space="industry_2", temporary=1, black=1))
    player = state.players[0]
    assert (player.temporary, player.black_in_supply, player.markers, player.rubles) == (0, False, (2,), 1)


def test_rr_5_5_a_factory_benefit_is_done_as_far_as_it_goes() -> None:
    """RR-5.5's exception for factory benefits (RR-9.6): the industry space stays open although the
    factory it reaches gives multipliers and the supply is empty; the benefit is lost."""
    multiplying = next(f for f in COMPONENTS.factories if {e.kind for e in f.effects} == {"multiplier"})
    gap = [place_.kind for place_ in COMPONENTS.industry].index("gap")
    state = evolve(table(4, {0: {"factories": (multiplying.locomotive, None, None, None, None),
                                 "markers": (gap - 1,)}}), multipliers_left=0)
    state = turn(state)
    assert "industry_1" in spaces_offered(state)
    state = play(state, 0, place("industry_1", 1))
    assert done(state) and state.players[0].markers == (gap,) and state.players[0].multipliers == 0
    # with multipliers in the supply the same move places them (the benefit is real)
    full = play(turn(evolve(state, placements=(), multipliers_left=20,
                            players=(evolve(state.players[0], markers=(gap - 1,)), *state.players[1:]))),
                0, place("industry_1", 1))
    assert full.players[0].multipliers == sum(e.count for e in multiplying.effects)
