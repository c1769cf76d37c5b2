"""Carcassonne tile faces from the component data: the shapes of a tile type's cities, roads and
centre piece, and where a figure stands on each of its feature segments.

Why geometry from data: a tile type is described only by its features (a city's edges, a road's
edges, a field's half-edges, a monastery) and its kind (circus or acrobat tile, BT-0.3, BT-0.4), so
a corrected or new tile in another component set draws right with no change here. Everything is
computed in the tile's reference orientation on a 100 x 100 square (x east, y south, as in moves);
a placed tile is the same face turned `rotation` quarter turns clockwise (`turn`), the engine's
convention (edge e goes to (e + r) % 4).

Field segments have no shape of their own: they are what cities, roads and the centre piece leave.
Where a farmer lies is found on a coarse raster of the face: each field grows from its half-edges
(BFS, all fields at once, blocked by the drawn cities, roads and centre piece) and the farmer goes
to the cell of its region farthest from any other region.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

SIZE = 100
"""A tile's side in SVG units."""
CENTRE = (50.0, 50.0)
EDGES = ("N", "E", "S", "W")
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
CORNERS = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
"""Corner i starts edge i going clockwise: N runs from corner 0 to corner 1, E from 1 to 2..."""
MIDS = ((50.0, 0.0), (100.0, 50.0), (50.0, 100.0), (0.0, 50.0))
INWARD = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
ROAD_HALF_WIDTH = 6.0
CENTRE_RADIUS = 22.0
"""What the monastery, the circus space and the acrobat spaces cover around the centre."""
ACROBAT_SPACES = ((38.0, 57.0), (62.0, 57.0), (50.0, 37.0))
"""The two acrobat spaces of a pyramid's base and the place on their shoulders (BT-5.6)."""
CELL = 5
GRID = SIZE // CELL

Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """One feature's drawing: an SVG path `d`, its kind, and (for a city) its pennant spots."""

    feature: str
    kind: str  # "city", "road" or "junction"
    d: str
    pennants: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Face:
    """A tile type's face in its reference orientation."""

    tile_id: str
    kind: str  # "base", "circus" or "acrobat"
    roads: tuple[Shape, ...]
    cities: tuple[Shape, ...]
    junction: Point | None
    monastery: bool
    anchors: dict[str, Point]
    """Feature id -> where a figure on it stands."""


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _pt(point: Point) -> str:
    return f"{_fmt(point[0])} {_fmt(point[1])}"


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _quad(a: Point, c: Point, b: Point, steps: int = 16) -> list[Point]:
    """A quadratic Bézier curve as a polyline (for the raster), `a` left out."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        out.append(((1 - t) ** 2 * a[0] + 2 * t * (1 - t) * c[0] + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * t * (1 - t) * c[1] + t * t * b[1]))
    return out


def _run_control(run: list[int], city_edges: int) -> Point:
    """The control point of the curved wall that replaces a run of non-city edges: a shallow
    inward bow over one edge (a band or a three-sided city), a diagonal wall over two (a corner
    city), a cap over three (a city on one edge)."""
    if len(run) == 1:
        return _add(MIDS[run[0]], INWARD[run[0]], 50.0)
    if len(run) == 2:
        shared = CORNERS[(run[0] + 1) % 4]
        return (CENTRE[0] + (CENTRE[0] - shared[0]) * 0.2, CENTRE[1] + (CENTRE[1] - shared[1]) * 0.2)
    city = (run[-1] + 1) % 4
    return _add(MIDS[city], INWARD[city], 56.0)


def city_outline(edges: Sequence[int]) -> tuple[str, list[Point]]:
    """The path of a city on `edges` (edge indices) and its outline as a polygon: the city's
    edges follow the tile's border, every run of other edges becomes one curved wall."""
    cities = set(edges)
    if len(cities) == 4:
        return "M0 0H100V100H0Z", list(CORNERS)
    start = next(e for e in range(4) if e in cities and (e - 1) % 4 not in cities)
    d = [f"M{_pt(CORNERS[start])}"]
    polygon: list[Point] = [CORNERS[start]]
    edge, walked = start, 0
    while walked < 4:
        if edge in cities:
            end = CORNERS[(edge + 1) % 4]
            d.append(f"L{_pt(end)}")
            polygon.append(end)
            edge, walked = (edge + 1) % 4, walked + 1
            continue
        run = []
        while walked < 4 and edge not in cities:
            run.append(edge)
            edge, walked = (edge + 1) % 4, walked + 1
        begin, end = CORNERS[run[0]], CORNERS[(run[-1] + 1) % 4]
        control = _run_control(run, len(cities))
        d.append(f"Q{_pt(control)} {_pt(end)}")
        polygon.extend(_quad(begin, control, end))
    return "".join(d) + "Z", polygon


def road_line(edges: Sequence[int]) -> tuple[str, list[Point], Point]:
    """The path of a road on one or two edges, its polyline and where a figure stands on it. A
    road on one edge runs to the centre, where a junction, the monastery, a circus or acrobat
    space or the city it enters ends it."""
    if len(edges) == 1:
        mid = MIDS[edges[0]]
        anchor = _add(mid, INWARD[edges[0]], 22.0)
        return f"M{_pt(mid)}L{_pt(CENTRE)}", [mid, CENTRE], anchor
    a, b = MIDS[edges[0]], MIDS[edges[1]]
    if (edges[1] - edges[0]) % 2 == 0:
        anchor = (0.5 * a[0] + 0.5 * b[0], 0.5 * a[1] + 0.5 * b[1])
        if len(edges) == 2 and anchor == CENTRE:
            anchor = _add(CENTRE, INWARD[edges[0]], -12.0)  # off the centre, where the tile letter is
        return f"M{_pt(a)}L{_pt(b)}", [a, b], anchor
    anchor = (0.25 * a[0] + 0.5 * CENTRE[0] + 0.25 * b[0], 0.25 * a[1] + 0.5 * CENTRE[1] + 0.25 * b[1])
    return f"M{_pt(a)}Q{_pt(CENTRE)} {_pt(b)}", [a, *_quad(a, CENTRE, b)], anchor


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    inside = False
    for i in range(len(polygon)):
        (x1, y1), (x2, y2) = polygon[i - 1], polygon[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _near(point: Point, line: Sequence[Point], reach: float) -> bool:
    px, py = point
    for (x1, y1), (x2, y2) in pairwise(line):
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length))
        if (px - x1 - t * dx) ** 2 + (py - y1 - t * dy) ** 2 <= reach * reach:
            return True
    return False


def _cell_centre(cx: int, cy: int) -> Point:
    return (cx * CELL + CELL / 2, cy * CELL + CELL / 2)


def _half_cells(half: int) -> list[tuple[int, int]]:
    """The border cells along half-edge `half`, in clockwise order."""
    edge, second = divmod(half, 2)
    span = range(GRID // 2, GRID) if second else range(GRID // 2)
    last = GRID - 1
    if edge == 0:
        return [(i, 0) for i in span]
    if edge == 1:
        return [(last, i) for i in span]
    if edge == 2:
        return [(last - i, last) for i in span]
    return [(0, last - i) for i in span]


def _regions(fields: list[tuple[str, list[int]]], blocked: set[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Each free cell's field: all fields grow at once from their half-edges' border cells."""
    owner: dict[tuple[int, int], str] = {}
    queue: deque[tuple[int, int]] = deque()
    for feature, halves in fields:
        for half in halves:
            for cell in _half_cells(half):
                if cell not in blocked and cell not in owner:
                    owner[cell] = feature
                    queue.append(cell)
    while queue:
        cx, cy = queue.popleft()
        for nx, ny in ((cx, cy - 1), (cx + 1, cy), (cx, cy + 1), (cx - 1, cy)):
            if 0 <= nx < GRID and 0 <= ny < GRID and (nx, ny) not in blocked and (nx, ny) not in owner:
                owner[(nx, ny)] = owner[(cx, cy)]
                queue.append((nx, ny))
    return owner


def _depths(cells: set[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Each cell's distance (in cells, 8-neighbourhood) to the nearest cell outside `cells`."""
    depth: dict[tuple[int, int], int] = {}
    queue: deque[tuple[int, int]] = deque()
    for cx, cy in sorted(cells):
        around = [(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        if any(c not in cells for c in around):
            depth[(cx, cy)] = 1
            queue.append((cx, cy))
    while queue:
        cx, cy = queue.popleft()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nxt = (cx + dx, cy + dy)
                if nxt in cells and nxt not in depth:
                    depth[nxt] = depth[(cx, cy)] + 1
                    queue.append(nxt)
    return depth


def _deepest(cells: set[tuple[int, int]], away_from: Sequence[Point] = ()) -> Point | None:
    """The centre of the cell deepest inside `cells`, ties going to the one nearest the cells'
    middle; with `away_from`, only cells at least 22 units from those points count."""
    if not cells:
        return None
    depth = _depths(cells)
    mx = sum(_cell_centre(*c)[0] for c in cells) / len(cells)
    my = sum(_cell_centre(*c)[1] for c in cells) / len(cells)
    best: tuple[float, float, tuple[int, int]] | None = None
    for cell in sorted(cells):
        x, y = _cell_centre(*cell)
        if any((x - ax) ** 2 + (y - ay) ** 2 < 22 ** 2 for ax, ay in away_from):
            continue
        key = (-depth.get(cell, 0), (x - mx) ** 2 + (y - my) ** 2, cell)
        if best is None or key < best:
            best = key
    return None if best is None else _cell_centre(*best[2])


def _edge_indices(names: Sequence[str], table: Sequence[str]) -> list[int]:
    return sorted(table.index(name) for name in names)


@lru_cache(maxsize=512)
def face(tile: Any) -> Face:
    """The face of a tile type (a `TileType` of the component set: frozen, so it is its own
    cache key)."""
    centre_piece = tile.kind in ("circus", "acrobat") or any(f.type == "monastery" for f in tile.features)
    roads: list[Shape] = []
    cities: list[Shape] = []
    anchors: dict[str, Point] = {}
    blocked: set[tuple[int, int]] = set()
    cells = [(cx, cy) for cy in range(GRID) for cx in range(GRID)]
    lone_roads = 0
    for feature in tile.features:
        if feature.type != "road":
            continue
        edges = _edge_indices(feature.edges, EDGES)
        d, line, anchor = road_line(edges)
        roads.append(Shape(feature.id, "road", d))
        anchors[feature.id] = anchor
        lone_roads += len(edges) == 1
        blocked.update(c for c in cells if _near(_cell_centre(*c), line, ROAD_HALF_WIDTH + 1))
    city_cells: dict[str, set[tuple[int, int]]] = {}
    for feature in tile.features:
        if feature.type != "city":
            continue
        d, polygon = city_outline(_edge_indices(feature.edges, EDGES))
        inside = {c for c in cells if _inside(_cell_centre(*c), polygon)}
        city_cells[feature.id] = inside
        blocked |= inside
        anchor = _deepest(inside) or MIDS[_edge_indices(feature.edges, EDGES)[0]]
        anchors[feature.id] = anchor
        spots: list[Point] = []
        for _ in range(int(getattr(feature, "pennants", 0) or 0)):
            spot = _deepest(inside, [anchor, *spots]) or _add(anchor, (14.0, 0.0))
            spots.append(spot)
        cities.append(Shape(feature.id, "city", d, tuple(spots)))
    if centre_piece:
        blocked.update(c for c in cells if _near(_cell_centre(*c), [CENTRE, CENTRE], CENTRE_RADIUS))
    for feature in tile.features:
        if feature.type == "monastery":
            anchors[feature.id] = CENTRE
    fields = [(f.id, _edge_indices(f.half_edges, HALVES)) for f in tile.features if f.type == "field"]
    owner = _regions(fields, blocked)
    for feature, halves in fields:
        region = {cell for cell, field in owner.items() if field == feature}
        half = halves[0]
        fallback = _add(_cell_centre(*_half_cells(half)[GRID // 4]), INWARD[half // 2], 6.0)
        anchors[feature] = _deepest(region) or fallback
    junction = CENTRE if lone_roads and not centre_piece else None
    return Face(tile.id, tile.kind, tuple(roads), tuple(cities), junction,
                any(f.type == "monastery" for f in tile.features), anchors)


def turn(point: Point, rotation: int) -> Point:
    """`point` of the reference face after `rotation` quarter turns clockwise about the centre."""
    x, y = point
    for _ in range(rotation % 4):
        x, y = SIZE - y, x
    return (x, y)
