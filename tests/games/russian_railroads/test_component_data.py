"""A changed component set, loaded and played to the end (issue 15: "a test loads a changed set and
plays it to the end").

The variation changes a value of each kind the engine reads from data: every engineer's cost and
printed value (DATA-9), the grey track's VP (DATA-4), the turn-order cards' pass VP (DATA-11), an
extra 1-worker action space giving 3 rubles, and the Kiev railway one space longer (DATA-2). A
seeded bot plays a whole match on it, preferring the changed spaces, and the tests find each
changed value in what the match did; scenario tests check the values the match cannot be relied
on to reach (an engineer's value through factory F1, RR-23.1).
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from importlib import resources
from typing import Any

import pytest

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import RussianRailroadsComponents, default_components, load_components
from domain.games.russian_railroads.scoring import railway_lines
from domain.games.russian_railroads.state import State
from domain.kernel.errors import InvalidComponentsError

from .builders import KV, table, tracks
from .late_drive import Played, at_turn, lines_of, match, play

EXTRA = "rubles_3"
ENGINEER_SPACES = ("engineer_left", "engineer_right")


def default_data() -> dict[str, Any]:
    text = resources.files("domain.games.russian_railroads").joinpath("data/default.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def changed_data() -> dict[str, Any]:
    data = copy.deepcopy(default_data())
    data["name"] = "changed"
    for engineer in data["engineers"]:
        engineer["workers"], engineer["rubles"] = 2, 0
        engineer["value"] += 20
    for colour in data["colours"]:
        if colour["id"] == "grey":
            colour["vp"] = colour["revalued_vp"] = 3
    data["constants"]["pass_vp"] = [1, 3, 5, 7]
    data["spaces"].append({"id": EXTRA, "name": "3 rubles", "section": "auxiliary", "workers": 1,
                           "effects": [{"kind": "rubles", "count": 3}], "rule": "RR-10.5"})
    for railway in data["railways"]:
        if railway["id"] == KV:
            railway["spaces"] += 1
    return data


@cache
def changed() -> RussianRailroadsComponents:
    return load_components(changed_data())


def prefers_the_changes(state: State, seat: int, moves: list[Any], rng: random.Random) -> Any:
    """The extra space or a changing engineer whenever legal, otherwise a random legal move."""
    for wanted in (EXTRA, *ENGINEER_SPACES):
        chosen = [m for m in moves if isinstance(m, mv.Place) and m.space == wanted]
        if chosen:
            return chosen[0]
    return moves[rng.randrange(len(moves))]


@cache
def played(seats: int = 4, seed: int = 3) -> Played:
    return match(seats, seed, components=changed(), policy=prefers_the_changes)


def test_the_changed_set_validates_and_is_another_set() -> None:
    """load_components validates a variation and the match records another content hash."""
    components = changed()
    assert components.content_hash() != default_components().content_hash()
    assert components.engineer("E1").workers == 2 and components.colour("grey").vp == 3
    assert components.railway(KV).spaces == default_components().railway(KV).spaces + 1
    assert played().final.components.content_hash() == components.content_hash()


def test_a_broken_variation_is_refused_with_its_fault() -> None:
    """A set the engine could not play is refused when loaded, naming what is wrong."""
    data = changed_data()
    data["spaces"].append({"id": "purple", "name": "purple", "section": "track", "workers": 1,
                           "effects": [{"kind": "advance", "colour": "purple"}], "rule": "RR-6.2"})
    with pytest.raises(InvalidComponentsError, match="purple"):
        load_components(data)
    data = changed_data()
    data["spaces"].append(dict(data["spaces"][0]))
    with pytest.raises(InvalidComponentsError, match="unique"):
        load_components(data)


def test_rr_17_1_the_changed_set_is_played_to_the_end_and_its_values_are_used() -> None:
    """The whole match on the changed set ends with its final scoring (RR-17.1), and:
    the extra space gives its 3 rubles; every engineer space was paid with the changed 2 workers;
    the pass VP are the changed cards' (RR-12.4, position 1 now worth 1); grey scores 3 a space."""
    result = played()
    final = result.final
    assert final.over and final.round == changed().for_players(4).rounds
    extra = [(state, seat, move) for state, seat, move in result.history
             if isinstance(move, mv.Place) and move.space == EXTRA]
    assert len(extra) >= final.round  # the policy takes it every round it is free
    for state, seat, move in extra:
        after = RULESET.apply(state, seat, move)
        assert after.players[seat].rubles == state.players[seat].rubles - move.rubles + 3
    engineer_uses = [move for _, _, move in result.history
                     if isinstance(move, mv.Place) and (move.space in ENGINEER_SPACES
                                                        or move.space.startswith("E"))]
    assert engineer_uses
    assert all(move.workers + move.temporary + move.black + move.rubles == 2 for move in engineer_uses)
    passes = [line for line in final.lines if line.rule == "RR-12.4"]
    assert len(passes) == 4 * final.round
    assert all(line.points == [1, 3, 5, 7][line.refs["position"] - 1] for line in passes)
    greys = [line.detail for line in final.lines if line.rule.startswith("RR-14") and "grey" in line.detail]
    assert greys and all("grey 1" not in detail for detail in greys)
    assert any("grey 3" in detail or "grey 6" in detail for detail in greys)


def test_rr_14_3_the_longer_kiev_railway_scores_its_extra_space() -> None:
    """DATA-2 as data: with Kiev one space longer, a #10 reach there scores space 10 too (grey 3 each
    from the changed set); the default set stops at its last space."""
    length = changed().railway(KV).spaces
    seat = {"tracks": tracks(kiev={"black": length, "grey": length - 1}), "locomotives": {KV: (length,)},
            "claimed": ()}
    longer = table(4, {0: seat}, components=changed())
    lines = [line for line in railway_lines(longer, 0, 1) if line.refs.get("railway") == KV and
             line.rule != "RR-13.8"]
    assert [line.points for line in lines] == [3 * (length - 1)]


def test_rr_23_1_factory_f1_reads_the_changed_engineer_values() -> None:
    """RR-23.1 on the changed set: the VP are the engineers' new printed values."""
    components = changed()
    value = next(f.locomotive for f in components.factories if f.rule == "RR-23.1")
    seat = {"markers": (4,), "factories": (value, None, None, None, None), "engineers": ("E1", "E2")}
    state = play(at_turn(table(4, {0: seat}, components=components)), mv.Place(space="industry_1", workers=1))
    points = components.engineer("E1").value + components.engineer("E2").value
    assert points == default_components().engineer("E1").value + default_components().engineer("E2").value + 40
    assert lines_of(state) == [("RR-23.1", points)]
