"""The Russian Railroads board as SVG (api/viewer/boards/russian_railroads.py), drawn from real
matches played by the greedy bots, compared fact by fact with the state API's view at the same step:
track markers, locomotive reach, industry markers and factories, workers on action spaces, scores,
final bonus cards; and nothing a viewer may not know is drawn.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from api.viewer.boards import draw_board
from api.viewer.boards.russian_railroads import draw
from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer

SVG = "{http://www.w3.org/2000/svg}"
MATCH_ID = UUID("00000000-0000-4000-8000-00000000a017")
VIEWERS = ("spectator", "seat:0", "arbiter")


@dataclass
class Match:
    app: Ringside
    match_id: UUID
    head: int

    def summary(self) -> dict[str, Any]:
        return self.app.summary(self.match_id)

    def view(self, at: int, viewer: str) -> dict[str, Any]:
        return self.app.state(self.match_id, Viewer.parse(viewer), at)

    def svg(self, at: int, viewer: str) -> ET.Element:
        return ET.fromstring(draw(self.summary(), self.view(at, viewer), viewer))

    def first(self, test: Any) -> int:
        """The first step whose arbiter view passes `test` (the match must reach one)."""
        for at in range(1, self.head + 1):
            if test(self.view(at, "arbiter")):
                return at
        raise AssertionError("the bots' match never reached the position this test needs")


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Match]:
    """One whole three-seat match of greedy bots, the same every run (fixed seed, id and clock)."""
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("rr-board"), key=ServerKey.from_seed(b"rr-board"),
                        clock=FixedStepClock())
    app.create_match("russian-railroads", ["ann", "bob", "cy"], seed="0" * 64, match_id=MATCH_ID)
    moves = 0
    while app.play_bot(MATCH_ID, "greedy", seed=moves) is not None:
        moves += 1
    yield Match(app, MATCH_ID, app.head_version(MATCH_ID))
    app.close()


@pytest.fixture(scope="module")
def steps(match: Match) -> dict[str, int]:
    """The steps drawn: the table once setup's draws are made (RR-2.3, RR-2.8, RR-2.18), one
    mid-round with workers on the board, the end."""
    start = match.first(lambda v: len(v["state"]["removed_bonus"]) == 2 and all(v["state"]["positions"]))
    middle = match.first(lambda v: v["state"]["round"] >= 3 and len(v["state"]["placements"]) >= 4)
    return {"start": start, "middle": middle, "end": match.head}


def seat_boards(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.attrib["data-seat"]): g for g in root.iter(f"{SVG}g")
            if "data-score" in g.attrib and "data-seat" in g.attrib}


def drawn_markers(board: ET.Element) -> set[tuple[str, str, int]]:
    return {(e.attrib["data-line"], e.attrib["data-colour"], int(e.attrib["data-space"]))
            for e in board.iter() if "data-colour" in e.attrib and "data-line" in e.attrib}


def view_markers(player: dict[str, Any]) -> set[tuple[str, str, int]]:
    return {(line, colour, int(space)) for line, colours in player["tracks"].items()
            for colour, space in colours.items()}


def card_ids(board: ET.Element) -> list[str]:
    return [e.attrib["data-card"] for e in board.iter() if "data-card" in e.attrib]


# ---- the document ---------------------------------------------------------------------------------
@pytest.mark.parametrize("step", ["start", "middle", "end"])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_drawing_is_one_scalable_svg_marked_with_its_game_and_step(match: Match, steps: dict[str, int],
                                                                      step: str, viewer: str) -> None:
    at = steps[step]
    root = match.svg(at, viewer)
    assert root.tag == f"{SVG}svg"
    assert root.attrib["data-game"] == "russian-railroads"
    assert int(root.attrib["data-seq"]) == match.view(at, viewer)["seq"] == at
    assert ET.fromstring(draw(match.summary(), match.view(1, viewer), viewer)).attrib["data-seq"] == "1"
    assert "viewBox" in root.attrib and "width" not in root.attrib and "height" not in root.attrib
    assert sorted(seat_boards(root)) == [0, 1, 2]


def test_the_registry_draws_russian_railroads_with_this_board_not_the_generic_one(match: Match,
                                                                                  steps: dict[str, int]) -> None:
    """The registry falls back to the generic drawing when a board raises, so a broken board would
    go unnoticed without this: the registry's drawing must be this module's."""
    at = steps["middle"]
    svg = draw_board(match.summary(), match.view(at, "spectator"), "spectator")
    assert svg == draw(match.summary(), match.view(at, "spectator"), "spectator")
    assert 'data-part="action-spaces"' in svg


def test_the_same_view_gives_the_same_bytes(match: Match, steps: dict[str, int]) -> None:
    view = match.view(steps["middle"], "seat:0")
    first = draw(match.summary(), view, "seat:0")
    assert draw(match.summary(), json.loads(json.dumps(view)), "seat:0") == first
    assert draw(match.summary(), match.view(steps["end"], "seat:0"), "seat:0") != first


def test_a_view_of_another_game_is_refused_so_the_registry_draws_the_generic_board(match: Match) -> None:
    summary = {**match.summary(), "game": "russian-railroads"}
    view = {"seq": 3, "state": {"players": [{"score": 1}]}, "scores": [1]}
    with pytest.raises(ValueError):
        draw(summary, view, "spectator")
    assert 'data-game="russian-railroads"' in draw_board(summary, view, "spectator")


# ---- the players' boards ----------------------------------------------------------------------------
@pytest.mark.parametrize("step", ["start", "middle", "end"])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_each_seat_board_carries_the_score_the_view_gives(match: Match, steps: dict[str, int], step: str,
                                                          viewer: str) -> None:
    view = match.view(steps[step], viewer)
    boards = seat_boards(match.svg(steps[step], viewer))
    assert {seat: int(g.attrib["data-score"]) for seat, g in boards.items()} == dict(enumerate(view["scores"]))
    if step == "end":
        assert any(score > 0 for score in view["scores"])  # the comparison is not between zeros


@pytest.mark.parametrize("step", ["start", "middle", "end"])
def test_rr_0_3_rr_2_13_rr_6_7_every_track_marker_is_drawn_on_its_railway_and_space(
        match: Match, steps: dict[str, int], step: str) -> None:
    """Each marker the seat owns, at its position (0: acquired, beside the railway); at the start
    only the three black tracks on space 1 (RR-2.13)."""
    view = match.view(steps[step], "spectator")
    boards = seat_boards(match.svg(steps[step], "spectator"))
    for seat, player in enumerate(view["state"]["players"]):
        assert drawn_markers(boards[seat]) == view_markers(player)
    if step == "start":
        assert drawn_markers(boards[0]) == {(r, "black", 1) for r in ("trans_siberian", "st_petersburg", "kiev")}
    if step == "end":
        assert any(space == 0 or colour != "black" for _, colour, space in drawn_markers(boards[0]))


@pytest.mark.parametrize("step", ["middle", "end"])
def test_rr_0_6_each_railway_shows_its_locomotives_and_their_reach(match: Match, steps: dict[str, int],
                                                                   step: str) -> None:
    view = match.view(steps[step], "spectator")
    boards = seat_boards(match.svg(steps[step], "spectator"))
    for seat, player in enumerate(view["state"]["players"]):
        railways = {g.attrib["data-railway"]: g for g in boards[seat].iter() if "data-railway" in g.attrib}
        for railway, group in railways.items():
            locos = player["locomotives"].get(railway, [])
            assert int(group.attrib["data-reach"]) == sum(locos)
            assert sorted(int(e.attrib["data-locomotive"]) for e in group.iter() if "data-locomotive" in e.attrib) \
                == sorted(locos)


@pytest.mark.parametrize("step", ["middle", "end"])
def test_rr_8_4_rr_9_2_industry_markers_and_factories_stand_where_the_view_puts_them(
        match: Match, steps: dict[str, int], step: str) -> None:
    view = match.view(steps[step], "spectator")
    boards = seat_boards(match.svg(steps[step], "spectator"))
    built = 0
    for seat, player in enumerate(view["state"]["players"]):
        board = boards[seat]
        assert [int(e.attrib["data-place"]) for e in board.iter() if "data-industry-marker" in e.attrib] \
            == player["markers"]
        drawn = {int(e.attrib["data-gap"]): int(e.attrib["data-factory"]) for e in board.iter()
                 if "data-factory" in e.attrib}
        assert drawn == {gap + 1: value for gap, value in enumerate(player["factories"]) if value is not None}
        built += len(drawn)
        assert int(next(e for e in board.iter() if "data-multipliers" in e.attrib).attrib["data-multipliers"]) \
            == player["multipliers"]
        supply = next(e for e in board.iter() if "data-reserve" in e.attrib)
        assert (int(supply.attrib["data-workers"]), int(supply.attrib["data-rubles"])) \
            == (player["workers"], player["rubles"])
    assert built > 0


# ---- the main board -------------------------------------------------------------------------------
def test_rr_5_2_rr_5_6_the_workers_on_the_action_spaces_are_the_views_placements(match: Match,
                                                                                 steps: dict[str, int]) -> None:
    at = steps["middle"]
    view = match.view(at, "spectator")
    root = match.svg(at, "spectator")
    drawn = Counter((int(g.attrib["data-seat"]), g.attrib["data-space"], int(g.attrib["data-workers"]),
                     int(g.attrib.get("data-rubles", 0))) for g in root.iter(f"{SVG}g")
                    if "data-space" in g.attrib and "data-workers" in g.attrib)
    placed = Counter((seat, space, workers, rubles) for space, seat, workers, _, _, rubles
                     in view["state"]["placements"])
    assert drawn == placed and len(placed) >= 4


def test_rr_12_1_the_header_shows_the_turn_order_and_who_is_to_act(match: Match, steps: dict[str, int]) -> None:
    at = steps["middle"]
    view = match.view(at, "spectator")
    root = match.svg(at, "spectator")
    order = sorted((int(g.attrib["data-turn-order"]), int(g.attrib["data-seat"])) for g in root.iter(f"{SVG}g")
                    if "data-turn-order" in g.attrib)
    assert [seat for _, seat in order] == view["state"]["order"]
    decision = next(g for g in root.iter(f"{SVG}g") if "data-decision" in g.attrib)
    assert decision.attrib["data-decision"] == ",".join(map(str, view["decision"]["seats"]))
    current = [g.attrib["data-round"] for g in root.iter(f"{SVG}g") if g.attrib.get("data-current") == "true"]
    assert current == [str(view["state"]["round"])]
    end = next(g for g in match.svg(steps["end"], "spectator").iter(f"{SVG}g") if "data-decision" in g.attrib)
    assert end.attrib["data-decision"] == "over"


# ---- hidden information -----------------------------------------------------------------------------
def test_rr_21_2_a_seat_sees_its_own_final_bonus_cards_and_only_backs_of_the_others(match: Match) -> None:
    at = match.first(lambda v: not v["state"]["over"] and any(p["bonus_cards"] for p in v["state"]["players"]))
    holder = next(seat for seat, p in enumerate(match.view(at, "arbiter")["state"]["players"]) if p["bonus_cards"])
    own = match.view(at, f"seat:{holder}")["state"]["players"][holder]["bonus_cards"]
    assert isinstance(own, list) and own
    boards = seat_boards(match.svg(at, f"seat:{holder}"))
    assert card_ids(boards[holder]) == own
    other = (holder + 1) % 3
    other_view = match.view(at, f"seat:{other}")
    assert other_view["state"]["players"][holder]["bonus_cards"] == {"count": len(own)}
    seen_by_other = seat_boards(match.svg(at, f"seat:{other}"))[holder]
    assert card_ids(seen_by_other) == ["back"] * len(own)
    assert card_ids(seat_boards(match.svg(at, "spectator"))[holder]) == ["back"] * len(own)
    assert card_ids(seat_boards(match.svg(at, "arbiter"))[holder]) == own


def hidden_ids(match: Match, at: int, viewer: str) -> set[str]:
    """Card and engineer ids the arbiter's view holds at `at` and `viewer`'s does not."""
    ids = re.compile(r"\b[BE]\d+\b")
    everything = set(ids.findall(json.dumps(match.view(at, "arbiter")["state"])))
    return everything - set(ids.findall(json.dumps(match.view(at, viewer)["state"])))


@pytest.mark.parametrize("when", ["start", "holding", "end"])
def test_rr_2_3_rr_2_8_rr_21_2_a_spectators_drawing_holds_no_id_only_the_seats_or_arbiters_view_holds(
        match: Match, steps: dict[str, int], when: str) -> None:
    """The two final bonus cards removed unseen (RR-2.3), the engineers left in decks X and Y
    (RR-2.8), the final bonus deck and the seats' own cards (RR-21.2): none of their ids anywhere in
    the spectator's SVG, text, tooltips or attributes. The arbiter's drawing shows the removed cards,
    so the check looks where those ids would be."""
    at = steps[when] if when in steps else match.first(
        lambda v: not v["state"]["over"] and any(p["bonus_cards"] for p in v["state"]["players"]))
    hidden = hidden_ids(match, at, "spectator")
    removed = match.view(at, "arbiter")["state"]["removed_bonus"]
    assert len(removed) == 2 and set(removed) <= hidden
    spectator = draw(match.summary(), match.view(at, "spectator"), "spectator")
    leaked = {i for i in hidden if re.search(rf"\b{i}\b", spectator)}
    assert not leaked
    arbiter = match.svg(at, "arbiter")
    assert set(removed) <= {e.attrib["data-card"] for e in arbiter.iter() if e.attrib.get("data-pile") == "removed"}


def test_rr_21_2_only_the_seat_looking_through_the_deck_sees_its_faces(match: Match) -> None:
    """While a seat takes a final bonus card its view holds the deck: its drawing shows the faces,
    the spectator's at the same step only the count."""
    def looking(v: dict[str, Any]) -> bool:
        agenda = v["state"]["agenda"]
        return bool(agenda) and agenda[0].get("t") == "final_bonus"

    at = match.first(looking)
    seat = int(match.view(at, "arbiter")["state"]["agenda"][0]["seat"])
    deck = match.view(at, f"seat:{seat}")["state"]["bonus_deck"]
    assert isinstance(deck, list) and deck
    drawn = [e.attrib["data-card"] for e in match.svg(at, f"seat:{seat}").iter() if e.attrib.get("data-pile") == "deck"]
    assert drawn == deck
    spectator = match.svg(at, "spectator")
    assert not [e for e in spectator.iter() if e.attrib.get("data-pile") == "deck"]
    count = next(e for e in spectator.iter() if "data-deck-count" in e.attrib)
    assert int(count.attrib["data-deck-count"]) == len(deck)


def test_the_drawing_can_be_written_and_read_back(match: Match, steps: dict[str, int], tmp_path: Path) -> None:
    """What `ringside show --svg` and the page do with it: a file any XML parser reads."""
    path = tmp_path / "rr.svg"
    path.write_text(draw(match.summary(), match.view(steps["end"], "arbiter"), "arbiter"), encoding="utf-8")
    assert ET.parse(path).getroot().attrib["data-seq"] == str(steps["end"])
