"""Scenario tables: whole short matches with recorded randomness (a fixed tile order and token
draws), explicit placements, and the complete expected score sheet including final scoring."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import RULES, new_game, summary, turn

FOLLOW = {"type": "follower"}

SCENARIOS: list[dict[str, Any]] = [
    {
        "name": "big top, 2 players: EX-1..EX-4 played to the end",
        "seats": 2,
        # seat, tile, x, y, rotation, figure move, animal token after a circus tile
        "turns": [
            (0, "UBT-F", 0, 1, 0, {**FOLLOW, "segment": "r1"}, "seal"),
            (1, "W", -1, 0, 0, {**FOLLOW, "segment": "r1"}, None),
            (0, "V", -1, 1, 1, {**FOLLOW, "segment": "r1"}, None),
            (1, "B", 1, 1, 0, {**FOLLOW, "segment": "m1"}, None),
            (0, "U", 0, 2, 1, {**FOLLOW, "segment": "f1"}, None),
            (1, "UBT-H", 1, 0, 0, {"type": "pass"}, "bear"),
            (0, "UBT-A", -1, 2, 0, {"type": "acrobat", "x": -1, "y": 2}, None),
        ],
        "sheet": [
            (1, 3, "road", "CB-5.2"),         # EX-2
            (0, 12, "circus", "BT-4.3"),      # EX-3
            (1, 4, "circus", "BT-4.3"),
            (0, 5, "circus", "BT-8.1"),       # bear under the Big Top at (1,0)
            (1, 5, "circus", "BT-8.1"),
            (0, 2, "road", "CB-6.2"),
            (0, 2, "road", "CB-6.2"),
            (1, 5, "monastery", "CB-6.2"),    # 1 + 4 neighbours
            (0, 5, "acrobat", "BT-8.2"),
        ],
        "totals": (26, 17),
        "ranks": (1, 2),
    },
    {
        "name": "big top, 3 players: a pyramid of three colours, circus, ringmaster",
        "seats": 3,
        "turns": [
            (0, "UBT-A", 0, 1, 0, {"type": "acrobat", "x": 0, "y": 1}, None),
            (1, "B", 1, 1, 0, {"type": "acrobat", "x": 0, "y": 1}, None),
            (2, "U", 1, 0, 0, {"type": "acrobat", "x": 0, "y": 1}, None),
            (0, "UBT-G", 1, 2, 0, {"type": "score-pyramid", "x": 0, "y": 1}, "tiger"),
            (1, "U", 2, 2, 0, {**FOLLOW, "segment": "r1", "figure": "ringmaster"}, None),
            (2, "A", 3, 2, 1, {**FOLLOW, "segment": "m1"}, None),
            (0, "V", 0, 2, 0, {**FOLLOW, "segment": "f1"}, None),
        ],
        "sheet": [
            (0, 5, "pyramid", "BT-6.2"),
            (1, 5, "pyramid", "BT-6.2"),
            (2, 5, "pyramid", "BT-6.2"),
            (1, 3, "road", "CB-5.2"),
            (1, 2, "ringmaster", "BT-7.4"),   # the circus tile next to it
            (0, 6, "circus", "BT-8.1"),       # tiger: the farmer beside the Big Top
            (2, 2, "monastery", "CB-6.2"),
        ],
        "totals": (11, 10, 7),
        "ranks": (1, 2, 3),
    },
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s["name"])
def test_scenario_table(scenario: dict[str, Any]) -> None:
    stack: dict[str, int] = {}
    for _, tile, *_ in scenario["turns"]:
        stack[tile] = stack.get(tile, 0) + 1
    state = new_game(seats=scenario["seats"], stack=stack)
    for seat, tile, x, y, rotation, figure, token in scenario["turns"]:
        assert state.seat == seat
        state = turn(state, tile, x, y, rotation, RULES.parse_move(figure), token=token)
    assert RULES.decision(state).over
    sheet = RULES.score(state)
    assert summary(sheet.lines) == scenario["sheet"]
    assert sheet.totals() == scenario["totals"]
    assert RULES.result(state, sheet).ranks == scenario["ranks"]
