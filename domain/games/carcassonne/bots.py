"""Bots, named by `bots(rules)` (the ruleset's `bots`). "random" is the kernel's uniform choice
over legal moves; "greedy" takes the move with the best immediate score for its own seat (ties
broken by the bot's random generator), looking one placement plus one figure step ahead so that
completing a feature with a new meeple counts.

Bots decide from their seat's view only. The greedy bot never evaluates the real state: it plans
on a state its seat cannot tell from it (`knowledge.completions`), where the face-down Big Top
token (BT-3.7) is a stand-in the seat cannot rule out, and it counts every circus line at the
token's expected value given what the seat has seen (BT-4.4: value times figures), never at the
stand-in's value. So the real token cannot change its move, and its moves say nothing about it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.kernel.contract import Bot

from .knowledge import completions, unrevealed_tokens
from .moves import CarcassonneMove, PlaceTile
from .scoring import circus_figures
from .state import CarcassonneState

if TYPE_CHECKING:
    from .rules import CarcassonneRules


@dataclass(frozen=True)
class TokenOdds:
    """What a seat knows of the face-down token: it is any unrevealed token, each copy as likely
    (the stack was shuffled, BT-2.3). `copies` of them in all, whose values add up to `value_sum`,
    so the expected value is value_sum / copies."""

    copies: int
    value_sum: int

    @classmethod
    def of(cls, state: CarcassonneState) -> TokenOdds:
        pool = unrevealed_tokens(state)
        values = state.catalog.token_values
        return cls(sum(pool.values()) or 1, sum(count * values[animal] for animal, count in pool.items()))

    def scaled_gain(self, before: CarcassonneState, after: CarcassonneState, seat: int) -> int:
        """The seat's expected points from `before` to `after`, times `copies` (so they stay
        integers and compare the same): circus lines at the expected token value, others as
        scored."""
        total = 0
        for line in after.lines[len(before.lines):]:
            if line.seat == seat:
                figures = circus_figures(line)
                total += figures * self.value_sum if figures else line.points * self.copies
        return total


def greedy_bot(rules: CarcassonneRules) -> Bot:
    def best_figure(world: CarcassonneState, odds: TokenOdds, seat: int) -> tuple[int, list[CarcassonneMove]]:
        best, choices = -1, []
        for move in rules.legal_moves(world, seat):
            gain = odds.scaled_gain(world, rules.apply(world, seat, move), seat)
            if gain > best:
                best, choices = gain, [move]
            elif gain == best:
                choices.append(move)
        return best, choices

    def bot(state: CarcassonneState, seat: int, rng: random.Random) -> CarcassonneMove:
        world, _ = completions(state)[0]  # any completion will do: no gain reads its token's value
        odds = TokenOdds.of(world)
        if world.phase == "figure":
            _, choices = best_figure(world, odds, seat)
            return choices[rng.randrange(len(choices))]
        best, picks = -1, []
        for move in rules.legal_moves(world, seat):
            assert isinstance(move, PlaceTile)
            gain, _ = best_figure(rules.apply(world, seat, move), odds, seat)
            if gain > best:
                best, picks = gain, [move]
            elif gain == best:
                picks.append(move)
        chosen: CarcassonneMove = picks[rng.randrange(len(picks))]
        return chosen

    return bot


def bots(rules: CarcassonneRules) -> dict[str, Bot]:
    """The named bots of the game (the ruleset's `bots`): "random" first, as every game has it."""
    return {"random": rules.random_bot, "greedy": greedy_bot(rules)}
