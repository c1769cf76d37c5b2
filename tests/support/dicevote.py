"""Dice & Vote: a tiny test-only game that exercises every kernel feature before real games land.

Not a product game. It has what the kernel must handle: dice (public chance), a hidden hand dealt
from a deck (chance visible to one seat), and a secret simultaneous vote each round.

Rules (IDs TG-x.y, cited by tests):
- TG-1.1 Each seat is dealt `hand_size` cards from the deck; only that seat sees them.
- TG-1.2 On a turn the active seat plays a card from its hand (scores its value, then draws one
  if the deck is not empty), rolls the die (scores the face, but a 1 scores nothing) or passes.
- TG-2.1 After every seat has had a turn, all seats vote "high" or "low" at once, in secret.
  Seats in a strict majority score 1. Votes stay hidden until every vote is in.
- TG-3.1 The match ends after `rounds` rounds; highest total wins, ties shared.

Positions (docs/positions.md): the round, whose turn it is or the votes cast so far, every hand,
the deck left (a multiset) and the scores. Hands, the deck and votes cast are hidden as in the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from domain.kernel.canonical import JSON
from domain.kernel.components import ComponentSet
from domain.kernel.contract import (
    ChanceSpec,
    Decision,
    MatchConfig,
    MoveModel,
    OptionsModel,
    PositionModel,
    Ruleset,
    ScoreLine,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import IllegalMoveError, InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, position_line
from domain.kernel.viewers import Viewer


class DiceVoteComponents(ComponentSet):
    deck: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
    die: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


class DiceVoteOptions(OptionsModel):
    rounds: int = Field(2, ge=1, le=40)
    hand_size: int = Field(2, ge=1, le=3)


class Play(MoveModel):
    type: Literal["play"] = "play"
    card: int


class Roll(MoveModel):
    type: Literal["roll"] = "roll"


class Pass(MoveModel):
    type: Literal["pass"] = "pass"


class Vote(MoveModel):
    type: Literal["vote"] = "vote"
    choice: Literal["high", "low"]


Move = Annotated[Play | Roll | Pass | Vote, Field(discriminator="type")]


class DiceVotePosition(PositionModel):
    """A table at the start of a seat's turn, or during the vote."""

    round: int = Field(ge=1, le=40, description="the round being played, from 1")
    phase: Literal["turn", "vote"]
    to_move: int | None = Field(default=None, ge=0, le=3, description="whose turn it is (phase turn only)")
    hands: tuple[tuple[int, ...], ...] = Field(max_length=4)
    deck: tuple[int, ...] = Field(default=(), max_length=100, description="the cards left to draw (a multiset)")
    votes: tuple[Literal["high", "low"] | None, ...] = Field(max_length=4, description="votes cast so far")
    scores: tuple[int, ...] = Field(max_length=4)


@dataclass(frozen=True)
class State:
    seats: int
    rounds: int
    round: int
    phase: str  # "deal", "turn", "roll", "draw", "vote", "over"
    active: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # remaining cards, sorted (a multiset; order is decided by chance)
    deal_queue: tuple[int, ...]  # seats still to receive a card
    votes: tuple[str | None, ...]
    lines: tuple[tuple[int, int, str, str], ...]  # seat, points, rule, detail


class DiceVote(Ruleset[State, Any]):
    name = "test-dicevote"
    title = "Dice & Vote (test game)"
    engine_version = "1.0.0"
    rule_prefix = "TG"
    rule_texts_file = "dicevote_rules.json"  # beside this module: a test game ships no package data
    variants = {"standard": VariantInfo("the test game", 2, 4), "solo": VariantInfo("one seat", 1, 1)}
    default_variant = "standard"
    options_model = DiceVoteOptions
    components_model = DiceVoteComponents
    move_adapter = TypeAdapter(Move)

    def default_components(self) -> DiceVoteComponents:
        return DiceVoteComponents()

    def setup(self, config: MatchConfig[State]) -> State:
        options = config.options
        assert isinstance(options, DiceVoteOptions) and isinstance(config.components, DiceVoteComponents)
        queue = tuple(seat for _ in range(options.hand_size) for seat in range(config.seats))
        return State(config.seats, options.rounds, 0, "deal", 0, tuple(() for _ in range(config.seats)),
                     tuple(sorted(config.components.deck)), queue, (None,) * config.seats, ())

    def _deck_spec(self, state: State, seat: int) -> ChanceSpec:
        counts: dict[int, int] = {}
        for card in state.deck:
            counts[card] = counts.get(card, 0) + 1
        return ChanceSpec("draw", tuple(sorted(counts.items())), visible_to=(seat,))

    def decision(self, state: State) -> Decision:
        if state.phase == "over":
            return Decision.finished()
        if state.phase == "deal":
            return Decision.of_chance(self._deck_spec(state, state.deal_queue[0]), "deal a card")
        if state.phase == "draw":
            return Decision.of_chance(self._deck_spec(state, state.active), "draw a card")
        if state.phase == "roll":
            return Decision.of_chance(ChanceSpec("die", tuple((face, 1) for face in range(1, 7))), "roll")
        if state.phase == "vote":
            waiting = tuple(seat for seat, vote in enumerate(state.votes) if vote is None)
            return Decision.to_move(*waiting, prompt="vote high or low", secret=True)
        return Decision.to_move(state.active, prompt="play, roll or pass")

    def legal_moves(self, state: State, seat: int) -> Sequence[Any]:
        decision = self.decision(state)
        if seat not in decision.seats:
            return []
        if state.phase == "vote":
            return [Vote(choice="high"), Vote(choice="low")]
        return [*(Play(card=card) for card in sorted(set(state.hands[seat]))), Roll(), Pass()]

    def validate(self, state: State, seat: int, move: Any) -> None:
        if state.phase == "vote":
            if not isinstance(move, Vote):
                raise IllegalMoveError("TG-2.1", "every seat must vote now")
            return
        if isinstance(move, Vote):
            raise IllegalMoveError("TG-2.1", "votes come only after every seat has had a turn")
        if isinstance(move, Play) and move.card not in state.hands[seat]:
            raise IllegalMoveError("TG-1.2", f"you have no {move.card} in your hand")

    def apply(self, state: State, seat: int, move: Any) -> State:
        if isinstance(move, Vote):
            votes = list(state.votes)
            votes[seat] = move.choice
            state = replace(state, votes=tuple(votes))
            return self._tally(state) if all(v is not None for v in votes) else state
        if isinstance(move, Play):
            hand = list(state.hands[seat])
            hand.remove(move.card)
            state = self._with_hand(state, seat, tuple(hand))
            state = self._add(state, seat, move.card, "TG-1.2", f"played a {move.card}")
            if state.deck:
                return replace(state, phase="draw")
            return self._next_turn(state)
        if isinstance(move, Roll):
            return replace(state, phase="roll")
        return self._next_turn(state)

    def resolve(self, state: State, outcome: JSON) -> State:
        if state.phase == "roll":
            points = 0 if outcome == 1 else int(outcome)
            return self._next_turn(self._add(state, state.active, points, "TG-1.2", f"rolled a {outcome}"))
        card = int(outcome)
        deck = list(state.deck)
        deck.remove(card)
        if state.phase == "deal":
            seat, queue = state.deal_queue[0], state.deal_queue[1:]
            state = self._with_hand(replace(state, deck=tuple(deck), deal_queue=queue), seat,
                                    tuple(sorted((*state.hands[seat], card))))
            return replace(state, phase="deal" if queue else "turn")
        state = self._with_hand(replace(state, deck=tuple(deck)), state.active,
                                tuple(sorted((*state.hands[state.active], card))))
        return self._next_turn(state)

    def _with_hand(self, state: State, seat: int, hand: tuple[int, ...]) -> State:
        hands = list(state.hands)
        hands[seat] = hand
        return replace(state, hands=tuple(hands))

    def _add(self, state: State, seat: int, points: int, rule: str, detail: str) -> State:
        return replace(state, lines=(*state.lines, (seat, points, rule, detail)))

    def _next_turn(self, state: State) -> State:
        if state.active + 1 < state.seats:
            return replace(state, phase="turn", active=state.active + 1)
        return replace(state, phase="vote", active=0)

    def _tally(self, state: State) -> State:
        highs = sum(1 for vote in state.votes if vote == "high")
        lows = state.seats - highs
        winner = "high" if highs > lows else "low" if lows > highs else None
        for seat, vote in enumerate(state.votes):
            if winner is not None and vote == winner:
                state = self._add(state, seat, 1, "TG-2.1", f"voted with the majority ({winner})")
        round_ = state.round + 1
        phase = "over" if round_ >= state.rounds else "turn"
        return replace(state, round=round_, phase=phase, votes=(None,) * state.seats, active=0)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        def visible(seat: int) -> bool:
            return viewer.sees_all or viewer.is_seat(seat)

        return {
            "round": state.round, "rounds": state.rounds, "phase": state.phase, "active": state.active,
            "hands": [list(hand) if visible(seat) else {"count": len(hand)}
                      for seat, hand in enumerate(state.hands)],
            "deck": {"count": len(state.deck)},
            "votes": [vote if visible(seat) else (None if vote is None else "cast")
                      for seat, vote in enumerate(state.votes)],
            "scores": list(self.score(state).totals()),
        }

    def score(self, state: State) -> ScoreSheet:
        return ScoreSheet(state.seats, tuple(ScoreLine(seat, points, "points", rule, detail)
                                             for seat, points, rule, detail in state.lines))

    def encode_state(self, state: State) -> JSON:
        return {
            "seats": state.seats, "rounds": state.rounds, "round": state.round, "phase": state.phase,
            "active": state.active, "hands": [list(h) for h in state.hands], "deck": list(state.deck),
            "deal_queue": list(state.deal_queue), "votes": list(state.votes),
            "lines": [list(line) for line in state.lines],
        }

    def decode_state(self, data: JSON, config: MatchConfig[State]) -> State:
        return State(data["seats"], data["rounds"], data["round"], data["phase"], data["active"],
                     tuple(tuple(h) for h in data["hands"]), tuple(data["deck"]), tuple(data["deal_queue"]),
                     tuple(data["votes"]), tuple(tuple(line) for line in data["lines"]))

    position_model = DiceVotePosition

    def position_of(self, state: State) -> dict[str, Any]:
        if state.phase not in ("turn", "vote"):
            raise PositionUnavailableError(f"dice & vote positions are at a turn or the vote, not in phase "
                                           f"{state.phase}")
        totals = self.score(state).totals()
        position = DiceVotePosition(
            round=state.round + 1, phase=state.phase, to_move=state.active if state.phase == "turn" else None,
            hands=state.hands, deck=state.deck, votes=state.votes, scores=totals)  # type: ignore[arg-type]
        data: dict[str, Any] = position.model_dump(mode="json")
        return data

    def from_position(self, config: MatchConfig[State], position: Any) -> State:
        options, components = config.options, config.components
        assert isinstance(options, DiceVoteOptions) and isinstance(components, DiceVoteComponents)
        assert isinstance(position, DiceVotePosition)
        seats = config.seats
        for name in ("hands", "votes", "scores"):
            if len(getattr(position, name)) != seats:
                raise InvalidPositionError(name, RULE, f"one entry for each of the {seats} seats")
        if position.round > options.rounds:
            raise InvalidPositionError("round", RULE, f"the match has {options.rounds} rounds")
        if position.phase == "turn" and (position.to_move is None or position.to_move >= seats):
            raise InvalidPositionError("to_move", "TG-1.2", f"a seat among the {seats} is to move")
        if position.phase == "vote" and position.to_move is not None:
            raise InvalidPositionError("to_move", "TG-2.1", "during the vote every seat chooses at once")
        if position.phase == "turn" and any(vote is not None for vote in position.votes):
            raise InvalidPositionError("votes", "TG-2.1", "votes come only after every seat has had a turn")
        if position.phase == "vote" and all(vote is not None for vote in position.votes):
            raise InvalidPositionError("votes", "TG-2.1", "once every vote is in, the round is scored")
        if any(score < 0 for score in position.scores):
            raise InvalidPositionError("scores", RULE, "scores are never below zero")
        places = [(f"hands.{seat}", card) for seat, hand in enumerate(position.hands) for card in hand]
        left = list(components.deck)
        for where, card in [*places, *(("deck", card) for card in position.deck)]:
            if card not in left:
                raise InvalidPositionError(where, RULE, f"the game has no more cards {card} than the hands and "
                                                        "the deck already hold")
            left.remove(card)
        for seat, hand in enumerate(position.hands):
            if len(hand) > options.hand_size or (position.deck and len(hand) != options.hand_size):
                raise InvalidPositionError(f"hands.{seat}", "TG-1.2", f"a hand holds {options.hand_size} cards "
                                                                      "while the deck lasts, and never more")
        lines = tuple((line.seat, line.points, line.rule, line.detail)
                      for line in (position_line(seat, points) for seat, points in enumerate(position.scores))
                      if line.points)
        return State(seats, options.rounds, position.round - 1, position.phase,
                     position.to_move if position.to_move is not None else 0,
                     tuple(tuple(sorted(hand)) for hand in position.hands), tuple(sorted(position.deck)), (),
                     tuple(position.votes), lines)

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if viewer.sees_all:
            return position

        def visible(seat: int) -> bool:
            return viewer.is_seat(seat)

        hands, votes = position.get("hands") or [], position.get("votes") or []
        return {**position,
                "hands": [hand if visible(seat) else {"count": len(hand)} for seat, hand in enumerate(hands)],
                "deck": {"count": len(position.get("deck") or [])},
                "votes": [vote if visible(seat) else (None if vote is None else "cast")
                          for seat, vote in enumerate(votes)]}

    def max_events(self, config: MatchConfig[State]) -> int:
        options = config.options
        assert isinstance(options, DiceVoteOptions)
        per_round = config.seats * 3
        return config.seats * options.hand_size + options.rounds * per_round + 10


RULESET = DiceVote()
