"""Rendering states for the terminal: one renderer per game where it helps (Carcassonne's map,
Circus Train's panel, Russian Railroads' player boards, Drum Roll's
circuses), and a generic panel renderer driven by the
view JSON for every other game.
A game may also narrate its log entries (NARRATIONS, see narrate.py), say what a step changed in its
own terms (CHANGES) and leave out legal moves that come to the same as a listed one (DISTINCT_MOVES).

A renderer gets the match summary and the state as the viewer sees it (the API's / application's
`state_view`: seq, status, decision, the game's `state` view, scores) and returns rich renderables.
Renderers only ever see the viewer's view, so they cannot show hidden information.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

Renderer = Callable[[dict[str, Any], dict[str, Any], "str | None"], list[RenderableType]]
"""(summary, the viewer's view, the viewer) -> renderables."""
Narration = Callable[[Any, dict[str, Any]], "str | None"]
"""(narrator, log entry) -> a sentence, or None to leave the entry to the kernel's words (narrate.py)."""
ChangeDescriber = Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], "list[Text] | None"]
"""(summary, the view before, the view after) -> what changed in the game's terms, or None."""
MoveFilter = Callable[[dict[str, Any], dict[str, Any], list[dict[str, Any]]], list[dict[str, Any]]]
"""(summary, the mover's view, legal moves) -> the moves worth listing (each still a legal move)."""

MODULES = {"carcassonne": "carcassonne", "circus-train": "circus_train", "drum-roll": "drum_roll",
           "russian-railroads": "russian_railroads"}
"""Each game's renderer module in this package."""


class _ByGame(Mapping[str, Any]):
    """One hook of each game that has it (`render`, `narrate`, ...), its module imported when the
    hook is first asked for: a command that shows a Carcassonne match imports no other game's
    renderer."""

    def __init__(self, hook: str, games: tuple[str, ...]) -> None:
        self.hook = hook
        self.games = games

    def __getitem__(self, game: str) -> Any:
        if game not in self.games:
            raise KeyError(game)
        return getattr(importlib.import_module(f"{__name__}.{MODULES[game]}"), self.hook)

    def __iter__(self) -> Iterator[str]:
        return iter(self.games)

    def __len__(self) -> int:
        return len(self.games)


RENDERERS: Mapping[str, Renderer] = _ByGame("render", ("carcassonne", "circus-train", "drum-roll", "russian-railroads"))
NARRATIONS: Mapping[str, Narration] = _ByGame("narrate", ("carcassonne", "circus-train", "drum-roll",
                                                         "russian-railroads"))
CHANGES: Mapping[str, ChangeDescriber] = _ByGame("describe_changes", ("carcassonne", "circus-train", "drum-roll",
                                                                     "russian-railroads"))
DISTINCT_MOVES: Mapping[str, MoveFilter] = _ByGame("distinct_moves", ("carcassonne",))


def render_state(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> list[RenderableType]:
    """The renderables for `view` of the match described by `summary`, as `viewer` (`seat:1`,
    `spectator`, `arbiter`) sees it: a renderer may lay out the viewer's own pieces apart (a
    hand), never show more than the view holds."""
    renderer = RENDERERS.get(str(summary.get("game", "")))
    if renderer is not None:
        try:
            return renderer(summary, view, viewer)
        except Exception:  # a view this renderer does not understand: fall back to the generic panels
            pass
    from . import generic  # only here: a game with a renderer of its own never loads it (nor rich.pretty)

    return generic.render(summary, view, viewer)


def describe_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[Text] | None:
    """What changed from one view to the other in the game's own terms (a tile placed at (1, 0),
    a train gone from Boston to Albany), or None when the game has no describer or it cannot read
    these views: the caller then shows the JSON paths. Both views are the viewer's own, so the
    description can say nothing the viewer could not see."""
    describer = CHANGES.get(str(summary.get("game", "")))
    if describer is None:
        return None
    try:
        return describer(summary, before, after)
    except Exception:
        return None


def distinct_moves(summary: dict[str, Any], view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal moves worth listing to a player: the game may drop moves that come to the same
    thing as one listed (a symmetric tile turned half way round lies exactly as before). Every move
    stays legal, so one that was dropped can still be typed."""
    keep = DISTINCT_MOVES.get(str(summary.get("game", "")))
    if keep is None:
        return legal
    try:
        return keep(summary, view, legal)
    except Exception:
        return legal


__all__ = ["CHANGES", "DISTINCT_MOVES", "NARRATIONS", "RENDERERS", "describe_changes", "distinct_moves",
           "render_state"]
