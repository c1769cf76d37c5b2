"""What a viewer may see. Everything on the table is public; the order of the tile stack does
not exist until each draw, and the face-down animal token (and so which tokens are still in the
stack) is hidden from every seat, the placer included, and from spectators (BT-3.7). Only the
arbiter sees them."""

from __future__ import annotations

from typing import Any

from domain.kernel.viewers import Viewer

from .scoring import score_sheet
from .state import CarcassonneState

RECENT_LINES = 12
"""Score lines carried in a view: the latest few, for the table display; the whole sheet with
every line's rule and refs is the match's score sheet (`score`)."""


def view(state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
    """The state as `viewer` may see it (the ruleset's `view`)."""
    sheet = score_sheet(state)
    big_top: dict[str, Any] | None = None
    if state.big_top is not None:
        big_top = {"x": state.big_top[0], "y": state.big_top[1], "token": "face-down"}
        if viewer.sees_all and state.big_top_token is not None:
            big_top["token"] = state.big_top_token
        if state.big_top_token is None:
            big_top["token"] = None
    data: dict[str, Any] = {
        "game": "carcassonne",
        "parts": state.parts.names(),
        "phase": state.phase,
        "turn": state.turn,
        "to_move": None if state.phase == "over" else state.seat,
        "current_tile": state.current_tile,
        "placed": None if state.placed is None else {"x": state.placed[0], "y": state.placed[1]},
        "board": [
            {"x": x, "y": y, "tile": state.board[(x, y)].type_id, "rotation": state.board[(x, y)].rotation,
             "kind": state.board[(x, y)].kind}
            for x, y in state.order
        ],
        "followers": [
            {"x": n[0], "y": n[1], "segment": n[2], "seat": f.seat, "figure": f.figure}
            for n, f in sorted(state.followers.items())
        ],
        "pyramids": [
            {"x": p[0], "y": p[1], "acrobats": list(seats)} for p, seats in sorted(state.pyramids.items())
        ],
        "supply": [
            {"seat": seat, "meeples": state.supply[seat], "ringmaster": state.ringmaster_home[seat]}
            for seat in range(state.seats)
        ],
        "tiles_left": state.tiles_left(),
        "tiles_left_by_type": dict(sorted(state.stack.items())),
        "discarded": list(state.discarded),
        "big_top": big_top,
        "tokens_left": state.tokens_left(),
        "revealed_tokens": list(state.revealed),
        "scores": {"totals": list(sheet.totals()), "lines": len(sheet.lines),
                   "recent": [line.to_json() for line in sheet.lines[-RECENT_LINES:]]},
    }
    if viewer.sees_all:
        data["tokens_left_by_animal"] = dict(sorted(state.tokens.items()))
    return data
