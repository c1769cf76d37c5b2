"""Positions: a match that starts from a given table instead of the game's setup (as chess has FEN).

An arbiter transcribing a physical game joined in the middle, a teacher setting a problem, a "what
if the board had been like this", and every test that needs a late-game situation want to start
there rather than play twenty weeks of filler moves. Each game that supports it defines a
readable position format (`Ruleset.position_model`, documented in docs/positions.md); this module
is what the kernel does with one, the same for every game:

- `normal_position` validates a position against the format, the component set and the game's
  invariants (`from_position`), and writes the state back in the format's normal form. The normal
  form is what the created event records, under `position`; without it, the match starts from the
  setup as every older record does.
- `start_state` is where every fold starts: the setup, or the recorded position. The live path,
  time travel, forks and verification all call it, so they start from literally the same state.
- `position_line` is the one score line per seat that carries the points scored before the
  position (rule POSITION): the final totals then match a match played from the setup.
- `hidden_position` and `position_hides` keep a position's hidden parts (hands, face-down items,
  the contents of stacks) to those entitled, exactly as the game's view does.

Why chance order is never part of a position: a position that fixed the order of a stack would
fix its future draws, so whoever wrote it would choose the outcomes. Stacks are multisets, and
every draw from them stays a chance decision derived (or recorded) as in any match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from .contract import MatchConfig, Ruleset, ScoreLine
from .errors import InvalidPositionError, PositionUnavailableError
from .viewers import Viewer

if TYPE_CHECKING:
    from .fold import MatchFold

RULE = "POSITION"
"""The kernel's rule for positions: points carried into one, and a position that no one rule of
the game refuses but the game's components or invariants cannot hold."""


def parse_position(ruleset: Ruleset[Any, Any], data: Any) -> BaseModel:
    """`data` as the game's position model, or an InvalidPositionError naming the first field
    that is not in the format."""
    model = ruleset.position_model
    if model is None:
        raise InvalidPositionError("(position)", RULE, f"{ruleset.title} has no position format: its matches "
                                                       "start from the setup")
    if not isinstance(data, Mapping):
        raise InvalidPositionError("(position)", RULE, f"a position is a JSON object, not {type(data).__name__}")
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(position)"
        raise InvalidPositionError(where, RULE, str(first["msg"])) from None


def state_from_position(ruleset: Ruleset[Any, Any], config: MatchConfig[Any], data: Any) -> Any:
    """The state a position describes, validated against the format, components and invariants."""
    return ruleset.from_position(config, parse_position(ruleset, data))


def normal_position(ruleset: Ruleset[Any, Any], config: MatchConfig[Any], data: Any) -> dict[str, Any]:
    """The position validated and written back in the format's normal form (what a created event
    records): the same table always gives the same bytes, whichever order its lists came in."""
    state = state_from_position(ruleset, config, data)
    try:
        return ruleset.position_of(state)
    except PositionUnavailableError as error:  # a game whose from_position built what it cannot write
        raise InvalidPositionError("(position)", RULE, error.message) from None


def start_state(ruleset: Ruleset[Any, Any], config: MatchConfig[Any], header: Mapping[str, Any]) -> Any:
    """Where a match's fold starts: the recorded position, or the setup when there is none."""
    position = header.get("position")
    if position is None:
        return ruleset.setup(config)
    return state_from_position(ruleset, config, position)


def position_line(seat: int, points: int) -> ScoreLine:
    """The score line that carries a seat's points from before the position into the sheet."""
    return ScoreLine(seat, points, "position", "POSITION", "points scored before the position")


def hidden_position(ruleset: Ruleset[Any, Any], position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The position as `viewer` may see it (the arbiter sees all of it)."""
    return position if viewer.sees_all else ruleset.hide_position(position, viewer)


def counted(position: dict[str, Any], viewer: Viewer, piles: tuple[str, ...], own: str) -> dict[str, Any]:
    """The common shape of a game's `hide_position`: for everyone but the arbiter, each of the
    face-down `piles` becomes `{"count": n}`, and so does each player's `own` field (a hand, a set of
    bonus cards) for every seat but the viewer's, as the game's view hides them."""
    if viewer.sees_all:
        return position
    hidden = dict(position)
    for key in piles:
        if isinstance(hidden.get(key), list):
            hidden[key] = {"count": len(hidden[key])}
    players = hidden.get("players")
    if isinstance(players, list):
        shown = []
        for seat, player in enumerate(players):
            if isinstance(player, dict) and not viewer.is_seat(seat) and isinstance(player.get(own), list):
                player = {**player, own: {"count": len(player[own])}}
            shown.append(player)
        hidden["players"] = shown
    return hidden


def position_hides(ruleset: Ruleset[Any, Any], position: dict[str, Any], seats: int) -> bool:
    """Whether some spectator or seat sees less than the whole position: then its record keeps
    hidden information, and a fork carrying it is sealed while the match it came from is in play."""
    viewers = [Viewer.spectator(), *(Viewer.of_seat(seat) for seat in range(seats))]
    return any(ruleset.hide_position(position, viewer) != position for viewer in viewers)


def position_view(fold: MatchFold, viewer: Viewer) -> dict[str, Any]:
    """The position at the fold's point as `viewer` may see it, with what a new match needs
    besides it (game, variant, options, seat count). Raises PositionUnavailableError, naming the
    event, where the game's format describes no position (the middle of a turn, the end)."""
    try:
        position = fold.ruleset.position_of(fold.state)
    except PositionUnavailableError as error:
        raise PositionUnavailableError(f"no position after event {fold.seq}: {error.message}") from None
    header = fold.header
    return {"match_id": fold.match_id, "seq": fold.seq, "game": header["game"], "variant": header["variant"],
            "options": header["options"], "seats": fold.seats, "viewer": str(viewer),
            "position": hidden_position(fold.ruleset, position, viewer)}
