"""Carcassonne drawn in the terminal: the map of tiles with their edges and the followers on them,
then the figures, the Big Top, the supply and the scores; and Carcassonne's words for the log
(`narrate`), for what a step changed (`describe_changes`) and its list of distinct placements
(`distinct_moves`).

Each tile is a 5x3 cell. Edges: `▓` city, `║`/`═` road, `·` field, each in its own colour so that
features can be followed across tiles; a figure is its seat's number in that seat's colour. The
middle shows the tile letter (the tile type without its "UBT-" prefix), `*` before a circus tile,
`^` before an acrobat tile. x grows to the east and y to the south, as in moves. Edge letters come
from the game's shipped component set; an unknown tile type is drawn as `?`.

Under the Big Top is played in parts (circus, acrobats, ringmasters; BT-2.1): words for a part the
match does not use (the ringmaster column, "score a pyramid", the circus legend) are left out, since
a base-game player would read them as moves open to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .common import components_of, decision_text, header, player_name, players_table, seat_label, seat_style

if TYPE_CHECKING:
    from .narrate import Narrator

CELL_W = 5
CITY = "dark_orange3"
ROAD = "bold"
FIELD = "green4"
MARKS = {"circus": ("*", "magenta"), "acrobat": ("^", "cyan")}
FEATURE_WORDS = {"city": "city", "road": "road", "field": "field", "monastery": "monastery"}


@lru_cache(maxsize=1)
def _tiles() -> dict[str, tuple[str, str]]:
    """Tile type -> (edge letters N, E, S, W; kind), from the shipped component set."""
    try:
        from domain.kernel.registry import get_game

        components = get_game("carcassonne").default_components()
        return {tile.id: (tile.edges, tile.kind) for tile in components.tiles}  # type: ignore[attr-defined]
    except Exception:
        return {}


def _tile_model(summary: dict[str, Any], tile_id: Any) -> Any | None:
    """The tile type as the match's component set has it (features, description), or None."""
    components = components_of(summary)
    for tile in getattr(components, "tiles", ()):
        if tile.id == tile_id:
            return tile
    return None


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


def _edge_row(letter: str | None, vertical: bool) -> Text:
    """The middle three characters of a tile's north or south row (vertical) or one side's."""
    # styles go on spans, never on the Text itself: a Text's own style colours all it holds
    if letter == "C":
        return Text.assemble(("▓▓▓" if vertical else "▓", CITY))
    if letter == "R":
        return Text.assemble(("·", FIELD), ("║", ROAD), ("·", FIELD)) if vertical else Text.assemble(("═", ROAD))
    return Text.assemble(("···" if vertical else "·", FIELD))


def _side(letter: str | None) -> Text:
    return _edge_row(letter, vertical=False)


def tile_cell(tile: dict[str, Any], follower: dict[str, Any] | None) -> list[Text]:
    """Three lines of CELL_W characters for one placed tile."""
    edges = rotated_edges(str(tile.get("tile")), int(tile.get("rotation", 0)))
    n, e, s, w = tuple(edges or "????")
    mark, mark_style = MARKS.get(str(tile.get("kind")), (" ", ""))
    letter = short_id(str(tile.get("tile"))) if edges else "?"
    corner = Text.assemble(("·", FIELD))
    top = Text.assemble(corner, _edge_row(n, True), corner)
    bottom = Text.assemble(corner, _edge_row(s, True), corner)
    middle = Text.assemble(_side(w), (mark, mark_style), (letter, "bold"))
    if follower is not None:
        seat = follower.get("seat")
        style = seat_style(seat if isinstance(seat, int) else None)
        if follower.get("figure") == "ringmaster":
            style += " underline"
        middle.append(str(seat)[-1:], style=style)
    else:
        middle.append(" ")
    middle.append_text(_side(e))
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


def _shape(components: Any, tile_id: str, rotation: int) -> tuple[Any, ...] | None:
    """What a tile turned `rotation` quarter turns looks like on the map, whatever its segments
    are called: its edges and each segment's kind, edges, half-edges, pennants and bordering
    cities. Two rotations with the same shape are the same placement (a straight road turned half
    way round), although the engine lists both, each with its own segment names."""
    from domain.games.carcassonne.catalog import catalog_for

    try:
        rotated = catalog_for(components).get(tile_id, rotation)
    except Exception:
        return None
    city_edges = {s.id: s.edges for s in rotated.segments if s.kind == "city"}
    segments = sorted((s.kind, s.edges, s.halves, s.pennants, tuple(sorted(city_edges.get(c, ()) for c in s.cities)))
                      for s in rotated.segments)
    return (rotated.edges, tuple(segments))


def same_rotations(summary: dict[str, Any], tile_id: str) -> list[list[int]]:
    """The rotations 0..3 of a tile grouped by shape: [[0, 2], [1, 3]] for a straight road."""
    components = components_of(summary)
    groups: dict[Any, list[int]] = {}
    for rotation in range(4):
        shape = _shape(components, tile_id, rotation) if components is not None else None
        groups.setdefault(shape if shape is not None else rotation, []).append(rotation)
    return list(groups.values())


def distinct_moves(summary: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal moves with placements that lie exactly like one listed before them left out: at
    each position, one rotation per shape of the tile (the rules accept every rotation, and the one
    left out can still be typed)."""
    tile = (view.get("state") or {}).get("current_tile")
    if not tile:
        return legal
    first_of = {rotation: group[0] for group in same_rotations(summary, str(tile)) for rotation in group}
    seen: set[tuple[Any, Any, int]] = set()
    out: list[dict[str, Any]] = []
    for move in legal:
        if move.get("type") == "place" and isinstance(move.get("rotation"), int):
            key = (move.get("x"), move.get("y"), first_of.get(move["rotation"], move["rotation"]))
            if key in seen:
                continue
            seen.add(key)
        out.append(move)
    return out


def rotations_text(tile_id: str, kind: str = "", summary: dict[str, Any] | None = None) -> Text:
    """The tile to place, drawn in each distinct rotation (quarter turns clockwise) side by side; a
    rotation that lies exactly like another is labelled with both (`0=2`)."""
    groups = same_rotations(summary or {"game": "carcassonne"}, tile_id)
    cells = [tile_cell({"tile": tile_id, "rotation": group[0], "kind": kind}, None) for group in groups]
    out = Text(f"tile {tile_id} by rotation:\n", style="bold")
    out.append("".join(f"{'='.join(map(str, group)):^{CELL_W}}  " for group in groups).rstrip() + "\n", style="dim")
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
    out = Text("    ", no_wrap=True, overflow="crop")
    for x in range(x0, x1 + 1):
        out.append(f"{x:^{CELL_W}}", style="dim")
    out.append("\n")
    for y in range(y0, y1 + 1):
        rows = [Text.assemble((f"{y:>3} " if i == 1 else "    ", "dim")) for i in range(3)]
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


class MapPanel:
    """The map in its panel, with a warning above it when the terminal is narrower than the map.

    A map does not wrap (a wrapped row of tiles is no map), so a narrow terminal cuts its east
    side off; saying so, and how to see all of it, beats a map that silently looks complete."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        width = max((cell_len(line) for line in self.text.plain.splitlines()), default=0) + 4
        if width > options.max_width:
            yield Text(f"the map is {width} columns wide but this terminal shows {options.max_width}: its east "
                       "side is cut off. Widen the terminal to see all of it, or read the board with --json.",
                       style="bold yellow")
        yield Panel(self.text, title="Map", title_align="left", expand=False)


def render(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    state = view.get("state") or {}
    parts = state.get("parts") or []
    supply = {item["seat"]: item for item in state.get("supply") or []}
    seats = len(summary.get("seats", []))
    extra: dict[str, list[Any]] = {"meeples": [supply.get(s, {}).get("meeples", "") for s in range(seats)]}
    if "ringmasters" in parts:
        extra["ringmaster"] = [("home" if supply.get(s, {}).get("ringmaster") else "placed")
                               if s in supply else "" for s in range(seats)]
    out: list[RenderableType] = [header(summary, view), decision_text(summary, view)]
    info = Text()
    info.append(f"turn {state.get('turn')}  phase {state.get('phase')}  tiles left {state.get('tiles_left')}")
    current = state.get("current_tile")
    if current:
        edges = rotated_edges(current, 0) or "?"
        info.append(f"  current tile {current} (edges N,E,S,W = {','.join(edges)})", style="bold")
    if parts:
        info.append(f"  parts: {', '.join(parts) if isinstance(parts, list) else parts}")
    out.append(info)
    out.append(MapPanel(map_text(state)))
    if current and state.get("phase") == "place":
        out.append(rotations_text(str(current), _tiles().get(str(current), ("", ""))[1], summary))
    placed = state.get("placed")
    if state.get("phase") == "figure" and isinstance(placed, dict):
        tile = next((t for t in state.get("board") or [] if t.get("x") == placed.get("x")
                     and t.get("y") == placed.get("y")), None)
        if tile is not None:
            out.append(features_text(str(tile.get("tile")), int(tile.get("rotation", 0))))
    out.append(_legend(parts))
    figures = _figures_table(summary, state)
    if figures is not None:
        out.append(figures)
    big_top = state.get("big_top")
    if big_top:
        out.append(Text(f"Big Top at ({big_top.get('x')}, {big_top.get('y')}), token: {big_top.get('token')}; "
                        f"tokens left {state.get('tokens_left')}; revealed {state.get('revealed_tokens')}"))
    out.append(players_table(summary, view, extra))
    return out


def _legend(parts: list[str]) -> Text:
    legend = Text(style="dim")
    legend.append("▓", style=CITY)
    legend.append(" city  ")
    legend.append("║ ═", style=ROAD)
    legend.append(" road  ")
    legend.append("·", style=FIELD)
    legend.append(" field  ")
    if "circus" in parts:
        legend.append("*", style=MARKS["circus"][1])
        legend.append(" circus tile  ")
    if "acrobats" in parts:
        legend.append("^", style=MARKS["acrobat"][1])
        legend.append(" acrobat tile  ")
    legend.append("digit = a figure of that seat (see Figures)")
    if "ringmasters" in parts:
        legend.append(", underlined = the ringmaster")
    legend.append("  reversed = tile just placed")
    return legend


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


# ==== words ===================================================================================
def _turned(rotation: Any) -> str:
    return "as drawn (not turned)" if rotation == 0 else f"turned {int(rotation) * 90}° clockwise"


def _segment_words(summary: dict[str, Any], tile_id: Any, segment: Any) -> str:
    """`the city c1`, from the tile type's features; `segment c1` when the tile is not known."""
    tile = _tile_model(summary, tile_id)
    feature = next((f for f in getattr(tile, "features", ()) if f.id == segment), None)
    if feature is None:
        return f"segment {segment}"
    return f"the {FEATURE_WORDS.get(feature.type, feature.type)} {segment}"


def narrate(narrator: Narrator, entry: dict[str, Any]) -> str | None:
    """Carcassonne's sentences: the tile drawn (with its description), where it went and how it was
    turned, which feature a figure went on, the face-down token under the Big Top. A placement
    names the tile drawn before it and a figure names the tile just placed: both are in the log
    before them, and public."""
    kind = entry.get("kind")
    p = entry.get("payload") or {}
    summary = narrator.summary
    if kind == "created":  # a fork replays its parent's steps: the tile in hand may be drawn there
        for step in p.get("prelude") or []:
            data = step.get("data")
            if step.get("kind") == "chance" and isinstance(data, str) and _tile_model(summary, data) is not None:
                narrator.remember("tile", data)
            elif step.get("kind") == "move" and isinstance(data, dict) and data.get("type") == "place":
                narrator.remember("placed", (data.get("x"), data.get("y"), narrator.recall("tile")))
        return None
    if kind == "chance" and p.get("kind") == "tile" and not p.get("hidden"):
        narrator.remember("tile", p.get("outcome"))
        description = str(getattr(_tile_model(summary, p.get("outcome")), "description", "") or "")
        about = f": {description[:1].lower()}{description[1:]}" if description else ""
        return f"tile {p.get('outcome')} is drawn{about}"
    if kind == "chance" and p.get("kind") == "animal-token":
        if p.get("hidden"):
            return "an animal token goes face down under the Big Top (hidden until that circus is scored)"
        return f"animal token {p.get('outcome')} goes under the Big Top"
    if kind != "move" or p.get("hidden"):
        return None
    move = p.get("move") or {}
    who = narrator.seat(p.get("seat"))
    kind_of = move.get("type")
    if kind_of == "place":
        tile = narrator.recall("tile")
        narrator.remember("placed", (move.get("x"), move.get("y"), tile))
        name = f"tile {tile}" if tile else "the tile"
        return f"{who} places {name} at ({move.get('x')}, {move.get('y')}), {_turned(move.get('rotation'))}"
    if kind_of == "follower":
        x, y, tile = narrator.recall("placed", (None, None, None))
        figure = "the ringmaster" if move.get("figure") == "ringmaster" else "a meeple"
        where = _segment_words(summary, tile, move.get("segment"))
        on = f" of tile {tile} at ({x}, {y})" if tile else " of the tile just placed"
        return f"{who} puts {figure} on {where}{on}"
    if kind_of == "acrobat":
        figure = "the ringmaster as an acrobat" if move.get("figure") == "ringmaster" else "an acrobat"
        return f"{who} puts {figure} on the pyramid at ({move.get('x')}, {move.get('y')})"
    if kind_of == "score-pyramid":
        return f"{who} scores the pyramid at ({move.get('x')}, {move.get('y')})"
    if kind_of == "pass":
        return f"{who} places no figure"
    return None


def describe_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[Text]:
    """What changed on the table between two views, in Carcassonne's terms: tiles placed (or taken
    off by a retraction), figures placed and returned, pyramids, the Big Top, discards, the supply,
    the scores and who acts next."""
    old, new = before.get("state") or {}, after.get("state") or {}
    out: list[Text] = []

    def add(text: str, style: str = "") -> None:
        out.append(Text(f"  {text}", style=style))

    old_tiles = {(t["x"], t["y"]): t for t in old.get("board") or []}
    new_tiles = {(t["x"], t["y"]): t for t in new.get("board") or []}
    for pos, tile in new_tiles.items():
        if pos not in old_tiles:
            add(f"+ tile {tile.get('tile')} at ({pos[0]}, {pos[1]}), {_turned(tile.get('rotation'))}", "green")
    for pos, tile in old_tiles.items():
        if pos not in new_tiles:
            add(f"- tile {tile.get('tile')} taken off ({pos[0]}, {pos[1]})", "red")
    old_figures = {(f["x"], f["y"], f["segment"]): f for f in old.get("followers") or []}
    new_figures = {(f["x"], f["y"], f["segment"]): f for f in new.get("followers") or []}
    for key, figure in new_figures.items():
        if old_figures.get(key) != figure:
            tile = new_tiles.get((key[0], key[1]), {}).get("tile")
            add(f"+ {seat_label(summary, figure.get('seat'))}'s {figure.get('figure')} on "
                f"{_segment_words(summary, tile, key[2])} at ({key[0]}, {key[1]})", "green")
    for key, figure in old_figures.items():
        if key not in new_figures:
            tile = old_tiles.get((key[0], key[1]), {}).get("tile")
            add(f"- {seat_label(summary, figure.get('seat'))}'s {figure.get('figure')} leaves "
                f"{_segment_words(summary, tile, key[2])} at ({key[0]}, {key[1]})", "red")
    old_pyramids = {(p["x"], p["y"]): p.get("acrobats", []) for p in old.get("pyramids") or []}
    for pyramid in new.get("pyramids") or []:
        pos, acrobats = (pyramid["x"], pyramid["y"]), pyramid.get("acrobats", [])
        had = old_pyramids.pop(pos, [])
        if acrobats != had:
            add(f"~ pyramid at ({pos[0]}, {pos[1]}): acrobats of "
                + (", ".join(seat_label(summary, s) for s in acrobats) or "nobody") + f" ({len(acrobats)} of 3)",
                "yellow")
    for pos in old_pyramids:
        add(f"- pyramid at ({pos[0]}, {pos[1]}) cleared", "red")
    for tile in (new.get("discarded") or [])[len(old.get("discarded") or []):]:
        add(f"- tile {tile} fits nowhere and is discarded (CB-3.3)", "red")
    if new.get("big_top") != old.get("big_top") and new.get("big_top"):
        top = new["big_top"]
        token = "its token scored and gone" if top.get("token") is None else f"token {top.get('token')}"
        add(f"~ the Big Top stands at ({top.get('x')}, {top.get('y')}), {token}", "yellow")
    for token in (new.get("revealed_tokens") or [])[len(old.get("revealed_tokens") or []):]:
        add(f"~ animal token revealed: {token}", "yellow")
    old_supply = {s["seat"]: s for s in old.get("supply") or []}
    for item in new.get("supply") or []:
        had = old_supply.get(item["seat"], {})
        if had and had.get("meeples") != item.get("meeples"):
            add(f"~ {seat_label(summary, item['seat'])}: meeples in supply {had.get('meeples')} → "
                f"{item.get('meeples')}", "yellow")
    _totals(summary, before, after, add)
    if new.get("current_tile") and new.get("current_tile") != old.get("current_tile"):
        add(f"~ tile to place: {new.get('current_tile')}", "yellow")
    if old.get("tiles_left") != new.get("tiles_left"):
        add(f"~ tiles left {old.get('tiles_left')} → {new.get('tiles_left')}", "yellow")
    if before.get("decision") != after.get("decision"):
        add(decision_text(summary, after).plain, "dim")
    return out or [Text("  (no visible change)", style="dim")]


def _totals(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any], add: Any) -> None:
    old, new = before.get("scores") or [], after.get("scores") or []
    for seat, total in enumerate(new):
        was = old[seat] if seat < len(old) else 0
        if total != was:
            add(f"~ {seat_label(summary, seat)}: score {was} → {total} ({total - was:+d})", "yellow")
