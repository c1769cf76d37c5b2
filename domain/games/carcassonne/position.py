"""Carcassonne positions: the table as a player describes it, and back (docs/positions.md).

A position names what lies on the table: the tiles in the order they were laid (the start tile
first), the figures on them, the acrobat pyramids, the Big Top and the token under it, the tokens
revealed and the tiles discarded, each seat's score, and whose turn it is and how far it has got
(about to draw, holding a drawn tile, about to place a figure, or waiting for the Big Top's new
token). Everything else follows from it and the component set, so it is not written twice: the
stack is what the set has left once the board, the discards and the drawn tile are taken out (a
multiset: its order is decided by each draw), the token stack likewise, each seat's supply is its
meeples not on the board, and its ringmaster is home unless it stands somewhere.

`from_position` checks the position against the components and the rules' invariants, naming the
first field that is wrong and the rule: every tile a tile of the set and of a part in play, laid
next to an earlier one with matching edges; every figure on a segment of its tile, one per
segment, within the seat's supply; no figure left on a completed road, city or monastery (it
would have been scored and returned); the Big Top on the last circus tile, with one token revealed
for each circus tile after the first; the turn number and the seat to move agreeing with the
tiles laid.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from domain.kernel.contract import PositionModel
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, position_line
from domain.kernel.viewers import Viewer

from .board import mismatch, placeable
from .catalog import DX, DY, Pos, RotatedTile, area3
from .features import explore
from .state import CarcassonneState, Follower, Node

Coordinate = Field(ge=-200, le=200)
"""As far from the start tile as a move may place a tile (moves.PlaceTile)."""


class Square(PositionModel):
    x: int = Coordinate
    y: int = Coordinate


class LaidTile(PositionModel):
    """A tile on the map: its type (the set's tile id) turned `rotation` quarter turns clockwise."""

    x: int = Coordinate
    y: int = Coordinate
    tile: str = Field(min_length=1, max_length=32)
    rotation: int = Field(ge=0, le=3)


class Figure(PositionModel):
    """A seat's meeple or ringmaster on one segment (c1, r2, f1, m1 ...) of the tile at (x, y)."""

    x: int = Coordinate
    y: int = Coordinate
    segment: str = Field(min_length=1, max_length=16)
    seat: int = Field(ge=0, le=63)
    figure: Literal["meeple", "ringmaster"] = "meeple"


class Pyramid(PositionModel):
    """The acrobats on the acrobat tile at (x, y): their seats, the two base positions first."""

    x: int = Coordinate
    y: int = Coordinate
    acrobats: tuple[int, ...] = Field(min_length=1, max_length=3)


class BigTop(PositionModel):
    """Where the Big Top stands, and the face-down token under it. The token is null only while
    the next token is being drawn (phase "token"): the old one was just scored and revealed."""

    x: int = Coordinate
    y: int = Coordinate
    token: str | None = Field(max_length=32)


class CarcassonnePosition(PositionModel):
    """A Carcassonne table between two steps of a turn."""

    turn: int = Field(ge=1, le=10_000, description="the turn number: the tiles laid before this turn, plus one")
    to_move: int = Field(ge=0, le=63, description="the seat whose turn it is")
    phase: Literal["draw", "place", "figure", "token"] = Field(
        description="draw: about to draw; place: holding `drawn_tile`; figure: the tile is laid at `placed`, "
                    "a figure may follow; token: a circus tile was laid and scored, its token is drawn next")
    drawn_tile: str | None = Field(default=None, max_length=32, description="the tile in hand (phase place only)")
    placed: Square | None = Field(default=None, description="where this turn's tile lies (phases figure and token)")
    board: tuple[LaidTile, ...] = Field(min_length=1, max_length=1_000, description="in the order laid")
    figures: tuple[Figure, ...] = Field(default=(), max_length=200)
    pyramids: tuple[Pyramid, ...] = Field(default=(), max_length=200)
    big_top: BigTop | None = None
    revealed_tokens: tuple[str, ...] = Field(default=(), max_length=100, description="scored tokens, in order")
    discarded: tuple[str, ...] = Field(default=(), max_length=200, description="tiles that fitted nowhere")
    scores: tuple[int, ...] = Field(max_length=64, description="each seat's points so far")


def _fail(path: str, rule: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(path, rule, reason)


def position_of(state: CarcassonneState) -> dict[str, Any]:
    """The state as a position (normal form: figures and pyramids sorted, the rest as laid)."""
    if state.phase == "over":
        raise PositionUnavailableError("the game is over")
    figure_phase = state.phase in ("figure", "token")
    assert not figure_phase or state.placed is not None
    big_top = None if state.big_top is None else BigTop(x=state.big_top[0], y=state.big_top[1],
                                                        token=state.big_top_token)
    totals = [0] * state.seats
    for line in state.lines:
        totals[line.seat] += line.points
    position = CarcassonnePosition(
        turn=state.turn, to_move=state.seat, phase=state.phase,
        drawn_tile=state.current_tile if state.phase == "place" else None,
        placed=Square(x=state.placed[0], y=state.placed[1]) if figure_phase and state.placed else None,
        board=tuple(LaidTile(x=x, y=y, tile=state.board[(x, y)].type_id, rotation=state.board[(x, y)].rotation)
                    for x, y in state.order),
        figures=tuple(Figure(x=node[0], y=node[1], segment=node[2], seat=f.seat, figure=f.figure)
                      for node, f in sorted(state.followers.items())),
        pyramids=tuple(Pyramid(x=pos[0], y=pos[1], acrobats=seats) for pos, seats in sorted(state.pyramids.items())),
        big_top=big_top, revealed_tokens=state.revealed, discarded=state.discarded, scores=tuple(totals),
    )
    data: dict[str, Any] = position.model_dump(mode="json")
    return data


def hide_position(position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The face-down token under the Big Top is hidden from every seat and spectator (BT-3.7),
    as in the view; the rest of the table is public."""
    big_top = position.get("big_top")
    if viewer.sees_all or not isinstance(big_top, dict) or big_top.get("token") is None:
        return position
    return {**position, "big_top": {**big_top, "token": "face-down"}}


def from_position(base: CarcassonneState, position: CarcassonnePosition) -> CarcassonneState:
    """The state `position` describes, built on `base` (the setup of the same match config, which
    brings the parts in play, the full stack and token stack and the start tile); refuses an
    inconsistent position with an InvalidPositionError."""
    catalog = base.catalog
    components = catalog.components
    seats, parts = base.seats, base.parts
    if len(position.scores) != seats:
        raise _fail("scores", RULE, f"a score for each of the {seats} seats, not {len(position.scores)}")
    if any(score < 0 for score in position.scores):
        raise _fail("scores", RULE, "scores are never below zero")
    if position.to_move >= seats:
        raise _fail("to_move", "CB-1.3", f"there is no seat {position.to_move} among {seats}")
    board, order = _board(base, position)
    left = _stack(base, position)
    placed = _placed(position, board, order)
    _turn(position, order, seats)
    if position.phase == "draw" and not sum(left.values()):
        raise _fail("phase", "CB-6.1", "the stack is empty, so the game is over: nobody draws")
    if position.phase == "place":
        assert position.drawn_tile is not None
        if not placeable(board, catalog, position.drawn_tile):
            raise _fail("drawn_tile", RULE, f"tile {position.drawn_tile} fits nowhere: it would have left the "
                                            "game and another been drawn")
    followers = _figures(position, board, placed, seats, parts.ringmasters)
    pyramids = _pyramids(position, board, seats, parts.acrobats)
    supply = [components.followers_per_player] * seats
    for follower in followers.values():
        if follower.figure == "meeple":
            supply[follower.seat] -= 1
    for acrobats in pyramids.values():
        for seat in acrobats:
            supply[seat] -= 1
    for seat, count in enumerate(supply):
        if count < 0:
            raise _fail("figures", "CB-4.4", f"seat {seat} has {components.followers_per_player - count} meeples on "
                                             f"the map but owns {components.followers_per_player}")
    _completed(position, board, followers, placed)
    big_top, token, tokens = _circus(base, position, board, order, placed)
    home = tuple(parts.ringmasters and not any(f.seat == seat and f.figure == "ringmaster"
                                               for f in followers.values()) for seat in range(seats))
    current = position.drawn_tile if position.phase == "place" else \
        board[placed].type_id if placed is not None else None
    return replace(
        base, board=board, order=tuple(order), stack={tile: n for tile, n in sorted(left.items()) if n},
        tokens=tokens, phase=position.phase, seat=position.to_move, turn=position.turn, current_tile=current,
        placed=placed, followers=followers, pyramids=pyramids, supply=tuple(supply), ringmaster_home=home,
        big_top=big_top, big_top_token=token, revealed=tuple(position.revealed_tokens),
        discarded=tuple(position.discarded),
        lines=tuple(position_line(seat, points) for seat, points in enumerate(position.scores) if points),
    )


def _board(base: CarcassonneState, position: CarcassonnePosition) -> tuple[dict[Pos, RotatedTile], list[Pos]]:
    """The map, tile by tile in the order laid: the start tile first, each later one touching an
    earlier one with every edge matching (CB-3.1, CB-3.2), no two on one square (CB-3.4)."""
    catalog = base.catalog
    start_id = catalog.components.start_tile
    board: dict[Pos, RotatedTile] = {}
    order: list[Pos] = []
    for index, laid in enumerate(position.board):
        path = f"board.{index}"
        pos = (laid.x, laid.y)
        if laid.tile not in catalog.kinds:
            raise _fail(f"{path}.tile", RULE, f"the component set has no tile {laid.tile!r}")
        if index == 0:
            if (laid.tile, pos, laid.rotation) != (start_id, (0, 0), 0):
                raise _fail(path, "CB-1.1", f"the map starts with the start tile {start_id} at (0, 0), rotation 0")
        elif pos in board:
            raise _fail(path, "CB-3.4", f"a tile already lies at ({laid.x}, {laid.y})")
        rotated = catalog.get(laid.tile, laid.rotation)
        if index:
            if not any((laid.x + DX[side], laid.y + DY[side]) in board for side in range(4)):
                raise _fail(path, "CB-3.1", f"the tile at ({laid.x}, {laid.y}) shares no edge with a tile laid "
                                            "before it")
            problem = mismatch(board, rotated, pos)
            if problem is not None:
                raise _fail(path, "CB-3.2", f"the tile at ({laid.x}, {laid.y}) does not fit: {problem}")
        board[pos] = rotated
        order.append(pos)
    return board, order


def _stack(base: CarcassonneState, position: CarcassonnePosition) -> Counter[str]:
    """What is left to draw: the setup's stack less the tiles laid after the start tile, the
    discarded ones and the one in hand. A tile the stack never held is not of a part in play."""
    left: Counter[str] = Counter(base.stack)
    used = [(f"board.{index}.tile", laid.tile) for index, laid in enumerate(position.board) if index]
    used += [(f"discarded.{index}", tile) for index, tile in enumerate(position.discarded)]
    if position.phase == "place":
        if position.drawn_tile is None:
            raise _fail("drawn_tile", "CB-2.1", "in phase place a drawn tile is in hand")
        used.append(("drawn_tile", position.drawn_tile))
    elif position.drawn_tile is not None:
        raise _fail("drawn_tile", "CB-2.1", f"no tile is in hand in phase {position.phase}")
    for path, tile in used:
        if tile not in base.catalog.kinds:
            raise _fail(path, RULE, f"the component set has no tile {tile!r}")
        if left[tile] <= 0:
            if base.stack.get(tile, 0) == 0:
                kind = base.catalog.kinds[tile]
                raise _fail(path, "BT-2.1", f"tile {tile} is a {kind} tile, whose part is not in play")
            raise _fail(path, RULE, f"the set has only {base.stack[tile]} tiles {tile} to draw, and more are used")
        left[tile] -= 1
    return left


def _placed(position: CarcassonnePosition, board: dict[Pos, RotatedTile], order: list[Pos]) -> Pos | None:
    """This turn's tile: the last one laid, in the figure and token phases only."""
    if position.phase in ("draw", "place"):
        if position.placed is not None:
            raise _fail("placed", "CB-2.1", f"no tile has been laid yet this turn in phase {position.phase}")
        return None
    if position.placed is None:
        raise _fail("placed", "CB-2.1", f"in phase {position.phase} this turn's tile lies on the map")
    pos = (position.placed.x, position.placed.y)
    if len(order) < 2 or pos != order[-1]:
        raise _fail("placed", RULE, "this turn's tile is the last one on the board (not the start tile)")
    if position.phase == "token" and board[pos].kind != "circus":
        raise _fail("phase", RULE, "a token is drawn for the Big Top only after a circus tile was laid")
    return pos


def _turn(position: CarcassonnePosition, order: list[Pos], seats: int) -> None:
    """Every turn lays one tile (a discard draws again in the same turn, CB-3.3), and seats take
    turns in order (CB-1.3)."""
    laid_before = len(order) - 1 - (1 if position.phase in ("figure", "token") else 0)
    if position.turn != laid_before + 1:
        raise _fail("turn", RULE, f"{laid_before} tiles were laid before this turn, so it is turn {laid_before + 1}")
    if position.to_move != (position.turn - 1) % seats:
        raise _fail("to_move", "CB-1.3", f"turn {position.turn} is seat {(position.turn - 1) % seats}'s")


def _figures(position: CarcassonnePosition, board: dict[Pos, RotatedTile], placed: Pos | None, seats: int,
             ringmasters: bool) -> dict[Node, Follower]:
    followers: dict[Node, Follower] = {}
    for index, figure in enumerate(position.figures):
        path = f"figures.{index}"
        tile = board.get((figure.x, figure.y))
        if tile is None:
            raise _fail(path, RULE, f"no tile lies at ({figure.x}, {figure.y})")
        if figure.segment not in tile.by_id:
            raise _fail(f"{path}.segment", "CB-4.2", f"tile {tile.type_id} has no feature {figure.segment!r} "
                                                     f"(it has {', '.join(s.id for s in tile.segments)})")
        if figure.seat >= seats:
            raise _fail(f"{path}.seat", RULE, f"there is no seat {figure.seat} among {seats}")
        node = (figure.x, figure.y, figure.segment)
        if node in followers:
            raise _fail(path, "CB-4.3", "two figures stand on one segment")
        if figure.figure == "ringmaster":
            if not ringmasters:
                raise _fail(f"{path}.figure", "BT-2.1", "the ringmasters are not part of this game")
            if any(f.seat == figure.seat and f.figure == "ringmaster" for f in followers.values()):
                raise _fail(path, "BT-7.1", f"seat {figure.seat} owns one ringmaster, and it already stands elsewhere")
        if placed is not None and position.phase == "figure" and (figure.x, figure.y) == placed:
            raise _fail(path, "CB-2.1", "no figure is on this turn's tile before its figure step")
        followers[node] = Follower(figure.seat, figure.figure)
    return followers


def _pyramids(position: CarcassonnePosition, board: dict[Pos, RotatedTile], seats: int,
              acrobats: bool) -> dict[Pos, tuple[int, ...]]:
    pyramids: dict[Pos, tuple[int, ...]] = {}
    for index, pyramid in enumerate(position.pyramids):
        path = f"pyramids.{index}"
        pos = (pyramid.x, pyramid.y)
        if not acrobats:
            raise _fail(path, "BT-2.1", "the acrobat tiles are not part of this game")
        tile = board.get(pos)
        if tile is None or tile.kind != "acrobat":
            raise _fail(path, "BT-5.2", f"there is no acrobat tile at ({pyramid.x}, {pyramid.y})")
        if pos in pyramids:
            raise _fail(path, "BT-5.6", "one pyramid per acrobat tile")
        if any(seat >= seats for seat in pyramid.acrobats):
            raise _fail(f"{path}.acrobats", RULE, f"an acrobat of a seat not among the {seats}")
        pyramids[pos] = pyramid.acrobats
    return pyramids


def _completed(position: CarcassonnePosition, board: dict[Pos, RotatedTile], followers: dict[Node, Follower],
               placed: Pos | None) -> None:
    """A completed road, city or monastery is scored and its figures go home at once (CB-5.1,
    CB-5.7): none holds a figure, except those this turn's tile completed, in its figure step
    (they are scored after it)."""
    unscored = placed if position.phase == "figure" else None
    rules = {"road": "CB-5.2", "city": "CB-5.3", "monastery": "CB-5.4"}
    done: set[Node] = set()
    for index, node in enumerate(followers):
        if node in done or board[node[:2]].by_id[node[2]].kind == "field":
            continue
        feature = explore(board, node)
        done.update(feature.nodes)
        if not feature.complete:
            continue
        if unscored is not None and (unscored in feature.tiles if feature.kind != "monastery"
                                     else unscored in area3(node[:2])):
            continue
        raise _fail(f"figures.{index}", rules[feature.kind], f"the {feature.kind} at ({node[0]}, {node[1]}) is "
                                                             "complete: it was scored and its figures went home")


def _circus(base: CarcassonneState, position: CarcassonnePosition, board: dict[Pos, RotatedTile], order: list[Pos],
            placed: Pos | None) -> tuple[Pos | None, str | None, dict[str, int]]:
    """The Big Top stands on the last circus tile laid before this turn (BT-3.5, BT-4.8), with a
    face-down token; every circus tile after the first revealed one token (BT-4.3). Returns the
    Big Top, its token, and the token stack left."""
    catalog = base.catalog
    printed = Counter({token.animal: token.count for token in catalog.components.animal_tokens})
    big_top, revealed = position.big_top, list(position.revealed_tokens)
    if not base.parts.circus:
        if big_top is not None or revealed:
            raise _fail("big_top" if big_top is not None else "revealed_tokens", "BT-2.1",
                        "the circus tiles, tokens and Big Top are not part of this game")
        return None, None, {}
    circus = [pos for pos in order if board[pos].kind == "circus" and pos != placed]
    token_phase = position.phase == "token"
    if not circus:
        if big_top is not None:
            raise _fail("big_top", "BT-4.3", "the Big Top stands on a circus tile, and none was laid before this turn")
    elif big_top is None or (big_top.x, big_top.y) != circus[-1]:
        raise _fail("big_top", "BT-4.3", f"the Big Top stands on the last circus tile laid, at {circus[-1]}")
    wanted = len(circus) if token_phase else max(len(circus) - 1, 0)
    if len(revealed) != wanted:
        scored = " and scored" if token_phase else ""
        raise _fail("revealed_tokens", "BT-4.3", f"{len(circus)} circus tiles laid{scored} reveal {wanted} tokens, "
                                                 f"not {len(revealed)}")
    token = big_top.token if big_top is not None else None
    if token_phase and token is not None:
        raise _fail("big_top.token", "BT-4.3", "the token under the Big Top was just scored and revealed")
    if big_top is not None and not token_phase and token is None:
        raise _fail("big_top.token", "BT-4.3", "a face-down token lies under the Big Top")
    used = [*(("revealed_tokens", animal) for animal in revealed), *((("big_top.token", token),) if token else ())]
    left = Counter(printed)
    for path, animal in used:
        if animal not in printed:
            raise _fail(path, RULE, f"the set has no {animal!r} token")
        if left[animal] <= 0:
            raise _fail(path, RULE, f"the set has only {printed[animal]} {animal} tokens")
        left[animal] -= 1
    if token_phase and not sum(left.values()):
        raise _fail("phase", "BT-4.10", "no token is left to put under the Big Top")
    return None if big_top is None else (big_top.x, big_top.y), token, \
        {animal: count for animal, count in sorted(left.items()) if count}
