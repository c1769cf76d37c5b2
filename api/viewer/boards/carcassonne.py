"""Carcassonne (with Under the Big Top) as SVG: the map of placed tiles and the table around it,
drawn from one viewer's view only.

What is drawn, and why from where: every tile face comes from its tile type's features in the
match's component set (`carcassonne_tiles`), turned by the placement's rotation, so another
printing draws right; figures, pyramids, the Big Top, the tile to place, the stack and the seats'
supplies come from the game's view (`domain/games/carcassonne/views.py`) and scores from the
view's `scores`. Nothing else is read, so a drawing can show no more than its viewer may know: the
face-down animal token under the Big Top is named only where the view names it (the arbiter's,
BT-3.7), and the tokens left by animal only where the view has them.

Layout: the map on the left, its viewBox fitted to the placed tiles' bounds (never smaller than
5 x 4 tiles, so the opening is not a giant tile), with x grown east and y grown south as in moves
and the coordinates written along the top and left; the panel on the right (players, the tile to
place, the stack, the Big Top, the latest scoring, a legend), scaled with the map so it stays
readable whatever the map's size. No fixed size: the picture scales to its container.

Data attributes (for browser tests and the page; values as in the view):

- root `<svg data-game="carcassonne" data-seq="N">`.
- each placed tile `<g data-tile="ID" data-x data-y data-rotation data-kind>`; the tile placed
  last (the view's `placed` when set, else the last of `board`) also has `data-last="true"`.
- each figure on a feature `<g data-figure="meeple|ringmaster" data-seat data-x data-y
  data-segment>` (a farmer is a figure on a field segment, drawn lying down).
- each pyramid `<g data-pyramid="x,y" data-x data-y>` holding its acrobats, each
  `<g data-figure="acrobat" data-seat data-x data-y data-level="0|1|2">` (base, base, shoulders).
- the Big Top `<g data-big-top="true" data-x data-y data-token>`: `face-down` unless the view
  names the animal, empty once its token has been scored.
- the tile to place (phase `place` only) `<g data-current-tile="ID">`.
- the stack `<g data-tiles-left="N">`.
- each seat in the players panel `<g data-seat="N" data-score="T" data-meeples="M"
  data-ringmaster="home|placed">` (T = view["scores"][N]; `data-ringmaster` only when the match
  uses ringmasters), and `data-to-move="true"` on the seat whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .carcassonne_tiles import ACROBAT_SPACES, CENTRE, ROAD_HALF_WIDTH, SIZE, Face, face, turn
from .generic import seat_names
from .svg import Element, document, el, group, seat_colour, text, title, wrap

MARGIN = 44
"""Around the map, in SVG units (a tile is 100): room for the coordinates."""
MIN_COLUMNS, MIN_ROWS = 5, 4
PANEL_WIDTH = 340
ROW = 58
"""One seat's row in the players panel."""
RECENT = 5
"""Score lines listed under "Latest scoring"."""

FIELD = "#a5c46f"
FIELD_EDGE = "#6f8a45"
CITY = "#c99a5b"
CITY_WALL = "#6d4423"
ROAD = "#f5efdd"
ROAD_EDGE = "#6e6453"
HIGHLIGHT = "#ff8f00"

MEEPLE = ("M0 -10.5C2.6 -10.5 3.6 -8.6 3.4 -6.6C3.3 -5.6 3.9 -4.9 5 -4.6L8.6 -3.4C10.2 -2.8 10.2 -.4 8.4 -.2"
          "L4.6 .2L7.8 8C8.2 9 7.6 9.6 6.6 9.6L2.4 9.6L0 5.2L-2.4 9.6L-6.6 9.6C-7.6 9.6 -8.2 9 -7.8 8L-4.6 .2"
          "L-8.4 -.2C-10.2 -.4 -10.2 -2.8 -8.6 -3.4L-5 -4.6C-3.9 -4.9 -3.3 -5.6 -3.4 -6.6"
          "C-3.6 -8.6 -2.6 -10.5 0 -10.5Z")
"""A meeple 20 units tall, centred on (0, 0)."""
HAT = "M-3.2 -9.6V-15.4H3.2V-9.6H5.4V-8.2H-5.4V-9.6Z"
"""The ringmaster's top hat, on MEEPLE's head."""
SHIELD = "M-5.5 -6.5H5.5V-1C5.5 3.6 0 6.5 0 6.5S-5.5 3.6 -5.5 -1Z"

STYLE = """
.cb-tid { font-size: 11px; fill: #33401f; paint-order: stroke; stroke: #f4f7ea; stroke-width: 3px; opacity: .8 }
.cb-axis { font-size: 14px; fill: #8a8f80; text-anchor: middle }
.cb-h { font-size: 20px; font-weight: 700 }
.cb-sub { font-size: 12px; fill: #555 }
.cb-name { font-size: 15px; font-weight: 600 }
.cb-score { font-size: 24px; font-weight: 700; text-anchor: end }
.cb-sec { font-size: 12px; font-weight: 700; fill: #6b6355; letter-spacing: .06em }
.cb-t { font-size: 12.5px }
.cb-s { font-size: 11px; fill: #555 }
.cb-big { font-size: 22px; font-weight: 700 }
.cb-token { font-size: 10px; font-weight: 700; fill: #fff; text-anchor: middle }
"""


@dataclass(frozen=True)
class Table:
    """What one drawing reads: the view's game state, the match's tile types by id, the seats'
    names and totals, and who may be named as acting."""

    state: dict[str, Any]
    tiles: dict[str, Any]
    names: list[str]
    scores: list[int]
    prefix: str
    decision: dict[str, Any]
    status: str
    end: dict[str, Any] | None

    @property
    def parts(self) -> list[str]:
        return [str(p) for p in self.state.get("parts") or []]

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"


# ==== entry point =============================================================================
def draw(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    """The board of `view` as an SVG document (see the module's docstring)."""
    from domain.games.carcassonne.components import CarcassonneComponents, default_components
    from replay_cli.render.common import known_components

    state = view.get("state") or {}
    if state.get("game", "carcassonne") != "carcassonne" or not isinstance(state.get("board"), list):
        raise ValueError("not a Carcassonne view")  # the registry falls back to the generic drawing
    components = known_components(summary, state, CarcassonneComponents, default_components())
    names = seat_names(summary)
    scores = [int(total) for total in view.get("scores") or []]
    while len(names) < len(scores):
        names.append(f"seat {len(names)}")
    table = Table(state=state, tiles={tile.id: tile for tile in components.tiles}, names=names, scores=scores,
                  prefix="cb-" + components.content_hash()[:10], decision=view.get("decision") or {},
                  status=str(view.get("status", "")), end=view.get("end"))
    seq = int(view.get("seq", 0) or 0)
    board, bw, bh = _map(table)
    panel, ph = _panel(table, seq)
    k = max(1.0, bh / ph, bw / (2 * ph - PANEL_WIDTH))
    height = max(bh, ph * k)
    width = bw + PANEL_WIDTH * k
    body = [el("style", [STYLE]), _defs(table),
            el("rect", x=0, y=0, width=width, height=height, fill="#f7f4ec"),
            group([board], transform=f"translate(0 {_n((height - bh) / 2)})"),
            group([panel], transform=f"translate({_n(bw)} 0) scale({_n(k)})")]
    label = f"Carcassonne at step {seq}: {len(state.get('board') or [])} tiles on the map"
    return document(width, height, body, label=label, attrs={"data-game": "carcassonne", "data-seq": seq})


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


# ==== tile faces ==============================================================================
def _defs(table: Table) -> Element:
    """Each tile type on the map (or in hand) drawn once, in its reference orientation, for the
    placed tiles to `use` turned: the same face is never written twice."""
    wanted = sorted({str(t.get("tile")) for t in table.state.get("board") or []} |
                    ({str(table.state["current_tile"])} if table.state.get("current_tile") else set()))
    faces = [_face_def(table, table.tiles[tile_id]) for tile_id in wanted if tile_id in table.tiles]
    return el("defs", faces)


def _face_id(table: Table, tile_id: str) -> str:
    index = list(table.tiles).index(tile_id)
    return f"{table.prefix}-t{index}"


def _face_def(table: Table, tile: Any) -> Element:
    tile_face = face(tile)
    parts: list[Element] = [el("rect", x=0, y=0, width=SIZE, height=SIZE, fill=FIELD)]
    for road in tile_face.roads:
        parts.append(el("path", d=road.d, fill="none", stroke=ROAD_EDGE, stroke_width=ROAD_HALF_WIDTH * 2 + 3))
    for road in tile_face.roads:
        parts.append(el("path", d=road.d, fill="none", stroke=ROAD, stroke_width=ROAD_HALF_WIDTH * 2 - 1))
    if tile_face.junction is not None:
        x, y = tile_face.junction
        parts.append(el("rect", x=x - 7, y=y - 7, width=14, height=14, rx=2, fill="#8d6e63", stroke=ROAD_EDGE))
    for city in tile_face.cities:
        parts.append(el("path", d=city.d, fill=CITY, stroke=CITY_WALL, stroke_width=3, stroke_linejoin="round"))
    return el("g", parts, id=_face_id(table, tile.id))


def _centre_piece(tile_face: Face) -> list[Element]:
    """The monastery, the circus space or the acrobat spaces: drawn upright on every tile."""
    cx, cy = CENTRE
    if tile_face.monastery:
        return [group([
            el("rect", x=-11, y=-5, width=22, height=17, fill="#efe3c8", stroke="#5d4037", stroke_width=1.5),
            el("path", d="M-15 -5L0 -18L15 -5Z", fill="#b23a2a", stroke="#5d4037", stroke_width=1.5),
            el("rect", x=-3, y=3, width=6, height=9, fill="#5d4037"),
            el("path", d="M0 -18V-26M-3 -23H3", stroke="#5d4037", stroke_width=1.5),
        ], transform=f"translate({_n(cx)} {_n(cy)})")]
    if tile_face.kind == "circus":
        return [el("circle", cx=cx, cy=cy, r=19, fill="#fff4e0", stroke="#c62828", stroke_width=3.5),
                el("circle", cx=cx, cy=cy, r=12, fill="none", stroke="#c62828", stroke_width=1.2,
                   stroke_dasharray="3 3")]
    if tile_face.kind == "acrobat":
        (ax, ay), (bx, by), (tx, ty) = ACROBAT_SPACES
        return [el("circle", cx=ax, cy=ay, r=9, fill="#f6e3f7", stroke="#7b1fa2", stroke_width=2),
                el("circle", cx=bx, cy=by, r=9, fill="#f6e3f7", stroke="#7b1fa2", stroke_width=2),
                el("circle", cx=tx, cy=ty, r=7.5, fill="none", stroke="#7b1fa2", stroke_width=1.2,
                   stroke_dasharray="2.5 2")]
    return []


def _pennants(tile_face: Face, rotation: int) -> list[Element]:
    out: list[Element] = []
    for city in tile_face.cities:
        for spot in city.pennants:
            x, y = turn(spot, rotation)
            out.append(group([el("path", d=SHIELD, fill="#1d4f9c", stroke="#fff", stroke_width=1.4),
                              el("path", d="M-5.5 -2.5H5.5", stroke="#fff", stroke_width=1.6)],
                             transform=f"translate({_n(x)} {_n(y)})"))
    return out


def tile_face(table: Table, tile_id: str, rotation: int, size: float = SIZE) -> list[Element]:
    """The face of `tile_id` turned `rotation` quarter turns, at (0, 0) scaled to `size`; a tile
    type the component set lacks is a grey square with a question mark."""
    tile = table.tiles.get(tile_id)
    scale = f" scale({_n(size / SIZE)})" if size != SIZE else ""
    if tile is None:
        return [el("rect", x=0, y=0, width=size, height=size, fill="#bbb", stroke="#666"),
                text(size / 2, size / 2 + 6, "?", text_anchor="middle", class_="cb-h")]
    found = face(tile)
    turned = el("use", href=f"#{_face_id(table, tile_id)}",
                transform=f"rotate({90 * (rotation % 4)} 50 50)" if rotation % 4 else None)
    inner = [turned, *_pennants(found, rotation), *_centre_piece(found)]
    return [group(inner, transform=scale.strip() or None)]


# ==== the map =================================================================================
@dataclass(frozen=True)
class Frame:
    """The map's grid: which columns and rows it shows, and where a board position is drawn."""

    x0: int
    y0: int
    columns: int
    rows: int

    def at(self, x: int, y: int) -> tuple[float, float]:
        return MARGIN + (x - self.x0) * SIZE, MARGIN + (y - self.y0) * SIZE


def _frame(board: Sequence[dict[str, Any]]) -> Frame:
    xs = [int(t["x"]) for t in board] or [0]
    ys = [int(t["y"]) for t in board] or [0]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    if columns < MIN_COLUMNS:
        x0 -= (MIN_COLUMNS - columns) // 2
        columns = MIN_COLUMNS
    if rows < MIN_ROWS:
        y0 -= (MIN_ROWS - rows) // 2
        rows = MIN_ROWS
    return Frame(x0, y0, columns, rows)


def _last_placed(state: dict[str, Any]) -> tuple[int, int] | None:
    placed = state.get("placed")
    if isinstance(placed, dict):
        return int(placed["x"]), int(placed["y"])
    board = state.get("board") or []
    if len(board) > 1:
        return int(board[-1]["x"]), int(board[-1]["y"])
    return None


def _map(table: Table) -> tuple[Element, float, float]:
    board = [t for t in table.state.get("board") or [] if isinstance(t, dict)]
    frame = _frame(board)
    width, height = frame.columns * SIZE + 2 * MARGIN, frame.rows * SIZE + 2 * MARGIN
    last = _last_placed(table.state)
    layers: list[Element] = [_grid(frame), _axes(frame)]
    tiles = group([_tile(table, frame, t, (t["x"], t["y"]) == last) for t in board], class_="cb-tiles")
    layers.append(tiles)
    if last is not None:
        x, y = frame.at(*last)
        layers.append(el("rect", x=x + 2, y=y + 2, width=SIZE - 4, height=SIZE - 4, fill="none",
                         stroke=HIGHLIGHT, stroke_width=5, rx=3, pointer_events="none"))
    faces = {(int(t["x"]), int(t["y"])): t for t in board}
    layers.append(group(_figures(table, frame, faces), class_="cb-figures"))
    layers.append(group(_pyramids(table, frame), class_="cb-pyramids"))
    big_top = _big_top(table, frame)
    if big_top is not None:
        layers.append(big_top)
    return group(layers, class_="cb-map"), width, height


def _grid(frame: Frame) -> Element:
    """Faint squares where tiles may go: the map reads as a grid even where it has gaps."""
    lines: list[str] = []
    for column in range(frame.columns + 1):
        x = MARGIN + column * SIZE
        lines.append(f"M{x} {MARGIN}V{MARGIN + frame.rows * SIZE}")
    for row in range(frame.rows + 1):
        y = MARGIN + row * SIZE
        lines.append(f"M{MARGIN} {y}H{MARGIN + frame.columns * SIZE}")
    return el("path", d="".join(lines), stroke="#e0dacb", stroke_width=1.5, fill="none")


def _axes(frame: Frame) -> Element:
    labels: list[Element] = []
    for column in range(frame.columns):
        labels.append(text(MARGIN + column * SIZE + SIZE / 2, MARGIN - 14, frame.x0 + column, class_="cb-axis"))
    for row in range(frame.rows):
        labels.append(text(MARGIN / 2, MARGIN + row * SIZE + SIZE / 2 + 5, frame.y0 + row, class_="cb-axis"))
    return group([title("x grows east, y grows south, as in moves"), *labels], class_="cb-axes")


def _turned_words(rotation: int) -> str:
    return "as printed" if rotation % 4 == 0 else f"turned {90 * (rotation % 4)}° clockwise"


def _tile(table: Table, frame: Frame, tile: dict[str, Any], last: bool) -> Element:
    tile_id, rotation = str(tile.get("tile")), int(tile.get("rotation", 0))
    x, y = frame.at(int(tile["x"]), int(tile["y"]))
    known = table.tiles.get(tile_id)
    about = f"tile {tile_id} at ({tile['x']}, {tile['y']}), {_turned_words(rotation)}"
    if known is not None and known.description:
        about += f": {known.description}"
    if last:
        about += " (placed last)"
    return group([title(about), *tile_face(table, tile_id, rotation),
                  el("rect", x=0, y=0, width=SIZE, height=SIZE, fill="none", stroke=FIELD_EDGE, stroke_width=1),
                  text(4, 13, tile_id, class_="cb-tid")],
                 transform=f"translate({_n(x)} {_n(y)})", data_tile=tile_id, data_x=int(tile["x"]),
                 data_y=int(tile["y"]), data_rotation=rotation, data_kind=str(tile.get("kind", "")),
                 data_last="true" if last else None)


# ==== figures =================================================================================
def meeple(seat: Any, *, scale: float = 1.0, lying: bool = False, hat: bool = False,
           hollow: bool = False) -> list[Element]:
    """A meeple in `seat`'s colour (outlined, so it reads on any tile); `lying` for a farmer,
    `hat` for the ringmaster, `hollow` for one that is not in the supply."""
    colour = seat_colour(seat if isinstance(seat, int) else None)
    transform = f"rotate(-90) scale({_n(scale)})" if lying else f"scale({_n(scale)})"
    body = el("path", d=MEEPLE, fill="none" if hollow else colour, stroke=colour if hollow else "#1b1b1b",
              stroke_width=1.4 if hollow else 1.1, stroke_linejoin="round")
    shapes: list[Element] = [body]
    if hat:
        shapes.append(el("path", d=HAT, fill="none" if hollow else "#151515", stroke="#151515" if hollow else "#fff",
                         stroke_width=.8))
    return [group(shapes, transform=transform)]


def _figures(table: Table, frame: Frame, faces: dict[tuple[int, int], dict[str, Any]]) -> list[Element]:
    out: list[Element] = []
    for item in table.state.get("followers") or []:
        pos = (int(item["x"]), int(item["y"]))
        placed = faces.get(pos)
        segment, figure, seat = str(item.get("segment")), str(item.get("figure", "meeple")), item.get("seat")
        spot: tuple[float, float] = CENTRE
        kind = "feature"
        tile = table.tiles.get(str(placed.get("tile"))) if placed else None
        if tile is not None and placed is not None:
            found = face(tile)
            spot = turn(found.anchors.get(segment, CENTRE), int(placed.get("rotation", 0)))
            kind = next((f.type for f in tile.features if f.id == segment), "feature")
        x, y = frame.at(*pos)
        role = {"city": "knight in the city", "road": "highwayman on the road", "field": "farmer in the field",
                "monastery": "monk in the monastery"}.get(kind, "on")
        words = f"{table.name(seat)}'s {figure}: {role} {segment} at ({pos[0]}, {pos[1]})"
        out.append(group([title(words), *meeple(seat, scale=1.4, lying=kind == "field", hat=figure == "ringmaster")],
                         transform=f"translate({_n(x + spot[0])} {_n(y + spot[1])})", data_figure=figure,
                         data_seat=seat, data_x=pos[0], data_y=pos[1], data_segment=segment))
    return out


def _pyramids(table: Table, frame: Frame) -> list[Element]:
    out: list[Element] = []
    for pyramid in table.state.get("pyramids") or []:
        px, py = int(pyramid["x"]), int(pyramid["y"])
        x, y = frame.at(px, py)
        acrobats = list(pyramid.get("acrobats") or [])
        figures: list[Element] = []
        for level, seat in enumerate(acrobats[:3]):
            sx, sy = ACROBAT_SPACES[level]
            figures.append(group([title(f"{table.name(seat)}'s acrobat"), *meeple(seat, scale=.85)],
                                 transform=f"translate({_n(x + sx)} {_n(y + sy - 4)})", data_figure="acrobat",
                                 data_seat=seat, data_x=px, data_y=py, data_level=level))
        words = f"pyramid at ({px}, {py}): {len(acrobats)} of 3 acrobats" + (", complete" if len(acrobats) >= 3 else "")
        out.append(group([title(words), *figures], data_pyramid=f"{px},{py}", data_x=px, data_y=py))
    return out


def _big_top(table: Table, frame: Frame) -> Element | None:
    """The Big Top over its circus space, with the token under it as the view names it: a "?"
    while face down (BT-3.7), the animal only where the view shows it."""
    top = table.state.get("big_top")
    if not isinstance(top, dict):
        return None
    bx, by = int(top["x"]), int(top["y"])
    x, y = frame.at(bx, by)
    token = top.get("token")
    tent = [
        el("path", d="M-23 12V-2L0 -20L23 -2V12Z", fill="#d32f2f", stroke="#5a1010", stroke_width=1.5,
           stroke_linejoin="round"),
        el("path", d="M-11.5 12V-11M0 12V-20M11.5 12V-11", stroke="#fff", stroke_width=4),
        el("path", d="M-5 12V3A5 5 0 0 1 5 3V12Z", fill="#3a0d0d"),
        el("path", d="M0 -20V-29L8 -26L0 -23", fill="#ffca28", stroke="#5a1010", stroke_width=1),
    ]
    words = f"the Big Top at ({bx}, {by})"
    if isinstance(token, str):
        label = "?" if token == "face-down" else token
        tent += [el("rect", x=-24, y=14, width=48, height=13, rx=6.5, fill="#37474f", stroke="#fff", stroke_width=1),
                 text(0, 24, label, class_="cb-token")]
        words += ", animal token face down" if token == "face-down" else f", animal token: {token}"
    return group([title(words), *tent], transform=f"translate({_n(x + CENTRE[0])} {_n(y + CENTRE[1] - 2)})",
                 data_big_top="true", data_x=bx, data_y=by, data_token=token if isinstance(token, str) else "")


# ==== the panel ===============================================================================
class Column:
    """The panel's content, written top to bottom at a running y."""

    def __init__(self) -> None:
        self.items: list[Element] = []
        self.y = 0.0

    def add(self, item: Element, height: float) -> None:
        self.items.append(item)
        self.y += height

    def heading(self, words: str) -> None:
        self.y += 14
        self.add(group([text(16, self.y + 12, words.upper(), class_="cb-sec"),
                        el("path", d=f"M16 {_n(self.y + 18)}H{PANEL_WIDTH - 16}", stroke="#d9d2c2")]), 26)

    def line(self, words: str, css: str = "cb-t", **attrs: Any) -> None:
        """`words` wrapped to the panel's width, one text per line."""
        for part in wrap(words, 44 if css == "cb-t" else 50):
            self.add(text(16, self.y + 13, part, class_=css, **attrs), 18 if css == "cb-t" else 16)


def _panel(table: Table, seq: int) -> tuple[Element, float]:
    column = Column()
    column.add(group([text(16, 30, "Carcassonne", class_="cb-h"),
                      text(PANEL_WIDTH - 16, 30, f"step {seq}", class_="cb-sub", text_anchor="end")]), 40)
    column.line(_status(table), "cb-s")
    last = _last_placed(table.state)
    if last is not None:
        board = table.state.get("board") or []
        placed: dict[str, Any] = next((t for t in board if (t.get("x"), t.get("y")) == last), {})
        column.line(f"placed last: tile {placed.get('tile')} at ({last[0]}, {last[1]}), "
                    f"{_turned_words(int(placed.get('rotation', 0)))}", "cb-s")
    column.heading("Players")
    for seat in range(len(table.names)):
        column.add(_player(table, seat, column.y), ROW)
    current = table.state.get("current_tile")
    if current and table.state.get("phase") == "place":
        column.heading("Tile to place")
        column.add(_in_hand(table, str(current), column.y), 96)
    column.heading("Stack")
    left = int(table.state.get("tiles_left", 0) or 0)
    column.add(group([text(16, column.y + 20, left, class_="cb-big"),
                      text(16 + 14 * len(str(left)) + 8, column.y + 20,
                           "tile left to draw" if left == 1 else "tiles left to draw", class_="cb-t")],
                     data_tiles_left=left), 28)
    discarded = [str(t) for t in table.state.get("discarded") or []]
    if discarded:
        column.line(f"discarded, fitting nowhere (CB-3.3): {', '.join(discarded)}", "cb-s")
    if "circus" in table.parts:
        _circus_lines(table, column)
    _recent(table, column)
    column.heading("Key")
    legend, legend_height = _legend(table, column.y)
    column.add(legend, legend_height)
    height = column.y + 12
    panel = group([el("rect", x=0, y=0, width=PANEL_WIDTH, height=height, fill="#fffdf7", stroke="#e4ddcc"),
                   *column.items], class_="cb-panel")
    return panel, height


def _status(table: Table) -> str:
    state = table.state
    if table.status != "active" or table.decision.get("over"):
        result = (table.end or {}).get("result") or {}
        winners = [table.name(seat) for seat in result.get("winners") or []]
        return "Game over" + (f": {' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}" if winners else "")
    prompt = str(table.decision.get("prompt") or "")
    seats = [seat for seat in table.decision.get("seats") or [] if isinstance(seat, int)]
    who = ", ".join(table.name(seat) for seat in seats)
    turn_words = f"turn {state.get('turn')}"
    if who:
        return f"{turn_words} · {who}: {prompt}" if prompt else f"{turn_words} · {who} to move"
    return f"{turn_words} · {prompt}" if prompt else turn_words


def _player(table: Table, seat: int, top: float) -> Element:
    supply = {item.get("seat"): item for item in table.state.get("supply") or [] if isinstance(item, dict)}
    mine = supply.get(seat, {})
    meeples = int(mine.get("meeples", 0) or 0)
    score = table.scores[seat] if seat < len(table.scores) else 0
    moving = seat in (table.decision.get("seats") or []) and table.status == "active"
    colour = seat_colour(seat)
    parts: list[Element] = [
        el("rect", x=10, y=top + 4, width=PANEL_WIDTH - 20, height=ROW - 8, rx=6,
           fill="#fff4d6" if moving else "#ffffff", stroke=HIGHLIGHT if moving else "#e9e3d5",
           stroke_width=2 if moving else 1),
        el("rect", x=10, y=top + 4, width=7, height=ROW - 8, rx=3, fill=colour),
        text(26, top + 24, ("▶ " if moving else "") + table.name(seat), class_="cb-name"),
        text(PANEL_WIDTH - 22, top + 31, score, class_="cb-score"),
        text(PANEL_WIDTH - 22, top + 46, "points", class_="cb-s", text_anchor="end"),
    ]
    total = max(meeples, _meeples_per_seat(table))
    for index in range(total):
        parts.append(group(meeple(seat, scale=.62, hollow=index >= meeples),
                           transform=f"translate({_n(32 + index * 14)} {_n(top + 40)})"))
    ringmaster: str | None = None
    if "ringmasters" in table.parts:
        home = bool(mine.get("ringmaster"))
        ringmaster = "home" if home else "placed"
        parts.append(group(meeple(seat, scale=.62, hat=True, hollow=not home),
                           transform=f"translate({_n(32 + total * 14 + 8)} {_n(top + 40)})"))
    words = f"{table.name(seat)}: {score} points; {meeples} meeples in the supply"
    if ringmaster is not None:
        words += "; ringmaster " + ("in the supply" if ringmaster == "home" else "on the board")
    return group([title(words), *parts], data_seat=seat, data_score=score, data_meeples=meeples,
                 data_ringmaster=ringmaster, data_to_move="true" if moving else None)


def _meeples_per_seat(table: Table) -> int:
    """How many meeples a seat owns: its supply plus those on the map and in pyramids."""
    counts: dict[Any, int] = {}
    for item in table.state.get("followers") or []:
        if item.get("figure") != "ringmaster":
            counts[item.get("seat")] = counts.get(item.get("seat"), 0) + 1
    for pyramid in table.state.get("pyramids") or []:
        for seat in pyramid.get("acrobats") or []:
            counts[seat] = counts.get(seat, 0) + 1
    best = 0
    for item in table.state.get("supply") or []:
        best = max(best, int(item.get("meeples", 0) or 0) + counts.get(item.get("seat"), 0))
    return best


def _in_hand(table: Table, tile_id: str, top: float) -> Element:
    known = table.tiles.get(tile_id)
    kind = str(getattr(known, "kind", "") or "")
    about = [f"tile {tile_id}" + (f" · {kind} tile" if kind in ("circus", "acrobat") else "")]
    description = str(getattr(known, "description", "") or "")
    lines = [text(106, top + 16, about[0], class_="cb-name")]
    for index, line in enumerate(wrap(description, 30)[:4]):
        lines.append(text(106, top + 34 + index * 15, line, class_="cb-s"))
    return group([title(f"tile {tile_id} to place, shown as printed" + (f": {description}" if description else "")),
                  group([*tile_face(table, tile_id, 0, 80),
                         el("rect", x=0, y=0, width=80, height=80, fill="none", stroke=HIGHLIGHT, stroke_width=2.5)],
                        transform=f"translate(16 {_n(top + 4)})"),
                  *lines], data_current_tile=tile_id)


def _circus_lines(table: Table, column: Column) -> None:
    column.heading("Circus")
    top = table.state.get("big_top")
    if isinstance(top, dict):
        token = top.get("token")
        where = f"Big Top at ({top.get('x')}, {top.get('y')})"
        if token == "face-down":
            where += ", token face down"
        elif isinstance(token, str):
            where += f", token {token}"
        column.line(where)
    else:
        column.line("Big Top not yet on the map")
    column.line(f"{int(table.state.get('tokens_left', 0) or 0)} animal tokens left in the stack", "cb-s")
    revealed = [str(t) for t in table.state.get("revealed_tokens") or []]
    if revealed:
        column.line("revealed: " + ", ".join(revealed), "cb-s")
    by_animal = table.state.get("tokens_left_by_animal")
    if isinstance(by_animal, dict) and by_animal:
        words = ", ".join(f"{animal} {count}" for animal, count in sorted(by_animal.items()))
        column.line(f"in the stack: {words}", "cb-s")


def _recent(table: Table, column: Column) -> None:
    scores = table.state.get("scores") or {}
    lines = [line for line in scores.get("recent") or [] if isinstance(line, dict)][-RECENT:]
    if not lines:
        return
    column.heading("Latest scoring")
    for line in reversed(lines):
        seat = line.get("seat")
        colour = seat_colour(seat if isinstance(seat, int) else None)
        row = group([el("circle", cx=22, cy=column.y + 9, r=4.5, fill=colour),
                     text(32, column.y + 13, f"{table.name(seat)} +{line.get('points')} {line.get('category')}",
                          class_="cb-t"),
                     text(PANEL_WIDTH - 16, column.y + 13, str(line.get("rule", "")), class_="cb-s",
                          text_anchor="end"),
                     title(str(line.get("detail", "")))])
        column.add(row, 18)


def _legend(table: Table, top: float) -> tuple[Element, float]:
    items: list[tuple[list[Element], str]] = [
        (meeple(None, scale=.8), "meeple"), (meeple(None, scale=.8, lying=True), "farmer"),
    ]
    if "ringmasters" in table.parts:
        items.append((meeple(None, scale=.8, hat=True), "ringmaster"))
    if "acrobats" in table.parts:
        items.append(([el("circle", cx=0, cy=0, r=7, fill="#f6e3f7", stroke="#7b1fa2", stroke_width=2)],
                      "acrobat space"))
    if "circus" in table.parts:
        items.append(([el("circle", cx=0, cy=0, r=7, fill="#fff4e0", stroke="#c62828", stroke_width=2.5)],
                      "circus space"))
        items.append(([el("path", d="M-8 6V0L0 -7L8 0V6Z", fill="#d32f2f", stroke="#5a1010")], "Big Top"))
    items.append(([el("path", d=SHIELD, fill="#1d4f9c", stroke="#fff", stroke_width=1.2)], "pennant"))
    items.append(([el("rect", x=-8, y=-8, width=16, height=16, fill="none", stroke=HIGHLIGHT, stroke_width=3)],
                  "placed last"))
    out: list[Element] = []
    per_row = 2
    for index, (shapes, words) in enumerate(items):
        x = 24 + (index % per_row) * 150
        y = top + 10 + (index // per_row) * 22
        out.append(group([group(shapes, transform=f"translate({x} {_n(y)})"),
                          text(x + 14, y + 4, words, class_="cb-s")]))
    return group(out), 4 + 22 * ((len(items) + per_row - 1) // per_row)

