"""The named bots: "random" (the kernel's uniform choice over legal moves) and "greedy".

The greedy bot looks one decision ahead: for each legal move it applies the move, finishes the rest
of its own action greedily (which track an advancement moves, where the locomotive goes, ... each
chosen by the same evaluation one step deep), and scores the position reached. The score is an
estimate of the seat's final VP from facts the seat can see: VP so far, plus the seat's current
round score (its railways and industry markers, `scoring.railway_lines` / `industry_lines`) times
the scoring phases still to come, plus smaller terms for what will score later (track beyond the
locomotives' reach, reach beyond the coloured tracks, the black track, factories ahead of the
industry marker, multipliers, rubles, extra workers, engineers towards the majority, its own final
bonus cards at their projected value; the weights are `Weights`). Everything is in integer tenths
of a VP, and ties go to the first legal move, so the bot is deterministic and no float or set order
decides anything. An action that can be paid in several ways is finished once; its other payments
replay the same choices (validated), which halves the work of a turn.

Bots decide from their seat's view only (the conformance suite checks it counterfactually). The
greedy bot never evaluates the real state: it plans on `blind(state, seat)`, where everything
hidden from the seat (other seats' final bonus cards, the final bonus deck unless the seat is
looking through it, the cards removed at setup, the undrawn engineers) is replaced by stand-ins
chosen from what the seat cannot see, in a fixed order, so two states the seat cannot tell apart
give the same plan. Its look-ahead also stops before another final bonus choice (the deck it would
look through is hidden now) and counts that choice at a flat value.

The greedy bot uses each of its own engineers at most once a round, whatever AMB-16 allows. Under
reading (b) (`own_engineers="unlimited"`) an engineer can be used again and again, and some uses
pay for themselves: E7 placed with 1 ruble repeats the 2-ruble space, so every cycle gains a ruble
and a bot that always takes the best-looking move would never end the round.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from domain.kernel.contract import Bot
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import board
from .actions import used_own_engineer
from .moves import Place
from .scoring import FINAL_BONUS, MAJORITY, card_vp, industry_lines, railway_lines
from .state import Player, State
from .tasks import AGENDA
from .views import looking_at_deck

UNIT = 10
"""Evaluations are in tenths of a VP, so every weight below is an integer."""

OWN_KINDS = frozenset({"turn", "reuse_worker", "draft", "final_bonus"})
"""Decisions that start something new: the look-ahead finishing an action stops before them."""

PENDING_BONUS = 12 * UNIT
"""A final bonus choice the look-ahead reaches: at least the 10 VP it offers, usually a card a little
better (the deck is hidden until the seat looks through it, RR-21.2)."""


# ---- what the seat can know -------------------------------------------------------------------


def blind(state: State, seat: int) -> State:
    """`state` with everything hidden from `seat` replaced by stand-ins that depend only on what the
    seat sees (views.py hides the same things): the final bonus cards it cannot see, sorted by id,
    fill the other seats' hands (in seat order), then the deck (unless the seat is looking through
    it), then the removed cards; the undrawn engineers of each deck are that deck's unseen
    engineers, sorted by id. Only the counts, which every seat sees, carry over."""
    components = state.components
    mine = set(state.players[seat].bonus_cards)
    looking = looking_at_deck(state, seat)
    seen = mine | (set(state.bonus_deck) if looking else set())
    pool = sorted(c.id for c in components.final_bonus_cards if c.id not in seen)
    players = list(state.players)
    for other, player in enumerate(players):
        if other != seat:
            players[other] = evolve(player, bonus_cards=tuple(pool[:len(player.bonus_cards)]))
            pool = pool[len(player.bonus_cards):]
    deck = state.bonus_deck
    if not looking:
        deck, pool = tuple(sorted(pool[:len(deck)])), pool[len(deck):]
    removed = tuple(pool[:len(state.removed_bonus)])
    placed = {e for e in state.strip if e is not None} | {e for p in state.players for e in p.engineers}
    decks = {}
    for name, cards in state.decks.items():
        unseen = sorted(e.id for e in components.engineers if e.deck == name and e.id not in placed)
        decks[name] = tuple(unseen[:len(cards)])
    return evolve(state, players=tuple(players), bonus_deck=deck, removed_bonus=removed, decks=decks)


# ---- the evaluation ---------------------------------------------------------------------------


def scorings_left(state: State) -> int:
    """Scoring phases still to come: the current round's, if not yet done, and every later round's."""
    pending = any(step.kind == "scoring" for step in state.agenda)
    return max(state.rounds - state.round + (1 if pending else 0), 0)


def round_score(state: State, seat: int) -> int:
    """What the seat would score in a scoring phase now (RR-14)."""
    return (sum(line.points for line in railway_lines(state, seat, state.round))
            + sum(line.points for line in industry_lines(state, seat, state.round)))


def _track_potential(state: State, player: Player) -> tuple[int, int, int]:
    """Per railway, summed: the VP of coloured track beyond the locomotives' reach (it scores once a
    locomotive reaches it), the reach beyond the coloured track (it scores once a coloured track
    gets there), and the black track's positions (it opens the way for the other colours, RR-6.4)."""
    components = state.components
    black = components.colours[0].id
    beyond = slack = blacks = 0
    for railway in components.railways:
        tracks = player.tracks.get(railway.id, {})
        reach = min(player.reach(railway.id), railway.spaces)
        markers = sorted((position, colour) for colour, position in tracks.items() if position > 0)
        for space in range(reach + 1, railway.spaces + 1):
            colour = next((c for position, c in markers if position >= space), None)
            if colour is not None:
                entry = components.colour(colour)
                beyond += entry.revalued_vp if player.revalued else entry.vp
        coloured = max((position for colour, position in tracks.items() if colour != black), default=0)
        slack += max(reach - coloured, 0)
        blacks += tracks.get(black, 0)
    return beyond, slack, blacks


def _industry_potential(state: State, player: Player) -> int:
    """Places the industry marker can still move through before an empty factory space stops it."""
    lane = board.lane(state)
    open_places = 0
    for position in player.markers:
        index = position + 1
        while index < len(lane):
            gap = board.gap_number(lane, index)
            if gap is not None and player.factories[gap] is None:
                break
            open_places += 1
            index += 1
    return open_places


def _majority(state: State, seat: int) -> int:
    """The engineer majority (RR-17.4) as things stand, in VP: the seat's engineers (and its own
    extra-engineer card, B7) against the other seats' engineer tiles (their cards are hidden)."""
    prizes = state.components.constants.majority_vp
    player = state.players[seat]
    extra = sum(1 for c in player.bonus_cards if state.components.bonus_card(c).kind == "extra_engineer")
    mine = len(player.engineers) + extra
    if mine == 0:
        return 0
    ahead = sum(1 for other, p in enumerate(state.players) if other != seat and len(p.engineers) > mine)
    level = sum(1 for other, p in enumerate(state.players) if other != seat and len(p.engineers) == mine)
    if ahead >= len(prizes):
        return 0
    prize = prizes[ahead]
    return prize if level == 0 else prize * 3 // 4


def _bonus_cards(state: State, player: Player) -> int:
    """The seat's own final bonus cards at their projected final value (RR-21): what they count now,
    grown in proportion to the rounds still to play, capped."""
    total = 0
    played = max(state.round, 1)
    for card_id in player.bonus_cards:
        card = state.components.bonus_card(card_id)
        now = card_vp(state, player, card)
        if card.kind in ("flat", "extra_engineer"):
            total += now
            continue
        projected = now * state.rounds // played
        total += min(projected, card.cap) if card.cap > 0 else projected
    return total


@dataclass(frozen=True)
class Weights:
    """What the evaluation counts beyond VP and the round score, in tenths of a VP. Terms marked
    "a scoring" are multiplied by the scoring phases after the next one: they pay off later.
    The defaults were chosen by playing weightings against each other, greedy against greedy
    (20 to 30 two-player matches a comparison): fewer points for spare reach and factories and
    more for rubles and temporary workers than a first guess won clearly."""

    beyond: int = 5
    """Per VP of coloured track beyond the locomotives' reach, a scoring."""
    slack: int = 1
    """Per space of reach beyond the coloured track, a scoring."""
    black: int = 1
    """Per space of black track, a scoring."""
    industry: int = 4
    """Per place the industry marker can still move through, a scoring."""
    factory: int = 10
    """Per factory, for each of up to three scorings."""
    multiplier: int = 3
    """Per multiplier, a scoring."""
    ruble: int = 25
    """Per ruble: it pays for an action in place of a worker (RR-10.6) or hires an engineer."""
    temporary: int = 35
    """Per temporary worker held."""
    worker: int = 2
    """Per own-colour worker not yet placed this round (so the cheaper payment wins a tie)."""
    extra_worker: int = 40
    """Per worker gained for good (and the black worker), a scoring."""
    engineer: int = 20
    """Per engineer owned (an action space of one's own), a scoring."""


WEIGHTS = Weights()


def evaluate(state: State, seat: int, weights: Weights = WEIGHTS) -> int:
    """The seat's expected final VP, in tenths, from what it can see (see the module docstring)."""
    w = weights
    player = state.players[seat]
    left = scorings_left(state)
    later = max(left - 1, 0)
    vp = sum(line.points for line in state.lines if line.seat == seat and line.category not in (FINAL_BONUS, MAJORITY))
    value = UNIT * vp + UNIT * round_score(state, seat) * left
    beyond, slack, blacks = _track_potential(state, player)
    value += later * (w.beyond * beyond + w.slack * slack + w.black * blacks)
    value += later * w.industry * _industry_potential(state, player)
    value += min(later, 3) * w.factory * sum(1 for f in player.factories if f is not None)
    value += later * w.multiplier * player.multipliers
    if left:
        value += w.ruble * player.rubles + w.temporary * player.temporary + w.worker * player.workers
        value += later * w.extra_worker * (player.gained_workers + (1 if player.black_worker else 0))
        value += later * w.engineer * len(player.engineers)
    value += UNIT * _majority(state, seat) + UNIT * _bonus_cards(state, player)
    head = state.agenda[0] if state.agenda else None
    if head is not None and head.kind == "final_bonus" and head.seat == seat:
        value += PENDING_BONUS
    return value


# ---- choosing ---------------------------------------------------------------------------------


def _mine(state: State, seat: int) -> bool:
    """The seat still owns the decision, inside the same action."""
    decision = AGENDA.decision(state)
    if decision.over or decision.chance is not None or decision.seats != (seat,):
        return False
    return bool(state.agenda) and state.agenda[0].kind not in OWN_KINDS


def _best(scored: Sequence[tuple[int, int]]) -> int:
    """The index of the highest score, the first one on a tie."""
    best_index, best_score = scored[0][1], scored[0][0]
    for score, index in scored[1:]:
        if score > best_score:
            best_index, best_score = index, score
    return best_index


def finish(state: State, seat: int, weights: Weights = WEIGHTS) -> State:
    """Play the rest of the seat's action, each step the move whose result evaluates best."""
    return _planned(state, seat, weights)[0]


def _planned(state: State, seat: int, weights: Weights) -> tuple[State, tuple[Any, ...]]:
    """`finish`, with the moves it made."""
    plan: list[Any] = []
    for _ in range(64):
        if not _mine(state, seat):
            break
        moves = AGENDA.legal_moves(state, seat)
        results = [AGENDA.apply(state, seat, move) for move in moves]
        best = 0 if len(moves) == 1 else _best([(evaluate(after, seat, weights), i) for i, after in enumerate(results)])
        state = results[best]
        plan.append(moves[best])
    return state, tuple(plan)


def _replayed(state: State, seat: int, plan: Sequence[Any], weights: Weights) -> State:
    """The seat's action finished by `plan` (the moves chosen for the same action paid another way),
    each move validated; where the plan no longer fits, finished afresh. It saves the look-ahead
    most of its work: one placement is often payable in several ways (RR-10.6)."""
    for move in plan:
        if not _mine(state, seat):
            break
        try:
            AGENDA.validate(state, seat, move)
        except IllegalMoveError:
            break
        state = AGENDA.apply(state, seat, move)
    return finish(state, seat, weights)


def considered(state: State, seat: int) -> list[Any]:
    """The legal moves the greedy bot weighs: all but a placement on an own engineer the seat has
    already used this round (see the module docstring: under AMB-16 (b) that can loop forever)."""
    moves = AGENDA.legal_moves(state, seat)
    engineers = state.players[seat].engineers
    kept = [move for move in moves
            if not (isinstance(move, Place) and move.space in engineers
                    and used_own_engineer(state, seat, move.space))]
    return kept or moves


def move_scores(state: State, seat: int, weights: Weights = WEIGHTS) -> list[tuple[Any, int]]:
    """Each legal move of `seat` with the evaluation of where it leads, planned on what the seat
    can see (`blind`): the move applied and the rest of the seat's action finished greedily. The
    same action paid otherwise is finished as the first payment's was (`_replayed`)."""
    world = blind(state, seat)
    return _scores(world, seat, considered(world, seat), weights)


def _scores(world: State, seat: int, moves: Sequence[Any], weights: Weights) -> list[tuple[Any, int]]:
    plans: dict[str, tuple[Any, ...]] = {}
    scored: list[tuple[Any, int]] = []
    for move in moves:
        after = AGENDA.apply(world, seat, move)
        space = move.space if isinstance(move, Place) else None
        if space is not None and space in plans:
            after = _replayed(after, seat, plans[space], weights)
        else:
            after, plan = _planned(after, seat, weights)
            if space is not None:
                plans[space] = plan
        scored.append((move, evaluate(after, seat, weights)))
    return scored


def choose(state: State, seat: int, weights: Weights = WEIGHTS) -> Any:
    """The greedy move for `seat`: the best-scored, the first one on a tie. Remembered per planning
    world (`_Plan`): a replay, a match continued from a position or a state that differs only in
    what the seat cannot see asks the same question again, and the look-ahead is the bot's cost."""
    return _chosen(_Plan(blind(state, seat), seat, weights))


class _Plan:
    """A question to the greedy bot, hashable by what decides its answer: the seat, the weights and
    the planning world (its full encoding, which `decode_state` turns back into the same state,
    and its match configuration). The world is kept, so the components' identity stays unique
    while the answer is remembered."""

    __slots__ = ("key", "seat", "weights", "world")

    def __init__(self, world: State, seat: int, weights: Weights) -> None:
        config = world.config
        encoded = json.dumps(world.to_json(), sort_keys=True, separators=(",", ":")).encode()
        self.world, self.seat, self.weights = world, seat, weights
        self.key = (seat, weights, config.variant, config.seats, config.options, id(config.components),
                    hashlib.blake2b(encoded, digest_size=20).digest())

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Plan) and self.key == other.key


@lru_cache(maxsize=16_384)
def _chosen(plan: _Plan) -> Any:
    world, seat, weights = plan.world, plan.seat, plan.weights
    moves = considered(world, seat)
    if len(moves) == 1:
        return moves[0]
    scored = _scores(world, seat, moves, weights)
    return scored[_best([(score, index) for index, (_, score) in enumerate(scored)])][0]


def greedy_with(weights: Weights) -> Bot:
    """A greedy bot with other weights (for comparing weightings)."""
    def bot(state: State, seat: int, rng: random.Random) -> Any:
        return choose(state, seat, weights)
    return bot


def greedy_bot(state: State, seat: int, rng: random.Random) -> Any:
    """The kernel's bot signature; the generator is not needed (ties go to the first move)."""
    return choose(state, seat)


def bots(rules: Any) -> dict[str, Bot]:
    """The named bots of the game (the ruleset's `bots`): "random" first, as every game has it."""
    return {"random": rules.random_bot, "greedy": greedy_bot}
