"""Bots. "random" is the kernel's uniform choice over legal moves; "greedy" takes the move with
the best immediate score for its own seat (ties broken by the bot's random generator), looking
one placement plus one figure step ahead so that completing a feature with a new meeple counts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from domain.kernel.contract import Bot

from .moves import CarcassonneMove, PlaceTile
from .state import CarcassonneState

if TYPE_CHECKING:
    from .rules import CarcassonneRules


def _gain(before: CarcassonneState, after: CarcassonneState, seat: int) -> int:
    return sum(line.points for line in after.lines[len(before.lines):] if line.seat == seat)


def greedy_bot(rules: CarcassonneRules) -> Bot:
    def best_figure(state: CarcassonneState, seat: int) -> tuple[int, list[CarcassonneMove]]:
        best, choices = -1, []
        for move in rules.legal_moves(state, seat):
            gain = _gain(state, rules.apply(state, seat, move), seat)
            if gain > best:
                best, choices = gain, [move]
            elif gain == best:
                choices.append(move)
        return best, choices

    def bot(state: CarcassonneState, seat: int, rng: random.Random) -> CarcassonneMove:
        if state.phase == "figure":
            _, choices = best_figure(state, seat)
            return choices[rng.randrange(len(choices))]
        best, picks = -1, []
        for move in rules.legal_moves(state, seat):
            assert isinstance(move, PlaceTile)
            gain, _ = best_figure(rules.apply(state, seat, move), seat)
            if gain > best:
                best, picks = gain, [move]
            elif gain == best:
                picks.append(move)
        chosen: CarcassonneMove = picks[rng.randrange(len(picks))]
        return chosen

    return bot
