"""The Drum Roll bots: whole matches at every player count, determinism, the greedy bot's blindness to what
its seat cannot see (DR-2.9 draft draws, DR-5.8 investment hands and decks, DR-10.2 ballots,
DR-18.9 the cards under the deck), its vote, and its strength against the random bot (issue:
at least 80 % of two-player matches over 200 seeds, the `slow` test).
A match is judged by the ruleset's own result at the end of the game (DR-14.10)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.drum_roll import RULESET as R
from domain.games.drum_roll.bots import (
    blind,
    circus_value,
    evaluate,
    greedy_bot,
    level_now,
    move_scores,
    sharing_left,
    vote_gain,
)
from domain.games.drum_roll.moves import CastVote, PlaceCube, PlayDoubleVote
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.kernel.chance import derive_outcome
from domain.kernel.driver import play
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from .builders import config

GREEDY = R.bots()["greedy"]


def test_bots_are_named_random_first_then_greedy() -> None:
    assert list(R.bots()) == ["random", "greedy"]
    assert R.bots()["greedy"] is greedy_bot


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_dr_3_4_greedy_and_random_play_the_match_to_its_end(seats: int, seed: int) -> None:
    """Greedy bots in every other seat (the rest random) play to where the first performance would
    begin (DR-3.5); the driver validates every move they return, so an illegal one would raise. Rules: DR-3.4."""
    greedy_seats = {seat: GREEDY for seat in range(seats) if (seat + seed) % 2 == 0}
    match = play(R, config(seats), seed=seed, bots=greedy_seats)
    assert match.state.over and R.decision(match.state).over
    assert match.state.round in (5, 6, 7)
    assert any(step.seat in greedy_seats for step in match.steps)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_bots_in_every_seat_play_the_match_to_its_end(seats: int) -> None:
    match = play(R, config(seats), seed=seats, bots={seat: GREEDY for seat in range(seats)})
    assert match.state.over
    for player in match.state.players:
        assert len(player.performers) >= 2


def test_greedy_bot_is_deterministic_for_a_seed() -> None:
    """The same seed gives the same match, move for move, with greedy bots in both seats."""
    first = play(R, config(2), seed=7, bots={0: GREEDY, 1: GREEDY})
    second = play(R, config(2), seed=7, bots={0: GREEDY, 1: GREEDY})
    assert first.steps == second.steps
    assert R.encode_state(first.state) == R.encode_state(second.state)


def test_greedy_bot_ignores_its_generator() -> None:
    """Ties go to the first legal move, never to the generator, so any seed gives the same move."""
    for state in _decision_points(3, seed=5)[::9]:
        seat = R.decision(state).seats[0]
        assert len({repr(R.dump_move(GREEDY(state, seat, random.Random(s)))) for s in range(4)}) == 1


# ---- the greedy bot decides from its seat's view only -----------------------------------------


def _decision_points(seats: int, seed: int) -> list[State]:
    """The states of a greedy-vs-random match at each seat decision, in order (greedy in seat 0)."""
    rng = random.Random(seed)
    state = R.setup(config(seats))
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
    """The same table with what `seat` cannot see dealt otherwise, every count kept: the other
    seats' investment hands (and the uses spent on them), the investment deck and the cards under
    it are shuffled among themselves; the other seats' opening-draft draws and the performer deck
    likewise (a kept card is one of its seat's new draws); a ballot another seat has cast before
    every seat has voted may be either (DR-10.2)."""
    others = [other for other in range(state.seats) if other != seat]
    players = list(state.players)
    pool = [held.card for other in others for held in players[other].hand]
    pool += [*state.investment_deck, *state.investment_bottom]
    rng.shuffle(pool)
    for other in others:
        size = len(players[other].hand)
        players[other] = evolve(players[other], hand=tuple(HandCard(card, rng.randrange(2)) for card in pool[:size]))
        pool = pool[size:]
    deck, bottom = tuple(sorted(pool[:len(state.investment_deck)])), tuple(pool[len(state.investment_deck):])
    performers = [card for other in others for card in players[other].drawn] + list(state.performer_deck)
    rng.shuffle(performers)
    for other in others:
        size = len(players[other].drawn)
        drawn = tuple(performers[:size])
        performers = performers[size:]
        kept = None if players[other].kept is None else rng.choice(drawn)
        players[other] = evolve(players[other], drawn=drawn, kept=kept)
    votes = state.votes
    if not all(ballot is not None for ballot in votes):
        votes = tuple(rng.choice(("postpone", "perform")) if other != seat and ballot is not None else ballot
                      for other, ballot in enumerate(votes))
    return evolve(state, players=tuple(players), investment_deck=deck, investment_bottom=bottom,
                  performer_deck=tuple(sorted(performers)), votes=votes)


def _hides_something(state: State, seat: int) -> bool:
    others = [player for other, player in enumerate(state.players) if other != seat]
    return (any(player.hand or player.drawn for player in others) or bool(state.investment_bottom)
            or (any(ballot is not None for other, ballot in enumerate(state.votes) if other != seat)
            and not all(ballot is not None for ballot in state.votes)))


def _assert_blind(base: State, seat: int, rng: random.Random, tries: int = 3) -> int:
    chosen = R.dump_move(GREEDY(base, seat, random.Random(0)))
    scores = [(R.dump_move(move), score) for move, score in move_scores(base, seat)]
    world = blind(base, seat).to_json()
    for _ in range(tries):
        other = _hidden_otherwise(base, seat, rng)
        assert R.view(other, Viewer.of_seat(seat)) == R.view(base, Viewer.of_seat(seat))
        assert blind(other, seat).to_json() == world
        assert [(R.dump_move(move), score) for move, score in move_scores(other, seat)] == scores
        assert R.dump_move(GREEDY(other, seat, random.Random(0))) == chosen
    return tries


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_dr_2_9_dr_5_8_dr_10_2_greedy_move_ignores_what_its_seat_cannot_see(seats: int) -> None:
    """Other seats' investment hands, the deck's contents, the cards under it, other seats' draft
    draws and choices and their ballots before the reveal may be anything the seat cannot see: in
    every such state the seat's view, its planning world (`blind`), the score of every legal move
    and the greedy move are the same. The states are every decision of a match where something is
    hidden from the seat to move, with a card under the deck and a hand for every other seat.
    Rules: DR-2.9, DR-5.8, DR-10.2."""
    rng = random.Random(seats)
    checked = draft = ballot = 0
    for state in _decision_points(seats, seed=10 + seats):
        seat = R.decision(state).seats[0]
        state = _with_hidden_cards(state, seat)
        if not _hides_something(state, seat):
            continue
        head = state.agenda[0].kind
        draft += head == "keep_performer"
        ballot += head == "ballot" and any(b is not None for o, b in enumerate(state.votes) if o != seat)
        checked += _assert_blind(state, seat, rng, tries=2)
    assert checked >= 100 and draft >= 1 and ballot >= 1


def _with_hidden_cards(state: State, seat: int) -> State:
    """`state` with the first two investment deck cards moved: one into the hand of the seat after
    `seat`, one under the deck (DR-18.9)."""
    if len(state.investment_deck) < 3:
        return state
    deck = list(state.investment_deck)
    other = (seat + 1) % state.seats
    hand = (*state.players[other].hand, HandCard(deck.pop(0)))
    bottom = (*state.investment_bottom, deck.pop(0))
    return evolve(state.with_player(other, hand=hand), investment_deck=tuple(deck), investment_bottom=bottom)


def _vote_in_progress() -> tuple[State, int]:
    """The first ballot of a 3-seat match cast by a seat other than the greedy one, with the greedy
    seat to vote next."""
    for state in _decision_points(3, seed=21):
        seat = R.decision(state).seats[0]
        if state.agenda[0].kind == "ballot" and any(b is not None for o, b in enumerate(state.votes) if o != seat):
            return state, seat
    raise AssertionError("no vote in progress")


def test_dr_10_2_a_hidden_ballot_does_not_change_the_greedy_vote() -> None:
    """Rules: DR-10.2."""
    state, seat = _vote_in_progress()
    voted = [other for other, ballot in enumerate(state.votes) if ballot is not None and other != seat]
    moves = set()
    for ballot in ("postpone", "perform"):
        varied = evolve(state, votes=tuple(ballot if other in voted else b for other, b in enumerate(state.votes)))
        assert R.view(varied, Viewer.of_seat(seat)) == R.view(state, Viewer.of_seat(seat))
        assert blind(varied, seat).to_json() == blind(state, seat).to_json()
        moves.add(repr(GREEDY(varied, seat, random.Random(0))))
    assert len(moves) == 1


def test_dr_2_9_the_draft_in_progress_hides_the_others_draws() -> None:
    """During the opening draft another seat's two draws and its kept card are replaced in the
    planning world by stand-ins that depend on what the seat sees (counts, and whether it kept). Rules: DR-2.9."""
    states = [s for s in _decision_points(3, seed=4) if s.agenda[0].kind == "keep_performer"]
    state = states[-1]
    seat = R.decision(state).seats[0]
    world = blind(state, seat)
    assert world.players[seat].drawn == state.players[seat].drawn
    for other in range(3):
        if other != seat:
            assert len(world.players[other].drawn) == len(state.players[other].drawn)
            assert (world.players[other].kept is None) == (state.players[other].kept is None)
    _assert_blind(state, seat, random.Random(1), tries=4)


def test_dr_18_9_blind_replaces_investment_cards_in_other_seats_steps() -> None:
    """A look-at-cards reward (rewards.py) holds the cards looked at in a step of
    the agenda: another seat's step is blinded (the cards replaced by stand-ins, the rest kept),
    the seat's own step is kept as it is. Rules: DR-18.9."""
    from domain.kernel.agenda import Step, push
    state = _decision_points(2, seed=3)[30]
    seat = R.decision(state).seats[0]
    other = 1 - seat
    cards = state.investment_deck[:2]
    deck = state.investment_deck[2:]
    theirs = evolve(state, investment_deck=deck, agenda=(*state.agenda, Step("look", seat=other, cards=list(cards))))
    world = blind(theirs, seat)
    look = world.agenda[-1]
    assert look.kind == "look" and look.seat == other and len(look["cards"]) == 2
    swapped = evolve(theirs, investment_deck=tuple(sorted((*deck[1:], cards[0]))),
                     agenda=(*state.agenda, Step("look", seat=other, cards=[deck[0], cards[1]])))
    assert blind(swapped, seat).to_json() == world.to_json()
    mine = push(evolve(state, investment_deck=deck), Step("look", seat=seat, cards=list(cards)))
    assert blind(mine, seat).agenda[0]["cards"] == tuple(cards)


def test_a_move_the_real_state_refuses_is_never_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net of `choose`: should the planning world ever offer a move the real state
    refuses (a hidden card `blind` misplaced), the bot scores the seat's real legal moves instead."""
    import domain.games.drum_roll.bots as bots_module
    state = _at("hire_performer")
    monkeypatch.setattr(bots_module, "_chosen", lambda plan: PlaceCube(performer="P01", level="poor", colour="red"))
    move = GREEDY(state, 0, random.Random(0))
    R.validate(state, 0, move)
    assert move in R.legal_moves(state, 0)


# ---- the greedy bot's judgement ---------------------------------------------------------------


def _at(kind: str, seats: int = 2, seed: int = 3) -> State:
    for state in _decision_points(seats, seed):
        if state.agenda[0].kind == kind and R.decision(state).seats == (0,):
            return state
    raise AssertionError(f"no {kind} decision for seat 0")


def test_dr_17_4_a_cube_on_the_lowest_level_is_worth_more_than_higher_up() -> None:
    """DR-17.4: a performer with no poor level filled is fired (DR-11.8); filling the poor level is
    worth more than the same cube higher up."""
    state = _at("share")
    player = state.players[0]
    card = state.components.performer(player.performers[0].card)
    colours = [card.levels[0].cubes[0], card.levels[2].cubes[0]]
    bare = evolve(player.performers[0], cubes=((), (), ()))
    base = state.with_player(0, performers=(bare, *player.performers[1:]), cubes={c: 1 for c in colours})
    low = base.with_player(0, performers=(evolve(bare, cubes=((colours[0],), (), ())), *player.performers[1:]),
                           cubes={colours[1]: 1})
    high = base.with_player(0, performers=(evolve(bare, cubes=((), (), (colours[1],))), *player.performers[1:]),
                            cubes={colours[0]: 1})
    phases = sharing_left(base, 0)
    assert circus_value(low, 0, low.players[0], phases) > circus_value(high, 0, high.players[0], phases)


def test_dr_8_1_greedy_places_a_cube_that_completes_the_poor_level() -> None:
    """In the sharing phase, with a cube fitting its performer's empty poor level, the greedy bot
    places it there rather than finishing. Rules: DR-8.1."""
    state = _at("share")
    player = state.players[0]
    hired = Hired(player.performers[0].card)
    colour = state.components.performer(hired.card).levels[0].cubes[0]
    colour = state.components.colours()[0] if colour == "any" else colour
    state = state.with_player(0, performers=(hired, *player.performers[1:]), cubes={colour: 1})
    move = GREEDY(state, 0, random.Random(0))
    assert move == PlaceCube(performer=hired.card, level="poor", colour=colour)


def test_dr_10_2_greedy_postpones_when_its_performers_are_not_ready() -> None:
    """At the vote, with a performer whose poor level is empty and a cube for it in supply, one
    more sharing phase is worth more than nothing: postpone. With every level of every performer
    filled nothing is left to gain: perform. Rules: DR-10.2."""
    state = _at("ballot", seed=2)
    player = state.players[0]
    hired = Hired(player.performers[0].card)
    colour = state.components.performer(hired.card).levels[0].cubes[0]
    colour = state.components.colours()[0] if colour == "any" else colour
    unready = state.with_player(0, performers=(hired, *player.performers[1:]), cubes={colour: 1})
    assert vote_gain(unready, 0) > 10
    assert GREEDY(unready, 0, random.Random(0)) == CastVote(postpone=True)
    full = tuple(evolve(h, cubes=tuple(tuple(c if c != "any" else "red" for c in level.cubes)
                                       for level in state.components.performer(h.card).levels))
                 for h in player.performers)
    ready = state.with_player(0, performers=full)
    assert all(level_now(ready, h) == 3 for h in full)
    assert vote_gain(ready, 0) == 0
    assert GREEDY(ready, 0, random.Random(0)) == CastVote(postpone=False)


def test_dr_21_18_greedy_plays_a_double_vote_only_when_it_turns_the_result() -> None:
    """Three seats, seat 0 starting: seat 0 voted perform, seats 1 and 2 postpone. A Double vote
    makes 2 against 2, and the tie goes the start player's way (DR-10.4): seat 0 plays it. Had
    seat 1 voted perform too, it would win anyway: seat 0 keeps its card. Rules: DR-21.18."""
    state = _at("ballot", seats=3, seed=2)
    double = next(card.id for card in state.components.investments if card.kind == "double_vote")
    from domain.kernel.agenda import Step
    state = evolve(state.with_player(0, hand=(HandCard(double),)), start_player=0, vote_round=5,
                   votes=("perform", "postpone", "postpone"),
                   agenda=(Step("double_vote", seat=0, round=5), Step("count_votes", round=5)))
    assert GREEDY(state, 0, random.Random(0)) == PlayDoubleVote(play=True)
    won = evolve(state, votes=("perform", "perform", "postpone"))
    assert GREEDY(won, 0, random.Random(0)) == PlayDoubleVote(play=False)


def test_evaluation_counts_fame_at_ten_tenths() -> None:
    state = _at("share")
    assert evaluate(state.gain_fame(0, 2, "DR-0.4", "test"), 0) - evaluate(state, 0) == 20


# ---- strength against the random bot ----------------------------------------------------------


def _greedy_wins(seed: int) -> bool:
    """One whole two-player match, greedy against random, the greedy seat alternating with the
    seed: whether greedy wins outright by the ruleset's own result (DR-14.10: most fame, then most
    money without the deposit; a shared win is not a win)."""
    seat = seed % 2
    match = play(R, config(2), seed=seed, bots={seat: GREEDY})
    state = match.state
    assert state.over and state.performance == 3  # DR-14.1: three performances played
    ranks = R.result(state, R.score(state)).ranks
    return ranks[seat] == 1 and ranks[1 - seat] == 2


def test_greedy_beats_random_in_a_few_seeds() -> None:
    """A quick look at the slow test's claim: at least 8 of 10 whole matches."""
    wins = sum(_greedy_wins(seed) for seed in range(10))
    assert wins >= 8


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_greedy_beats_random_in_at_least_80_percent_of_200_two_player_matches(capsys: Any) -> None:
    """The issue's target: over seeds 0-199 (the greedy seat alternating), whole matches to the end
    of the game, the greedy bot wins outright in at least 160 of the 200."""
    wins = sum(_greedy_wins(seed) for seed in range(200))
    with capsys.disabled():
        print(f"\ndrum roll: greedy beat random in {wins}/200 whole two-player matches ({wins / 2:.1f} %)")
    assert wins >= 160
