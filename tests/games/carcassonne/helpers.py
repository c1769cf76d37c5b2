"""Scenario helpers: drive real turns with a fixed tile order and explicit placements, or lay a
prepared table directly when only the last turn matters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from domain.games.carcassonne.moves import Pass, PlaceTile
from domain.games.carcassonne.rules import CarcassonneRules
from domain.games.carcassonne.state import CarcassonneState, Follower
from domain.kernel.contract import MatchConfig, ScoreLine
from domain.kernel.driver import make_config

RULES = CarcassonneRules()


def config(seats: int = 2, variant: str = "big-top", **options: Any) -> MatchConfig[Any]:
    return make_config(RULES, seats, variant, options)


def new_game(seats: int = 2, variant: str = "big-top", stack: Mapping[str, int] | None = None,
             **options: Any) -> CarcassonneState:
    """A fresh match; `stack` replaces the tiles left to draw (to end a scenario early)."""
    state = RULES.setup(config(seats, variant, **options))
    if stack is not None:
        state = replace(state, stack=dict(stack))
    return state


def turn(state: CarcassonneState, tile: str, x: int, y: int, rotation: int = 0,
         figure: Any = None, token: str | None = None) -> CarcassonneState:
    """One whole turn through the contract: draw `tile`, place it, figure step (default: pass),
    and the animal token if a circus tile asks for one. Every move is validated first."""
    decision = RULES.decision(state)
    assert decision.chance is not None and decision.chance.kind == "tile", decision
    state = RULES.resolve(state, tile)
    seat = state.seat
    place = PlaceTile(x=x, y=y, rotation=rotation)
    RULES.validate(state, seat, place)
    state = RULES.apply(state, seat, place)
    move = figure if figure is not None else Pass()
    RULES.validate(state, seat, move)
    assert move in RULES.legal_moves(state, seat), move
    state = RULES.apply(state, seat, move)
    decision = RULES.decision(state)
    if decision.chance is not None and decision.chance.kind == "animal-token":
        assert token is not None, "this turn draws an animal token: say which"
        state = RULES.resolve(state, token)
    else:
        assert token is None, "no animal token was drawn this turn"
    return state


def lay(state: CarcassonneState, tiles: Iterable[tuple[str, int, int, int]]) -> CarcassonneState:
    """Put tiles on the table directly (a prepared position), checking that each one fits."""
    board = dict(state.board)
    order = list(state.order)
    for tile, x, y, rotation in tiles:
        rotated = state.catalog.get(tile, rotation)
        probe = replace(state, board=board)
        assert RULES.fits_at(probe, tile, x, y, rotation), (tile, x, y, rotation)
        board[(x, y)] = rotated
        order.append((x, y))
    return replace(state, board=board, order=tuple(order))


def figures(state: CarcassonneState,
            placed: Mapping[tuple[int, int, str], tuple[int, str]]) -> CarcassonneState:
    """Put followers on segments directly, taking them from their owners' supplies."""
    followers = dict(state.followers)
    supply = list(state.supply)
    home = list(state.ringmaster_home)
    for node, (seat, figure) in placed.items():
        followers[node] = Follower(seat, figure)  # type: ignore[arg-type]
        if figure == "ringmaster":
            home[seat] = False
        else:
            supply[seat] -= 1
    return replace(state, followers=followers, supply=tuple(supply), ringmaster_home=tuple(home))


def new_lines(before: CarcassonneState, after: CarcassonneState) -> list[ScoreLine]:
    return list(after.lines[len(before.lines):])


def summary(lines: Iterable[ScoreLine]) -> list[tuple[int, int, str, str]]:
    """(seat, points, category, rule) per line: what the scenario tables compare."""
    return [(line.seat, line.points, line.category, line.rule) for line in lines]
