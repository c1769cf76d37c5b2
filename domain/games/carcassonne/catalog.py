"""Tile geometry precomputed for every rotation, so the hot paths never rotate anything.

Coordinates: x grows to the east, y grows to the south; edge index 0..3 is N, E, S, W and
half-edge index 0..7 runs clockwise from the north edge's western half (Nw, Ne, En, Es, Se,
Sw, Ws, Wn). Rotating a tile by r quarter turns clockwise moves edge e to (e + r) % 4 and
half-edge h to (h + 2r) % 8.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .components import (
    EDGE_NAMES,
    HALF_EDGE_NAMES,
    CarcassonneComponents,
    CityFeature,
    FieldFeature,
    MonasteryFeature,
    RoadFeature,
)

DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
OPPOSITE = (2, 3, 0, 1)
HALF_ACROSS = (5, 4, 7, 6, 1, 0, 3, 2)
"""The half-edge of the neighbour that touches half-edge h (Nw meets the northern tile's Sw)."""
EDGE_WORDS = ("north", "east", "south", "west")
TYPE_WORDS = {"C": "city", "R": "road", "F": "field"}

Pos = tuple[int, int]


@dataclass(frozen=True)
class Segment:
    """One feature segment of a tile in a given rotation."""

    id: str
    kind: str  # "city", "road", "field" or "monastery"
    edges: tuple[int, ...] = ()
    halves: tuple[int, ...] = ()
    pennants: int = 0
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class RotatedTile:
    """A tile type turned r quarter turns clockwise: what the board stores per position."""

    type_id: str
    rotation: int
    kind: str  # "base", "circus" or "acrobat"
    edges: str  # edge letters N, E, S, W after rotation
    edge_segment: tuple[str | None, ...]
    half_segment: tuple[str | None, ...]
    segments: tuple[Segment, ...]
    by_id: dict[str, Segment]

    @property
    def monastery(self) -> Segment | None:
        for segment in self.segments:
            if segment.kind == "monastery":
                return segment
        return None


def _rotate(tile_id: str, kind: str, edge_string: str, features: tuple[object, ...], r: int) -> RotatedTile:
    edges = ["F"] * 4
    for index, letter in enumerate(edge_string):
        edges[(index + r) % 4] = letter
    edge_segment: list[str | None] = [None] * 4
    half_segment: list[str | None] = [None] * 8
    segments: list[Segment] = []
    for feature in features:
        if isinstance(feature, CityFeature | RoadFeature):
            rotated = tuple(sorted((EDGE_NAMES.index(e) + r) % 4 for e in feature.edges))
            for edge in rotated:
                edge_segment[edge] = feature.id
            pennants = feature.pennants if isinstance(feature, CityFeature) else 0
            segments.append(Segment(feature.id, feature.type, edges=rotated, pennants=pennants))
        elif isinstance(feature, FieldFeature):
            halves = tuple(sorted((HALF_EDGE_NAMES.index(h) + 2 * r) % 8 for h in feature.half_edges))
            for half in halves:
                half_segment[half] = feature.id
            segments.append(Segment(feature.id, "field", halves=halves, cities=tuple(feature.cities)))
        elif isinstance(feature, MonasteryFeature):
            segments.append(Segment(feature.id, "monastery"))
    return RotatedTile(
        type_id=tile_id,
        rotation=r,
        kind=kind,
        edges="".join(edges),
        edge_segment=tuple(edge_segment),
        half_segment=tuple(half_segment),
        segments=tuple(segments),
        by_id={segment.id: segment for segment in segments},
    )


class Catalog:
    """Every tile type of a component set in all four rotations, plus the token values."""

    def __init__(self, components: CarcassonneComponents) -> None:
        self.components = components
        self.rotated: dict[tuple[str, int], RotatedTile] = {}
        self.kinds: dict[str, str] = {}
        self.distinct_rotations: dict[str, tuple[int, ...]] = {}
        self.fit_patterns: dict[str, frozenset[tuple[str | None, ...]]] = {}
        """Per tile type, what its edges (N, E, S, W) look like in some rotation with any of them
        left out (None): a place where the tile fits in some rotation is one whose neighbours'
        touching edges, None where there is no neighbour, are one of these (CB-3.2)."""
        for tile in components.tiles:
            self.kinds[tile.id] = tile.kind
            seen: set[str] = set()
            keep: list[int] = []
            for r in range(4):
                rotated = _rotate(tile.id, tile.kind, tile.edges, tile.features, r)
                self.rotated[(tile.id, r)] = rotated
                signature = repr((rotated.edges, rotated.edge_segment, rotated.half_segment,
                                  [(s.id, s.edges, s.halves) for s in rotated.segments]))
                if signature not in seen:
                    seen.add(signature)
                    keep.append(r)
            self.distinct_rotations[tile.id] = tuple(keep)
            self.fit_patterns[tile.id] = frozenset(
                tuple(edges[side] if mask >> side & 1 else None for side in range(4))
                for edges in {self.rotated[(tile.id, r)].edges for r in range(4)} for mask in range(16))
        self.token_values = {token.animal: token.value for token in components.animal_tokens}

    def get(self, tile_id: str, rotation: int) -> RotatedTile:
        return self.rotated[(tile_id, rotation)]


_CACHE: OrderedDict[int, Catalog] = OrderedDict()
_CACHE_SIZE = 32


def catalog_for(components: CarcassonneComponents) -> Catalog:
    """One catalog per component-set object (the set is immutable, so identity is enough; the
    catalog keeps its set alive, so an id is never reused while cached). Least recently used
    sets are dropped, so loading many custom sets cannot grow memory without bound."""
    key = id(components)
    cached = _CACHE.get(key)
    if cached is None or cached.components is not components:
        cached = Catalog(components)
        _CACHE[key] = cached
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return cached


def neighbours8(pos: Pos) -> tuple[Pos, ...]:
    """The up to 8 surrounding positions (BT-0.2), in a fixed order."""
    x, y = pos
    return tuple((x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


def area3(pos: Pos) -> tuple[Pos, ...]:
    """A tile's 3x3 area: itself and its 8 surrounding positions (BT-0.2, AMB-5)."""
    x, y = pos
    return tuple((x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
