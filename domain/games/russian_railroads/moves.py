"""Every move of Russian Railroads, one `MoveModel` each, and their union.

A turn is a sequence of small decisions through the agenda (tasks.py), so `legal_moves` stays small
at every step and each refusal names its rule: `Place` chooses the action space and how it is
paid; the action's parts then ask, one at a time, which railway a track advancement goes to, which
industry marker moves, where a locomotive goes, which factory is taken, which bonus token, and so
on. `NextPart` orders the parts of an action that grants several different ones (RR-5.7).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from domain.kernel.contract import MoveModel
from domain.kernel.strict import LAZY

Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_:]+$")]


class Place(MoveModel):
    """Take an action (RR-5.2): put workers and/or rubles on a free action space, or on one's own
    hired engineer (`space` is then the engineer's id). Each required worker may be an own-colour
    worker, a temporary worker, the black worker or a ruble (RR-10.6)."""

    type: Literal["place"] = "place"
    space: Name
    workers: int = Field(0, ge=0, le=5)
    temporary: int = Field(0, ge=0, le=2)
    black: int = Field(0, ge=0, le=1)
    rubles: int = Field(0, ge=0, le=10)


class Pass(MoveModel):
    """Pass for the rest of the round (RR-12.3)."""

    type: Literal["pass"] = "pass"


class Advance(MoveModel):
    """One track advancement (RR-0.4): move this seat's `colour` track on `railway` one space."""

    type: Literal["advance"] = "advance"
    railway: Name
    colour: Name


class MoveMarker(MoveModel):
    """One industry advancement with industry marker `marker` (0 the first, 1 the second, RR-19.4)."""

    type: Literal["move_marker"] = "move_marker"
    marker: int = Field(ge=0, le=1)


class PlaceLocomotive(MoveModel):
    """Put the locomotive in hand into locomotive slot `slot` of `railway` (RR-7.4): an empty slot,
    or one whose locomotive is lower and is displaced (RR-7.6)."""

    type: Literal["place_locomotive"] = "place_locomotive"
    railway: Name
    slot: int = Field(ge=0, le=3)


class TakeFactory(MoveModel):
    """Take a factory (RR-8.3): the top of the lowest stack turned over, or one from the face-up
    pool (`from_pool`, with its value); it goes to the leftmost empty factory space, or, when all
    are full, replaces the factory in space `replace` (RR-8.5)."""

    type: Literal["take_factory"] = "take_factory"
    from_pool: bool = False
    value: int | None = Field(None, ge=1, le=20)
    replace: int | None = Field(None, ge=0, le=9)


class NextPart(MoveModel):
    """Do this part of the action next (RR-5.7): "advance:black", "industry", "take:factory", ..."""

    type: Literal["next_part"] = "next_part"
    part: Name


class ChooseToken(MoveModel):
    """Take this unused bonus token and apply it (RR-13.9, RR-19.1)."""

    type: Literal["choose_token"] = "choose_token"
    token: Name


class ChooseCard(MoveModel):
    """Take this face-up card and gain its benefit (RR-19.8)."""

    type: Literal["choose_card"] = "choose_card"
    card: Name


class TakeBonusCard(MoveModel):
    """Keep this final bonus card face down until final scoring (RR-21.2): a private choice."""

    type: Literal["take_bonus_card"] = "take_bonus_card"
    card: Name


class TakeBonusVP(MoveModel):
    """Gain 10 VP now instead of a final bonus card (RR-21.2, AMB-27)."""

    type: Literal["take_bonus_vp"] = "take_bonus_vp"


class Repeat(MoveModel):
    """Perform again an action used this round with exactly one worker or ruble (RR-22.7)."""

    type: Literal["repeat"] = "repeat"
    space: Name


class DraftBonus(MoveModel):
    """Take this starting bonus card and apply it (RR-2.20)."""

    type: Literal["draft_bonus"] = "draft_bonus"
    card: Name


class Decline(MoveModel):
    """Leave an optional benefit unused: the rest of the white track's advancements (RR-13.3), or the
    turn-order worker's move (RR-12.13)."""

    type: Literal["decline"] = "decline"


RussianRailroadsMove = (
    Place | Pass | Advance | MoveMarker | PlaceLocomotive | TakeFactory | NextPart | ChooseToken | ChooseCard
    | TakeBonusCard | TakeBonusVP | Repeat | DraftBonus | Decline
)

MOVE_ADAPTER: TypeAdapter[RussianRailroadsMove] = TypeAdapter(
    Annotated[RussianRailroadsMove, Field(discriminator="type")], config=ConfigDict(**LAZY)
)
"""Validates a move's JSON into its model (the ruleset's `move_adapter`), built on first use."""
