"""The score sheet and the result (DR-14.10).

Every fame change goes through `State.gain_fame`, which records it in the player's ledger with its
rule, category, detail and refs (the card, region or award that produced it). The sheet is those
entries as the kernel's `ScoreLine`s, in ledger order, seat by seat, so every total equals the
player's `fame` and every point names the rule that gave or took it. Nothing is computed here: at
the end of the game the end-of-game fame is already in the ledger (end_of_game.py).

The winner has the most fame; between tied players the most money left wins, the bank clerk's
deposit not counting (DR-14.10, AMB-16: it is no longer usable); still tied, they share the win
(equal ranks, as the kernel's `Result.from_keys` gives for equal keys).
"""

from __future__ import annotations

from domain.kernel.canonical import JSON
from domain.kernel.contract import Result, ScoreLine, ScoreSheet
from domain.kernel.positions import RULE as POSITION
from domain.kernel.positions import position_line

from .state import FameEntry, State

TIEBREAK = "DR-14.10: most fame, then most money left (money on the bank clerk not counted), else a shared win"


def line(seat: int, entry: FameEntry) -> ScoreLine:
    """One ledger entry as a score line; its refs also name the performance it happened in. The
    fame a match from a position started with is the kernel's position line (docs/positions.md)."""
    if entry.rule == POSITION:
        return position_line(seat, entry.points)
    refs: dict[str, JSON] = {"performance": entry.performance, **dict(entry.refs)}
    return ScoreLine(seat, entry.points, entry.category, entry.rule, entry.detail, refs)


def score_sheet(state: State) -> ScoreSheet:
    """The ruleset's `score`: one line per fame change, so the totals are the fame tracks."""
    lines = tuple(line(seat, entry) for seat, player in enumerate(state.players) for entry in player.ledger)
    return ScoreSheet(state.seats, lines)


def match_result(state: State, sheet: ScoreSheet) -> Result:
    """The ruleset's `result`: ranks by fame, then money (DR-14.10, AMB-16); equal keys share a rank."""
    totals = sheet.totals()
    keys = [(totals[seat], player.money) for seat, player in enumerate(state.players)]
    return Result.from_keys(totals, keys, (TIEBREAK,))
