"""The score sheet (one line per fame change, each with its DR rule, totals equal to fame) and the
result (DR-14.10, AMB-16: fame, then money without the deposit, else a shared win). The rule
texts the sheet and the engine cite are kept in step by tests/games/test_rule_texts.py, as for
every registered game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.end_of_game import end_of_game
from domain.games.drum_roll.state import HandCard, State
from domain.kernel.agenda import Step
from domain.kernel.contract import ScoreSheet

from .builders import random_match
from .test_end_of_game import last
from .test_wages import circus, run, table

PACKAGE = Path(__file__).resolve().parents[3] / "domain" / "games" / "drum_roll"
DIGEST = Path(__file__).resolve().parents[4] / "shared" / "rules" / "drum-roll.md"
RULE_ID = re.compile(r"\bDR-\d+(?:\.\d+)?\b")


def texts() -> dict[str, dict[str, str]]:
    data = json.loads((PACKAGE / "data" / "rules.json").read_text(encoding="utf-8"))
    rules: dict[str, dict[str, str]] = data["rules"]
    return rules


def sheet_and_result(state: State) -> tuple[ScoreSheet, tuple[int, ...]]:
    sheet = RULESET.score(state)
    return sheet, RULESET.result(state, sheet).ranks


def a_scored_game() -> State:
    """Wages short in the 1st performance, a postpone vote, then the end of the 3rd."""
    state = circus(table(), 0, "P08", "P09", money=1)
    state = run(state, Step("wages"))  # 6 due, 1 paid: -5
    state = state.gain_fame(1, -1, "DR-10.7", "vote", "voted to postpone after round 6")
    state = circus(state, 1, "P01", "P10", "P19", "P28", "P37", helpers=("H05",), deposit=9, hand=(HandCard("I13"),))
    return end_of_game(last(state), Step("end_of_game"))


def test_dr_0_4_every_fame_change_is_one_line_with_its_rule_and_the_totals_are_the_fame() -> None:
    """Rules: DR-0.4."""
    state = a_scored_game()
    sheet = RULESET.score(state)
    assert sheet.totals() == tuple(p.fame for p in state.players) == (-5, 3 + 3 + 4 + 1 - 1, 0)
    assert [(line.seat, line.points, line.category, line.rule) for line in sheet.lines] == [
        (0, -5, "wages", "DR-12.3"),
        (1, -1, "vote", "DR-10.7"),
        (1, 3, "award", "DR-14.3"),
        (1, 3, "award", "DR-14.4"),
        (1, 4, "bank clerk", "DR-19.6"),
        (1, 1, "investment", "DR-21.15"),
    ]
    assert dict(sheet.lines[2].refs) == {"performance": 3, "award": "largest_show"}
    assert dict(sheet.lines[5].refs) == {"performance": 3, "card": "I13"}
    assert dict(sheet.lines[0].refs) == {"performance": 1}
    assert all(line.rule in texts() for line in sheet.lines)


def test_dr_14_10_the_most_fame_wins() -> None:
    state = a_scored_game()
    _, ranks = sheet_and_result(state)
    assert ranks == (3, 1, 2)
    result = RULESET.result(state, RULESET.score(state))
    assert result.winners() == (1,) and result.tiebreaks[0].startswith("DR-14.10")


def tied(money: tuple[int, int, int], deposits: tuple[int, int, int] = (0, 0, 0)) -> tuple[int, ...]:
    state = table()
    for seat in range(3):
        state = state.gain_fame(seat, 4, "DR-14.3", "award", "Largest Show", award="largest_show")
        state = state.with_player(seat, money=money[seat], deposit=deposits[seat])
    return sheet_and_result(state)[1]


def test_dr_14_10_equal_fame_goes_to_the_most_money() -> None:
    """Rules: DR-14.10."""
    assert tied((3, 7, 5)) == (3, 1, 2)


def test_dr_14_10_amb_16_money_on_the_bank_clerk_does_not_count() -> None:
    """Rules: DR-14.10."""
    assert tied((3, 2, 2), deposits=(0, 10, 0)) == (1, 2, 2)


def test_dr_14_10_still_tied_players_share_the_win() -> None:
    """Rules: DR-14.10."""
    assert tied((4, 4, 1)) == (1, 1, 3)
    assert tied((0, 0, 0)) == (1, 1, 1)


def test_dr_14_10_the_score_sheet_of_a_random_match_adds_up_and_cites_known_rules() -> None:
    """Rules: DR-14.10."""
    state, _ = random_match(3, 7)
    sheet = RULESET.score(state)
    assert sheet.totals() == tuple(p.fame for p in state.players)
    assert len(sheet.lines) == sum(len(p.ledger) for p in state.players)
    known = texts()
    for line in sheet.lines:
        assert RULE_ID.fullmatch(line.rule) and line.rule in known, line
    assert RULESET.result(state, sheet).winners()
