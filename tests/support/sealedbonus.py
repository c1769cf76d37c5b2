"""Sealed Bonus: a tiny test-only game whose seats make private choices that are revealed later.

Not a product game. It has what the kernel's private choices (`Ruleset.private_choice`) must
handle, in the two shapes the coming games need:
- a whole move kept private until a point the game names (a pledge, revealed once every seat has
  pledged: Drum Roll's kind of hidden hand choice);
- one field of a move kept private until final scoring while the rest is public (a bonus card
  taken face down: the table sees that a card was taken, not which; Russian Railroads' final bonus
  card, RR-21.2).
Unlike Dice & Vote's secret vote, the seats choose one after another on their own turns, and the
match goes on (with the die, a public chance event) while the choices stay hidden.

Rules (IDs SB-x.y, cited by tests):
- SB-1.1 Each seat starts with `coins` coins (4), no bonus card and no prize.
- SB-2.1 A round opens with a public roll of the die: the round's prize, 1 to 6 points.
- SB-2.2 Then each seat in turn, from the round's first seat (seat `round` mod seats), pledges 0 to
  all its coins, privately: the table sees only that it pledged.
- SB-2.3 Once every seat has pledged, the pledges are revealed and paid; the single highest pledge
  wins the prize (a tie for the highest wins nothing).
- SB-3.1 Then each seat in turn, from the round's first seat, takes a bonus card of its choice
  face down, or scores 2 points at once.
- SB-3.2 Bonus cards score at final scoring: a purse 1 point per coin left, a laurel 2 points per
  prize won, a star 3 points.
- SB-4.1 After `rounds` rounds (2), final scoring reveals and scores the bonus cards; the highest
  total wins, ties shared.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from domain.kernel.canonical import JSON
from domain.kernel.components import ComponentSet
from domain.kernel.contract import (
    Bot,
    ChanceSpec,
    Decision,
    MatchConfig,
    MoveModel,
    OptionsModel,
    PrivateChoice,
    Ruleset,
    ScoreLine,
    ScoreSheet,
    VariantInfo,
)
from domain.kernel.errors import IllegalMoveError
from domain.kernel.viewers import Viewer

CARDS = ("laurel", "purse", "star")
FINAL_SCORING = "final-scoring"
"""The reveal point of the bonus cards (SB-4.1)."""


def pledges_revealed(round_: int) -> str:
    """The reveal point of one round's pledges (SB-2.3). Each round names its own point: a point
    once reached stays reached, so one name for every round would reveal later pledges at once."""
    return f"pledges-{round_}"


class SealedBonusComponents(ComponentSet):
    die: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


class SealedBonusOptions(OptionsModel):
    rounds: int = Field(2, ge=1, le=10)
    coins: int = Field(4, ge=0, le=9)


class Pledge(MoveModel):
    type: Literal["pledge"] = "pledge"
    coins: int


class Take(MoveModel):
    type: Literal["take"] = "take"
    card: Literal["laurel", "purse", "star"]


class Points(MoveModel):
    type: Literal["points"] = "points"


Move = Annotated[Pledge | Take | Points, Field(discriminator="type")]


@dataclass(frozen=True)
class State:
    seats: int
    rounds: int
    round: int
    phase: str  # "roll", "pledge", "bonus", "over"
    turn: int  # how many seats have acted in this phase
    prize: int
    coins: tuple[int, ...]
    pledges: tuple[int | None, ...]  # this round's pledges, private until all are in
    last_pledges: tuple[int, ...] | None  # the latest revealed pledges (public)
    cards: tuple[tuple[str, ...], ...]  # bonus cards held, private until final scoring
    prizes: tuple[int, ...]
    lines: tuple[tuple[int, int, str, str], ...]  # seat, points, rule, detail

    @property
    def acting(self) -> int:
        return (self.round + self.turn) % self.seats


class SealedBonus(Ruleset[State, Any]):
    name = "test-sealedbonus"
    title = "Sealed Bonus (test game)"
    engine_version = "1.0.0"
    rule_prefix = "SB"
    rule_texts_file = "sealedbonus_rules.json"  # beside this module: a test game ships no package data
    variants = {"standard": VariantInfo("the private-choice test game", 2, 4)}
    default_variant = "standard"
    options_model = SealedBonusOptions
    components_model = SealedBonusComponents
    move_adapter = TypeAdapter(Move)

    def default_components(self) -> SealedBonusComponents:
        return SealedBonusComponents()

    def setup(self, config: MatchConfig[State]) -> State:
        options = config.options
        assert isinstance(options, SealedBonusOptions)
        seats = config.seats
        return State(seats, options.rounds, 0, "roll", 0, 0, (options.coins,) * seats, (None,) * seats, None,
                     ((),) * seats, (0,) * seats, ())

    def decision(self, state: State) -> Decision:
        if state.phase == "over":
            return Decision.finished()
        if state.phase == "roll":
            return Decision.of_chance(ChanceSpec("die", tuple((face, 1) for face in range(1, 7))),
                                      "roll for the round's prize (SB-2.1)")
        if state.phase == "pledge":
            return Decision.to_move(state.acting,
                                    prompt=f"pledge 0 to {state.coins[state.acting]} coins in private (SB-2.2)")
        return Decision.to_move(state.acting, prompt="take a bonus card face down, or score 2 points (SB-3.1)")

    def legal_moves(self, state: State, seat: int) -> Sequence[Any]:
        if state.phase not in ("pledge", "bonus") or seat != state.acting:
            return []
        if state.phase == "pledge":
            return [Pledge(coins=coins) for coins in range(state.coins[seat] + 1)]
        return [*(Take(card=card) for card in CARDS), Points()]  # type: ignore[arg-type]

    def validate(self, state: State, seat: int, move: Any) -> None:
        if state.phase == "pledge":
            if not isinstance(move, Pledge):
                raise IllegalMoveError("SB-2.2", "every seat pledges now")
            if not 0 <= move.coins <= state.coins[seat]:
                raise IllegalMoveError("SB-2.2", f"a pledge is 0 to {state.coins[seat]} coins (the coins you hold)")
            return
        if isinstance(move, Pledge):
            raise IllegalMoveError("SB-3.1", "pledging is over for this round: take a bonus card or 2 points")

    def apply(self, state: State, seat: int, move: Any) -> State:
        if isinstance(move, Pledge):
            pledges = list(state.pledges)
            pledges[seat] = move.coins
            state = replace(state, pledges=tuple(pledges), turn=state.turn + 1)
            return self._reveal_pledges(state) if state.turn == state.seats else state
        if isinstance(move, Take):
            cards = list(state.cards)
            cards[seat] = tuple(sorted((*cards[seat], move.card)))
            state = replace(state, cards=tuple(cards))
        else:
            state = self._add(state, seat, 2, "SB-3.1", "took 2 points instead of a bonus card")
        state = replace(state, turn=state.turn + 1)
        return self._end_round(state) if state.turn == state.seats else state

    def resolve(self, state: State, outcome: JSON) -> State:
        return replace(state, phase="pledge", turn=0, prize=int(outcome))

    def _reveal_pledges(self, state: State) -> State:
        pledged = tuple(pledge or 0 for pledge in state.pledges)
        coins = tuple(have - paid for have, paid in zip(state.coins, pledged, strict=True))
        state = replace(state, phase="bonus", turn=0, coins=coins, pledges=(None,) * state.seats,
                        last_pledges=pledged)
        best = max(pledged)
        if pledged.count(best) == 1:
            winner = pledged.index(best)
            prizes = list(state.prizes)
            prizes[winner] += 1
            state = self._add(replace(state, prizes=tuple(prizes)), winner, state.prize, "SB-2.3",
                              f"the highest pledge ({best}) wins the prize")
        return state

    def _end_round(self, state: State) -> State:
        round_ = state.round + 1
        if round_ < state.rounds:
            return replace(state, round=round_, phase="roll", turn=0, prize=0)
        state = replace(state, round=round_, phase="over", turn=0, prize=0)
        for seat, cards in enumerate(state.cards):
            for card in cards:
                points = {"purse": state.coins[seat], "laurel": 2 * state.prizes[seat], "star": 3}[card]
                state = self._add(state, seat, points, "SB-3.2", f"bonus card: {card}")
        return state

    def _add(self, state: State, seat: int, points: int, rule: str, detail: str) -> State:
        return replace(state, lines=(*state.lines, (seat, points, rule, detail)))

    # ---- private choices -------------------------------------------------------------
    def private_choice(self, state: State, seat: int, move: Any) -> PrivateChoice | None:
        if isinstance(move, Pledge):
            return PrivateChoice(until=pledges_revealed(state.round))
        if isinstance(move, Take):
            return PrivateChoice(until=FINAL_SCORING, fields=("card",))
        return None

    def reveals(self, state: State) -> Collection[str]:
        done = state.round + (1 if state.phase in ("bonus", "over") else 0)
        reached = {pledges_revealed(round_) for round_ in range(done)}
        return reached | {FINAL_SCORING} if state.phase == "over" else reached

    # ---- reading ---------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        def visible(seat: int) -> bool:
            return viewer.sees_all or viewer.is_seat(seat)

        over = state.phase == "over"
        return {
            "round": state.round, "rounds": state.rounds, "phase": state.phase, "prize": state.prize,
            "acting": None if over or state.phase == "roll" else state.acting,
            "coins": list(state.coins), "prizes": list(state.prizes),
            "pledges": [pledge if visible(seat) else (None if pledge is None else "pledged")
                        for seat, pledge in enumerate(state.pledges)],
            "last_pledges": None if state.last_pledges is None else list(state.last_pledges),
            "cards": [list(cards) if visible(seat) or over else {"count": len(cards)}
                      for seat, cards in enumerate(state.cards)],
            "scores": list(self.score(state).totals()),
        }

    def score(self, state: State) -> ScoreSheet:
        return ScoreSheet(state.seats, tuple(ScoreLine(seat, points, "points", rule, detail)
                                             for seat, points, rule, detail in state.lines))

    # ---- persistence ---------------------------------------------------------------
    def encode_state(self, state: State) -> JSON:
        return {
            "seats": state.seats, "rounds": state.rounds, "round": state.round, "phase": state.phase,
            "turn": state.turn, "prize": state.prize, "coins": list(state.coins), "pledges": list(state.pledges),
            "last_pledges": None if state.last_pledges is None else list(state.last_pledges),
            "cards": [list(cards) for cards in state.cards], "prizes": list(state.prizes),
            "lines": [list(line) for line in state.lines],
        }

    def decode_state(self, data: JSON, config: MatchConfig[State]) -> State:
        return State(data["seats"], data["rounds"], data["round"], data["phase"], data["turn"], data["prize"],
                     tuple(data["coins"]), tuple(data["pledges"]),
                     None if data["last_pledges"] is None else tuple(data["last_pledges"]),
                     tuple(tuple(cards) for cards in data["cards"]), tuple(data["prizes"]),
                     tuple(tuple(line) for line in data["lines"]))

    def max_events(self, config: MatchConfig[State]) -> int:
        options = config.options
        assert isinstance(options, SealedBonusOptions)
        return options.rounds * (1 + 2 * config.seats) + 5

    def bots(self) -> dict[str, Bot]:
        return {"random": self.random_bot, "steady": self.steady_bot}

    def steady_bot(self, state: State, seat: int, rng: random.Random) -> Any:
        """Pledges half the prize (as far as its coins go) and takes the card that suits its own
        coins and prizes: it reads only what its seat knows."""
        if state.phase == "pledge":
            return Pledge(coins=min(state.coins[seat], state.prize // 2))
        if state.prizes[seat]:
            return Take(card="laurel")
        return Take(card="purse") if state.coins[seat] >= 3 else Points()


RULESET = SealedBonus()
