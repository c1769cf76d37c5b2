"""The Drum Roll board (api/viewer/boards/drum_roll.py) against the state API's views of real matches.

Two bot matches (three players, and two players for the imaginary third region, DR-22.1) are played
by `ringside simulate` into a store; positions are read through the application's `state` (the
same `state_view` the API serves), drawn for a spectator, every seat and the arbiter, and parsed
with ElementTree. Each test compares the drawing's data attributes with the view it was drawn
from, and the spectator's drawing with what only the seats and the arbiter may know.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from api.viewer.boards import draw_board
from api.viewer.boards.drum_roll import draw
from domain.application import Ringside
from domain.kernel.viewers import Viewer

SVG = "{http://www.w3.org/2000/svg}"
RINGSIDE = Path(sys.executable).with_name("ringside")


@dataclass
class Match:
    """A finished bot match in a store, its summary, and the positions the tests draw."""

    app: Ringside
    match_id: UUID
    seats: int
    summary: dict[str, Any]
    steps: dict[str, int] = field(default_factory=dict)

    def view(self, at: int, viewer: str) -> dict[str, Any]:
        return self.app.state(self.match_id, Viewer.parse(viewer), at)

    def viewers(self) -> list[str]:
        return ["spectator", "arbiter", *(f"seat:{seat}" for seat in range(self.seats))]


def simulate(store: Path, players: int, seed: int) -> UUID:
    out = subprocess.run([str(RINGSIDE), "--store", str(store), "simulate", "drum-roll", "-n", "1", "--seed",
                          str(seed), "--players", str(players), "--json"], check=True, capture_output=True,
                         text=True, timeout=240)
    return UUID(json.loads(out.stdout)["results"][0]["match_id"])


def find_steps(match: Match) -> dict[str, int]:
    """The positions worth drawing: the opening draft (private draws, DR-2.9), a placement with
    markers held (DR-4.4), a step where a seat holds investment cards (DR-21), a sharing phase with
    cubes on performers (DR-8.3), and the end."""
    head = int(match.summary["version"])
    steps: dict[str, int] = {"end": head}
    for at in range(2, head):
        state = match.view(at, "arbiter")["state"]
        players = state["players"]
        agenda = state["agenda"]
        if "draft" not in steps and any(p["drawn"] for p in players):
            steps["draft"] = at
        if "placement" not in steps and agenda and agenda[0]["t"] == "place_marker" and any(
                step.get("t") == "resolve" and len(step.get("held") or []) >= 3 for step in agenda):
            steps["placement"] = at
        if "hands" not in steps and sum(1 for p in players if p["hand"]) >= 2:
            steps["hands"] = at
        if "middle" not in steps and state["performance"] == 2 and agenda and agenda[0]["t"] == "share":
            steps["middle"] = at
    return steps


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Match]]:
    store = tmp_path_factory.mktemp("drum-roll-board")
    ids = {3: simulate(store, 3, 3), 2: simulate(store, 2, 5)}
    app = Ringside.open(data_dir=store)
    found = {}
    for players, match_id in ids.items():
        match = Match(app, match_id, players, app.summary(match_id))
        match.steps = find_steps(match)
        found[players] = match
    yield found
    app.close()


def positions(matches: dict[int, Match]) -> Iterator[tuple[Match, int, str, dict[str, Any], ET.Element]]:
    """Every chosen position of every match as every viewer, with the view and the parsed drawing."""
    for match in matches.values():
        for at in match.steps.values():
            for viewer in match.viewers():
                view = match.view(at, viewer)
                yield match, at, viewer, view, ET.fromstring(draw(match.summary, view, viewer))


def groups(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [node for node in root.iter() if attribute in node.attrib]


def the(root: ET.Element, attribute: str, value: object, **others: object) -> ET.Element:
    """The one element whose `attribute` is `value` (and whose other data attributes match)."""
    found = [node for node in groups(root, attribute) if node.get(attribute) == str(value)
             and all(node.get(name.replace("_", "-")) == str(want) for name, want in others.items())]
    assert len(found) == 1, f"{len(found)} elements with {attribute}={value} {others}"
    return found[0]


def test_the_matches_reach_every_position_the_tests_need(matches: dict[int, Match]) -> None:
    for match in matches.values():
        assert set(match.steps) == {"draft", "placement", "hands", "middle", "end"}, match.steps


def test_the_registry_draws_the_drum_roll_board_not_the_generic_one(matches: dict[int, Match]) -> None:
    """The registry swallows a board's failure and draws the generic board: every position must
    come out as Drum Roll's own drawing, scalable (a viewBox, no fixed size)."""
    for match, at, viewer, view, _ in positions(matches):
        root = ET.fromstring(draw_board(match.summary, view, viewer))
        assert root.get("data-game") == "drum-roll"
        assert root.get("data-seq") == str(at)
        assert root.get("viewBox", "").startswith("0 0 1280 ")
        assert root.get("width") is None and root.get("height") is None
        sections = {node.get("data-section") for node in groups(root, "data-section")}
        assert {"performer-row", "helper-row", "action-board", "ticket-track", "regions", "supply"} <= sections


def test_dr_3_the_root_names_the_performance_round_and_who_decides(matches: dict[int, Match]) -> None:
    for _, _, _, view, root in positions(matches):
        state = view["state"]
        assert root.get("data-performance") == str(state["performance"])
        assert root.get("data-round") == str(state["round"])
        assert root.get("data-to-move") == " ".join(map(str, sorted(view["decision"]["seats"])))
    end = matches[3]
    root = ET.fromstring(draw(end.summary, end.view(end.steps["end"], "spectator"), "spectator"))
    assert root.get("data-phase") == "game over"
    assert root.get("data-performance") == "3"


def test_dr_0_4_each_players_panel_carries_its_score_money_fame_and_deposit(matches: dict[int, Match]) -> None:
    for _, _, _, view, root in positions(matches):
        panels = [node for node in groups(root, "data-score") if node.tag == f"{SVG}g"]
        assert [int(node.get("data-seat", -1)) for node in panels] == list(range(len(view["scores"])))
        for seat, player in enumerate(view["state"]["players"]):
            panel = panels[seat]
            assert panel.get("data-score") == str(view["scores"][seat])
            assert the(panel, "data-money", player["money"], data_seat=seat) is not None
            assert the(panel, "data-fame", player["fame"]).get("data-deposit") == str(player["deposit"])
            cubes = " ".join(f"{colour}:{player['cubes'].get(colour, 0)}"
                             for colour in ("white", "yellow", "green", "blue", "red"))
            assert the(panel, "data-cubes", cubes).get("data-seat") == str(seat)


def test_dr_8_3_dr_20_each_circus_shows_its_performers_and_helpers_in_order(matches: dict[int, Match]) -> None:
    checked = 0
    for _, _, _, view, root in positions(matches):
        for seat, player in enumerate(view["state"]["players"]):
            panel = the(root, "data-score", view["scores"][seat], data_seat=seat)
            hired = [(node.get("data-performer"), node.get("data-flipped"), node.get("data-trailer"))
                     for node in groups(panel, "data-performer")]
            assert hired == [(p["card"], None if p["flipped"] is None else str(p["flipped"]),
                              "true" if p["trailer"] else None) for p in player["performers"]]
            assert all(node.get("data-seat") == str(seat) for node in groups(panel, "data-performer"))
            assert [node.get("data-helper") for node in groups(panel, "data-helper")] == player["helpers"]
            checked += len(hired)
    assert checked > 50


def test_dr_8_3_a_performers_cubes_are_drawn_level_by_level(matches: dict[int, Match]) -> None:
    """Each placed cube is a solid square in its level's row: count them against the view."""
    match = matches[3]
    view = match.view(match.steps["middle"], "spectator")
    root = ET.fromstring(draw(match.summary, view, "spectator"))
    placed = 0
    for player in view["state"]["players"]:
        for hired in player["performers"]:
            node = the(root, "data-performer", hired["card"])
            solid = [rect for rect in node.iter(f"{SVG}rect") if rect.get("stroke") == "#555555"]
            assert len(solid) == sum(len(level) for level in hired["cubes"]), hired
            placed += len(solid)
    assert placed > 0


def test_dr_21_a_seat_sees_its_own_hand_face_up_and_the_others_as_counts(matches: dict[int, Match]) -> None:
    shown = 0
    for _, _, viewer, view, root in positions(matches):
        for seat, player in enumerate(view["state"]["players"]):
            hand = the(root, "data-hand", seat)
            cards = [node.get("data-card") for node in groups(hand, "data-card")]
            if viewer in ("arbiter", f"seat:{seat}"):
                assert isinstance(player["hand"], list)
                assert cards == [card for card, _ in player["hand"]]
                assert [node.get("data-used") for node in groups(hand, "data-card")] == \
                    [str(used) for _, used in player["hand"]]
                assert hand.get("data-hand-count") == str(len(player["hand"]))
                shown += len(cards)
            else:
                assert cards == []
                assert hand.get("data-hand-count") == str(player["hand"]["count"])
    assert shown > 0


def hidden_ids(match: Match, at: int) -> set[str]:
    """The card ids the arbiter's view holds at `at` that the spectator's view nowhere names:
    hands, decks, the opening draft, looks (views.py)."""
    public = json.dumps(match.view(at, "spectator"))
    everything = set(re.findall(r"\b[PHI]\d\d\b", json.dumps(match.view(at, "arbiter"))))
    return {card for card in everything if not re.search(rf"\b{card}\b", public)}


def test_dr_21_dr_2_9_a_spectators_drawing_names_no_card_only_a_seat_or_the_arbiter_knows(
        matches: dict[int, Match]) -> None:
    hidden_somewhere = 0
    for match in matches.values():
        for at in match.steps.values():
            secret = hidden_ids(match, at)
            hidden_somewhere += len(secret)
            picture = draw(match.summary, match.view(at, "spectator"), "spectator")
            leaked = {card for card in secret if re.search(rf"\b{card}\b", picture)}
            assert not leaked, f"step {at}: {sorted(leaked)}"
            for seat in range(match.seats):  # a seat's drawing names no other seat's secret either
                mine = json.dumps(match.view(at, f"seat:{seat}"))
                others = {card for card in secret if not re.search(rf"\b{card}\b", mine)}
                picture = draw(match.summary, match.view(at, f"seat:{seat}"), f"seat:{seat}")
                assert not {card for card in others if re.search(rf"\b{card}\b", picture)}
    assert hidden_somewhere > 0  # the positions do hold secrets, so the check above checks something


def test_dr_2_9_the_opening_draft_is_drawn_for_its_seat_and_counted_for_the_others(matches: dict[int, Match]) -> None:
    match = matches[3]
    at = match.steps["draft"]
    arbiter = match.view(at, "arbiter")
    seat = next(seat for seat, player in enumerate(arbiter["state"]["players"]) if player["drawn"])
    drawn = arbiter["state"]["players"][seat]["drawn"]
    own = draw(match.summary, match.view(at, f"seat:{seat}"), f"seat:{seat}")
    spectator = draw(match.summary, match.view(at, "spectator"), "spectator")
    assert all(card in own for card in drawn)
    assert f"opening draft: {len(drawn)} performer" in spectator
    assert not any(re.search(rf"\b{card}\b", spectator) for card in drawn if card not in
                   json.dumps(match.view(at, "spectator")))


def test_dr_4_2_dr_4_4_the_action_board_stacks_the_held_markers_in_placement_order(
        matches: dict[int, Match]) -> None:
    match = matches[3]
    view = match.view(match.steps["placement"], "spectator")
    root = ET.fromstring(draw(match.summary, view, "spectator"))
    held = next(step["held"] for step in view["state"]["agenda"] if step["t"] == "resolve")
    for space in ("white", "yellow", "green", "blue", "red", "ticket", "investment", "hire_performer", "hire_helper"):
        expected = [str(item["seat"]) for item in held
                    if (item["t"] == "cube" and item.get("colour") == space) or item["t"] == space]
        assert the(root, "data-space", space).get("data-markers") == " ".join(expected)
    assert sum(len(node.get("data-markers", "").split()) for node in groups(root, "data-space")) == len(held)


def test_dr_7_1_the_rows_show_each_card_and_its_discount_tokens(matches: dict[int, Match]) -> None:
    for _, _, _, view, root in positions(matches):
        state = view["state"]
        assert [[node.get("data-row-performer"), int(node.get("data-discounts", -1))]
                for node in groups(root, "data-row-performer")] == state["performer_row"]
        assert [[node.get("data-row-helper"), int(node.get("data-discounts", -1))]
                for node in groups(root, "data-row-helper")] == state["helper_row"]


def test_dr_5_5_dr_2_8_ticket_cubes_and_region_tokens_sit_where_the_view_puts_them(
        matches: dict[int, Match]) -> None:
    for _, _, _, view, root in positions(matches):
        for seat, player in enumerate(view["state"]["players"]):
            assert the(root, "data-ticket", player["ticket"], data_seat=seat) is not None
            tokens = [node for node in groups(root, "data-region") if node.get("data-seat") == str(seat)]
            assert [node.get("data-region") for node in tokens] == ([player["region"]] if player["region"] else [])


def test_dr_22_1_two_players_show_the_imaginary_players_region(matches: dict[int, Match]) -> None:
    match = matches[2]
    view = match.view(match.steps["middle"], "spectator")
    neutral = view["state"]["neutral_region"]
    assert neutral
    picture = draw(match.summary, view, "spectator")
    assert "imaginary player" in picture
    assert len(groups(ET.fromstring(picture), "data-score")) == 2


def test_dr_1_2_the_supply_counts_the_cubes_left(matches: dict[int, Match]) -> None:
    for _, _, _, view, root in positions(matches):
        for colour, count in view["state"]["cubes"].items():
            assert the(root, "data-supply", colour).text == str(count)


def test_the_drawing_is_pure_and_follows_the_view(matches: dict[int, Match]) -> None:
    """Same view, same bytes; the view is not changed; a changed fact changes the drawing."""
    match = matches[3]
    view = match.view(match.steps["middle"], "seat:1")
    before = copy.deepcopy(view)
    first = draw(match.summary, view, "seat:1")
    assert draw(match.summary, copy.deepcopy(view), "seat:1") == first
    assert view == before
    view["state"]["players"][1]["money"] += 7
    root = ET.fromstring(draw(match.summary, view, "seat:1"))
    assert the(root, "data-money", view["state"]["players"][1]["money"], data_seat=1) is not None


def test_the_end_names_the_winner(matches: dict[int, Match]) -> None:
    match = matches[3]
    view = match.view(match.steps["end"], "spectator")
    winners = view["end"]["result"]["winners"]
    picture = draw(match.summary, view, "spectator")
    assert "The match is over:" in picture
    assert all(f"(seat {seat})" in picture for seat in winners)


def test_a_view_that_is_not_drum_roll_gets_the_generic_drawing(matches: dict[int, Match]) -> None:
    match = matches[3]
    view = {"seq": 4, "decision": {"seats": [0]}, "state": {"board": []}, "scores": [1, 2, 3]}
    with pytest.raises(ValueError):
        draw(match.summary, view, "spectator")
    root = ET.fromstring(draw_board(match.summary, view, "spectator"))
    assert not groups(root, "data-section")
    assert [node.get("data-score") for node in groups(root, "data-score")] == ["1", "2", "3"]
