"""Drum Roll positions (docs/positions.md): the table between two turns of a preparation round's
action phase. Positions taken from random play come back as the same position and the same game
(the match goes on exactly as the original with the same moves and draws); inconsistent positions
are refused naming the field and the rule they break; the hidden parts are hidden as the view
hides them."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import State
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import normal_position, state_from_position
from domain.kernel.viewers import Viewer

from .builders import config

Position = dict[str, Any]


def _step(state: State, rng: random.Random) -> State:
    decision = RULESET.decision(state)
    if decision.chance is not None:
        spec = decision.chance
        return RULESET.resolve(state, spec.pick(rng.randrange(spec.total_weight())))
    seat = decision.seats[0]
    return RULESET.apply(state, seat, rng.choice(list(RULESET.legal_moves(state, seat))))


def played(seats: int, seed: int) -> list[State]:
    """Every state of a random match from the setup to where the match ends (the performance)."""
    rng = random.Random(seed)
    state = RULESET.setup(config(seats))
    states = [state]
    while not RULESET.decision(state).over:
        state = _step(state, rng)
        states.append(state)
    return states


def positions(states: list[State]) -> list[tuple[int, Position]]:
    found = []
    for index, state in enumerate(states):
        try:
            found.append((index, RULESET.position_of(state)))
        except PositionUnavailableError:
            continue
    return found


def a_position(seats: int = 3, seed: int = 1, at: Callable[[Position], bool] = lambda p: True) -> Position:
    """The first position of the match of `seed` that is as wanted (or of the next seeds' matches)."""
    for tried in range(seed, seed + 10):
        found = next((p for _, p in positions(played(seats, tried)) if at(p)), None)
        if found is not None:
            return copy.deepcopy(found)
    raise AssertionError("no position as wanted")


def refused(seats: int, position: Position, path: str, rule: str) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as caught:
        state_from_position(RULESET, config(seats), position)
    assert (caught.value.path, caught.value.rule) == (path, rule), caught.value
    return caught.value


# ---- round trips ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_positions_from_random_play_round_trip_and_the_match_goes_on_as_the_original(seats: int, seed: int) -> None:
    states = played(seats, seed)
    found = positions(states)
    assert len(found) >= 3 * seats * 5  # every marker turn of rounds 1 to 5 at least
    for index, position in [*found[:: max(len(found) // 6, 1)], found[-1]]:
        state = state_from_position(RULESET, config(seats), position)
        assert RULESET.position_of(state) == position
        assert normal_position(RULESET, config(seats), position) == position
        original = states[index]
        assert RULESET.decision(state) == RULESET.decision(original)
        assert [RULESET.dump_move(m) for m in RULESET.legal_moves(state, position["to_move"])] == \
            [RULESET.dump_move(m) for m in RULESET.legal_moves(original, position["to_move"])]
        assert RULESET.score(state).totals() == RULESET.score(original).totals()
        _goes_on_alike(state, original, seed * 100 + index)


def _goes_on_alike(state: State, original: State, seed: int) -> None:
    """The same random moves and draws on both: the same decisions, positions and fame to the end."""
    ours, theirs = random.Random(seed), random.Random(seed)
    while not RULESET.decision(original).over:
        assert RULESET.decision(state) == RULESET.decision(original)
        state, original = _step(state, ours), _step(original, theirs)
        try:
            expected = RULESET.position_of(original)
        except PositionUnavailableError:
            continue
        assert RULESET.position_of(state) == expected
    assert RULESET.decision(state).over
    assert RULESET.score(state).totals() == RULESET.score(original).totals()


def test_a_position_is_the_table_between_marker_turns_only() -> None:
    states = played(3, 1)
    with pytest.raises(PositionUnavailableError):
        RULESET.position_of(states[0])  # the setup's draws
    with pytest.raises(PositionUnavailableError):
        RULESET.position_of(states[-1])  # the end of the game
    sharing = next(s for s in states if s.agenda and s.agenda[0].kind == "share")
    with pytest.raises(PositionUnavailableError):
        RULESET.position_of(sharing)
    first = positions(states)[0][1]
    assert (first["performance"], first["round"], first["placed"]) == (1, 1, [])
    assert first["to_move"] == first["start_player"]


def test_dr_0_4_fame_before_the_position_is_the_positions_one_score_line() -> None:
    """Rules: DR-0.4."""
    position = a_position(3, 1)
    position["players"][1]["fame"] = 4
    state = state_from_position(RULESET, config(3), position)
    sheet = RULESET.score(state)
    assert sheet.totals() == (0, 4, 0) or list(sheet.totals()) == [0, 4, 0]
    assert [(line.seat, line.points, line.rule) for line in sheet.lines if line.seat == 1] == [(1, 4, "POSITION")]
    assert RULESET.position_of(state)["players"][1]["fame"] == 4


def test_dr_4_4_markers_placed_this_round_come_back_in_placement_order() -> None:
    """Rules: DR-4.4."""
    position = a_position(4, 2, lambda p: len(p["placed"]) >= 3)
    state = state_from_position(RULESET, config(4), position)
    placed = [(step.kind, step.get("colour"), step.seat) for step in state.placements()]
    assert [(p["space"], p["seat"]) for p in position["placed"]] == \
        [(colour if kind == "cube" else kind, seat) for kind, colour, seat in placed]


# ---- refusals ---------------------------------------------------------------------------------------


def test_the_players_are_one_per_seat() -> None:
    position = a_position(3)
    position["players"] = position["players"][:2]
    refused(3, position, "players", "POSITION")


def test_dr_3_4_no_round_past_the_last() -> None:
    position = a_position(3)
    position["round"] = 8
    refused(3, position, "round", "DR-3.4")


def test_dr_1_5_a_card_in_two_places_an_unknown_card_and_a_missing_card() -> None:
    position = a_position(3)
    deck = position["performer_deck"]
    position["performer_discard"] = sorted([*position["performer_discard"], deck[0]])
    error = refused(3, position, f"performer_discard.{position['performer_discard'].index(deck[0])}", "DR-1.5")
    assert "performer_deck.0" in error.reason
    position = a_position(3)
    position["helper_deck"] = [*position["helper_deck"][1:], "H99"]
    refused(3, position, f"helper_deck.{len(position['helper_deck']) - 1}", "POSITION")
    position = a_position(3)
    position["investment_deck"] = position["investment_deck"][1:]
    refused(3, position, "investment_deck", "DR-1.5")


def test_dr_22_4_and_dr_2_6_the_type_limit_of_the_performer_row() -> None:
    components = RULESET.default_components()
    for seats, rule in ((2, "DR-22.4"), (3, "DR-2.6")):
        position = a_position(seats)
        row = position["performer_row"]
        kind = components.performer(row[0]["card"]).type  # type: ignore[attr-defined]
        limit = components.for_players(seats).type_limit  # type: ignore[attr-defined]
        same = [c for c in position["performer_deck"] if components.performer(c).type == kind]  # type: ignore
        others = [i for i, c in enumerate(row) if components.performer(c["card"]).type != kind]  # type: ignore
        for index in others[:limit]:
            card = same.pop()
            position["performer_deck"] = sorted([*[c for c in position["performer_deck"] if c != card],
                                                 row[index]["card"]])
            row[index] = {"card": card, "discounts": 0}
        kinds = [components.performer(c["card"]).type for c in row]  # type: ignore[attr-defined]
        over = next(i for i in range(len(kinds)) if kinds[: i + 1].count(kind) > limit)
        refused(seats, position, f"performer_row.{over}", rule)


def test_dr_1_6_dr_1_2_cubes_tokens_and_trailers_are_conserved() -> None:
    position = a_position(3)
    position["cubes"]["red"] += 1
    refused(3, position, "cubes.red", "DR-1.6")
    position = a_position(3)
    position["players"][0]["cubes"]["red"] += 1
    refused(3, position, "cubes.red", "DR-1.6")
    position = a_position(3)
    position["discounts"] -= 1
    refused(3, position, "discounts", "DR-1.2")
    position = a_position(3)
    position["trailers"] -= 1
    refused(3, position, "trailers", "DR-1.2")


def test_dr_2_8_dr_22_1_regions() -> None:
    position = a_position(3)
    position["players"][1]["region"] = position["players"][0]["region"]
    refused(3, position, "players.1.region", "DR-2.8")
    position = a_position(3)
    position["neutral_region"] = "rome"
    refused(3, position, "neutral_region", "DR-22.1")
    position = a_position(2)
    position["neutral_region"] = None
    refused(2, position, "neutral_region", "DR-22.1")


def test_dr_4_1_markers_go_round_clockwise_from_the_start_player() -> None:
    position = a_position(3, 1, lambda p: p["round"] == 2 and not p["placed"])
    position["to_move"] = (position["start_player"] + 1) % 3
    refused(3, position, f"players.{position['start_player']}.markers", "DR-4.1")
    position = a_position(3, 1, lambda p: p["round"] == 2 and not p["placed"])
    position["players"][position["to_move"]]["markers"] = 0
    refused(3, position, f"players.{position['to_move']}.markers", "DR-4.1")


def test_dr_5_2_a_placed_marker_is_checked_as_when_it_was_placed() -> None:
    position = a_position(4, 2, lambda p: any(placed["space"] in ("red", "white", "yellow", "green", "blue")
                                              for placed in p["placed"]) and len(p["placed"]) >= 2)
    cube = next(index for index, placed in enumerate(position["placed"]) if placed["space"] in
                ("red", "white", "yellow", "green", "blue"))
    other = next(index for index in range(len(position["placed"])) if index != cube)
    position["placed"][other] = {**position["placed"][other], "space": position["placed"][cube]["space"]}
    refused(4, position, f"placed.{max(cube, other)}.space", "DR-5.2")


def _circus_with(position: Position, test: Callable[[dict[str, Any]], bool]) -> tuple[int, int]:
    for seat, player in enumerate(position["players"]):
        for index, hired in enumerate(player["performers"]):
            if test(hired):
                return seat, index
    raise AssertionError("no such performer")


def test_dr_8_3_dr_8_4_dr_17_7_cubes_on_levels_and_flips() -> None:
    components = RULESET.default_components()
    position = a_position(3, 1, lambda p: p["round"] >= 3)
    seat, index = _circus_with(position, lambda h: not h["cubes"][0])
    hired = position["players"][seat]["performers"][index]
    need = components.performer(hired["card"]).levels[0].cubes[0]  # type: ignore[attr-defined]
    wrong = next(c for c in ("red", "white", "yellow", "green", "blue") if c != need)
    hired["cubes"][0] = [wrong]
    position["cubes"][wrong] -= 1
    refused(3, position, f"players.{seat}.performers.{index}.cubes.0", "DR-8.3")
    position = a_position(3, 1, lambda p: p["round"] >= 3)
    seat, index = _circus_with(position, lambda h: not any(h["cubes"]))
    position["players"][seat]["performers"][index]["flipped"] = 1
    refused(3, position, f"players.{seat}.performers.{index}.flipped", "DR-17.7")
    position = a_position(3, 1, lambda p: p["round"] >= 3)
    position["performance"] = 2
    seat, index = _circus_with(position, lambda h: any(h["cubes"]))
    position["players"][seat]["performers"][index]["flipped"] = 1
    refused(3, position, f"players.{seat}.performers.{index}.cubes", "DR-8.4")


def test_dr_20_3_a_trailer_is_shared_only_from_a_bizarre_performer() -> None:
    components = RULESET.default_components()
    position = a_position(3)
    seat, index = _circus_with(position, lambda h: components.performer(h["card"]).type != "bizarre")  # type: ignore
    player = position["players"][seat]
    owner = player["performers"][index]
    sharer = next(i for i in range(len(player["performers"])) if i != index)
    owner["trailer"] = True
    position["trailers"] -= 1
    player["performers"][sharer]["shares_trailer_of"] = owner["card"]
    refused(3, position, f"players.{seat}.performers.{sharer}.shares_trailer_of", "DR-20.3")


def test_dr_19_6_dr_5_5_dr_19_2_deposit_ticket_and_the_returned_organiser() -> None:
    position = a_position(3)
    position["players"][0]["deposit"] = 2
    refused(3, position, "players.0.deposit", "DR-19.6")
    position = a_position(3)
    position["players"][0]["ticket"] = 7
    refused(3, position, "players.0.ticket", "DR-5.5")
    components = RULESET.default_components()
    organisers = {h.id for h in components.helpers if h.kind == "show_organiser"}  # type: ignore[attr-defined]
    position = a_position(3, 1, lambda p: p["round"] >= 2 and not organisers & {c["card"] for c in p["helper_row"]})
    position["organiser_returned"] = 0
    refused(3, position, "organiser_returned", "DR-19.2")
    position = a_position(3, 1, lambda p: p["round"] == 1)
    position["organiser_returned"] = 0
    refused(3, position, "organiser_returned", "DR-19.2")


def test_dr_7_1_a_row_card_made_free_was_discarded() -> None:
    components = RULESET.default_components()
    position = a_position(3)
    card = position["performer_row"][0]
    cost = components.performer(card["card"]).hire_cost  # type: ignore[attr-defined]
    position["discounts"] -= cost + 1 - card["discounts"]
    card["discounts"] = cost + 1
    refused(3, position, "performer_row.0.discounts", "DR-7.1")


def test_fields_not_in_the_format_are_refused() -> None:
    position = a_position(3)
    position["votes"] = ["postpone", None, None]
    refused(3, position, "votes", "POSITION")


# ---- hidden information -------------------------------------------------------------------------------


def test_hide_position_removes_hands_and_deck_contents_as_the_view_does() -> None:
    position = a_position(3, 1, lambda p: sum(len(player["hand"]) for player in p["players"]) >= 2)
    spectator = RULESET.hide_position(position, Viewer.spectator())
    for deck in ("performer_deck", "helper_deck", "investment_deck", "investment_bottom"):
        assert spectator[deck] == {"count": len(position[deck])}
    assert [player["hand"] for player in spectator["players"]] == \
        [{"count": len(player["hand"])} for player in position["players"]]
    hands = [held["card"] for player in position["players"] for held in player["hand"]]
    text = str(spectator)
    assert not any(f"'{card}'" in text for card in [*hands, *position["investment_deck"]])
    seat = RULESET.hide_position(position, Viewer.of_seat(1))
    assert seat["players"][1]["hand"] == position["players"][1]["hand"]
    assert seat["players"][0]["hand"] == {"count": len(position["players"][0]["hand"])}
    assert RULESET.hide_position(position, Viewer.arbiter()) == position
    state = state_from_position(RULESET, config(3), position)
    view = RULESET.view(state, Viewer.spectator())
    assert view["investment_deck"] == spectator["investment_deck"]
    assert [player["hand"] for player in view["players"]] == [player["hand"] for player in spectator["players"]]


def test_dr_19_2_the_player_who_returned_the_show_organiser_starts_the_round() -> None:
    components = RULESET.default_components()
    organisers = {h.id for h in components.helpers if h.kind == "show_organiser"}  # type: ignore[attr-defined]
    position = a_position(3, 1, lambda p: p["round"] >= 2 and bool(organisers & {c["card"] for c in p["helper_row"]})
                          and not p["placed"] and p["organiser_returned"] is None)
    position["organiser_returned"] = (position["start_player"] + 1) % 3
    refused(3, position, "organiser_returned", "DR-19.2")
    position["organiser_returned"] = position["start_player"]
    state = state_from_position(RULESET, config(3), position)
    assert state.organiser_returned == position["start_player"]


def test_dr_5_17_a_seat_with_no_open_space_is_not_to_move() -> None:
    """Under AMB-1 (b) two investments in all: the cube actions and the investments taken by the
    others, the ticket at the end of the track and both hires placed leave the seat nothing."""
    position = a_position(3, 1, lambda p: p["round"] == 1 and not p["placed"])
    first = position["start_player"]
    seat, last = (first + 1) % 3, (first + 2) % 3
    position["to_move"] = seat
    for who, left in ((first, 0), (seat, 1), (last, 1)):
        position["players"][who]["markers"] = left
    position["players"][seat]["ticket"] = 6
    position["placed"] = [{"space": "red", "seat": first}, {"space": "hire_performer", "seat": seat},
                          {"space": "yellow", "seat": last}, {"space": "white", "seat": first},
                          {"space": "hire_helper", "seat": seat}, {"space": "investment", "seat": last},
                          {"space": "investment", "seat": first}]
    with pytest.raises(InvalidPositionError) as caught:
        state_from_position(RULESET, config(3, action_limits="in_total"), position)
    assert (caught.value.path, caught.value.rule) == ("to_move", "DR-5.17"), caught.value


def _shareable(position: Position) -> tuple[int, int] | None:
    """A cube marker and a later marker of another seat, whose space an Unlock card could have made
    the cube marker's (the later one is not a cube marker itself, so no limit changes)."""
    placed = position["placed"]
    colours = ("red", "white", "yellow", "green", "blue")
    for cube, first in enumerate(placed):
        if first["space"] not in colours:
            continue
        for other in range(cube + 1, len(placed)):
            if placed[other]["seat"] != first["seat"] and placed[other]["space"] not in colours:
                return cube, other
    return None


def test_dr_21_10_a_marker_placed_with_an_unlock_card_is_marked_and_checked_as_such() -> None:
    position = a_position(4, 2, lambda p: _shareable(p) is not None)
    found = _shareable(position)
    assert found is not None
    cube, other = found
    space = position["placed"][cube]["space"]
    shared = copy.deepcopy(position)
    shared["placed"][other] = {**shared["placed"][other], "space": space, "unlocked": True}
    state = state_from_position(RULESET, config(4), shared)  # a second marker of another seat, with the card
    assert [step.seat for step in state.placements() if step.get("colour") == space] == [
        position["placed"][cube]["seat"], position["placed"][other]["seat"]]
    assert RULESET.position_of(state)["placed"][other]["unlocked"] is True
    unneeded = copy.deepcopy(position)
    unneeded["placed"][cube] = {**unneeded["placed"][cube], "unlocked": True}
    refused(4, unneeded, f"placed.{cube}.space", "DR-21.10")  # the space was open: no card is played there
