"""The drawing for a game without a board of its own: whose turn it is, and each seat's score."""

from __future__ import annotations

from typing import Any

from .svg import Element, document, el, seat_colour, text


def seat_names(summary: dict[str, Any]) -> list[str]:
    """Each seat's player name as the match records it (`seat N` where it has none)."""
    names = []
    for index, seat in enumerate(summary.get("seats") or []):
        name = seat.get("player") if isinstance(seat, dict) else None
        names.append(str(name or f"seat {index}"))
    return names


def totals(view: dict[str, Any]) -> dict[int, int]:
    """Each seat's score total: the view's `scores`, one integer per seat in seat order."""
    return {seat: int(total) for seat, total in enumerate(view.get("scores") or []) if isinstance(total, int)}


def to_move(view: dict[str, Any]) -> list[int]:
    decision = view.get("decision") or {}
    return [seat for seat in decision.get("seats") or [] if isinstance(seat, int)]


def draw(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    names = seat_names(summary)
    scores = totals(view)
    moving = set(to_move(view))
    rows: list[Element] = [text(16, 28, f"{summary.get('game', 'match')} — step {view.get('seq', 0)}", class_="big")]
    for seat, name in enumerate(names):
        y = 56 + seat * 28
        rows.append(el("g", [
            el("rect", x=16, y=y - 16, width=14, height=14, rx=3, fill=seat_colour(seat)),
            text(38, y - 4, name + ("  ◀ to move" if seat in moving else "")),
            text(360, y - 4, scores.get(seat, 0), text_anchor="end", data_score=scores.get(seat, 0)),
        ], data_seat=seat))
    height = 72 + 28 * max(1, len(names))
    return document(380, height, rows, label=f"{summary.get('game', 'match')} at step {view.get('seq', 0)}",
                    attrs={"data-game": str(summary.get("game", "")), "data-seq": int(view.get("seq", 0) or 0)})
