"""Rendering states for the terminal: one renderer per game where it helps (Carcassonne's map),
and a generic panel renderer driven by the view JSON for every other game.

A renderer gets the match summary and the state as the viewer sees it (the API's / application's
`state_view`: seq, status, decision, the game's `state` view, scores) and returns rich renderables.
Renderers only ever see the viewer's view, so they cannot show hidden information.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType

from . import carcassonne, generic

Renderer = Callable[[dict[str, Any], dict[str, Any]], list[RenderableType]]

RENDERERS: dict[str, Renderer] = {
    "carcassonne": carcassonne.render,
}


def render_state(summary: dict[str, Any], view: dict[str, Any]) -> list[RenderableType]:
    """The renderables for `view` of the match described by `summary`."""
    game = str(summary.get("game", ""))
    renderer = RENDERERS.get(game, generic.render)
    try:
        return renderer(summary, view)
    except Exception:  # a view this renderer does not understand: fall back to the generic panels
        if renderer is generic.render:
            raise
        return generic.render(summary, view)


__all__ = ["RENDERERS", "render_state"]
