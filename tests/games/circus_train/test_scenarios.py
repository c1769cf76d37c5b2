"""Scenario tables in recorded-randomness mode: every draw and die is entered as it happened on a
table, every move as its JSON, for each mode; the final position is checked fact by fact.

CT-5.12 to CT-5.20 (setup order), CT-6.1, CT-12.2, CT-13.1, CT-13.6, CT-9.21, CT-19.8, CT-20.4.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.contract import ScoreLine

from .helpers import R, cfg

SETUP_3P: list[Any] = [
    ("chance", 1),
    (1, {"type": "pick_talent", "talent": "acrobat"}), (1, {"type": "pick_talent", "talent": "acrobat"}),
    (2, {"type": "pick_talent", "talent": "horse"}), (2, {"type": "pick_talent", "talent": "freak"}),
    (0, {"type": "pick_talent", "talent": "freak"}), (0, {"type": "pick_talent", "talent": "freak"}),
    ("chance", "dest_richmond"), ("chance", "LN01"), ("chance", "dest_boston"), ("chance", "LN02"),
    ("chance", "dest_chicago"), ("chance", "LN03"),
    ("chance", "dest_buffalo"), ("chance", "LN23"), ("chance", "dest_detroit"), ("chance", "LN15"),
    ("chance", "dest_albany"), ("chance", "LN04"), ("chance", "dest_cleveland"), ("chance", "LN05"),
    ("chance", "dest_pittsburgh"), ("chance", "LN16"),
    (1, {"type": "choose_start", "city": "toronto"}), (2, {"type": "choose_start", "city": "toronto"}),
    (0, {"type": "choose_start", "city": "montreal"}),
]
ROUND_3P: list[Any] = [
    (1, {"type": "play_card", "card": "rapid_transit", "path": ["buffalo"]}),
    (2, {"type": "play_card", "card": "overnight_transit", "path": ["detroit"]}),
    (2, {"type": "hire", "talent": "acrobat"}), ("chance", 3),
    (2, {"type": "hire", "talent": "clown"}), ("chance", 6),
    (0, {"type": "play_card", "card": "fast_transit", "path": ["boston"]}),
    ("chance", "LN06"), ("chance", "dest_washington"),
]
SETUP_2P: list[Any] = [
    ("chance", 0),
    (0, {"type": "pick_talent", "talent": "horse"}), (0, {"type": "pick_talent", "talent": "horse"}),
    (1, {"type": "pick_talent", "talent": "acrobat"}), (1, {"type": "pick_talent", "talent": "freak"}),
    ("chance", "dest_richmond"), ("chance", "LN01"), ("chance", "dest_chicago"), ("chance", "LN03"),
    ("chance", "dest_buffalo"), ("chance", "LN23"), ("chance", "dest_washington"), ("chance", "LN02"),
    ("chance", "dest_detroit"), ("chance", "LN04"),
    ("chance", "dest_albany"), ("chance", "LN05"), ("chance", "dest_cleveland"), ("chance", "LN06"),
    ("chance", "dest_pittsburgh"), ("chance", "LN07"),
    (0, {"type": "choose_start", "city": "winnipeg"}), (1, {"type": "choose_start", "city": "toronto"}),
]
ROUND_2P_ADVANCED: list[Any] = [
    (0, {"type": "pocket_wages", "bills": 2}),
    (1, {"type": "play_card", "card": "basic_transit", "option": "move", "path": ["buffalo"]}),
    ("chance", "LN08"), ("chance", "dest_boston"),
]
SETUP_1P: list[Any] = [
    (0, {"type": "pick_talent", "talent": "acrobat"}), (0, {"type": "pick_talent", "talent": "horse"}),
    ("chance", "dest_boston"), ("chance", "LN09"),
    ("chance", "dest_duluth"), ("chance", "LN17"), ("chance", "dest_detroit"), ("chance", "LN10"),
    ("chance", "dest_albany"), ("chance", "LN11"), ("chance", "dest_cleveland"), ("chance", "LN12"),
    ("chance", "dest_pittsburgh"), ("chance", "LN13"), ("chance", "dest_buffalo"), ("chance", "LN24"),
    ("chance", "dest_chicago"), ("chance", "LN14"),
    (0, {"type": "choose_start", "city": "montreal"}),
]
ROUND_1P: list[Any] = [
    (0, {"type": "play_card", "card": "wage_transit", "path": ["boston"]}),
    (0, {"type": "keep_talent", "talents": []}),
]


def replay(variant: str, seats: int, steps: list[Any], **options: Any) -> Any:
    config = cfg(seats, variant, **options)
    state = R.setup(config)
    for actor, data in steps:
        decision = R.decision(state)
        if actor == "chance":
            assert decision.chance is not None, (data, state.head())
            assert decision.chance.weight_of(data) > 0, f"{data!r} could not have been drawn"
            state = R.resolve(state, data)
        else:
            assert decision.seats == (actor,), (actor, data, state.head())
            move = R.parse_move(data)
            R.validate(state, actor, move)
            state = R.apply(state, actor, move)
    return state


def test_basic_three_players() -> None:
    state = replay("basic", 3, SETUP_3P + ROUND_3P)
    assert state.first == 1 and state.week == 1
    assert state.players[1].vp == 1
    assert state.lines == (ScoreLine(1, 1, "points_counter", "CT-13.6", "Points counter in buffalo"),)
    assert state.players[2].circus == ("acrobat", "clown", "freak", "horse")
    assert state.talents == {"detroit": ("clown",), "pittsburgh": ("freak",)}
    assert state.news["washington"] == "LN06" and state.counter_cities() == 8
    assert [p.city for p in state.players] == ["boston", "buffalo", "detroit"]
    assert state.head() == {"t": "turn", "seat": 1}


def test_advanced_two_players() -> None:
    """A second draw naming a city that holds a counter replaces it (CT-13.2): washington is turned
    up while the Points counter lies in buffalo, so nothing is replaced here; the 2-player deck of
    7 cards has no Overnight Hire (CT-5.4)."""
    state = replay("advanced", 2, SETUP_2P + ROUND_2P_ADVANCED)
    assert state.news["washington"] == "LN02" and state.news["chicago"] == "LN03"
    p0, p1 = state.players
    assert (p0.money, p0.reputation, p0.hand == state.players[1].hand) == (10, 3, False)
    assert p1.city == "buffalo" and p1.vp == 1 and len(p0.hand) == 8 and len(p1.hand) == 7
    assert state.week == 1


def test_solitaire() -> None:
    state = replay("solitaire", 1, SETUP_1P + ROUND_1P)
    p = state.players[0]
    assert p.circus == () and p.money == 0 and p.city == "boston"
    assert state.talents["duluth"] == ("acrobat", "clown", "clown", "horse", "horse")
    assert state.week == 1


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_impossible_outcome_refused(variant: str) -> None:
    """A recorded draw of a counter no longer in the bag has weight 0 (verification refuses it)."""
    spec = R.decision(replay(variant, 3, SETUP_3P[:7])).chance
    assert spec is not None and spec.weight_of("dest_richmond") == 1
    again = R.decision(replay(variant, 3, SETUP_3P[:9])).chance
    assert again is not None and again.weight_of("dest_richmond") == 0
    before = R.decision(replay(variant, 3, SETUP_3P[:16])).chance
    assert before is not None and before.weight_of("LN15") == 1
    after = R.decision(replay(variant, 3, SETUP_3P[:18])).chance
    assert after is not None and after.weight_of("LN15") == 0
