"""Features on the board: a flood fill over segments that touch across tile edges.

A feature is recomputed from the board when it is needed instead of being kept in a union-find:
the board never holds more than about a hundred tiles, a fill touches only the feature itself,
and the state stays a plain value with nothing to keep in sync (CB-4.5 merges come for free).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .catalog import DX, DY, HALF_ACROSS, OPPOSITE, Pos, RotatedTile, area3
from .state import Follower, Node


@dataclass(frozen=True)
class Feature:
    """A connected city, road, field or a monastery, with what scoring needs to know."""

    kind: str
    nodes: tuple[Node, ...]
    """Segments in the feature, sorted (the first one names the feature)."""
    tiles: tuple[Pos, ...]
    """Distinct tiles it runs through, sorted: each counted once (CB-5.6)."""
    complete: bool
    pennants: int = 0

    @property
    def key(self) -> Node:
        return self.nodes[0]

    def followers(self, placed: Mapping[Node, Follower]) -> list[tuple[Node, Follower]]:
        return [(node, placed[node]) for node in self.nodes if node in placed]


def explore(board: Mapping[Pos, RotatedTile], node: Node) -> Feature:
    """The whole feature that segment `node` belongs to."""
    x, y, seg = node
    tile = board[(x, y)]
    kind = tile.by_id[seg].kind
    if kind == "monastery":
        around = tuple(sorted(p for p in area3((x, y)) if p in board))
        return Feature("monastery", (node,), around, complete=len(around) == 9)
    seen = {node}
    todo = [node]
    complete = True
    pennants = 0
    while todo:
        cx, cy, cseg = todo.pop()
        here = board[(cx, cy)]
        segment = here.by_id[cseg]
        pennants += segment.pennants
        if kind == "field":
            for half in segment.halves:
                side = half // 2
                other = board.get((cx + DX[side], cy + DY[side]))
                if other is None:
                    continue
                target = other.half_segment[HALF_ACROSS[half]]
                if target is None:  # cannot happen on a legally built board
                    continue
                nxt = (cx + DX[side], cy + DY[side], target)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        else:
            for edge in segment.edges:
                other = board.get((cx + DX[edge], cy + DY[edge]))
                if other is None:
                    complete = False
                    continue
                target = other.edge_segment[OPPOSITE[edge]]
                if target is None:
                    continue
                nxt = (cx + DX[edge], cy + DY[edge], target)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    nodes = tuple(sorted(seen))
    tiles = tuple(sorted({(n[0], n[1]) for n in nodes}))
    return Feature(kind, nodes, tiles, complete=complete and kind != "field", pennants=pennants)


def occupied(board: Mapping[Pos, RotatedTile], followers: Mapping[Node, Follower], node: Node) -> bool:
    """Whether any figure stands anywhere on the feature of `node` (CB-4.3)."""
    if not followers:
        return False
    return any(n in followers for n in explore(board, node).nodes)


def bordering_cities(board: Mapping[Pos, RotatedTile], field: Feature) -> list[Feature]:
    """The distinct cities a field touches (CB-6.3), each once, in a fixed order."""
    found: dict[Node, Feature] = {}
    member: dict[Node, Node] = {}
    for x, y, seg in field.nodes:
        for city in board[(x, y)].by_id[seg].cities:
            start = (x, y, city)
            if start in member:
                continue
            feature = explore(board, start)
            for n in feature.nodes:
                member[n] = feature.key
            found[feature.key] = feature
    return [found[key] for key in sorted(found)]
