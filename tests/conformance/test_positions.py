"""Conformance of positions (issue 13 §9): a match that starts from a given table.

Every registered game with a position format is checked on four tiers:

- engine: bot matches of every game, several seeds and player counts, are started again from
  positions taken from their middle (the first, a middle and the last position of each); with the
  same chance outcomes fed in, the same bots (same generator seeds) make the same moves, every
  later position equals the original's, and the match ends with the same totals and result. Chance
  stays chance: each draw offers the same outcomes with the same weights as in the original;
- refusals: positions mutated at random (hypothesis) are either refused with an
  InvalidPositionError naming a field of the format and a rule (the game's or the kernel's
  POSITION), or accepted whole: normal form, and a game that can go on. Nothing else escapes.
  Named mutations give the named rule;
- hidden information: every state a viewer cannot tell from the real one (hidden draws and secret
  moves varied, as the bot check varies them) gives that viewer the same position; through the
  record, the created event is redacted and unsalted for viewers not entitled, in logs, forks and
  the API, and salted and checked once the seed is out;
- the record: a match from a position, fed the original's moves and outcomes in recorded
  randomness, ends as the original did, verifies (Ringside's verifier and the standalone one),
  is marked `setup: "position"` in the summary, the list and the bundle header, exports and
  imports back identical; over real HTTP and through the CLI as a subprocess.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application import Ringside
from domain.kernel.canonical import digest, encode
from domain.kernel.chance import derive_outcome
from domain.kernel.clock import FixedStepClock
from domain.kernel.contract import Decision, Ruleset
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.fold import secret_group_complete
from domain.kernel.integrity import ServerKey
from domain.kernel.positions import RULE, normal_position, position_hides, position_view, state_from_position
from domain.kernel.registry import all_games
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer
from tests.adversarial.support import reforge
from tests.api.support import Server, bearer, create
from tests.conformance.harness import Case, Step, cases, config_for, counterfactual_states, hidden_from, viewers
from tests.support.games import PYTHONPATH
from tools import ringside_verify

ROOT = Path(__file__).resolve().parents[2]
KEY = ServerKey.from_seed(b"positions")
GAMES = sorted(name for name, ruleset in all_games().items() if ruleset.position_model is not None)


def position_runs() -> list[tuple[Case, int]]:
    """Every game with a position format: each variant at its fewest and most seats with the plain
    options, each other option preset at the default variant's smallest table, and that table
    with several seeds (the slow tier plays every case with more)."""
    found = []
    for name in GAMES:
        ruleset = all_games()[name]
        presets = list(ruleset.option_presets())
        info = ruleset.variants[ruleset.default_variant]
        found.extend((Case(name, ruleset.default_variant, info.min_seats, presets[0]), seed) for seed in (1, 2))
        for variant, limits in ruleset.variants.items():
            found.extend((Case(name, variant, seats, presets[0]), 0)
                         for seats in sorted({limits.min_seats, limits.max_seats}))
        found.extend((Case(name, ruleset.default_variant, info.min_seats, preset), 0) for preset in presets[1:])
    return found


# ==== the engine tier =====================================================================================
@dataclass
class Played:
    """A bot-played match: the state before each step, what the match waited for there, and what
    happened (a chance outcome when the seat is None, else that seat's move)."""

    case: Case
    seed: int
    states: list[Any]
    decisions: list[Decision]
    steps: list[tuple[int | None, Any]]

    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        return all_games()[self.case.game]

    def position_at(self, index: int) -> dict[str, Any] | None:
        try:
            return self.ruleset.position_of(self.states[index])
        except PositionUnavailableError:
            return None

    def with_positions(self) -> list[int]:
        return [index for index in range(len(self.steps)) if self.position_at(index) is not None]


def bot_move(ruleset: Ruleset[Any, Any], state: Any, seat: int, seed: int, index: int) -> Any:
    """The move of the bot that plays `seat` (the game's bots in turn, rotating with the seed), with
    a generator seeded by the match seed and the step: the same step of a match from a position
    asks the same bot with the same seed."""
    bots = ruleset.bots()
    names = sorted(bots)
    return bots[names[(seat + seed) % len(names)]](state, seat, random.Random(f"{seed}:{index}"))


def play(case: Case, seed: int) -> Played:
    ruleset = all_games()[case.game]
    config = config_for(case)
    chance_seed = digest({"seed": seed, "case": str(case), "check": "positions"})
    state = ruleset.setup(config)
    played = Played(case, seed, [], [], [])
    for index in range(ruleset.max_events(config) + 1):
        decision = ruleset.decision(state)
        played.states.append(state)
        played.decisions.append(decision)
        if decision.over:
            return played
        if decision.chance is not None:
            outcome = derive_outcome(chance_seed, str(case), [], index, decision.chance).outcome
            played.steps.append((None, outcome))
            state = ruleset.resolve(state, outcome)
            continue
        seat = decision.seats[index % len(decision.seats)]
        move = bot_move(ruleset, state, seat, seed, index)
        played.steps.append((seat, move))
        state = ruleset.apply(state, seat, move)
    raise AssertionError(f"{case} did not end within max_events")


def continue_from(played: Played, start: int) -> None:
    """Start a match from the position before step `start` and play the rest with the original's
    chance outcomes: it must go exactly as the original went. Each move is the original's, checked
    legal there; at the first ten moves and every seventh after, the same bot with the same seed is
    asked too and must choose it (asking at every step would cost a bot-played match per start)."""
    ruleset, config = played.ruleset, config_for(played.case)
    position = played.position_at(start)
    assert position is not None
    digest(position)  # a position is canonical JSON
    state = state_from_position(ruleset, config, position)
    assert ruleset.position_of(state) == position, "position_of(from_position(p)) is not p"
    for index in range(start, len(played.steps)):
        decision, original = ruleset.decision(state), played.decisions[index]
        assert (decision.seats, decision.secret, decision.over) == (original.seats, original.secret, original.over), \
            f"step {index}: the match waits for {decision} instead of {original}"
        seat, data = played.steps[index]
        if seat is None:
            assert decision.chance is not None and original.chance is not None
            assert (decision.chance.kind, decision.chance.outcomes, decision.chance.visible_to) == \
                (original.chance.kind, original.chance.outcomes, original.chance.visible_to), \
                f"step {index}: the draw offers other outcomes than the original's"
            state = ruleset.resolve(state, data)
        else:
            if index - start < 10 or index % 7 == 0:
                chosen = bot_move(ruleset, state, seat, played.seed, index)
                assert ruleset.dump_move(chosen) == ruleset.dump_move(data), f"step {index}: the bot chose otherwise"
            move = ruleset.parse_move(ruleset.dump_move(data))
            ruleset.validate(state, seat, move)
            state = ruleset.apply(state, seat, move)
        expected = played.position_at(index + 1) if index + 1 < len(played.steps) else None
        if expected is not None:
            assert ruleset.position_of(state) == expected, f"step {index}: the table differs from the original's"
    assert ruleset.decision(state).over
    final = played.states[-1]
    sheet, original_sheet = ruleset.score(state), ruleset.score(final)
    assert sheet.totals() == original_sheet.totals()
    assert ruleset.result(state, sheet).to_json() == ruleset.result(final, original_sheet).to_json()


def _starts(played: Played) -> list[int]:
    """Positions from a third and two thirds of the way through the match, and its last one."""
    found = played.with_positions()
    assert found, f"{played.case}: no position anywhere in the match"
    return sorted({found[len(found) // 3], found[2 * len(found) // 3], found[-1]})


@pytest.mark.parametrize(("case", "seed"), position_runs(), ids=lambda value: str(value))
def test_bot_matches_continue_from_their_positions_as_the_originals(case: Case, seed: int) -> None:
    played = play(case, seed)
    for start in _starts(played):
        continue_from(played, start)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 6))
@pytest.mark.parametrize("case", [case for case in cases() if case.game in GAMES], ids=str)
def test_bot_matches_continue_from_every_tenth_position(case: Case, seed: int) -> None:
    played = play(case, seed)
    for start in played.with_positions()[::10]:
        continue_from(played, start)


def test_every_position_of_a_match_is_in_normal_form_and_canonical() -> None:
    """From every position of a few matches, from_position then position_of gives it back."""
    for game in GAMES:
        ruleset = all_games()[game]
        info = ruleset.variants[ruleset.default_variant]
        case = Case(game, ruleset.default_variant, info.max_seats, next(iter(ruleset.option_presets())))
        played = play(case, 7)
        config = config_for(case)
        for index in played.with_positions():
            position = played.position_at(index)
            assert position is not None
            assert normal_position(ruleset, config, position) == position
            assert json.loads(encode(position)) == position


# ==== refusals ===========================================================================================
@cache
def samples(game: str) -> tuple[tuple[Case, dict[str, Any]], ...]:
    """Valid positions of a game, spread over two bot matches (every phase a position can be in)."""
    ruleset = all_games()[game]
    presets = list(ruleset.option_presets())
    variants = list(ruleset.variants)
    chosen = [Case(game, ruleset.default_variant, ruleset.variants[ruleset.default_variant].max_seats,
                   presets[-1] if len(presets) > 1 else presets[0]),
              Case(game, variants[-1], ruleset.variants[variants[-1]].min_seats, presets[0])]
    found: list[tuple[Case, dict[str, Any]]] = []
    for seed, case in enumerate(chosen):
        played = play(case, 11 + seed)
        indices = played.with_positions()
        for index in indices[:: max(1, len(indices) // 12)]:
            position = played.position_at(index)
            assert position is not None
            found.append((case, position))
    return tuple(found)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value (the root excluded)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _nodes(item, (*path, index))


def _strings(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {text for item in value.values() for text in _strings(item)} | set(value)
    if isinstance(value, list):
        return {text for item in value for text in _strings(item)}
    return {value} if isinstance(value, str) else set()


@st.composite
def mutated(draw: st.DrawFn, game: str) -> tuple[Case, dict[str, Any]]:
    """A valid position with one to three random changes: a number nudged, a name swapped for
    another name the position uses, a value nulled or of the wrong type, an entry dropped,
    doubled or moved, an unknown field added."""
    case, original = draw(st.sampled_from(samples(game)))
    position = copy.deepcopy(original)
    vocabulary = sorted(_strings(original) | {"zz", ""})
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_nodes(position))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = position
        for part in path[:-1]:
            parent = parent[part]
        key = path[-1]
        value = parent[key]
        op = draw(st.sampled_from(["number", "name", "null", "type", "drop", "double", "move", "extra"]))
        if op == "number" and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + draw(st.sampled_from([-1000, -7, -2, -1, 1, 2, 3, 7, 1000]))
        elif op == "name" and isinstance(value, str):
            parent[key] = draw(st.sampled_from(vocabulary))
        elif op == "null":
            parent[key] = None
        elif op == "type":
            parent[key] = draw(st.sampled_from([[], {}, "x", 3, True, [1, "a"]]))
        elif op == "drop":
            del parent[key]
        elif op == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif op == "move" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        elif op == "extra" and isinstance(value, dict):
            value["zz"] = 1
        else:
            parent[key] = draw(st.sampled_from([None, 0, -1, "zz", []]))
    return case, position


def check_refused_or_whole(case: Case, position: Any) -> str:
    """Either a named refusal (a field of the format, a rule with a text) or a whole position: in
    normal form, and a game that can go on from it."""
    ruleset = all_games()[case.game]
    config = config_for(case)
    try:
        normal = normal_position(ruleset, config, position)
    except InvalidPositionError as error:
        assert error.path and error.reason, error
        assert error.rule == RULE or error.rule in ruleset.rule_texts().rules, f"rule {error.rule} has no text"
        top = error.path.split(".")[0]
        assert ruleset.position_model is not None
        assert top == "(position)" or top in ruleset.position_model.model_fields, f"no field {error.path}"
        assert error.message.startswith(f"position {error.path}: ") and error.message.endswith(f"({error.rule})")
        assert error.status == 422 and error.code == "invalid-position"
        return error.rule
    assert normal_position(ruleset, config, normal) == normal
    state = state_from_position(ruleset, config, normal)
    decision = ruleset.decision(state)
    assert not decision.over
    if decision.chance is not None:
        assert decision.chance.total_weight() > 0
    else:
        assert all(ruleset.legal_moves(state, seat) for seat in decision.seats), "a seat to act without a move"
    return "accepted"


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_positions_are_refused_by_name_or_accepted_whole(game: str, data: st.DataObject) -> None:
    case, position = data.draw(mutated(game))
    check_refused_or_whole(case, position)


def test_many_mutations_are_refused_and_by_many_rules() -> None:
    """The mutation test above is not vacuous: most mutations are refused, under many rules."""
    seen: dict[str, int] = {}
    rng = random.Random(5)
    for game in GAMES:
        for case, original in samples(game):
            for _ in range(12):
                position = copy.deepcopy(original)
                path = rng.choice(list(_nodes(position)))
                parent = position
                for part in path[:-1]:
                    parent = parent[part]
                value = parent[path[-1]]
                parent[path[-1]] = value + rng.choice([-1, 1, 5]) if isinstance(value, int) and \
                    not isinstance(value, bool) else "zz"
                rule = check_refused_or_whole(case, position)
                seen[rule] = seen.get(rule, 0) + 1
    refused = sum(count for rule, count in seen.items() if rule != "accepted")
    assert refused > 2 * seen.get("accepted", 0), seen
    assert len(seen) >= 12, seen


def _first(game: str, variant: str, seats: int, want: Any, preset: str = "standard") -> tuple[Case, dict[str, Any]]:
    case = Case(game, variant, seats, preset)
    for seed in range(20):
        played = play(case, seed)
        for index in played.with_positions():
            position = played.position_at(index)
            if position is not None and want(position):
                return case, position
    raise AssertionError(f"no position of {case} as wanted")


def _refused(case: Case, position: dict[str, Any], path: str, rule: str) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as caught:
        normal_position(all_games()[case.game], config_for(case), position)
    assert (caught.value.path, caught.value.rule) == (path, rule), caught.value.message
    assert f"({rule})" in caught.value.message and path in caught.value.message
    return caught.value


def test_carcassonne_positions_are_refused_naming_the_field_and_the_rule() -> None:
    case, position = _first("carcassonne", "big-top", 2, lambda p: p["phase"] == "draw" and len(p["board"]) > 8
                            and p["big_top"] and p["figures"])
    bad = copy.deepcopy(position)
    bad["board"][0]["rotation"] = 1
    _refused(case, bad, "board.0", "CB-1.1")
    last = len(position["board"]) - 1
    bad = copy.deepcopy(position)
    bad["board"][last] = {**bad["board"][last], "x": 150, "y": 150}
    _refused(case, bad, f"board.{last}", "CB-3.1")
    bad = copy.deepcopy(position)
    bad["board"][last] = {**bad["board"][0], "tile": bad["board"][last]["tile"]}
    _refused(case, bad, f"board.{last}", "CB-3.4")
    mismatched = set()
    for index in range(1, len(position["board"])):  # turning a laid tile breaks some edge somewhere
        for turn in (1, 2, 3):
            bad = copy.deepcopy(position)
            bad["board"][index]["rotation"] = (bad["board"][index]["rotation"] + turn) % 4
            try:
                normal_position(all_games()["carcassonne"], config_for(case), bad)
            except InvalidPositionError as error:
                if error.rule == "CB-3.2":
                    assert error.path == f"board.{index}" or int(error.path.split(".")[1]) > index
                    mismatched.add(index)
    assert mismatched
    bad = copy.deepcopy(position)
    bad["to_move"] = (position["to_move"] + 1) % 2
    _refused(case, bad, "to_move", "CB-1.3")
    bad = copy.deepcopy(position)
    bad["turn"] += 1
    _refused(case, bad, "turn", RULE)
    bad = copy.deepcopy(position)
    bad["big_top"]["x"] += 40
    _refused(case, bad, "big_top", "BT-4.3")
    bad = copy.deepcopy(position)
    bad["big_top"]["token"] = "unicorn"
    _refused(case, bad, "big_top.token", RULE)
    bad = copy.deepcopy(position)
    bad["figures"].append(copy.deepcopy(bad["figures"][0]))
    _refused(case, bad, f"figures.{len(position['figures'])}", "CB-4.3")
    bad = copy.deepcopy(position)
    meeple = next(f for f in bad["figures"] if f["figure"] == "meeple")
    bad["figures"] = [*bad["figures"], *({**meeple, "x": t["x"], "y": t["y"], "segment": "zz"} for t in bad["board"])]
    _refused(case, bad, f"figures.{len(position['figures'])}.segment", "CB-4.2")
    bad = copy.deepcopy(position)
    bad["scores"] = [*bad["scores"], 0]
    _refused(case, bad, "scores", RULE)
    _refused(Case("carcassonne", "base", 2), position, _first_expansion(position), "BT-2.1")
    bad = copy.deepcopy(position)
    bad["phase"] = "place"
    _refused(case, bad, "drawn_tile", "CB-2.1")


def _first_expansion(position: dict[str, Any]) -> str:
    """Where the first tile of Under the Big Top lies (a Big Top stands, so a circus tile does)."""
    kinds = {tile.id: tile.kind for tile in all_games()["carcassonne"].default_components().tiles}
    index = next(i for i, tile in enumerate(position["board"]) if kinds[tile["tile"]] != "base")
    return f"board.{index}.tile"


def test_carcassonne_refuses_a_figure_left_on_a_completed_feature_and_too_many_meeples() -> None:
    ruleset = all_games()["carcassonne"]
    case, position = _first("carcassonne", "base", 2, lambda p: p["phase"] == "draw" and len(p["board"]) > 12)
    config = config_for(case)
    state = state_from_position(ruleset, config, position)
    from domain.games.carcassonne.features import explore

    completed = next(((x, y, segment.id) for (x, y), tile in state.board.items() for segment in tile.segments
                      if segment.kind in ("road", "city") and explore(state.board, (x, y, segment.id)).complete),
                     None)
    if completed is not None:
        bad = copy.deepcopy(position)
        bad["figures"] = [{"x": completed[0], "y": completed[1], "segment": completed[2], "seat": 0,
                           "figure": "meeple"}]
        error = _refused_any(case, bad)
        assert error.rule in ("CB-5.2", "CB-5.3") and error.path == "figures.0"
    fields = [(x, y, segment.id) for (x, y), tile in state.board.items() for segment in tile.segments
              if segment.kind == "field"]
    bad = copy.deepcopy(position)
    bad["figures"] = [{"x": x, "y": y, "segment": s, "seat": 1, "figure": "meeple"} for x, y, s in fields[:9]]
    _refused(case, bad, "figures", "CB-4.4")
    bad["figures"] = [{**figure, "figure": "ringmaster"} for figure in bad["figures"][:1]]
    _refused(case, bad, "figures.0.figure", "BT-2.1")


def _refused_any(case: Case, position: dict[str, Any]) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as caught:
        normal_position(all_games()[case.game], config_for(case), position)
    return caught.value


def test_circus_train_positions_are_refused_naming_the_field_and_the_rule() -> None:
    case, position = _first("circus-train", "basic", 3, lambda p: p["week"] > 8 and p["local_news_bag"]
                            and p["players"][0]["discard"] and p["players"][0]["vp"], preset="standard")
    bad = copy.deepcopy(position)
    bad["month"] = "September"
    _refused(case, bad, "month", RULE)
    bad = copy.deepcopy(position)
    bad["week"] = 99
    _refused(case, bad, "week", "CT-6.2")
    bad = copy.deepcopy(position)
    bad["players"][0]["hand"] = [*bad["players"][0]["hand"], bad["players"][0]["discard"][0]]
    _refused(case, bad, "players.0.hand", "CT-7.2")
    bad = copy.deepcopy(position)
    bad["players"][1]["circus"] = [*bad["players"][1]["circus"], *(["elephant"] * 7)]
    _refused(case, bad, "(position)", "CT-14.1")
    bad = copy.deepcopy(position)
    bad["players"][2]["city"] = "atlantis"
    _refused(case, bad, "players.2.city", RULE)
    bad = copy.deepcopy(position)
    bad["players"][0]["reputation"] = 3
    _refused(case, bad, "players.0.reputation", "CT-3.3")
    bad = copy.deepcopy(position)
    bad["local_news_bag"] = [*bad["local_news_bag"], bad["local_news_bag"][0]]
    _refused(case, bad, f"local_news_bag.{len(position['local_news_bag'])}", RULE)
    bad = copy.deepcopy(position)
    bad["event_in_force"] = "heat_wave"
    _refused(case, bad, "event_in_force", "CT-21.18")
    bad = copy.deepcopy(position)
    bad["destination_discard"] = [*bad["destination_discard"], bad["destination_discard"][0]]
    _refused(case, bad, f"destination_discard.{len(position['destination_discard'])}", RULE)
    bad = copy.deepcopy(position)
    bad["destination_discard"] = sorted(card.id for card in all_games()["circus-train"].default_components()
                                        .destination_cards)
    _refused(case, bad, "destination_discard", RULE)
    bad = copy.deepcopy(position)
    bad["first"] = 5
    _refused(case, bad, "first", "CT-7.1")
    _refused(Case("circus-train", "basic", 3, "simpler"), position, "players.0.vp", "CT-21.20")
    _refused(Case("circus-train", "basic", 3, "event-cards"), position, "events_drawn", "CT-21.18")


def test_dicevote_positions_are_refused_naming_the_field_and_the_rule() -> None:
    case, position = _first("test-dicevote", "standard", 2, lambda p: p["phase"] == "turn" and p["deck"])
    bad = copy.deepcopy(position)
    bad["votes"] = ["high", "low"]
    _refused(case, bad, "votes", "TG-2.1")
    bad["phase"] = "vote"
    bad["to_move"] = None
    _refused(case, bad, "votes", "TG-2.1")
    bad = copy.deepcopy(position)
    bad["hands"][0] = bad["hands"][0][:1]
    _refused(case, bad, "hands.0", "TG-1.2")
    bad = copy.deepcopy(position)
    bad["deck"] = [*bad["deck"], 6, 6, 6]
    _refused(case, bad, "deck", RULE)
    bad = copy.deepcopy(position)
    bad["round"] = 9
    _refused(case, bad, "round", RULE)
    _refused(case, {**position, "colour": "red"}, "colour", RULE)
    _refused(case, ["not", "an", "object"], "(position)", RULE)


def test_the_examples_in_docs_positions_are_valid_positions_in_normal_form() -> None:
    text = (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")
    examples = re.findall(r"<!-- position: (\S+) (\S+) (\d+) -->\n```json\n(.*?)```", text, re.S)
    assert {game for game, *_ in examples} == set(GAMES)
    for game, variant, seats, body in examples:
        ruleset = all_games()[game]
        position = json.loads(body)
        assert normal_position(ruleset, config_for(Case(game, variant, int(seats))), position) == position


# ==== hidden information =================================================================================
def test_what_a_viewer_cannot_tell_apart_gives_it_the_same_position() -> None:
    """Counterfactually, as the bot check does: at positions along bot matches, the latest hidden
    draws and secret moves are varied; every alternative that looks the same to a viewer (its view
    unchanged) must give that viewer the same position."""
    compared: dict[str, int] = {}
    for case in [Case("carcassonne", "big-top", 3), Case("test-dicevote", "standard", 3),
                 Case("test-dicevote", "standard", 2), Case("circus-train", "basic", 2, "all-optional")]:
        ruleset = all_games()[case.game]
        played = play(case, 3)
        trail: list[Step] = []
        pending: dict[int, int] = {}
        rng = random.Random(9)
        for index, (seat, data) in enumerate(played.steps):
            state = played.states[index]
            position = played.position_at(index)
            if position is not None and index % 3 == 0:
                for viewer in viewers(case.seats):
                    if viewer.kind == "seat":
                        assert viewer.seat is not None
                        hidden = hidden_from(trail, pending, viewer.seat)
                    else:
                        hidden = sorted([i for i, step in enumerate(trail) if step.seat is None
                                         and step.decision.chance is not None
                                         and step.decision.chance.visible_to != "all"] + list(pending))
                    seen, shown = ruleset.view(state, viewer), ruleset.hide_position(position, viewer)
                    for _, other in counterfactual_states(ruleset, trail, hidden[-2:], rng):
                        if other is None or ruleset.view(other, viewer) != seen:
                            continue
                        try:
                            alternative = ruleset.position_of(other)
                        except PositionUnavailableError:
                            continue
                        assert ruleset.hide_position(alternative, viewer) == shown, \
                            f"{case}, step {index}: {viewer} can tell hidden information from the position"
                        compared[case.game] = compared.get(case.game, 0) + (alternative != position)
            decision = played.decisions[index]
            trail.append(Step(state, decision, seat, data))
            if seat is not None and decision.secret:
                pending[len(trail) - 1] = seat
                if secret_group_complete(decision, ruleset.decision(played.states[index + 1]),
                                         set(pending.values())):
                    pending = {}
    assert compared.get("carcassonne", 0) > 0 and compared.get("test-dicevote", 0) > 0, compared


def test_the_hidden_parts_of_each_games_positions_are_hidden_from_seats_and_spectators() -> None:
    ruleset = all_games()["carcassonne"]
    _, position = _first("carcassonne", "big-top", 2, lambda p: p["big_top"] and p["big_top"]["token"])
    for viewer in viewers(2):
        assert ruleset.hide_position(position, viewer)["big_top"]["token"] == "face-down"
    assert ruleset.hide_position(position, Viewer.arbiter()) == position
    assert position_hides(ruleset, position, 2)
    ruleset = all_games()["circus-train"]
    _, position = _first("circus-train", "basic", 2, lambda p: bool(p["local_news_bag"]), preset="event-cards")
    for viewer in viewers(2):
        shown = ruleset.hide_position(position, viewer)
        assert shown["local_news_bag"] == {"count": len(position["local_news_bag"])}
        assert shown["events_left"] == {"count": len(position["events_left"])}
        assert {k: v for k, v in shown.items() if k not in ("local_news_bag", "events_left")} == \
            {k: v for k, v in position.items() if k not in ("local_news_bag", "events_left")}
    ruleset = all_games()["test-dicevote"]
    _, position = _first("test-dicevote", "standard", 3, lambda p: p["phase"] == "vote" and any(p["votes"]))
    for seat in range(3):
        shown = ruleset.hide_position(position, Viewer.of_seat(seat))
        assert shown["hands"][seat] == position["hands"][seat] and shown["votes"][seat] == position["votes"][seat]
        for other in set(range(3)) - {seat}:
            assert shown["hands"][other] == {"count": len(position["hands"][other])}
            assert shown["votes"][other] == (None if position["votes"][other] is None else "cast")
        assert shown["deck"] == {"count": len(position["deck"])}


# ==== the record ===========================================================================================
def _open(path: Path, store: str | None = None) -> Ringside:
    return Ringside.open(data_dir=path, store=store, key=KEY, clock=FixedStepClock())


def _play_bots(app: Ringside, match_id: UUID) -> None:
    step = 0
    while app.play_bot(match_id, seed=step) is not None:
        step += 1
        assert step < 5000


def _position_seq(app: Ringside, match_id: UUID, where: float = 0.5) -> int:
    """An event of the match after which a position is available, near `where` of the way."""
    head = app.fold(match_id).seq
    order = sorted(range(1, head + 1), key=lambda seq: abs(seq - where * head))
    for seq in order:
        try:
            position_view(app.fold(match_id, seq), Viewer.arbiter())
        except PositionUnavailableError:
            continue
        return seq
    raise AssertionError("no position anywhere in the match")


def _feed(app: Ringside, source: UUID, target: UUID, after: int) -> None:
    """The source's effective moves and outcomes after event `after`, entered into the target (a
    recorded-randomness match): by the seats' bots and by a recorder."""
    for step in app.fold(source).steps:
        if step.seq <= after:
            continue
        if step.kind == "chance":
            app.submit_outcome(target, step.data, actor=Actor("recorder"))
        else:
            assert step.seat is not None
            app.submit_move(target, step.seat, step.data, actor=Actor("bot", step.seat, "replay"))


def _resigned(text: str, change_header: Any, key: ServerKey) -> str:
    """A bundle whose header was changed, with its trailer signed again (by the record's key)."""
    lines = text.encode("utf-8").split(b"\n")[:-1]
    header = json.loads(lines[0])
    change_header(header)
    lines[0] = encode(header)
    body = b"".join(line + b"\n" for line in lines[:-1])
    sha = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": sha, "key": key.key_id, "sig": key.sign(sha.encode("ascii"))}
    return (body + encode(trailer) + b"\n").decode("utf-8")


RECORD_CASES = [Case("test-dicevote", "standard", 3), Case("carcassonne", "big-top", 2),
                Case("circus-train", "advanced", 3, "all-optional"), Case("circus-train", "solitaire", 1)]


@pytest.mark.parametrize("case", RECORD_CASES, ids=str)
def test_a_match_from_a_position_ends_as_the_original_through_the_record(case: Case, tmp_path: Path) -> None:
    app = _open(tmp_path / "a")
    try:
        players = [f"P{seat}" for seat in range(case.seats)]
        original = app.create_match(case.game, players, variant=case.variant, options=case.options,
                                    seed="ab" * 32).receipt.match_id
        source = UUID(original)
        _play_bots(app, source)
        at = _position_seq(app, source)
        view = position_view(app.fold(source, at), Viewer.arbiter())
        created = app.create_match(case.game, players, variant=view["variant"], options=view["options"],
                                   randomness="recorded", position=view["position"])
        target = UUID(created.receipt.match_id)
        _feed(app, source, target, at)
        ended, expected = app.fold(target).end, app.fold(source).end
        assert ended is not None and expected is not None
        assert ended["scores"]["totals"] == expected["scores"]["totals"]
        assert ended["result"] == expected["result"]
        if case.seats > 1:  # solitaire scores money, which needs no line of its own
            carried = [sum(line["points"] for line in ended["scores"]["lines"]
                           if line["rule"] == "POSITION" and line["seat"] == seat) for seat in range(case.seats)]
            assert carried == app.score(source, at)["totals"]
        report = app.verify_match(target)
        assert report.ok, report.summary()
        summary = app.summary(target)
        assert summary["setup"] == "position" and app.summary(source)["setup"] == "standard"
        listed = {row["match_id"]: row for row in app.list_matches()}
        assert listed[str(target)]["setup"] == "position" and listed[original]["setup"] == "standard"
        text = app.export_bundle(target)
        header = json.loads(text.split("\n", 1)[0])
        assert header["setup"] == "position"
        assert "setup" not in json.loads(app.export_bundle(source).split("\n", 1)[0])
        standalone = ringside_verify.verify(text.encode("utf-8"), trusted=[KEY.public_hex])
        assert standalone.ok, standalone.summary()
        other = _open(tmp_path / "b")
        try:
            assert other.import_bundle(text) == target
            assert [e.hash for e in other.entries(target)] == [e.hash for e in app.entries(target)]
            assert other.export_bundle(target).split("\n")[1:-2] == text.split("\n")[1:-2]
            assert other.summary(target)["setup"] == "position"
        finally:
            other.close()
    finally:
        app.close()


def test_a_match_from_a_position_with_server_randomness_verifies_with_its_salt(app: Ringside) -> None:
    """On every store: drawn from the committed seed, ended, the seed revealed; the created event's
    salt is the one the seed derives, and a record whose salt is wrong or missing fails there."""
    case, position = _first("test-dicevote", "standard", 2, lambda p: p["phase"] == "turn" and p["round"] == 2)
    accepted = app.create_match(case.game, ["ann", "bob"], options=case.options, position=position)
    match_id = UUID(accepted.receipt.match_id)
    created = app.entries(match_id, 1, 1)[0]
    assert created.payload["position"] == position and len(created.payload["salt"]) == 32
    _play_bots(app, match_id)
    report = app.verify_match(match_id)
    assert report.ok, report.summary()
    assert app.list_matches()[0]["setup"] == "position"
    text = app.export_bundle(match_id)
    for change in (lambda entries: entries[0]["payload"].update(salt="0" * 32),
                   lambda entries: entries[0]["payload"].pop("salt")):
        forged = verify_bundle(reforge(text, change, app.key), trust=app.trust())
        assert not forged.ok and forged.divergence is not None
        assert (forged.divergence.check, forged.divergence.seq) == ("seed", 1), forged.summary()


def test_a_record_whose_position_or_setup_mark_was_changed_fails_verification(sqlite_app: Ringside) -> None:
    app = sqlite_app
    _, position = _first("carcassonne", "base", 2, lambda p: p["phase"] == "draw" and len(p["board"]) > 5)
    match_id = UUID(app.create_match("carcassonne", ["a", "b"], variant="base", position=position).receipt.match_id)
    text = app.export_bundle(match_id)

    def wrong_turn(entries: list[dict[str, Any]]) -> None:
        entries[0]["payload"]["position"]["to_move"] = 1 - entries[0]["payload"]["position"]["to_move"]

    forged = verify_bundle(reforge(text, wrong_turn, app.key), trust=app.trust())
    assert forged.divergence is not None and (forged.divergence.check, forged.divergence.seq) == ("header", 1)
    assert "position to_move" in forged.divergence.message and "CB-1.3" in forged.divergence.message
    unmarked = _resigned(text, lambda header: header.pop("setup"), app.key)
    for report in (verify_bundle(unmarked, trust=app.trust()).to_json(),
                   ringside_verify.verify(unmarked.encode(), trusted=[app.key.public_hex]).to_json()):
        assert report["divergence"]["check"] == "header" and report["divergence"]["seq"] == 1, report["summary"]
    standard = UUID(app.create_match("carcassonne", ["a", "b"], variant="base").receipt.match_id)
    marked = _resigned(app.export_bundle(standard), lambda header: header.update(setup="position"), app.key)
    for report in (verify_bundle(marked, trust=app.trust()).to_json(),
                   ringside_verify.verify(marked.encode(), trusted=[app.key.public_hex]).to_json()):
        assert report["divergence"]["check"] == "header" and report["divergence"]["seq"] == 1, report["summary"]
    assert ringside_verify.verify(text.encode(), trusted=[app.key.public_hex]).ok


def test_an_invalid_position_is_refused_and_nothing_is_recorded(sqlite_app: Ringside) -> None:
    app = sqlite_app
    _, position = _first("test-dicevote", "standard", 2, lambda p: p["phase"] == "turn")
    for bad, path in (({**position, "votes": ["high", "low"]}, "votes"), ({**position, "zz": 1}, "zz"),
                      ("a string", "(position)"), ({**position, "scores": [1]}, "scores")):
        with pytest.raises(InvalidPositionError) as caught:
            app.create_match("test-dicevote", ["a", "b"], position=bad)
        assert caught.value.path == path
    with pytest.raises(InvalidPositionError):
        app.create_match("carcassonne", ["a", "b"], position=position)
    with pytest.raises(InvalidPositionError):  # three seats, a position of two
        app.create_match("test-dicevote", ["a", "b", "c"], position=position)
    assert app.list_matches() == []


def test_hidden_parts_of_a_position_stay_hidden_in_logs_forks_and_views(sqlite_app: Ringside) -> None:
    app = sqlite_app
    _, position = _first("carcassonne", "big-top", 2, lambda p: p["phase"] == "draw" and p["big_top"]
                         and p["big_top"]["token"])
    token = position["big_top"]["token"]
    match_id = UUID(app.create_match("carcassonne", ["a", "b"], position=position).receipt.match_id)
    fork_id = UUID(app.fork(match_id, 1).receipt.match_id)
    for subject in (match_id, fork_id):
        for viewer in viewers(2):
            created = app.log(subject, viewer, 1, 1)[0]
            assert created["redacted"] is True and "salt" not in created["payload"]
            assert created["payload"]["position"]["big_top"]["token"] == "face-down"
            assert token not in json.dumps(app.state(subject, viewer))
            assert position_view(app.fold(subject), viewer)["position"]["big_top"]["token"] == "face-down"
        whole = app.log(subject, Viewer.arbiter(), 1, 1)[0]
        assert whole["payload"]["position"]["big_top"]["token"] == token and "salt" in whole["payload"]
        assert "redacted" not in whole
    assert app.sealed_by(fork_id) == str(match_id)
    _play_bots(app, match_id)
    assert app.sealed_by(fork_id) is None
    _, hands = _first("test-dicevote", "standard", 2, lambda p: p["phase"] == "turn" and p["deck"])
    dice = UUID(app.create_match("test-dicevote", ["a", "b"], position=hands).receipt.match_id)
    mine = app.log(dice, Viewer.of_seat(0), 1, 1)[0]["payload"]["position"]
    assert mine["hands"] == [hands["hands"][0], {"count": len(hands["hands"][1])}]
    assert mine["deck"] == {"count": len(hands["deck"])}
    assert app.log(dice, Viewer.spectator(), 1, 1)[0]["payload"]["position"]["hands"] == \
        [{"count": len(hand)} for hand in hands["hands"]]


# ==== over real HTTP and through the CLI ===================================================================
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("positions-api") / "data").start()
    yield running
    running.stop()


def test_positions_over_http(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        detail = client.get("/games/carcassonne").json()
        assert detail["position_schema"]["title"] == "CarcassonnePosition"
        match = create(client, "test-dicevote", ["ann", "bob"])
        early = client.get(match.path("/position"), params={"at": 1}, headers=bearer(match.arbiter))
        assert early.status_code == 409 and early.json()["code"] == "no-position", early.text
        assert "event 1" in early.json()["detail"]
        position = None
        for _ in range(10):
            answer = client.get(match.path("/position"), headers=bearer(match.arbiter))
            if answer.status_code == 200:
                position = answer.json()
                break
            decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
            seat = decision["decision"]["seats"][0]
            move = decision["legal_moves"][str(seat)][0]
            assert client.post(match.path("/moves"), headers=bearer(match.seat(seat)),
                               json={"move": move}).status_code == 200
        assert position is not None and position["viewer"] == "arbiter"
        body = {"game": "test-dicevote", "players": ["cy", "di"], "options": position["options"],
                "position": position["position"]}
        made = client.post("/matches", json=body)
        assert made.status_code == 201, made.text
        new = made.json()
        assert new["summary"]["setup"] == "position" and new["summary"]["official"] is True
        path = f"/matches/{new['match_id']}"
        seat_zero = client.get(path + "/position", headers=bearer(new["tokens"]["seats"][0]["token"])).json()
        hands = position["position"]["hands"]
        assert seat_zero["viewer"] == "seat:0"
        assert seat_zero["position"]["hands"] == [hands[0], {"count": len(hands[1])}]
        spectator = client.get(path + "/position").json()["position"]
        assert spectator["hands"] == [{"count": len(hand)} for hand in hands]
        created = client.get(path + "/events", params={"start": 1, "limit": 1}).json()["events"][0]
        assert created["redacted"] is True and "salt" not in created["payload"]
        assert created["payload"]["position"]["deck"] == {"count": len(position["position"]["deck"])}
        listed = {row["match_id"]: row for row in client.get("/matches").json()["matches"]}
        assert listed[new["match_id"]]["setup"] == "position" and listed[match.id]["setup"] == "standard"
        bundle = client.get(path + "/bundle", headers=bearer(new["tokens"]["arbiter"]))
        assert json.loads(bundle.text.split("\n", 1)[0])["setup"] == "position"
        refused = client.post("/matches", json={**body, "position": {**body["position"], "votes": ["low", "high"]}})
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert (problem["code"], problem["path"], problem["rule"]) == ("invalid-position", "votes", "TG-2.1")
        assert client.get("/matches").json()["matches"][0]["match_id"] == new["match_id"]  # nothing recorded


def _cli(tmp_path: Path, *args: str, code: int | None = 0,
         stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "RINGSIDE_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": PYTHONPATH,
           "RINGSIDE_ARBITER": "tester", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "replay_cli", *args], input=stdin, text=True, capture_output=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert code is None or done.returncode == code, \
        f"ringside {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def test_positions_through_the_cli(tmp_path: Path) -> None:
    match_id = json.loads(_cli(tmp_path, "new", "test-dicevote", "-p", "ann", "-p", "bob", "--json").stdout)["match_id"]
    _cli(tmp_path, "play", match_id, "--watch", "-q")
    missing = _cli(tmp_path, "position", match_id, "--at", "1", code=1)
    assert "no position after event 1" in missing.stderr
    head = json.loads(_cli(tmp_path, "show", match_id, "--json").stdout)["seq"]
    at = next(seq for seq in range(2, head) if json.loads(_cli(
        tmp_path, "position", match_id, "--at", str(seq), "--as", "arbiter", "--json", code=None).stdout or "null"))
    done = _cli(tmp_path, "position", match_id, "--at", str(at), "--as", "arbiter", "-o", "start.json")
    assert "start.json" in done.stdout and "--position" in done.stdout
    written = json.loads((tmp_path / "start.json").read_text())
    assert written == json.loads(_cli(tmp_path, "position", match_id, "--at", str(at), "--as", "arbiter").stdout)
    new = json.loads(_cli(tmp_path, "new", "test-dicevote", "-p", "cy", "-p", "di", "--position", "start.json",
                          "--json").stdout)["match_id"]
    piped = json.loads(_cli(tmp_path, "new", "test-dicevote", "-p", "cy", "-p", "di", "--position", "-", "--json",
                            stdin=json.dumps(written)).stdout)["match_id"]
    listing = _cli(tmp_path, "matches").stdout
    assert listing.count("(from a position)") == 2, listing
    rows = {row["match_id"]: row for row in json.loads(_cli(tmp_path, "matches", "--json").stdout)}
    assert rows[new]["setup"] == rows[piped]["setup"] == "position" and rows[match_id]["setup"] == "standard"
    seat = json.loads(_cli(tmp_path, "position", new, "--as", "seat:1", "--json").stdout)["position"]
    assert seat["hands"][0] == {"count": len(written["hands"][0])} and seat["hands"][1] == written["hands"][1]
    _cli(tmp_path, "play", new, "--watch", "-q")
    assert "VERIFIED" in _cli(tmp_path, "verify", new).stdout
    _cli(tmp_path, "export", new, "-o", "new.ringside.jsonl")
    assert json.loads((tmp_path / "new.ringside.jsonl").read_text().split("\n", 1)[0])["setup"] == "position"
    shown = json.loads(_cli(tmp_path, "position", "new.ringside.jsonl", "--at", "1", "--json").stdout)
    assert shown["position"]["deck"] == {"count": len(written["deck"])}
    (tmp_path / "bad.json").write_text(json.dumps({**written, "round": 99}))
    bad = _cli(tmp_path, "new", "test-dicevote", "-p", "x", "-p", "y", "--position", "bad.json", code=2)
    assert "invalid position: round:" in bad.stderr and "(POSITION Starting from a position)" in bad.stderr
    assert len(json.loads(_cli(tmp_path, "matches", "--json").stdout)) == 3
