"""State <-> JSON. The encoding holds everything but the component set, which the match
config gives back on decode (so a snapshot never carries the whole tile catalogue)."""

from __future__ import annotations

from typing import Any, cast

from domain.kernel.canonical import JSON
from domain.kernel.contract import ScoreLine

from .catalog import Catalog, Pos, RotatedTile
from .state import CarcassonneState, FigureKind, Follower, Node, Parts, Phase

FORMAT = 1


def _pos(value: Any) -> Pos | None:
    return None if value is None else (int(value[0]), int(value[1]))


def encode(state: CarcassonneState) -> JSON:
    return {
        "format": FORMAT,
        "seats": state.seats,
        "parts": state.parts.names(),
        "board": [[x, y, state.board[(x, y)].type_id, state.board[(x, y)].rotation] for x, y in state.order],
        "stack": {tile: count for tile, count in sorted(state.stack.items()) if count},
        "tokens": {animal: count for animal, count in sorted(state.tokens.items()) if count},
        "phase": state.phase,
        "seat": state.seat,
        "turn": state.turn,
        "current_tile": state.current_tile,
        "placed": None if state.placed is None else list(state.placed),
        "followers": [[n[0], n[1], n[2], f.seat, f.figure] for n, f in sorted(state.followers.items())],
        "pyramids": [[p[0], p[1], list(seats)] for p, seats in sorted(state.pyramids.items())],
        "supply": list(state.supply),
        "ringmaster_home": list(state.ringmaster_home),
        "big_top": None if state.big_top is None else list(state.big_top),
        "big_top_token": state.big_top_token,
        "revealed": list(state.revealed),
        "discarded": list(state.discarded),
        "lines": [[line.seat, line.points, line.category, line.rule, line.detail, dict(line.refs)]
                  for line in state.lines],
    }


def decode(data: JSON, catalog: Catalog) -> CarcassonneState:
    parts = set(data["parts"])
    board: dict[Pos, RotatedTile] = {}
    order: list[Pos] = []
    for x, y, tile_id, rotation in data["board"]:
        board[(x, y)] = catalog.get(tile_id, rotation)
        order.append((x, y))
    followers: dict[Node, Follower] = {
        (x, y, seg): Follower(seat, cast(FigureKind, figure)) for x, y, seg, seat, figure in data["followers"]
    }
    return CarcassonneState(
        seats=data["seats"],
        parts=Parts("circus" in parts, "acrobats" in parts, "ringmasters" in parts),
        catalog=catalog,
        board=board,
        order=tuple(order),
        stack=dict(data["stack"]),
        tokens=dict(data["tokens"]),
        phase=cast(Phase, data["phase"]),
        seat=data["seat"],
        turn=data["turn"],
        current_tile=data["current_tile"],
        placed=_pos(data["placed"]),
        followers=followers,
        pyramids={(x, y): tuple(seats) for x, y, seats in data["pyramids"]},
        supply=tuple(data["supply"]),
        ringmaster_home=tuple(data["ringmaster_home"]),
        big_top=_pos(data["big_top"]),
        big_top_token=data["big_top_token"],
        revealed=tuple(data["revealed"]),
        discarded=tuple(data["discarded"]),
        lines=tuple(ScoreLine(seat, points, category, rule, detail, refs)
                    for seat, points, category, rule, detail, refs in data["lines"]),
    )
