"""The generic renderer: clear panels of board, players and scores, for any game, driven only by
the game's view JSON.

Per-seat facts (any top-level list with one item per seat, or a list of objects that name their
`seat`) become columns of the players table; everything else is the board panel, scalars first.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from ..output import compact
from .common import decision_text, header, players_table, seat_style

SKIP = {"scores", "game"}


def render(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    state = view.get("state")
    seats = len(summary.get("seats", []))
    per_seat: dict[str, list[Any]] = {}
    board: dict[str, Any] = {}
    if isinstance(state, dict):
        for key, value in state.items():
            if key in SKIP:
                continue
            by_seat = _per_seat(value, seats)
            if by_seat is not None:
                per_seat[key] = by_seat
            else:
                board[key] = value
    else:
        board["state"] = state
    detailed = {key: rows for key, rows in per_seat.items()
                if all(isinstance(row, dict) for row in rows) and rows}
    simple = {key: rows for key, rows in per_seat.items() if key not in detailed}
    out: list[RenderableType] = [header(summary, view), decision_text(summary, view)]
    out.append(players_table(summary, view, simple))
    for key, rows in detailed.items():
        out.append(_seat_detail(summary, key, rows))
    if board:
        out.append(Panel(_board_table(board), title="Board", title_align="left", expand=False))
    return out


def _per_seat(value: Any, seats: int) -> list[Any] | None:
    if not isinstance(value, list) or seats < 1:
        return None
    if value and all(isinstance(item, dict) and isinstance(item.get("seat"), int) for item in value):
        if sorted(item["seat"] for item in value) == list(range(seats)):
            rows: list[Any] = [None] * seats
            for item in value:
                rows[item["seat"]] = {k: v for k, v in item.items() if k != "seat"}
            return rows
        return None
    return value if len(value) == seats and seats > 1 else None


def _seat_detail(summary: dict[str, Any], key: str, rows: list[dict[str, Any]]) -> Table:
    """Per-seat objects (a player's tableau, say) as one row per seat, one column per field."""
    fields: list[str] = []
    for row in rows:
        fields.extend(name for name in row if name not in fields)
    table = Table(title=key.replace("_", " ").capitalize(), title_justify="left")
    table.add_column("seat", justify="right")
    for name in fields:
        table.add_column(name, overflow="fold")
    for seat, row in enumerate(rows):
        table.add_row(Text(str(seat), style=seat_style(seat)), *(compact(row.get(name, ""), 40) for name in fields))
    return table


def _board_table(board: dict[str, Any]) -> RenderableType:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    simple = {k: v for k, v in board.items() if not isinstance(v, dict | list)}
    nested = {k: v for k, v in board.items() if isinstance(v, dict | list)}
    for key, value in simple.items():
        table.add_row(key, compact(value, 80))
    for key, value in nested.items():
        if len(compact(value, 10_000)) <= 80:
            table.add_row(key, compact(value, 80))
        else:
            table.add_row(key, Pretty(value, max_length=24, max_string=60))
    return Group(table)
