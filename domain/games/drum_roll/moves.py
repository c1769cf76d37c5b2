"""Every move of Drum Roll built so far, one `MoveModel` each, and their union.

Setup asks two things of each seat: which of its two drawn performers it keeps (DR-2.9) and which
two starting cubes it takes (DR-2.10). The action phase asks where each action marker goes, or to
pass with it (DR-4.1, DR-5.16), and at resolution which card a hire takes, or to decline (DR-5.18).
The sharing phase asks for one cube placement or one agent or secretary exchange at a time, then
`done_sharing` (DR-8, DR-19.7 to DR-19.9). A performance asks which performer performs next
(DR-11.2), a dazzling performer's reward or flip (DR-11.6), and what each reward needs: a cube's
colour, the investment card kept, a trailer's place, the cubes paid, the wage skipped; and, after
the seat's performers, its Longer applause cards (DR-21.14).
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


class Perform(MoveModel):
    """A seat's performance (DR-11.2): this performer of yours, not flipped and not yet performed
    in this performance, performs next and is resolved in full before the next one."""

    type: Literal["perform"] = "perform"
    card: Name


class ChooseDazzling(MoveModel):
    """A dazzling performer (DR-11.6): take its dazzling reward (`flip` false), or flip the card for
    its flip fame (`flip` true, DR-17.6; once per performer, DR-17.7)."""

    type: Literal["choose_dazzling"] = "choose_dazzling"
    flip: bool


class TakeRewardCube(MoveModel):
    """A cube reward with a choice of colour (DR-18.5, DR-18.7): one cube of this colour from the
    general supply into your cube supply."""

    type: Literal["take_reward_cube"] = "take_reward_cube"
    colour: Name


class KeepInvestment(MoveModel):
    """A look-and-keep reward (DR-18.2, DR-18.9): keep the card at `index` (from 0, in the order
    drawn) among the investment cards looked at and not yet kept; the ones not kept go under the
    investment deck.

    Why a position and not the card: the move is public, the cards are not. Which position was kept
    tells the table nothing about which card (the draws are hidden and random), so the record needs
    no private choice, and a later move of the keeper that names the card (playing or discarding
    it) never depends on a choice still hidden."""

    type: Literal["keep_investment"] = "keep_investment"
    index: int = Field(ge=0, le=5)


class TakeTrailer(MoveModel):
    """A trailer reward (DR-18.4, DR-20.6): pay its price and put one trailer on `performer`; with
    `shared_by`, that performer shares the bizarre performer's trailer (DR-20.3)."""

    type: Literal["take_trailer"] = "take_trailer"
    performer: Name
    shared_by: Name | None = None


class PayCubes(MoveModel):
    """Pay these cubes from your cube supply to the general supply for a reward that shows a cube
    price: an animal trainer's conversion to money (DR-18.6) or a paid wage skip (DR-18.8)."""

    type: Literal["pay_cubes"] = "pay_cubes"
    cubes: tuple[Name, ...] = Field(min_length=1, max_length=5)


class SkipWage(MoveModel):
    """A wage-skipping reward (DR-18.8): no wage is paid for this helper or performer of your
    circus in this performance's wage payment."""

    type: Literal["skip_wage"] = "skip_wage"
    card: Name


class DeclineReward(MoveModel):
    """Do not use an optional reward: a trailer for money, a conversion or a wage skip (nothing is
    paid, nothing gained)."""

    type: Literal["decline_reward"] = "decline_reward"


class PlayLongerApplause(MoveModel):
    """In your own performance, after your performers: play this Longer applause card (DR-21.14)."""

    type: Literal["play_longer_applause"] = "play_longer_applause"
    card: Name


class DoneApplause(MoveModel):
    """Play no (more) Longer applause cards in this performance."""

    type: Literal["done_applause"] = "done_applause"


class PlayInvestment(MoveModel):
    """Play an investment card from your hand (DR-21.2), in your own placement turn, hire, sharing turn or
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
                | CastVote | PlayDoubleVote
                | Perform | ChooseDazzling | TakeRewardCube | KeepInvestment | TakeTrailer | PayCubes | SkipWage
                | DeclineReward | PlayLongerApplause | DoneApplause | PlayInvestment | DiscardInvestment)

MOVE_ADAPTER: TypeAdapter[DrumRollMove] = TypeAdapter(
    Annotated[DrumRollMove, Field(discriminator="type")], config=ConfigDict(**LAZY)
)
