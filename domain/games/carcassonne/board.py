"""Tile placement legality (CB-3): where a tile may go and, when it may not, why."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .catalog import DX, DY, EDGE_WORDS, OPPOSITE, TYPE_WORDS, Catalog, Pos, RotatedTile


def frontier(board: Mapping[Pos, RotatedTile]) -> list[Pos]:
    """Empty positions orthogonally next to a placed tile (CB-3.1), sorted by row then column."""
    found = {pos for x, y in board for dx, dy in _SIDES if (pos := (x + dx, y + dy)) not in board}
    return sorted(found, key=lambda p: (p[1], p[0]))


def _frontier_lazily(board: Mapping[Pos, RotatedTile], newest_first: bool = False) -> Iterator[Pos]:
    """The frontier unordered, each position once, found as it is walked: `placeable` (asked at
    every draw) needs no order and usually stops at one of the first positions, so neither the
    whole set nor its sort is built for it. `newest_first`: around the tiles placed last first
    (a board that is a dict keeps the order they were placed in)."""
    seen: set[Pos] = set()
    for x, y in (reversed(board) if newest_first and isinstance(board, dict) else board):
        for dx, dy in _SIDES:
            pos = (x + dx, y + dy)
            if pos not in board and pos not in seen:
                seen.add(pos)
                yield pos


_SIDES = tuple(zip(DX, DY, strict=True))
"""The offset to the neighbour across each side."""


def fits(board: Mapping[Pos, RotatedTile], tile: RotatedTile, pos: Pos) -> bool:
    """Every edge that touches a placed tile matches it (CB-3.2)."""
    x, y = pos
    for side in range(4):
        other = board.get((x + DX[side], y + DY[side]))
        if other is not None and other.edges[OPPOSITE[side]] != tile.edges[side]:
            return False
    return True


def mismatch(board: Mapping[Pos, RotatedTile], tile: RotatedTile, pos: Pos) -> str | None:
    """Why the tile does not fit at pos, in words, or None when every edge matches."""
    x, y = pos
    for side in range(4):
        other = board.get((x + DX[side], y + DY[side]))
        if other is not None and other.edges[OPPOSITE[side]] != tile.edges[side]:
            return (
                f"the {EDGE_WORDS[side]} edge is a {TYPE_WORDS[tile.edges[side]]} but the neighbour's "
                f"{EDGE_WORDS[OPPOSITE[side]]} edge is a {TYPE_WORDS[other.edges[OPPOSITE[side]]]}"
            )
    return None


def placements(board: Mapping[Pos, RotatedTile], catalog: Catalog, tile_id: str) -> Iterator[tuple[Pos, int]]:
    """Every legal (position, rotation) for the tile. Rotations that look alike (the monastery,
    the all-city tile) are all listed: each is a move `validate` accepts."""
    rotations = [catalog.get(tile_id, r) for r in range(4)]
    for pos in frontier(board):
        for rotated in rotations:
            if fits(board, rotated, pos):
                yield pos, rotated.rotation


def placeable(board: Mapping[Pos, RotatedTile], catalog: Catalog, tile_id: str) -> bool:
    """Whether the tile fits anywhere at all; if not it is discarded (CB-3.3). Asked at every
    draw: each empty place next to the map is judged by one look-up of the edges its neighbours
    show it (`Catalog.fit_patterns`), not by trying each rotation edge by edge (`fits`)."""
    patterns = catalog.fit_patterns[tile_id]
    get = board.get
    # the newest tiles first: they lie on the edge of the map, where the empty places are (the
    # first tiles are long surrounded); the answer is the same in any order
    for x, y in _frontier_lazily(board, newest_first=True):
        north, east, south, west = get((x, y - 1)), get((x + 1, y)), get((x, y + 1)), get((x - 1, y))
        touching = (None if north is None else north.edges[2], None if east is None else east.edges[3],
                    None if south is None else south.edges[0], None if west is None else west.edges[1])
        if touching in patterns:
            return True
    return False
