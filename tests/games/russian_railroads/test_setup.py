"""Terms, components and setup (RR-0, RR-1, RR-2, RR-3, RR-4) on real setups driven through the
machine's chance draws and draft, for every player count.

Counts that are fill-ins in the default set (engineer decks, the 2-player blocked spaces) are
read from the component set; counts the digest states (7 rounds, 5 workers, 37 locomotives, ...)
are written out.
"""

from __future__ import annotations

from collections import Counter

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.kernel.contract import ScoreLine
from domain.kernel.values import evolve

from .builders import KV, SP, TS, config, table
from .turns import drafted, play, refused, set_up, spaces_offered, turn

COMPONENTS = default_components()
SEATS = (2, 3, 4)


def test_rr_1_1_rr_1_2_rr_1_3_the_component_counts() -> None:
    """RR-1.1, RR-1.2, RR-1.3: 37 locomotives (4 of #1-#8, 5 of #9), 15 engineers (14 lettered, 1 not), 7
    tokens a player, 5 + 10 + 4 cards, 20 multipliers, and 48 tracks."""
    assert sum(COMPONENTS.locomotives.values()) == 37
    assert {value: COMPONENTS.locomotives[value] for value in map(str, range(1, 9))} == dict.fromkeys(
        map(str, range(1, 9)), 4)
    assert COMPONENTS.locomotives["9"] == 5
    assert len(COMPONENTS.engineers) == 15
    decks = Counter(e.deck for e in COMPONENTS.engineers)
    assert decks["none"] == 1 and decks["X"] + decks["Y"] == 14
    assert len(COMPONENTS.tokens) == 7  # 7 different per player, 4 x 7 = 28
    assert (len(COMPONENTS.face_up_cards), len(COMPONENTS.final_bonus_cards), len(COMPONENTS.starting_bonus_cards)) \
        == (5, 10, 4)
    assert COMPONENTS.constants.multiplier_supply == 20
    # 48 tracks: each of the 4 players can own one per colour per railway that uses it.
    per_colour = Counter(colour for railway in COMPONENTS.railways for colour in railway.colours)
    assert {colour: 4 * n for colour, n in per_colour.items()} == {
        "black": 12, "grey": 12, "brown": 12, "beige": 8, "white": 4}


def test_rr_1_2_rr_8_1_every_locomotive_value_has_one_factory_back() -> None:
    """RR-1.2, RR-8.1: one factory benefit per locomotive value, so all locomotives of a value share it."""
    values = sorted(f.locomotive for f in COMPONENTS.factories)
    assert values == list(range(1, 10))  # one benefit per value: same value, same factory
    assert COMPONENTS.factory(4).effects == next(f for f in COMPONENTS.factories if f.locomotive == 4).effects


@pytest.mark.parametrize("seats", SEATS)
def test_rr_2_12_rr_2_13_rr_2_14_rr_2_15_rr_2_16_rr_2_17_rr_3_4_rr_3_9_rr_3_10_each_players_start(seats: int) -> None:
    """Each seat's board after a real setup: one board each (RR-2.11), the #1 on the TS (RR-2.12), black
    tracks on space 1 (RR-2.13), workers and reserve (RR-2.6, RR-2.14, RR-3.4, RR-3.9), rubles (RR-2.15,
    RR-3.10), the industry marker on 0 (RR-2.16), nothing else in use (RR-2.17)."""
    state = set_up(seats)
    workers, rubles = {2: (6, 2), 3: (6, 1), 4: (5, 1)}[seats]
    assert len(state.players) == seats  # RR-2.11: one board each
    for p in state.players:
        assert p.tracks == {TS: {"black": 1}, SP: {"black": 1}, KV: {"black": 1}}  # RR-2.13, AMB-1
        assert p.locomotives == {TS: (1,)}  # RR-2.12, AMB-2
        assert (p.workers, p.reserve, p.rubles) == (workers, 2, rubles)  # RR-2.14, RR-3.4, RR-3.9, RR-3.10
        assert p.markers == (0,)  # RR-2.16; the second marker stays beside the board (RR-2.17)
        assert p.factories == (None,) * 5
        assert (p.tokens, p.medal, p.revalued, p.multipliers) == ((), False, False, 0)  # RR-2.17
        assert (p.temporary, p.black_worker, p.black_in_supply) == (0, False, False)  # RR-2.5


@pytest.mark.parametrize(("seats", "each", "nine"), [(4, 4, 4), (3, 3, 3), (2, 2, 2)])
def test_rr_2_4_rr_2_12_rr_3_2_rr_3_7_the_locomotive_stacks(seats: int, each: int, nine: int) -> None:
    """RR-2.4, RR-2.12, RR-3.2, RR-3.7: the stacks by value; AMB-25: the #1s left equal the seats and all go
    out at setup; the C4 #9 stays on its card."""
    state = set_up(seats)
    assert state.stacks == {**{str(v): each for v in range(2, 9)}, "9": nine, "1": 0}


@pytest.mark.parametrize("seats", SEATS)
def test_rr_2_2_rr_2_3_rr_2_7_rr_2_10_the_shared_components(seats: int) -> None:
    """RR-2.2, RR-2.3, RR-2.7, RR-2.10: face-up cards, 8 final bonus cards left, 20 multipliers, no last round
    yet."""
    state = set_up(seats)
    assert state.face_up == tuple(card.id for card in COMPONENTS.face_up_cards)  # RR-2.2: all 5
    assert len(state.bonus_deck) == 8 and len(state.removed_bonus) == 2  # RR-2.3
    assert not set(state.bonus_deck) & set(state.removed_bonus)
    assert state.multipliers_left == 20  # RR-2.7
    assert state.round == 0 and not state.last_round  # RR-2.10: the marker waits beside the board
    assert state.pool == ()


def test_rr_2_3_the_removed_final_bonus_cards_are_seen_by_nobody() -> None:
    """RR-2.3: the removal is a chance draw from the 10 cards that nobody sees."""
    state = RULESET.setup(config(4))
    decision = RULESET.decision(state)
    assert decision.chance is not None and decision.chance.visible_to == "none"
    assert decision.chance.total_weight() == 10


@pytest.mark.parametrize("seats", SEATS)
def test_rr_0_10_rr_2_8_rr_2_9_rr_3_3_rr_3_8_the_engineers_on_the_strip(seats: int) -> None:
    """RR-0.10, RR-2.8, RR-2.9, RR-3.3, RR-3.8: 4 from deck X and 3 from deck Y with 4 players, 3 + 3 with 2
    or 3, each on a space of its deck; with 3 the leftmost stays empty."""
    state = set_up(seats)
    slots = COMPONENTS.for_players(seats).engineer_slots
    deck_of = {e.id: e.deck for e in COMPONENTS.engineers}
    placed = [e for e in state.strip if e is not None]
    assert len(placed) == {2: 6, 3: 6, 4: 7}[seats]
    assert Counter(deck_of[e] for e in placed) == ({"X": 4, "Y": 3} if seats == 4 else {"X": 3, "Y": 3})
    for slot, engineer in zip(slots, state.strip, strict=True):
        assert (engineer is None) == (slot.deck is None)
        if engineer is not None:
            assert deck_of[engineer] == slot.deck
    if seats == 3:
        assert state.strip[0] is None  # RR-3.3: the leftmost engineer space stays empty
    unlettered = next(e.id for e in COMPONENTS.engineers if e.deck == "none")
    assert unlettered not in state.strip  # it lies on its face-up card (RR-2.8)
    # the rest are out of the game: no engineer is placed twice and none comes later
    assert len(set(placed)) == len(placed)


@pytest.mark.parametrize("seats", SEATS)
def test_rr_2_18_rr_3_12_the_turn_order_cards_are_one_to_n_dealt_by_chance(seats: int) -> None:
    """RR-2.18, RR-3.12: the cards 1..N are dealt face up by chance, and the card sets the seat's position."""
    state = RULESET.setup(config(seats))
    while RULESET.decision(state).chance is not None and state.agenda[0].kind != "deal":
        chance = RULESET.decision(state).chance
        assert chance is not None
        state = RULESET.resolve(state, chance.outcomes[0][0])
    chance = RULESET.decision(state).chance
    assert chance is not None and chance.visible_to == "all"
    assert [o for o, _ in chance.outcomes] == list(range(1, seats + 1))
    dealt = set_up(seats, deal=list(range(seats, 0, -1)))
    assert dealt.positions == tuple(range(seats, 0, -1))
    assert dealt.order() == tuple(range(seats - 1, -1, -1))


@pytest.mark.parametrize("seats", SEATS)
def test_rr_2_19_rr_2_22_everyone_starts_at_zero_vp(seats: int) -> None:
    """RR-2.19, RR-2.22 (AMB-3): every seat starts at 0 VP, with no score line."""
    state = set_up(seats)
    assert state.lines == ()
    assert list(RULESET.score(state).totals()) == [0] * seats


@pytest.mark.parametrize("seats", SEATS)
def test_rr_2_20_rr_3_12_the_draft_runs_from_last_to_second_and_the_first_gets_none(seats: int) -> None:
    """RR-2.20, RR-3.12 (AMB-26): the draft runs from the last position to the second, each card applied at
    once and removed; the first player gets none."""
    # seat i holds card seats - i: seat 0 is last, seat seats-1 first
    state = set_up(seats, deal=list(range(seats, 0, -1)))
    order = []
    cards = ["S4", "S2", "S3"][: seats - 1]
    for card in cards:
        decision = RULESET.decision(state)
        seat = decision.seats[0]
        order.append(seat)
        refused(state, (seat + 1) % seats, mv.DraftBonus(card=card), "RR-2.20")  # not the other seats' pick
        state = play(state, seat, mv.DraftBonus(card=card))
        assert card not in state.starting_cards
    assert order == list(range(seats - 1))  # positions N, N-1, ..., 2
    assert state.agenda[0].kind == "turn" and state.agenda[0].seat == seats - 1  # the first player starts
    assert state.starting_cards == ()  # the rest go back into the box before round 1
    # the cards' effects were applied at once (RR-18): S4 one ruble, S2 one industry, S3 one multiplier
    rubles = {2: 2, 3: 1, 4: 1}[seats]
    assert state.players[0].rubles == rubles + 1
    if seats >= 3:
        assert state.players[1].markers == (1,)
    if seats == 4:
        assert state.players[2].multipliers == 1
    assert state.players[seats - 1].rubles == rubles  # the first player got nothing


def test_rr_2_20_a_taken_starting_card_cannot_be_taken_again() -> None:
    """RR-2.20: a drafted card has left the game."""
    state = drafted(set_up(4, deal=[4, 3, 2, 1]), ["S4"])
    refused(state, 1, mv.DraftBonus(card="S4"), "RR-2.20")


@pytest.mark.parametrize(("seats", "rounds"), [(2, 6), (3, 6), (4, 7)])
def test_rr_3_1_rounds_by_player_count(seats: int, rounds: int) -> None:
    """RR-3.1: 6 rounds with 2 or 3 players, 7 with 4."""
    assert table(seats).rounds == rounds
    assert table(seats, round=rounds).last_round and not table(seats, round=rounds - 1).last_round


def test_rr_3_5_three_players_use_the_four_player_board_side() -> None:
    """RR-3.5: with 3 players every 4-player space is open."""
    assert spaces_offered(turn(table(3))) == spaces_offered(turn(table(4)))


def test_rr_3_6_blocked_spaces_on_the_two_player_side() -> None:
    """RR-3.6 (DATA-1): the spaces the data blocks on the 2-player side are neither offered nor accepted."""
    blocked = sorted(s.id for s in COMPONENTS.spaces if 2 not in s.players)
    assert blocked  # DATA-1: the fill-in blocks some spaces (read from the data)
    state = turn(table(2))
    offered = spaces_offered(state)
    for space_id in blocked:
        assert space_id not in offered
        space = COMPONENTS.space(space_id)
        refused(state, 0, mv.Place(space=space_id, workers=space.workers, rubles=space.rubles), "RR-3.6")
    assert spaces_offered(turn(table(4))) - offered == {"black_2", "locomotive_2", "industry_black", "turn_order_2"}


def test_rr_3_11_two_players_may_claim_the_space_below_their_own_position() -> None:
    """RR-3.11: with 2 players the first player may claim first place; with 4 it is refused (RR-12.8)."""
    two = turn(table(2))  # seat 0 holds position 1
    assert "turn_order_1" in spaces_offered(two)
    after = play(two, 0, mv.Place(space="turn_order_1", workers=1))
    assert [p.space for p in after.placements] == ["turn_order_1"]
    for seats in (3, 4):  # the 2-player rule only
        other = turn(table(seats))
        assert "turn_order_1" not in spaces_offered(other)
        refused(other, 0, mv.Place(space="turn_order_1", workers=1), "RR-12.8")


def test_rr_4_1_rr_4_2_rr_4_3_rr_4_4_a_whole_two_player_game_of_passes() -> None:
    """RR-4.2, RR-4.3, RR-4.4: a whole 2-player game played through the machine. Every round: actions until
    all passed, reorganisation, reuse, scoring, cleanup; the last
    round opens the last-round action; after it the final scoring, and the match is over."""
    state = drafted(set_up(2), ["S4"])
    rounds_seen = []
    while not state.over:
        decision = RULESET.decision(state)
        seat = decision.seats[0]
        if state.round not in rounds_seen:
            rounds_seen.append(state.round)
            offered = spaces_offered(state, seat)
            assert ("last_round" in offered) == (state.round == 6)  # RR-4.3
            assert ("turn_order_1" in offered) == (state.round != 6)
        state = play(state, seat, mv.Pass())
    assert rounds_seen == [1, 2, 3, 4, 5, 6]
    # passing in position 2 gives 2 VP a round (RR-12.4), nothing changes the order
    assert [line.points for line in state.lines if line.rule == "RR-12.4"] == [2] * 6
    assert state.round == 6 and state.over


def test_rr_0_8_the_reserve_is_not_available_for_placement() -> None:
    """RR-0.8: workers in the reserve cannot be placed."""
    state = turn(table(4, {0: {"workers": 0, "reserve": 2, "rubles": 0}}))
    assert spaces_offered(state) == set()
    refused(state, 0, mv.Place(space="industry_1", workers=1), "RR-5.2")


def test_rr_1_4_rubles_never_run_out_but_the_20_multipliers_do() -> None:
    """RR-1.4: rubles are unlimited (seats may hold more than the 18 coins between them); the
    multiplier supply holds 20 (AMB-34, the default reading): when it is empty the space closes."""
    rich = table(4, {seat: {"rubles": 10} for seat in range(4)})
    state = play(turn(rich), 0, mv.Place(space="rubles", workers=1))
    assert sum(p.rubles for p in state.players) == 42
    empty = evolve(table(4), multipliers_left=0)
    assert "multiplier" not in spaces_offered(turn(empty))
    refused(turn(empty), 0, mv.Place(space="multiplier", workers=1), "RR-5.5")
    state = play(turn(evolve(table(4), multipliers_left=1)), 0, mv.Place(space="multiplier", workers=1))
    assert (state.players[0].multipliers, state.multipliers_left) == (1, 0)


def test_rr_2_1_rr_4_1_scores_past_100_are_kept_whole_and_the_most_vp_wins() -> None:
    """RR-2.1 (DATA-15): the 100/200 and 300/400 markers only count laps, so a score is its full sum;
    RR-4.1: the seat with the most VP ranks first."""
    lines = (ScoreLine(0, 120, "immediate", "RR-12.4", "test"), ScoreLine(1, 250, "immediate", "RR-12.4", "test"),
             ScoreLine(1, 160, "immediate", "RR-12.4", "test"))
    state = table(2, lines=lines)
    sheet = RULESET.score(state)
    assert sheet.totals() == (120, 410)
    assert RULESET.result(state, sheet).winners() == (1,)


def test_rr_2_9_only_the_engineers_on_changing_spaces_show_an_action() -> None:
    """RR-2.9: the engineers on the two changing spaces (light side) are board actions; those on
    the preview spaces and the hiring space (dark side) are not (RR-11.6 names the refusal)."""
    state = drafted(set_up(4), ["S4", "S2", "S3"])
    slots = COMPONENTS.for_players(4).engineer_slots
    seat = RULESET.decision(state).seats[0]
    for slot, engineer in zip(slots, state.strip, strict=True):
        assert engineer is not None
        if slot.kind != "changing":
            refused(state, seat, mv.Place(space=engineer, workers=1), "RR-11.6")
    changing = [e for s, e in zip(slots, state.strip, strict=True) if s.kind == "changing"]
    assert len(changing) == 2
    assert {m.space for m in RULESET.legal_moves(state, seat) if isinstance(m, mv.Place)} & {
        "engineer_left", "engineer_right"}


def test_rr_4_2_a_rounds_phases_run_in_order() -> None:
    """RR-4.2: the action phase ends when all have passed; then the turn-order reorganisation (the
    claimer is first at the reuse decision), the turn-order worker's reuse (its industry
    advancement is scored), the scoring phase, and cleanup (nothing left on the spaces)."""
    state = drafted(set_up(2), ["S4"])
    state = play(state, 0, mv.Pass())
    state = play(state, 1, mv.Place(space="turn_order_1", workers=1))
    state = play(state, 1, mv.Pass())
    assert state.agenda[0].kind == "reuse_worker" and state.positions == (2, 1)  # reorganised already
    assert [line.rule for line in state.lines] == ["RR-12.4"]  # not scored yet
    assert [p.space for p in state.placements] == ["turn_order_1"]
    state = play(state, 1, mv.Place(space="industry_1", workers=1))
    assert [(line.seat, line.points, line.rule) for line in state.lines if line.category == "industry"] == [
        (1, 1, "RR-14.9")]  # the reused worker's advancement counted in this round's scoring
    assert state.round == 2 and state.placements == ()  # cleaned up
    assert RULESET.decision(state).seats == (1,)  # the new first player starts round 2
