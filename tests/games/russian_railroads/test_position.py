"""Russian Railroads positions (docs/positions.md): the round trip from bot-played tables, matches
that go on from a position exactly as the originals, refusals naming the RR rule, and the hidden
parts. The game is not registered yet, so the ruleset is called directly (the conformance suite
picks it up once it is)."""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from domain.games.russian_railroads.position import (
    RussianRailroadsPosition,
    from_position,
    hide_position,
    position_of,
)
from domain.games.russian_railroads.rules import RussianRailroadsRules
from domain.games.russian_railroads.state import State
from domain.kernel.canonical import JSON, encode
from domain.kernel.contract import MatchConfig
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, normal_position, position_hides, position_line
from domain.kernel.viewers import Viewer

RULES = RussianRailroadsRules()
ROOT = Path(__file__).resolve().parents[3]


def config(seats: int, preset: str = "standard") -> MatchConfig[State]:
    return MatchConfig("standard", RULES.parse_options(RULES.option_presets()[preset]), seats,
                       RULES.default_components())


@dataclass
class Played:
    """A random-bot match: the state before each step, and the step (a seat's move or an outcome)."""

    config: MatchConfig[State]
    states: list[State] = field(default_factory=list)
    steps: list[tuple[int | None, Any]] = field(default_factory=list)

    def positions(self) -> list[int]:
        found = []
        for index, state in enumerate(self.states):
            try:
                position_of(state)
            except PositionUnavailableError:
                continue
            found.append(index)
        return found


def play(seats: int, seed: int, preset: str = "standard") -> Played:
    rng = random.Random(seed)
    played = Played(config(seats, preset))
    state = RULES.setup(played.config)
    while not (decision := RULES.decision(state)).over:
        played.states.append(state)
        if decision.chance is not None:
            outcome = decision.chance.pick(rng.randrange(decision.chance.total_weight()))
            played.steps.append((None, outcome))
            state = RULES.resolve(state, outcome)
        else:
            seat = decision.seats[0]
            move = RULES.random_bot(state, seat, rng)
            played.steps.append((seat, move))
            state = RULES.apply(state, seat, move)
    played.states.append(state)
    return played


def build(played_config: MatchConfig[State], position: dict[str, Any]) -> State:
    return from_position(RULES.setup(played_config), RussianRailroadsPosition.model_validate(position))


def carried(original: State, position: dict[str, Any]) -> State:
    """The original state with its score history before the position carried as POSITION lines,
    as a match from the position holds it (every other field is the table itself)."""
    lines = tuple(line for line in (position_line(seat, points) for seat, points in enumerate(position["scores"]))
                  if line.points)
    return replace(original, lines=lines)


MATCHES = [(2, 4), (3, 1), (4, 0), (2, 7, "industry-gap-a"), (3, 2, "engineers-unlimited")]


@pytest.fixture(scope="module")
def matches() -> list[Played]:
    return [play(*case) for case in MATCHES]  # type: ignore[arg-type]


# ---- the round trip -----------------------------------------------------------------------------


def test_every_position_of_bot_matches_builds_the_very_state_and_is_in_normal_form(matches: list[Played]) -> None:
    checked = 0
    for played in matches:
        for index in played.positions():
            state = played.states[index]
            position = position_of(state)
            assert json.loads(encode(position)) == position  # canonical JSON
            built = build(played.config, position)
            assert position_of(built) == position
            assert normal_position(RULES, played.config, position) == position
            assert RULES.state_hash(built) == RULES.state_hash(carried(state, position))
            assert [line.points for line in RULES.score(built).lines if line.seat == 0] == \
                ([position["scores"][0]] if position["scores"][0] else [])
            checked += 1
    assert checked > 300


def _continue(played: Played, start: int) -> int:
    """From the position before step `start`, feed the original's steps: the same decisions, legal
    moves and state (hash) after every one, to the end and the same final totals."""
    position = position_of(played.states[start])
    state = build(played.config, position)
    for index in range(start, len(played.steps)):
        original = played.states[index]
        expected = carried(original, position)
        expected = replace(expected, lines=(*expected.lines, *original.lines[len(played.states[start].lines):]))
        assert RULES.state_hash(state) == RULES.state_hash(expected), f"step {index}: the state differs"
        decision = RULES.decision(state)
        assert decision == RULES.decision(original), f"step {index}: another decision"
        seat, data = played.steps[index]
        if seat is None:
            state = RULES.resolve(state, data)
        else:
            assert RULES.legal_moves(state, seat) == RULES.legal_moves(original, seat)
            state = RULES.apply(state, seat, data)
    assert RULES.decision(state).over
    assert RULES.score(state).totals() == RULES.score(played.states[-1]).totals()
    return len(played.steps) - start


def test_matches_from_their_first_middle_and_last_positions_continue_as_the_originals(matches: list[Played]) -> None:
    for played in matches:
        found = played.positions()
        for start in (found[0], found[len(found) // 2], found[-1]):
            assert _continue(played, start) >= 1


def test_a_match_from_a_mid_round_position_with_tokens_and_bonus_cards_continues_as_the_original(
        matches: list[Played]) -> None:
    played = matches[0]
    start = next(index for index in played.positions()
                 if (p := position_of(played.states[index]))["placements"]
                 and any(x["tokens"] for x in p["players"]) and any(x["bonus_cards"] for x in p["players"]))
    assert _continue(played, start) > 5


def test_no_position_during_setup_in_the_middle_of_an_action_or_after_the_game(matches: list[Played]) -> None:
    played = matches[1]
    setup = RULES.setup(played.config)
    with pytest.raises(PositionUnavailableError, match="between two turns"):
        position_of(setup)
    mid = next(state for state in played.states if state.round and state.agenda[0].kind != "turn")
    with pytest.raises(PositionUnavailableError, match="between two turns"):
        position_of(mid)
    with pytest.raises(PositionUnavailableError, match="over"):
        position_of(played.states[-1])


# ---- refusals -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample(matches: list[Played]) -> tuple[MatchConfig[State], dict[str, Any]]:
    """A 2-player position of round 5 (seed 4, before step 104): seat 0 to move; seat 1 has used
    tokens T7 and T3 (a second industry marker, final bonus card B10) and owns the C3 engineer E6."""
    played = matches[0]
    for index in played.positions():
        position = position_of(played.states[index])
        players = position["players"]
        if position["round"] >= 3 and position["placements"] and any(len(p["markers"]) == 2 for p in players) \
                and any(p["bonus_cards"] for p in players) and any("brown" in p["tracks"]["kiev"] for p in players):
            assert (index, position["round"], position["to_move"]) == (104, 5, 0)
            return played.config, position
    raise AssertionError("no such position")


def refused(cfg: MatchConfig[State], position: Any, path: str, rule: str) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as caught:
        normal_position(RULES, cfg, position)
    error = caught.value
    assert (error.path, error.rule) == (path, rule), error.message
    assert error.message.startswith(f"position {path}: ") and error.message.endswith(f"({rule})")
    return error


def changed(position: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(position)
    out.update(changes)
    return out


def test_rr_6_4_grey_never_reaches_or_passes_black(sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    black = bad["players"][1]["tracks"]["kiev"]["black"]
    bad["players"][1]["tracks"]["kiev"]["grey"] = black
    refused(cfg, bad, "players.1.tracks.kiev.grey", "RR-0.3")  # the same space first
    bad["players"][1]["tracks"]["kiev"]["grey"] = black + 1
    refused(cfg, bad, "players.1.tracks.kiev.grey", "RR-6.4")
    bad["players"][1]["tracks"]["kiev"] = {"black": 10, "grey": 0, "brown": 0}
    refused(cfg, bad, "players.1.tracks.kiev.black", "RR-6.4")  # Kiev has 9 spaces


def test_rr_6_1_a_colour_the_railway_does_not_use_and_rr_2_13_black_from_space_1(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    bad["players"][0]["tracks"]["kiev"]["beige"] = 0
    refused(cfg, bad, "players.0.tracks.kiev.beige", "RR-6.1")
    bad = copy.deepcopy(position)
    bad["players"][0]["tracks"]["kiev"]["pink"] = 0
    refused(cfg, bad, "players.0.tracks.kiev.pink", "RR-0.2")
    bad = copy.deepcopy(position)
    del bad["players"][0]["tracks"]["st_petersburg"]["black"]
    refused(cfg, bad, "players.0.tracks.st_petersburg.black", "RR-2.13")


def test_rr_6_7_colours_come_with_their_trans_siberian_space(sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    seat = next(s for s, p in enumerate(position["players"]) if "brown" in p["tracks"]["kiev"])
    bad = copy.deepcopy(position)
    del bad["players"][seat]["tracks"]["kiev"]["brown"]  # brown on two railways of three
    refused(cfg, bad, f"players.{seat}.tracks", "RR-6.7")
    bad = copy.deepcopy(position)
    bad["players"][seat]["claimed"] = [c for c in bad["players"][seat]["claimed"] if c != "trans_siberian:6"]
    error = refused(cfg, bad, f"players.{seat}.tracks", "RR-6.7")
    assert "space 6 of the Trans-Siberian" in error.reason


def test_rr_13_1_one_time_spaces_are_gained_when_reached_and_only_then(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    bad["players"][0]["claimed"] = [*bad["players"][0]["claimed"], "kiev:7"]  # its black track is on 3
    refused(cfg, bad, "players.0.claimed.1", "RR-13.1")
    bad = copy.deepcopy(position)
    bad["players"][1]["claimed"] = ["trans_siberian:2", "st_petersburg:6", "trans_siberian:6"]
    refused(cfg, bad, "players.1.claimed", "RR-13.9")  # black on SP 8 with a #6 reached the token space 4
    bad = copy.deepcopy(position)
    bad["players"][1]["claimed"] = [*bad["players"][1]["claimed"], "trans_siberian:2"]
    refused(cfg, bad, "players.1.claimed.4", "RR-13.1")


def test_rr_13_11_one_token_per_token_space_and_rr_19_4_the_second_marker_comes_with_t3(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    seat = next(s for s, p in enumerate(position["players"]) if len(p["markers"]) == 2)
    bad = copy.deepcopy(position)
    bad["players"][seat]["tokens"] = [t for t in bad["players"][seat]["tokens"] if t != "T3"] + ["T2"]
    refused(cfg, bad, f"players.{seat}.markers", "RR-19.4")
    bad = copy.deepcopy(position)
    bad["players"][seat]["tokens"] = [*bad["players"][seat]["tokens"], bad["players"][seat]["tokens"][0]]
    refused(cfg, bad, f"players.{seat}.tokens.{len(position['players'][seat]['tokens'])}", "RR-13.11")
    bad = copy.deepcopy(position)
    bad["players"][seat]["tokens"] = [*bad["players"][seat]["tokens"], "T9"]
    refused(cfg, bad, f"players.{seat}.tokens.{len(position['players'][seat]['tokens'])}", "RR-19.1")
    bad = copy.deepcopy(position)
    bad["players"][seat]["revalued"] = not bad["players"][seat]["revalued"]
    refused(cfg, bad, f"players.{seat}.revalued", "RR-19.6")


def test_rr_7_3_no_more_locomotives_than_slots_and_rr_3_2_no_more_than_the_game_has(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    bad["players"][0]["locomotives"]["kiev"] = [5, 6]
    refused(cfg, bad, "players.0.locomotives.kiev", "RR-7.3")
    bad["players"][0]["locomotives"]["kiev"] = [10]
    refused(cfg, bad, "players.0.locomotives.kiev.0", "RR-1.2")
    bad = copy.deepcopy(position)
    bad["stacks"]["8"] += 3  # 2 players: 4 - 2 of each value are in the game (RR-3.7)
    error = refused(cfg, bad, "stacks.8", "RR-1.2")
    assert "2 #8 locomotives are in this game (2 went back to the box" in error.reason
    bad = copy.deepcopy(position)
    bad["players"][0]["factories"] = [None, *bad["players"][0]["factories"][:-1]]
    refused(cfg, bad, "players.0.factories.1", "RR-8.4")


def test_rr_0_8_too_many_workers_and_rr_10_12_two_temporary_workers(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    bad["players"][1]["workers"] += 1
    error = refused(cfg, bad, "players.1.workers", "RR-0.8")
    assert "8 own workers" in error.reason
    bad = copy.deepcopy(position)
    bad["players"][0]["temporary"] = 2
    bad["players"][1]["temporary"] = 2
    refused(cfg, bad, "players", "RR-10.12")
    bad = copy.deepcopy(position)
    bad["players"][0]["reserve"] = 1
    refused(cfg, bad, "players.0.reserve", "RR-13.12")


def test_rr_20_3_the_black_worker_is_with_the_player_who_took_card_c2(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    assert "C2" in position["face_up_cards"]
    taken = copy.deepcopy(position)
    taken["face_up_cards"] = [c for c in position["face_up_cards"] if c != "C2"]
    taken["players"][0]["black_worker"] = True
    taken["players"][0]["black_in_supply"] = True
    assert normal_position(RULES, cfg, taken) == taken  # accepted: seat 0, to move, may place it now
    state = build(cfg, taken)
    assert any(getattr(m, "black", 0) == 1 for m in RULES.legal_moves(state, 0))
    bad = copy.deepcopy(taken)
    bad["players"][1]["black_worker"] = True
    refused(cfg, bad, "players.1.black_in_supply", "RR-20.3")
    bad["players"][1]["black_in_supply"] = True
    refused(cfg, bad, "players.1.black_worker", "RR-20.3")
    refused(cfg, changed(taken, face_up_cards=position["face_up_cards"]), "face_up_cards", "RR-20.1")


def test_unknown_and_duplicate_engineers_and_the_strip_of_the_round(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    bad = copy.deepcopy(position)
    bad["players"][0]["engineers"] = ["E99"]
    refused(cfg, bad, "players.0.engineers.0", RULE)
    bad = copy.deepcopy(position)
    unseen = position["unseen_engineers"][0]
    bad["players"][0]["engineers"] = [unseen]
    refused(cfg, bad, "unseen_engineers.0", RULE)
    bad = copy.deepcopy(position)
    bad["unseen_engineers"] = bad["unseen_engineers"][1:]
    refused(cfg, bad, "unseen_engineers", "RR-2.8")
    bad = copy.deepcopy(position)
    bad["engineer_strip"] = [unseen, *bad["engineer_strip"][1:]]  # round >= 3: the leftmost spaces are empty
    refused(cfg, bad, "engineer_strip.0", "RR-15.4")
    bad = copy.deepcopy(position)
    owner = next(s for s, p in enumerate(position["players"]) if "E6" in p["engineers"])
    bad["players"][owner]["engineers"] = [e for e in bad["players"][owner]["engineers"] if e != "E6"]
    refused(cfg, bad, "face_up_cards", "RR-20.4")


def test_rr_21_1_every_final_bonus_card_once_and_rr_2_3_two_removed(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    seat = next(s for s, p in enumerate(position["players"]) if p["bonus_cards"])
    bad = copy.deepcopy(position)
    bad["bonus_deck"] = sorted([*bad["bonus_deck"], position["players"][seat]["bonus_cards"][0]])
    error = refused(cfg, bad, f"players.{seat}.bonus_cards.0", "RR-21.1")
    assert "two places" in error.reason
    bad = copy.deepcopy(position)
    bad["removed_bonus"] = bad["removed_bonus"][:1]
    refused(cfg, bad, "removed_bonus", "RR-2.3")
    bad = copy.deepcopy(position)
    bad["bonus_deck"] = bad["bonus_deck"][1:]
    refused(cfg, bad, "bonus_deck", "RR-21.1")


def test_the_round_turn_order_and_whose_turn(sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    refused(cfg, changed(position, round=7), "round", "RR-3.1")
    refused(cfg, changed(position, turn_order=[1, 1]), "turn_order", "RR-2.18")
    bad = changed(position, to_move=1)
    bad["players"][1]["passed"] = True
    refused(cfg, bad, "to_move", "RR-12.3")
    bad["to_move"] = 0
    assert normal_position(RULES, cfg, bad) == bad
    refused(cfg, changed(position, scores=[0]), "scores", RULE)
    refused(cfg, changed(position, colour="red"), "colour", RULE)
    refused(cfg, changed(position, multipliers_left=position["multipliers_left"] + 1), "multipliers_left", "RR-1.4")


def test_placements_rr_5_3_occupied_once_and_rr_5_2_paid_in_full(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    cfg, position = sample
    placements = position["placements"]
    single = next(i for i, p in enumerate(placements) if p["space"] != "black_or_grey")
    bad = changed(position, placements=[*placements, placements[single]])
    refused(cfg, bad, f"placements.{len(placements)}.space", "RR-5.3")
    bad = copy.deepcopy(position)
    bad["placements"][single]["rubles"] += 1
    refused(cfg, bad, f"placements.{single}", "RR-5.2")
    bad = copy.deepcopy(position)
    bad["placements"][single]["space"] = "E2"
    refused(cfg, bad, f"placements.{single}.space", "RR-11.6")


def test_rr_12_8_a_seat_claims_one_turn_order_space(matches: list[Played]) -> None:
    played = matches[1]  # 3 players: both turn-order spaces are on the board
    position = next(p for p in (position_of(played.states[i]) for i in played.positions())
                    if p["round"] < 6 and p["players"][0]["workers"] >= 2
                    and not any(x["space"].startswith("turn_order") for x in p["placements"]))
    claims = [{"space": f"turn_order_{n}", "seat": 0, "workers": 1, "temporary": 0, "black": 0, "rubles": 0}
              for n in (1, 2)]
    one = copy.deepcopy(position)
    one["placements"] = [*one["placements"], claims[0]]
    one["players"][0]["workers"] -= 1
    assert normal_position(RULES, played.config, one) == one
    both = copy.deepcopy(one)
    both["placements"] = [*both["placements"], claims[1]]
    both["players"][0]["workers"] -= 1
    refused(played.config, both, "placements", "RR-12.8")
    refused(played.config, changed(one, scores=[-1, 0, 0]), "scores.0", RULE)


def test_mutated_positions_are_refused_by_name_or_accepted_whole(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    """A number nudged or a name replaced anywhere: a named refusal, or a position a match goes on from."""
    cfg, position = sample
    rng = random.Random(3)
    outcomes: dict[str, int] = {}
    for _ in range(150):
        bad = copy.deepcopy(position)
        paths = list(_leaves(bad))
        path = rng.choice(paths)
        parent: Any = bad
        for part in path[:-1]:
            parent = parent[part]
        value = parent[path[-1]]
        if isinstance(value, bool) or value is None:
            parent[path[-1]] = not value if isinstance(value, bool) else 1
        elif isinstance(value, int):
            parent[path[-1]] = value + rng.choice([-1, 1, 3])
        else:
            parent[path[-1]] = rng.choice(["zz", "E1", "B1", "T1", "C1", "kiev"])
        try:
            normal = normal_position(RULES, cfg, bad)
        except InvalidPositionError as error:
            assert error.path.split(".")[0] in RussianRailroadsPosition.model_fields or error.path == "(position)"
            assert error.rule == RULE or error.rule.startswith("RR-")
            outcomes[error.rule] = outcomes.get(error.rule, 0) + 1
            continue
        state = build(cfg, normal)
        decision = RULES.decision(state)
        assert not decision.over and RULES.legal_moves(state, decision.seats[0])
        outcomes["accepted"] = outcomes.get("accepted", 0) + 1
    assert sum(n for rule, n in outcomes.items() if rule != "accepted") > 2 * outcomes.get("accepted", 0), outcomes
    assert len(outcomes) >= 12, outcomes


def _leaves(node: JSON, path: tuple[Any, ...] = ()) -> Any:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, (*path, index))
    else:
        yield path


# ---- hidden information ---------------------------------------------------------------------------


def test_other_seats_bonus_cards_the_deck_and_the_removed_cards_are_hidden(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    _, position = sample
    seat = next(s for s, p in enumerate(position["players"]) if p["bonus_cards"])
    other = 1 - seat
    assert position_hides(RULES, position, 2)
    assert hide_position(position, Viewer.arbiter()) == position
    for viewer in (Viewer.of_seat(seat), Viewer.of_seat(other), Viewer.spectator()):
        shown = hide_position(position, viewer)
        assert shown["bonus_deck"] == {"count": len(position["bonus_deck"])}
        assert shown["removed_bonus"] == {"count": 2}
        assert shown["unseen_engineers"] == {"count": len(position["unseen_engineers"])}
        cards = shown["players"][seat]["bonus_cards"]
        if viewer.is_seat(seat):
            assert cards == position["players"][seat]["bonus_cards"]
        else:
            assert cards == {"count": len(position["players"][seat]["bonus_cards"])}
        assert {k: v for k, v in shown.items() if k not in ("bonus_deck", "removed_bonus", "unseen_engineers",
                                                            "players")} == \
            {k: v for k, v in position.items() if k not in ("bonus_deck", "removed_bonus", "unseen_engineers",
                                                            "players")}
    assert hide_position(position, Viewer.of_seat(seat))["players"][other] == \
        {**position["players"][other], "bonus_cards": {"count": 0}}


def test_tables_a_seat_cannot_tell_apart_look_the_same_to_it(
        sample: tuple[MatchConfig[State], dict[str, Any]]) -> None:
    """Swap the other seat's bonus card with one in the deck and the deck with the removed cards:
    both are valid tables, and the seat and spectators see one position."""
    cfg, position = sample
    seat = next(s for s, p in enumerate(position["players"]) if p["bonus_cards"])
    other = copy.deepcopy(position)
    mine = other["players"][seat]["bonus_cards"][0]
    swap = other["bonus_deck"][0]
    other["players"][seat]["bonus_cards"][0] = swap
    other["bonus_deck"] = sorted([mine, *other["bonus_deck"][1:]])
    other["removed_bonus"], other["bonus_deck"][:2] = other["bonus_deck"][:2], other["removed_bonus"]
    other["bonus_deck"] = sorted(other["bonus_deck"])
    other["removed_bonus"] = sorted(other["removed_bonus"])
    assert normal_position(RULES, cfg, other) == other and other != position
    for viewer in (Viewer.of_seat(1 - seat), Viewer.spectator()):
        assert hide_position(other, viewer) == hide_position(position, viewer)
        assert RULES.view(build(cfg, other), viewer) == RULES.view(build(cfg, position), viewer)
    assert hide_position(other, Viewer.of_seat(seat)) != hide_position(position, Viewer.of_seat(seat))


# ---- the documented example -----------------------------------------------------------------------


def test_the_example_in_docs_positions_is_a_valid_position_in_normal_form() -> None:
    text = (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")
    examples = re.findall(r"<!-- position: russian-railroads (\S+) (\d+) -->\n```json\n(.*?)```", text, re.S)
    assert len(examples) == 1
    variant, seats, body = examples[0]
    cfg = MatchConfig(variant, RULES.parse_options({}), int(seats), RULES.default_components())
    position = json.loads(body)
    assert normal_position(RULES, cfg, position) == position
    state = build(cfg, position)
    assert RULES.decision(state).seats == (position["to_move"],)
    assert list(RULES.score(state).totals()) == position["scores"]
