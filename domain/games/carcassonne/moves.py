"""Moves. A turn is a sequence of decisions: the tile draw (chance), one `place` move, one
figure-step move (`follower`, `acrobat`, `score-pyramid` or `pass`), then scoring and, after a
circus tile, the animal-token draw (chance).

Splitting the turn keeps `legal_moves` small (positions x rotations, then the handful of figure
options of the tile just placed) and lets `validate` name the one rule a move breaks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from domain.kernel.contract import MoveModel
from domain.kernel.strict import LAZY


class PlaceTile(MoveModel):
    """Step 1 (CB-2.1): put the drawn tile at (x, y), turned `rotation` quarter turns clockwise.
    x grows to the east and y to the south; the start tile is at (0, 0)."""

    type: Literal["place"] = "place"
    x: int = Field(ge=-200, le=200)
    y: int = Field(ge=-200, le=200)
    rotation: int = Field(ge=0, le=3)


class PlaceFollower(MoveModel):
    """Step 2: a meeple (or the ringmaster, BT-7.2) on one segment of the tile just placed.
    `segment` is the feature id of the tile type (c1, r2, f1, m1 ...)."""

    type: Literal["follower"] = "follower"
    segment: str = Field(min_length=1, max_length=16)
    figure: Literal["meeple", "ringmaster"] = "meeple"


class PlaceAcrobat(MoveModel):
    """Step 2 (BT-5.2, BT-5.3): an acrobat on the pyramid of the acrobat tile at (x, y)."""

    type: Literal["acrobat"] = "acrobat"
    x: int = Field(ge=-200, le=200)
    y: int = Field(ge=-200, le=200)
    figure: Literal["meeple", "ringmaster"] = "meeple"


class ScorePyramid(MoveModel):
    """Step 2 instead of placing a figure (BT-6.2): score the complete pyramid at (x, y)."""

    type: Literal["score-pyramid"] = "score-pyramid"
    x: int = Field(ge=-200, le=200)
    y: int = Field(ge=-200, le=200)


class Pass(MoveModel):
    """Step 2: place no figure (CB-4.1 makes the meeple optional)."""

    type: Literal["pass"] = "pass"


CarcassonneMove = PlaceTile | PlaceFollower | PlaceAcrobat | ScorePyramid | Pass
"""Every move of the game: each model above, told apart by its `type`."""

MOVE_ADAPTER: TypeAdapter[CarcassonneMove] = TypeAdapter(
    Annotated[CarcassonneMove, Field(discriminator="type")], config=ConfigDict(**LAZY)
)
"""Validates a move's JSON into its model (the ruleset's `move_adapter`)."""
