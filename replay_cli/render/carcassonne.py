"""Carcassonne drawn in the terminal: the map of tiles with their edges and the followers on them,
then the figures, the Big Top, the supply and the scores.

Each tile is a 5x3 cell. Edges: `▓` city, `║`/`═` road, `·` field. The middle shows the tile
letter (the tile type without its "UBT-" prefix), `*` before a circus tile, `^` before an acrobat
tile, and the seat number of a figure on it. x grows to the east and y to the south, as in moves.
Edge letters come from the game's shipped component set; an unknown tile type is drawn as `?`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .common import decision_text, header, player_name, players_table, seat_style

CELL_W = 5


@lru_cache(maxsize=1)
def _tiles() -> dict[str, tuple[str, str]]:
    """Tile type -> (edge letters N, E, S, W; kind), from the shipped component set."""
    try:
        from domain.kernel.registry import get_game

        components = get_game("carcassonne").default_components()
        return {tile.id: (tile.edges, tile.kind) for tile in components.tiles}  # type: ignore[attr-defined]
    except Exception:
        return {}



def rotated_edges(tile_id: str, rotation: int) -> str | None:
    """The N, E, S, W edge letters of a tile turned `rotation` quarter turns clockwise."""
    edges = _tiles().get(tile_id, (None, None))[0]
    if edges is None:
        return None
    out = ["F"] * 4
    for index, letter in enumerate(edges):
        out[(index + rotation) % 4] = letter
    return "".join(out)


def short_id(tile_id: str) -> str:
    return tile_id.removeprefix("UBT-")[-1:] or "?"


def _edge_row(letter: str | None, vertical: bool) -> str:
    if letter == "C":
        return "▓▓▓"
    if letter == "R":
        return "·║·" if vertical else "═"
    return "···" if vertical else "·"


def _side(letter: str | None) -> str:
    return {"C": "▓", "R": "═"}.get(letter or "", "·")


def tile_cell(tile: dict[str, Any], follower: dict[str, Any] | None) -> list[Text]:
    """Three lines of CELL_W characters for one placed tile."""
    edges = rotated_edges(str(tile.get("tile")), int(tile.get("rotation", 0)))
    n, e, s, w = tuple(edges or "????")
    kind_mark = {"circus": "*", "acrobat": "^"}.get(str(tile.get("kind")), " ")
    letter = short_id(str(tile.get("tile"))) if edges else "?"
    top = Text("·" + _edge_row(n, True) + "·")
    bottom = Text("·" + _edge_row(s, True) + "·")
    middle = Text(_side(w) + kind_mark + letter)
    if follower is not None:
        seat = follower.get("seat")
        style = seat_style(seat if isinstance(seat, int) else None)
        if follower.get("figure") == "ringmaster":
            style += " underline"
        middle.append(str(seat)[-1:], style=style)
    else:
        middle.append(" ")
    middle.append(_side(e))
    return [top, middle, bottom]


def features_text(tile_id: str, rotation: int) -> Text:
    """The segments of the tile just placed, with the edges they touch as it lies (for `follower`)."""
    try:
        from domain.kernel.registry import get_game

        components = get_game("carcassonne").default_components()
        tile = next(t for t in components.tiles if t.id == tile_id)  # type: ignore[attr-defined]
    except Exception:
        return Text(f"tile {tile_id}: segments unknown")
    names = "NESW"
    parts = []
    for feature in tile.features:
        edges = getattr(feature, "edges", None) or ()
        turned = "".join(sorted((names[(names.index(e) + rotation) % 4] for e in edges), key=names.index))
        where = f" {turned}" if turned else ""
        parts.append(f"{feature.id} {feature.type}{where}")
    return Text(f"segments of tile {tile_id} as placed: " + "; ".join(parts))


def rotations_text(tile_id: str, kind: str = "") -> Text:
    """The tile to place, drawn in each rotation (0..3 quarter turns clockwise) side by side."""
    cells = [tile_cell({"tile": tile_id, "rotation": r, "kind": kind}, None) for r in range(4)]
    out = Text(f"tile {tile_id} by rotation:\n", style="bold")
    out.append("".join(f"{r:^{CELL_W}}  " for r in range(4)).rstrip() + "\n", style="dim")
    for row in range(3):
        for cell in cells:
            out.append_text(cell[row])
            out.append("  ")
        out.rstrip()
        out.append("\n")
    out.rstrip()
    return out


def map_text(state: dict[str, Any]) -> Text:
    board = state.get("board") or []
    if not board:
        return Text("(no tiles on the map)")
    followers: dict[tuple[int, int], dict[str, Any]] = {}
    for item in state.get("followers") or []:
        followers.setdefault((item["x"], item["y"]), item)
    tiles = {(t["x"], t["y"]): t for t in board}
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    placed = state.get("placed")
    last = (placed["x"], placed["y"]) if isinstance(placed, dict) else None
    out = Text("    ")
    for x in range(x0, x1 + 1):
        out.append(f"{x:^{CELL_W}}", style="dim")
    out.append("\n")
    for y in range(y0, y1 + 1):
        rows = [Text(f"{y:>3} " if i == 1 else "    ", style="dim") for i in range(3)]
        for x in range(x0, x1 + 1):
            tile = tiles.get((x, y))
            if tile is None:
                for row in rows:
                    row.append(" " * CELL_W)
                continue
            cell = tile_cell(tile, followers.get((x, y)))
            for row, part in zip(rows, cell, strict=True):
                if (x, y) == last:
                    part.stylize("reverse")
                row.append_text(part)
        for row in rows:
            out.append_text(row)
            out.append("\n")
    out.rstrip()
    return out


def render(summary: dict[str, Any], view: dict[str, Any]) -> list[RenderableType]:
    state = view.get("state") or {}
    supply = {item["seat"]: item for item in state.get("supply") or []}
    seats = len(summary.get("seats", []))
    extra = {
        "meeples": [supply.get(s, {}).get("meeples", "") for s in range(seats)],
        "ringmaster": [("home" if supply.get(s, {}).get("ringmaster") else "placed")
                       if s in supply else "" for s in range(seats)],
    }
    out: list[RenderableType] = [header(summary, view), decision_text(summary, view)]
    info = Text()
    info.append(f"turn {state.get('turn')}  phase {state.get('phase')}  tiles left {state.get('tiles_left')}")
    current = state.get("current_tile")
    if current:
        edges = rotated_edges(current, 0) or "?"
        info.append(f"  current tile {current} (edges N,E,S,W = {','.join(edges)})", style="bold")
    parts = state.get("parts")
    if parts:
        info.append(f"  parts: {', '.join(parts) if isinstance(parts, list) else parts}")
    out.append(info)
    out.append(Panel(map_text(state), title="Map", title_align="left", expand=False))
    if current and state.get("phase") == "place":
        out.append(rotations_text(str(current), _tiles().get(str(current), ("", ""))[1]))
    placed = state.get("placed")
    if state.get("phase") == "figure" and isinstance(placed, dict):
        tile = next((t for t in state.get("board") or [] if t.get("x") == placed.get("x")
                     and t.get("y") == placed.get("y")), None)
        if tile is not None:
            out.append(features_text(str(tile.get("tile")), int(tile.get("rotation", 0))))
    out.append(Text("▓ city  ║ ═ road  · field  * circus tile  ^ acrobat tile  "
                    "digit = a figure of that seat (see Figures)  reversed = tile just placed", style="dim"))
    figures = _figures_table(summary, state)
    if figures is not None:
        out.append(figures)
    big_top = state.get("big_top")
    if big_top:
        out.append(Text(f"Big Top at ({big_top.get('x')}, {big_top.get('y')}), token: {big_top.get('token')}; "
                        f"tokens left {state.get('tokens_left')}; revealed {state.get('revealed_tokens')}"))
    out.append(players_table(summary, view, extra))
    return out


def _figures_table(summary: dict[str, Any], state: dict[str, Any]) -> Table | None:
    followers = state.get("followers") or []
    pyramids = state.get("pyramids") or []
    if not followers and not pyramids:
        return None
    table = Table(title="Figures", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("where")
    table.add_column("on")
    for item in followers:
        seat = item.get("seat")
        table.add_row(Text(str(seat), style=seat_style(seat)), player_name(summary, seat),
                      f"({item.get('x')}, {item.get('y')})", f"{item.get('segment')} ({item.get('figure')})")
    for pyramid in pyramids:
        for seat in pyramid.get("acrobats", []):
            table.add_row(Text(str(seat), style=seat_style(seat)), player_name(summary, seat),
                          f"({pyramid.get('x')}, {pyramid.get('y')})", "acrobat pyramid")
    return table
