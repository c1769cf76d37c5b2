"""The match state: an immutable value, copied on write.

Mappings inside a state are plain dicts that are never mutated after the state is built: every
transition builds a new dict for what it changes and shares the rest, so copies stay cheap and
the kernel may keep old states around safely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.kernel.contract import ScoreLine

from .catalog import Catalog, Pos, RotatedTile

Phase = Literal["draw", "place", "figure", "token", "over"]
FigureKind = Literal["meeple", "ringmaster"]
Node = tuple[int, int, str]
"""A feature segment on the board: x, y and the segment id on that tile."""


@dataclass(frozen=True)
class Parts:
    """Which parts of Under the Big Top are in play (BT-2.1)."""

    circus: bool = False
    acrobats: bool = False
    ringmasters: bool = False

    def names(self) -> list[str]:
        return [name for name in ("circus", "acrobats", "ringmasters") if getattr(self, name)]


@dataclass(frozen=True)
class Follower:
    """A figure on a feature segment: whose it is and whether it is the ringmaster."""

    seat: int
    figure: FigureKind = "meeple"


@dataclass(frozen=True)
class CarcassonneState:
    seats: int
    parts: Parts
    catalog: Catalog = field(repr=False, compare=False)
    board: dict[Pos, RotatedTile]
    order: tuple[Pos, ...]
    """Positions in placement order (the start tile first), for views and encoding."""
    stack: dict[str, int]
    """Tiles left to draw, as a multiset: the order is not decided until each draw (chance)."""
    tokens: dict[str, int]
    """Animal tokens left in the face-down stack (BT-2.3)."""
    phase: Phase
    seat: int
    """Seat whose turn it is."""
    turn: int
    current_tile: str | None
    placed: Pos | None
    """Where the current turn's tile went (between the place and figure steps, and until the
    token is drawn)."""
    followers: dict[Node, Follower]
    pyramids: dict[Pos, tuple[int, ...]]
    """Acrobats per acrobat tile: seats in pyramid order (two base positions, then the top)."""
    supply: tuple[int, ...]
    """Normal meeples in each seat's supply."""
    ringmaster_home: tuple[bool, ...]
    big_top: Pos | None
    big_top_token: str | None
    """The face-down token under the Big Top: hidden from every seat until scored (BT-3.7)."""
    revealed: tuple[str, ...]
    discarded: tuple[str, ...]
    lines: tuple[ScoreLine, ...]

    def tile_at(self, pos: Pos) -> RotatedTile | None:
        return self.board.get(pos)

    def tiles_left(self) -> int:
        return sum(self.stack.values())

    def tokens_left(self) -> int:
        return sum(self.tokens.values())
