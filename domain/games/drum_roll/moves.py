"""Every move of Drum Roll built so far, one `MoveModel` each, and their union.

Setup asks two things of each seat: which of its two drawn performers it keeps (DR-2.9) and which
two starting cubes it takes (DR-2.10). The action phase asks where each action marker goes, or to
pass with it (DR-4.1, DR-5.16), and at resolution which card a hire takes, or to decline (DR-5.18).
The sharing phase asks for one cube placement or one agent or secretary exchange at a time, then
`done_sharing` (DR-8, DR-19.7 to DR-19.9).
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


class PlaceMarker(MoveModel):
    """Place an action marker on a space (DR-4.1): a cube action by its colour ("white" .. "red"),
    "ticket", "investment", "hire_performer" or "hire_helper". Nothing happens until resolution."""

    type: Literal["place_marker"] = "place_marker"
    space: Name
    unlock: Name | None = None
    """An Unlock occupied action card from your hand, played with this placement to place on a cube
    action that is taken (DR-5.2) or closed by the player-count limit (DR-5.3) (DR-21.10)."""


class PassMarker(MoveModel):
    """Pass with a marker instead of placing it: 1 money at once (DR-5.16, AMB-2)."""

    type: Literal["pass_marker"] = "pass_marker"


class HirePerformer(MoveModel):
    """At resolution of a Hire performer marker: hire this performer from the row (DR-5.11)."""

    type: Literal["hire_performer"] = "hire_performer"
    card: Name


class HireHelper(MoveModel):
    """At resolution of a Hire helper marker: hire this helper from the row (DR-5.13)."""

    type: Literal["hire_helper"] = "hire_helper"
    card: Name


class Decline(MoveModel):
    """Do not carry out a placed hire: the marker returns with no effect and no money (DR-5.18)."""

    type: Literal["decline"] = "decline"


class PlaceCube(MoveModel):
    """The sharing phase (DR-8.1, DR-8.3): move one cube of this colour from the cube supply onto an
    unfilled matching requirement of this level ("poor", "good", "outstanding") of this performer."""

    type: Literal["place_cube"] = "place_cube"
    performer: Name
    level: Name
    colour: Name


class ExchangeCube(MoveModel):
    """The sharing phase (DR-8.6, DR-19.7, DR-19.8): use this agent or personal secretary to give one
    cube of `give` from the cube supply to the general supply and take one of `take` from it."""

    type: Literal["exchange_cube"] = "exchange_cube"
    helper: Name
    give: Name
    take: Name


class DoneSharing(MoveModel):
    """End your turn of the sharing phase (DR-8.7: cubes not placed stay in the cube supply)."""

    type: Literal["done_sharing"] = "done_sharing"


class Deposit(MoveModel):
    """At a round's start, the bank clerk's owner puts this much money on it (DR-3.3, DR-19.6; 0 for none)."""

    type: Literal["deposit"] = "deposit"
    amount: int = Field(ge=0, le=1000)


class ReturnOrganiser(MoveModel):
    """At the end of a round, the show organiser's owner returns it to the helper row, or keeps it
    (DR-9.1, DR-19.2)."""

    type: Literal["return_organiser"] = "return_organiser"
    returned: bool


class CastVote(MoveModel):
    """The vote (DR-10.2): a marker in the hand (postpone) or an empty hand (perform now). Private
    until every seat has voted."""

    type: Literal["cast_vote"] = "cast_vote"
    postpone: bool


class PlayDoubleVote(MoveModel):
    """After the votes are revealed: play a Double vote card, so your vote counts twice, or not
    (DR-10.3, DR-21.18, AMB-26)."""

    type: Literal["play_double_vote"] = "play_double_vote"
    play: bool


class PlayInvestment(MoveModel):
    """Play an investment card from your hand (DR-21.2), in your own placement turn, sharing turn or
    hand-limit decision. The fields a card needs: `colours`, the cubes taken (Extra resource: one
    of the card's options, DR-21.17) or paid (Extra income conversion, DR-21.20); `performer`, the
    performer fired (Fire performer, DR-21.12) or given the trailer (Trailer, DR-21.11), with
    `shared_by` the performer sharing a bizarre performer's new trailer (DR-20.3)."""

    type: Literal["play_investment"] = "play_investment"
    card: Name
    colours: tuple[Name, ...] = Field(default=(), max_length=5)
    performer: Name | None = None
    shared_by: Name | None = None


class DiscardInvestment(MoveModel):
    """Over the hand limit: discard this investment card to the investment discard pile (DR-21.4,
    DR-21.5)."""

    type: Literal["discard_investment"] = "discard_investment"
    card: Name


DrumRollMove = (KeepPerformer | TakeCubes | PlaceMarker | PassMarker | HirePerformer | HireHelper | Decline
                | PlaceCube | ExchangeCube | DoneSharing | Deposit | ReturnOrganiser
                | CastVote | PlayDoubleVote | PlayInvestment | DiscardInvestment)

MOVE_ADAPTER: TypeAdapter[DrumRollMove] = TypeAdapter(
    Annotated[DrumRollMove, Field(discriminator="type")], config=ConfigDict(**LAZY)
)
