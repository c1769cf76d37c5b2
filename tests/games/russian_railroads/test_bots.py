"""The Russian Railroads bots: whole matches at every player count, determinism, the greedy bot's
blindness to what its seat cannot see (RR-21.2, RR-2.3, RR-2.8), and its strength against the
random bot (issue 15: at least 80 % of two-player matches over 200 seeds, the `slow` test)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.russian_railroads import RULESET as R
from domain.games.russian_railroads.bots import PENDING_BONUS, blind, evaluate, finish, greedy_bot, move_scores
from domain.games.russian_railroads.moves import Place, TakeBonusCard, TakeBonusVP
from domain.games.russian_railroads.options import RussianRailroadsOptions
from domain.games.russian_railroads.state import Placement, State
from domain.kernel.agenda import Step
from domain.kernel.chance import derive_outcome
from domain.kernel.driver import make_config, play
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import table

GREEDY = R.bots()["greedy"]


def totals(state: State) -> list[int]:
    return list(R.score(state).totals())


def test_bots_are_named_random_first_then_greedy() -> None:
    assert list(R.bots()) == ["random", "greedy"]
    assert R.bots()["greedy"] is greedy_bot


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_rr_17_1_greedy_bot_plays_whole_matches_with_legal_moves(seats: int, seed: int) -> None:
    """Greedy bots in every other seat (the rest random) play to the final scoring; the driver
    validates every move they return, so an illegal one would raise."""
    greedy_seats = {seat: GREEDY for seat in range(seats) if (seat + seed) % 2 == 0}
    match = play(R, make_config(R, seats), seed=seed, bots=greedy_seats)
    assert match.state.over and R.decision(match.state).over
    assert any(step.seat in greedy_seats for step in match.steps)
    scores = totals(match.state)
    assert len(scores) == seats and min(scores) >= 0


def test_greedy_bot_is_deterministic_for_a_seed() -> None:
    """The same seed gives the same match, move for move, with greedy bots in both seats."""
    first = play(R, make_config(R, 2), seed=7, bots={0: GREEDY, 1: GREEDY})
    second = play(R, make_config(R, 2), seed=7, bots={0: GREEDY, 1: GREEDY})
    assert first.steps == second.steps
    assert totals(first.state) == totals(second.state)


def test_greedy_bot_ignores_its_generator() -> None:
    """Ties go to the first legal move, never to the generator, so any seed gives the same move."""
    state = _decision_points(2, seed=5)[10]
    seat = R.decision(state).seats[0]
    assert len({repr(R.dump_move(GREEDY(state, seat, random.Random(s)))) for s in range(5)}) == 1


def _e7_loop_turn() -> State:
    """Seat 0's turn under AMB-16 (b) with E7 (repeat) hired and both it and the 2-ruble space used
    this round with one ruble and one worker: placing E7 again for 1 ruble and repeating the
    2-ruble space would gain a ruble every cycle (RR-11.6, RR-22.7)."""
    unlimited = RussianRailroadsOptions(own_engineers="unlimited")
    used = (Placement("rubles", 0, workers=1), Placement("E7", 0, rubles=1))
    return table(2, options=unlimited, players={0: {"engineers": ("E7",), "rubles": 5}},
                 placements=used, agenda=(Step("turn", round=1, seat=0),))


def test_amb_16_greedy_uses_an_own_engineer_once_a_round_even_when_unlimited() -> None:
    """Under AMB-16 (b) the rules let seat 0 place E7 again (the move is legal), but the greedy bot
    does not: a bot that always takes the best-looking move would loop on it for ever."""
    state = _e7_loop_turn()
    again = [m for m in R.legal_moves(state, 0) if isinstance(m, Place) and m.space == "E7"]
    assert again, "the rules allow E7 again under reading (b)"
    assert all(not (isinstance(m, Place) and m.space == "E7") for m, _ in move_scores(state, 0))
    chosen = GREEDY(state, 0, random.Random(0))
    assert not (isinstance(chosen, Place) and chosen.space == "E7")


def test_amb_16_greedy_finishes_a_four_seat_unlimited_engineers_match() -> None:
    """The match that used to never end: four seats, engineers unlimited, greedy in two seats."""
    config = make_config(R, 4, options={"own_engineers": "unlimited"})
    match = play(R, config, seed=11, bots={0: GREEDY, 2: GREEDY})
    assert match.state.over
    assert len(match.steps) < 2000


# ---- the greedy bot decides from its seat's view only -----------------------------------------


def _decision_points(seats: int, seed: int) -> list[State]:
    """The states of a greedy-vs-random match at each seat decision, in order."""
    rng = random.Random(seed)
    state = R.setup(make_config(R, seats))
    found: list[State] = []
    for step in range(R.max_events(state.config) + 1):
        decision = R.decision(state)
        if decision.over:
            return found
        if decision.chance is not None:
            state = R.resolve(state, derive_outcome(f"{seed:064x}", "bots", [], step, decision.chance).outcome)
            continue
        seat = decision.seats[0]
        found.append(state)
        bot = GREEDY if seat == 0 else R.random_bot
        state = R.apply(state, seat, bot(state, seat, rng))
    raise AssertionError("match did not end within max_events")


def _hidden_otherwise(state: State, seat: int, rng: random.Random) -> State:
    """The same table with the final bonus cards hidden from `seat` dealt otherwise: another seat
    holds one card face down (RR-21.2), and that hand, the deck (unless `seat` looks through it)
    and the removed cards (RR-2.3) are shuffled among themselves, every count kept."""
    other = (seat + 1) % state.seats
    players = list(state.players)
    deck = list(state.bonus_deck)
    if not players[other].bonus_cards and len(deck) > 1:
        players[other] = evolve(players[other], bonus_cards=(deck.pop(0),))
    looking = R.decision(state).seats == (seat,) and state.agenda[0].kind == "final_bonus"
    pool = [card for index, p in enumerate(players) if index != seat for card in p.bonus_cards]
    pool += list(state.removed_bonus) + ([] if looking else deck)
    rng.shuffle(pool)
    for index, p in enumerate(players):
        if index != seat:
            players[index] = evolve(p, bonus_cards=tuple(pool[:len(p.bonus_cards)]))
            pool = pool[len(p.bonus_cards):]
    removed, pool = tuple(pool[:len(state.removed_bonus)]), pool[len(state.removed_bonus):]
    return evolve(state, players=tuple(players), removed_bonus=removed,
                  bonus_deck=tuple(sorted(deck if looking else pool)))


def _with_one_hidden_card(state: State, seat: int) -> State:
    """`state` with the first deck card in the hand of the seat after `seat`, if it holds none."""
    other = (seat + 1) % state.seats
    if state.players[other].bonus_cards or len(state.bonus_deck) < 2:
        return state
    deck = list(state.bonus_deck)
    card = deck.pop(0)
    return evolve(state.with_player(other, bonus_cards=(card,)), bonus_deck=tuple(deck))


def _industry_token_turn() -> State:
    """Seat 0's turn with its industry marker one place before the industry track's token space
    and every bonus token but T7 used: an industry action leads to T7, a face-up card and a
    final bonus choice from the (hidden) deck (RR-13.10, RR-19.8, RR-21.2)."""
    used = ("T1", "T2", "T3", "T4", "T5", "T6")
    return table(2, players={0: {"markers": (9,), "factories": (1, 2, 3, None, None), "tokens": used}},
                 agenda=(Step("turn", round=1, seat=0),))


@pytest.mark.parametrize("seats", [2, 3])
def test_rr_21_2_rr_2_3_greedy_move_ignores_hidden_bonus_cards(seats: int) -> None:
    """Another seat's face-down final bonus cards, the deck's contents and the removed cards
    (RR-21.2, RR-2.3) may be anything the seat cannot see: in every such state the seat's view is
    the same, its planning world (`blind`) is the same, and so are the score of every legal move
    and the greedy move. The states are every fourth decision of a match, and a turn where an
    action leads to a final bonus choice from the deck."""
    rng = random.Random(seats)
    checked = 0
    states = _decision_points(seats, seed=seats)[::4]
    if seats == 2:
        states.append(_industry_token_turn())
    for state in states:
        seat = R.decision(state).seats[0]
        base = _with_one_hidden_card(state, seat)
        chosen = R.dump_move(GREEDY(base, seat, random.Random(0)))
        scores = [(R.dump_move(move), score) for move, score in move_scores(base, seat)]
        for _ in range(3):
            other = _hidden_otherwise(base, seat, rng)
            assert R.view(other, Viewer.of_seat(seat)) == R.view(base, Viewer.of_seat(seat))
            assert blind(other, seat).to_json() == blind(base, seat).to_json()
            assert [(R.dump_move(move), score) for move, score in move_scores(other, seat)] == scores
            assert R.dump_move(GREEDY(other, seat, random.Random(0))) == chosen
            checked += 1
    assert checked >= 60


def test_rr_21_2_look_ahead_stops_before_a_hidden_deck() -> None:
    """The industry action of `_industry_token_turn` ends its look-ahead at the final bonus choice
    (the deck is hidden until the seat looks through it) and counts it at the flat 12 VP."""
    state = _industry_token_turn()
    industry = Place(space="industry_1", workers=1, temporary=0, black=0, rubles=0)
    after = finish(R.apply(blind(state, 0), 0, industry), 0)
    assert after.agenda[0].kind == "final_bonus" and after.players[0].tokens[-1] == "T7"
    assert dict((repr(move), score) for move, score in move_scores(state, 0))[repr(industry)] == evaluate(after, 0)
    assert evaluate(after, 0) - evaluate(R.apply(after, 0, TakeBonusVP()), 0) == PENDING_BONUS - 100


def test_rr_21_2_every_move_scores_the_same_whichever_card_is_hidden() -> None:
    """At `_industry_token_turn`, whichever card seat 1 holds face down (so whatever the deck
    holds), every move of seat 0 scores the same."""
    state = _industry_token_turn()

    def scores(cards: tuple[str, ...], deck: tuple[str, ...]) -> list[tuple[str, int]]:
        varied = evolve(state.with_player(1, bonus_cards=cards), bonus_deck=deck)
        return [(repr(move), score) for move, score in move_scores(varied, 0)]

    first = scores(state.bonus_deck[:1], state.bonus_deck[1:])
    for card in state.bonus_deck[1:]:
        assert scores((card,), tuple(c for c in state.bonus_deck if c != card)) == first, card


def test_rr_21_2_blind_keeps_the_deck_while_the_seat_looks_through_it() -> None:
    """Choosing a final bonus card, the seat sees the deck (RR-21.2): its planning world keeps the
    real deck, and only the other seats' hands and the removed cards are stand-ins."""
    state = table(2, players={1: {"bonus_cards": ("B1",)}}, removed_bonus=("B2", "B3"),
                  bonus_deck=("B10", "B4", "B5", "B6", "B7", "B8", "B9"),
                  agenda=(Step("final_bonus", seat=0),))
    world = blind(state, 0)
    assert world.bonus_deck == state.bonus_deck
    assert world.players[1].bonus_cards == ("B1",)  # the first unseen card, sorted by id
    assert world.removed_bonus == ("B2", "B3")
    hidden_elsewhere = evolve(state.with_player(1, bonus_cards=("B3",)), removed_bonus=("B1", "B2"))
    assert blind(hidden_elsewhere, 0).to_json() == world.to_json()


# ---- the greedy bot's judgement ---------------------------------------------------------------


def test_rr_21_6_greedy_takes_the_factory_card_with_five_factories() -> None:
    """With five factories, B3 (4 VP a factory, at most 20, RR-21.6) beats B1's 15 VP and the
    10 VP instead of a card (RR-21.2)."""
    state = table(2, players={0: {"factories": (1, 2, 3, 4, 5)}}, round=6, bonus_deck=("B1", "B3"),
                  agenda=(Step("final_bonus", seat=0),))
    assert R.legal_moves(state, 0) == [TakeBonusCard(card="B1"), TakeBonusCard(card="B3"), TakeBonusVP()]
    assert GREEDY(state, 0, random.Random(0)) == TakeBonusCard(card="B3")
    taken = {card: evaluate(R.apply(state, 0, TakeBonusCard(card=card)), 0) for card in ("B1", "B3")}
    assert taken["B3"] - taken["B1"] == 50  # 20 VP against 15 VP, in tenths


def test_rr_21_2_greedy_takes_10_vp_over_a_card_worth_nothing() -> None:
    """With no factory and no engineer, B3 and B8 are worth nothing: the 10 VP are better."""
    state = table(2, round=6, bonus_deck=("B3", "B8"), agenda=(Step("final_bonus", seat=0),))
    assert GREEDY(state, 0, random.Random(0)) == TakeBonusVP()


def _greedy_wins(seed: int) -> tuple[bool, list[int]]:
    """One two-player match, greedy against random, the greedy seat alternating with the seed."""
    seat = seed % 2
    match = play(R, make_config(R, 2), seed=seed, bots={seat: GREEDY})
    scores = totals(match.state)
    return scores[seat] > scores[1 - seat], scores


def test_greedy_beats_random_in_a_few_seeds() -> None:
    """A quick look at the slow test's claim: greedy wins each of four matches, by a wide margin."""
    for seed in range(4):
        won, scores = _greedy_wins(seed)
        assert won, (seed, scores)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_greedy_beats_random_in_at_least_80_percent_of_200_two_player_matches(capsys: Any) -> None:
    """Issue 15: over seeds 0-199 (the greedy seat alternating), the greedy bot scores strictly more
    than the random bot in at least 160 of the 200 matches. About 1.5 s a match on one idle core,
    so the run's own timeout replaces the suite's 600 s."""
    wins = sum(_greedy_wins(seed)[0] for seed in range(200))
    with capsys.disabled():
        print(f"\nrussian railroads: greedy beat random in {wins}/200 two-player matches ({wins / 2:.1f} %)")
    assert wins >= 160
