"""Every move of Drum Roll built so far, one `MoveModel` each, and their union.

Setup asks two things of each seat: which of its two drawn performers it keeps (DR-2.9) and which
two starting cubes it takes (DR-2.10). The action phase asks where each action marker goes, or to
pass with it (DR-4.1, DR-5.16), and at resolution which card a hire takes, or to decline (DR-5.18).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from domain.kernel.contract import MoveModel
from domain.kernel.strict import LAZY

Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_]+$")]


class KeepPerformer(MoveModel):
    """The opening draft (DR-2.9): keep this one of the two performers drawn; the other goes to the
    left neighbour. A private choice until every seat has chosen."""

    type: Literal["keep_performer"] = "keep_performer"
    card: Name


class TakeCubes(MoveModel):
    """The starting cubes (DR-2.10): two cubes of the colours named (the same colour twice allowed)."""

    type: Literal["take_cubes"] = "take_cubes"
    colours: tuple[Name, ...] = Field(min_length=1, max_length=5)


DrumRollMove = KeepPerformer | TakeCubes

MOVE_ADAPTER: TypeAdapter[DrumRollMove] = TypeAdapter(
    Annotated[DrumRollMove, Field(discriminator="type")], config=ConfigDict(**LAZY)
)
