"""Each game's board as SVG, drawn from a viewer's view only.

A board module has `draw(summary, view, viewer) -> str`: the match summary (game, seats, component
set), the viewer's view as `state_view` gives it (seq, status, decision, the game's `state` view,
scores) and the viewer's name (`seat:1`, `spectator`, `arbiter`); it returns a whole `<svg>`
document (`svg.document`). It sees nothing but the view, so it cannot draw what the viewer may not
know. A game without a module of its own, or a view its module cannot read (a component set this
process does not know), gets the generic drawing: the players and their scores.

Every drawing marks what tests and the page read from it with `data-*` attributes on the root
(`data-game`, `data-seq`) and on the pieces that stand for view facts.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from . import generic

Board = Callable[[dict[str, Any], dict[str, Any], "str | None"], str]

MODULES = {"carcassonne": "carcassonne", "circus-train": "circus_train", "drum-roll": "drum_roll",
           "russian-railroads": "russian_railroads"}
"""Each game's board module in this package."""

log = logging.getLogger(__name__)


def board_of(game: str) -> Board | None:
    """The game's `draw`, its module imported on first use; None for a game without one."""
    module = MODULES.get(game)
    if module is None:
        return None
    try:
        return importlib.import_module(f"{__name__}.{module}").draw
    except (ImportError, AttributeError):
        return None


def draw_board(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    """The SVG of `view` (as `viewer` sees the match `summary` describes)."""
    board = board_of(str(summary.get("game", "")))
    if board is not None:
        try:
            return board(summary, view, viewer)
        except Exception:  # a view this board cannot read: the generic drawing says what is known
            log.warning("board for %s could not draw seq %s; generic drawing used", summary.get("game"),
                        view.get("seq"), exc_info=True)
    return generic.draw(summary, view, viewer)
