"""The Carcassonne board as SVG (api/viewer/boards/carcassonne.py), checked against the views it is
drawn from: one bot-played match with Under the Big Top in full, drawn at its start, in the
middle (a tile in hand, a figure step, the Big Top over a face-down token, pyramids) and at its
end, as a spectator, as a seat and as the arbiter. Every fact the drawing marks with a data
attribute is compared with the view; the spectator's drawing is checked for what only the
arbiter's view holds."""

from __future__ import annotations

import math
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.viewer.boards import draw_board
from api.viewer.boards.carcassonne import draw
from api.viewer.boards.carcassonne_tiles import CENTRE, EDGES, MIDS, SIZE, face, turn
from api.viewer.boards.svg import seat_colour
from domain.application import Ringside
from domain.games.carcassonne.components import default_components
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.viewers import Viewer

SVG = "{http://www.w3.org/2000/svg}"
VIEWERS = {"spectator": Viewer.spectator(), "seat:1": Viewer.of_seat(1), "arbiter": Viewer.arbiter()}


class Match:
    """One finished match and its spectator views at every step, to pick positions from."""

    def __init__(self, app: Ringside, match_id: uuid.UUID) -> None:
        self.app, self.match_id = app, match_id
        self.summary = app.summary(match_id)
        self.head = app.fold(match_id).seq
        self.public = {at: app.state(match_id, Viewer.spectator(), at) for at in range(1, self.head + 1)}

    def view(self, at: int, viewer: str) -> dict[str, Any]:
        return self.app.state(self.match_id, VIEWERS[viewer], at)

    def first(self, test: Any) -> int:
        """The first step whose spectator state passes `test`."""
        return next(at for at, view in self.public.items() if test(view["state"]))

    def steps(self) -> dict[str, int]:
        """Named positions worth drawing; each exists in the fixture's match (not in every one)."""
        return {
            "start": self.first(lambda s: s.get("current_tile") and s["phase"] == "place"),
            "figure": self.first(lambda s: s["phase"] == "figure" and len(s["board"]) > 5),
            "big top": self.first(lambda s: (s.get("big_top") or {}).get("token") == "face-down"),
            "pyramid": self.first(lambda s: bool(s.get("pyramids"))),
            "middle": self.first(lambda s: s["tiles_left"] <= 45 and s["phase"] == "place"),
            "end": self.head,
        }


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Match]:
    app = Ringside.open(data_dir=tmp_path_factory.mktemp("cb-board") / "data",
                        key=ServerKey.from_seed(b"ringside-tests"), clock=FixedStepClock())
    # a fixed seed and match ID (the bots' choices derive from it): a random match may lack a
    # position `Match.steps` names (a pyramid is not built in every match), and failed by chance
    match_id = uuid.uuid5(uuid.NAMESPACE_URL, "ringside:viewer:carcassonne:0")
    app.create_match("carcassonne", ["Ann", "Bob <b>", "Cy"], variant="big-top", seed="00" * 32, match_id=match_id)
    moves = 0
    while app.play_bot(match_id, "greedy", seed=moves) is not None:
        moves += 1
    yield Match(app, match_id)
    app.close()


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [node for node in root.iter(f"{SVG}g") if node.get(attribute) is not None]


def translation(node: ET.Element) -> tuple[float, float]:
    found = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", node.get("transform", ""))
    assert found, node.attrib
    return float(found.group(1)), float(found.group(2))


def drawn(match: Match, at: int, viewer: str) -> tuple[dict[str, Any], ET.Element, str]:
    view = match.view(at, viewer)
    svg = draw(match.summary, view, viewer)
    return view, parse(svg), svg


def positions(match: Match) -> list[tuple[str, int, str]]:
    return [(name, at, viewer) for name, at in match.steps().items() for viewer in VIEWERS]


# ==== the map =================================================================================
def test_cb_3_2_tiles_drawn_are_the_views_placed_tiles_with_their_rotations(match: Match) -> None:
    """CB-3.2, CB-3.4: every placed tile is drawn once, at its coordinates, turned as placed; the
    tile placed last is the one highlighted."""
    for name, at, viewer in positions(match):
        view, root, _ = drawn(match, at, viewer)
        state = view["state"]
        tiles = sorted((g.get("data-tile"), int(g.get("data-x", "")), int(g.get("data-y", "")),
                        int(g.get("data-rotation", ""))) for g in groups(root, "data-tile"))
        wanted = sorted((t["tile"], t["x"], t["y"], t["rotation"]) for t in state["board"])
        assert tiles == wanted, (name, viewer)
        last = [(int(g.get("data-x", "")), int(g.get("data-y", ""))) for g in groups(root, "data-last")]
        if state["placed"] is not None:
            assert last == [(state["placed"]["x"], state["placed"]["y"])], name
        elif len(state["board"]) > 1:
            assert last == [(state["board"][-1]["x"], state["board"][-1]["y"])], name
        else:
            assert last == [], name


def test_the_viewbox_fits_the_placed_tiles(match: Match) -> None:
    """The map grows with the tiles: the end's viewBox holds every tile, the start's is small."""
    sizes = []
    for at in (match.steps()["start"], match.head):
        _, root, svg = drawn(match, at, "spectator")
        assert "width=" not in svg.split(">", 1)[0], "no fixed size: the picture scales to its container"
        _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
        sizes.append((width, height))
        for tile in groups(root, "data-tile"):
            x, y = translation(tile)
            assert x >= 0 and x + SIZE <= width and 0 <= y <= height
    assert sizes[0][0] < sizes[1][0] and sizes[0][1] <= sizes[1][1]


def test_cb_4_2_figures_drawn_are_the_views_followers_on_their_tiles(match: Match) -> None:
    """CB-4.2, BT-7.2: each figure on a feature is drawn once, in its seat's colour, on its tile,
    with the segment it stands on; no other meeple or ringmaster is drawn."""
    for name, at, viewer in positions(match):
        view, root, _ = drawn(match, at, viewer)
        tiles = {(int(g.get("data-x", "")), int(g.get("data-y", ""))): translation(g)
                 for g in groups(root, "data-tile")}
        figures = [g for g in groups(root, "data-figure") if g.get("data-figure") != "acrobat"]
        got = sorted((int(g.get("data-x", "")), int(g.get("data-y", "")), g.get("data-segment"),
                      int(g.get("data-seat", "")), g.get("data-figure")) for g in figures)
        wanted = sorted((f["x"], f["y"], f["segment"], f["seat"], f["figure"]) for f in view["state"]["followers"])
        assert got == wanted, (name, viewer)
        for figure in figures:
            fx, fy = translation(figure)
            tx, ty = tiles[(int(figure.get("data-x", "")), int(figure.get("data-y", "")))]
            assert tx <= fx <= tx + SIZE and ty <= fy <= ty + SIZE, figure.attrib
            colours = {p.get("fill") for p in figure.iter(f"{SVG}path")}
            assert seat_colour(int(figure.get("data-seat", ""))) in colours


def test_bt_5_6_pyramids_drawn_with_their_acrobats_in_order(match: Match) -> None:
    """BT-5.6: each pyramid's acrobats, base first, then the shoulders, in their seats."""
    checked = 0
    for at in (match.steps()["pyramid"], match.head):
        view, root, _ = drawn(match, at, "spectator")
        got = sorted((int(g.get("data-x", "")), int(g.get("data-y", "")), int(g.get("data-level", "")),
                      int(g.get("data-seat", ""))) for g in groups(root, "data-figure")
                     if g.get("data-figure") == "acrobat")
        wanted = sorted((p["x"], p["y"], level, seat) for p in view["state"]["pyramids"]
                        for level, seat in enumerate(p["acrobats"]))
        assert got == wanted and wanted
        checked += 1
    assert checked == 2


# ==== the panel ===============================================================================
def test_cb_1_2_players_panel_has_each_seats_name_score_and_figures_left(match: Match) -> None:
    """CB-1.2, BT-2.5: one row per seat with the view's score total, the meeples in its supply and
    where its ringmaster is; the seat to move is marked."""
    for name, at, viewer in positions(match):
        view, root, _ = drawn(match, at, viewer)
        rows = groups(root, "data-score")
        assert [int(r.get("data-seat", "")) for r in rows] == list(range(3))
        assert [int(r.get("data-score", "")) for r in rows] == view["scores"], (name, viewer)
        supply = view["state"]["supply"]
        assert [int(r.get("data-meeples", "")) for r in rows] == [s["meeples"] for s in supply]
        assert [r.get("data-ringmaster") for r in rows] == ["home" if s["ringmaster"] else "placed" for s in supply]
        moving = [int(r.get("data-seat", "")) for r in rows if r.get("data-to-move")]
        assert moving == ([] if view["status"] != "active" else view["decision"]["seats"])
        texts = ["".join(r.itertext()) for r in rows]
        for seat, player in enumerate(["Ann", "Bob <b>", "Cy"]):
            assert player in texts[seat]


def test_cb_3_1_the_tile_to_place_and_the_stack(match: Match) -> None:
    """CB-3.1: the tile drawn is shown while it waits to be placed, and only then; the stack shows
    the view's count."""
    for name, at, viewer in positions(match):
        view, root, _ = drawn(match, at, viewer)
        state = view["state"]
        hand = [g.get("data-current-tile") for g in groups(root, "data-current-tile")]
        assert hand == ([state["current_tile"]] if state["phase"] == "place" and state["current_tile"] else []), name
        assert [int(g.get("data-tiles-left", "")) for g in groups(root, "data-tiles-left")] == [state["tiles_left"]]


def test_the_end_names_the_winner(match: Match) -> None:
    view, root, _ = drawn(match, match.head, "spectator")
    winners = [match.summary["seats"][seat]["player"] for seat in view["end"]["result"]["winners"]]
    panel = "".join(next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cb-panel").itertext())
    assert "Game over" in panel and all(w in panel for w in winners)


# ==== what each viewer may see ================================================================
def test_bt_3_7_the_face_down_token_is_named_for_the_arbiter_only(match: Match) -> None:
    """BT-3.7: under the Big Top the spectator and the seats see a face-down token; the arbiter's
    drawing names the animal. Nothing in the spectator's drawing names it, and the tokens left by
    animal (the arbiter's view only) are not drawn for anyone else."""
    at = match.steps()["big top"]
    token = match.view(at, "arbiter")["state"]["big_top"]["token"]
    assert token != "face-down"
    for viewer in VIEWERS:
        view, root, svg = drawn(match, at, viewer)
        top = groups(root, "data-big-top")
        assert len(top) == 1 and top[0].get("data-token") == view["state"]["big_top"]["token"]
        assert (int(top[0].get("data-x", "")), int(top[0].get("data-y", ""))) == \
            (view["state"]["big_top"]["x"], view["state"]["big_top"]["y"])
        hidden = viewer != "arbiter"
        assert (top[0].get("data-token") == "face-down") is hidden
        assert (token in "".join(top[0].itertext())) is not hidden
        assert ("in the stack:" in svg) is not hidden
        if hidden:
            revealed = " ".join(view["state"]["revealed_tokens"])
            assert token in revealed or token not in svg, "the hidden animal appears only as a revealed one"


def test_the_drawing_is_a_function_of_the_view_alone(match: Match) -> None:
    """Pure and deterministic: the same view gives the same bytes, the viewer's name changes
    nothing, and the arbiter's view stripped of what the spectator may not know draws exactly the
    spectator's picture (so nothing else reaches it)."""
    at = match.steps()["big top"]
    spectator = match.view(at, "spectator")
    first = draw(match.summary, spectator, "spectator")
    assert first == draw(match.summary, spectator, "spectator") == draw(match.summary, spectator, "arbiter")
    arbiter = match.view(at, "arbiter")
    stripped = {**arbiter, "state": {key: value for key, value in arbiter["state"].items()
                                     if key != "tokens_left_by_animal"}}
    stripped["state"]["big_top"] = {**arbiter["state"]["big_top"], "token": "face-down"}
    assert stripped == spectator
    assert draw(match.summary, stripped, "arbiter") == first
    assert draw(match.summary, arbiter, "arbiter") != first


def test_names_are_escaped_and_the_registry_uses_this_board(match: Match) -> None:
    view = match.view(match.head, "seat:1")
    svg = draw_board(match.summary, view, "seat:1")
    assert "Bob &lt;b&gt;" in svg and "<b>" not in svg
    root = parse(svg)
    assert root.get("data-game") == "carcassonne" and root.get("data-seq") == str(view["seq"])
    assert groups(root, "data-tile")


def test_a_view_that_is_not_carcassonnes_falls_back_to_the_generic_drawing(match: Match) -> None:
    view = {**match.view(match.head, "spectator"), "state": {"players": []}}
    with pytest.raises(ValueError):
        draw(match.summary, view, None)
    root = parse(draw_board(match.summary, view, None))
    assert not groups(root, "data-tile") and groups(root, "data-seat")


# ==== tile faces from the component data ======================================================
def _edge_of(point: tuple[float, float]) -> int:
    """The edge a point lies nearest to."""
    return min(range(4), key=lambda e: (point[0] - MIDS[e][0]) ** 2 + (point[1] - MIDS[e][1]) ** 2)


def test_cb_3_2_a_turned_tile_carries_its_features_to_the_turned_edges() -> None:
    """CB-3.2: turning a tile r quarter turns clockwise takes a feature on edge e to edge
    (e + r) % 4: a one-edge city's or road's figure spot follows it, for every tile type."""
    checked = 0
    for tile in default_components().tiles:
        found = face(tile)
        for feature in tile.features:
            if feature.type not in ("city", "road") or len(feature.edges) != 1:
                continue
            edge = EDGES.index(feature.edges[0])
            for rotation in range(4):
                spot = turn(found.anchors[feature.id], rotation)
                assert _edge_of(spot) == (edge + rotation) % 4, (tile.id, feature.id, rotation)
                checked += 1
    assert checked > 100


def test_cb_4_2_every_feature_has_its_own_spot_on_its_tile() -> None:
    """CB-4.2: a figure can go on any segment, so each feature of each tile type has a spot inside
    the tile, apart from the others (two figures on one tile never hide each other); a monastery's
    is the centre."""
    for tile in default_components().tiles:
        spots = face(tile).anchors
        assert set(spots) == {feature.id for feature in tile.features}, tile.id
        for feature_id, (x, y) in spots.items():
            assert 0 < x < SIZE and 0 < y < SIZE, (tile.id, feature_id)
        points = list(spots.values())
        for i, a in enumerate(points):
            for b in points[i + 1:]:
                assert (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= 12 ** 2, tile.id
        for feature in tile.features:
            if feature.type == "monastery":
                assert spots[feature.id] == CENTRE


def test_cb_5_3_pennants_are_drawn_from_the_data(match: Match) -> None:
    """CB-5.3: a city's pennants count, so each one in the data is drawn on its tile."""
    pennants = {tile.id: sum(getattr(f, "pennants", 0) for f in tile.features) for tile in default_components().tiles}
    _, root, _ = drawn(match, match.head, "spectator")
    for tile in groups(root, "data-tile"):
        shields = [p for p in tile.iter(f"{SVG}path") if p.get("fill") == "#1d4f9c"]
        assert len(shields) == pennants[tile.get("data-tile", "")], tile.attrib


def test_write_a_picture(match: Match, tmp_path: Path) -> None:
    """Not an assertion of looks: the middle drawing is written out, so a failing run leaves one
    to look at."""
    _, _, svg = drawn(match, match.steps()["middle"], "arbiter")
    (tmp_path / "carcassonne.svg").write_text(svg)
    assert svg.startswith("<svg")


def test_cb_3_2_the_drawn_face_turns_the_same_way_as_the_figure_spots(match: Match) -> None:
    """CB-3.2: the face each tile `use`s is turned by the SVG rotation that takes the reference
    face's points where `turn` takes the figure spots (clockwise, as the engine turns tiles)."""
    _, root, _ = drawn(match, match.head, "spectator")
    for tile in groups(root, "data-tile"):
        rotation = int(tile.get("data-rotation", ""))
        use = next(tile.iter(f"{SVG}use"))
        found = re.match(r"rotate\((\d+) 50 50\)", use.get("transform", "rotate(0 50 50)"))
        assert found, use.attrib
        angle = math.radians(int(found.group(1)))
        for x, y in ((50.0, 0.0), (100.0, 25.0), (20.0, 80.0)):
            svg_x = 50 + (x - 50) * math.cos(angle) - (y - 50) * math.sin(angle)
            svg_y = 50 + (x - 50) * math.sin(angle) + (y - 50) * math.cos(angle)
            tx, ty = turn((x, y), rotation)
            assert abs(svg_x - tx) < 1e-6 and abs(svg_y - ty) < 1e-6, tile.attrib
