"""Circus Train moves: one pydantic model per kind of choice, in one discriminated union."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from domain.kernel.contract import MoveModel
from domain.kernel.strict import LAZY


class PickTalent(MoveModel):
    """Setup (CT-5.14): take one starting talent counter of an allowed type."""

    type: Literal["pick_talent"] = "pick_talent"
    talent: str


class ChooseStart(MoveModel):
    """Setup (CT-5.20): place the train on a start city."""

    type: Literal["choose_start"] = "choose_start"
    city: str


class PlayCard(MoveModel):
    """A turn (CT-7.2): play a card from hand, or replay one from the discard pile (advanced CT-19.5,
    or free with Engineer Eddie CT-21.14), moving along `path` (the cities entered, in order).

    `option` is for Basic Transit (CT-7.8): "move", "perform_hire" or, in the advanced game,
    "parade" (CT-19.16) with its `parade_reward`.
    """

    type: Literal["play_card"] = "play_card"
    card: str
    path: tuple[str, ...] = ()
    option: Literal["move", "perform_hire", "parade"] | None = None
    parade_reward: Literal["reputation", "vp"] | None = None
    source: Literal["hand", "replay", "eddie"] = "hand"


class PocketWages(MoveModel):
    """Advanced (CT-19.8): take `bills` $5 bills instead of playing a card, -1 reputation each."""

    type: Literal["pocket_wages"] = "pocket_wages"
    bills: int


class UseSam(MoveModel):
    """Advanced with Special Characters (CT-21.13): spend Smuggler Sam for +1 reputation."""

    type: Literal["use_sam"] = "use_sam"


class ClaimCharacter(MoveModel):
    """Optional rules (CT-21.6): roll to claim the Special Character in the city just reached."""

    type: Literal["claim_character"] = "claim_character"


class Perform(MoveModel):
    """Perform the request in the train's city (CT-9.1); `famous` uses Ringmaster Ronald (CT-21.12)."""

    type: Literal["perform"] = "perform"
    famous: Literal["clown", "acrobat"] | None = None


class Hire(MoveModel):
    """Attempt to hire one talent counter of this type in the city (CT-9.21); `sam` spends Smuggler Sam
    to take it with no roll (CT-21.13)."""

    type: Literal["hire"] = "hire"
    talent: str
    sam: bool = False


class BuyAfterFailure(MoveModel):
    """Pay the $10 after a failed hire roll and take the counter anyway (CT-9.22)."""

    type: Literal["buy_after_failure"] = "buy_after_failure"


class Steal(MoveModel):
    """Special Hire option 2 (CT-10.4): try to steal up to two counters from a player in the city."""

    type: Literal["steal"] = "steal"
    victim: int
    talents: tuple[str, ...]


class BuyFromPool(MoveModel):
    """Special Hire option 3 (CT-10.2, CT-10.3): buy one talent (or a reserve Special Character in
    August/September, CT-21.9) at the month's price."""

    type: Literal["buy_from_pool"] = "buy_from_pool"
    talent: str


class KeepTalent(MoveModel):
    """A wage payment (CT-11.3, CT-19.14): the talent counters kept and paid; the rest are fired."""

    type: Literal["keep_talent"] = "keep_talent"
    talents: tuple[str, ...]


class SendFired(MoveModel):
    """The player to the right of the firing player picks the talent city for the fired group
    (CT-11.4)."""

    type: Literal["send_fired"] = "send_fired"
    city: str


class LongSteal(MoveModel):
    """The long-month steal (CT-15.2): take one counter from one opponent."""

    type: Literal["long_steal"] = "long_steal"
    victim: int
    talent: str


class RestBonus(MoveModel):
    """Advanced Rest card in Canada (CT-19.11): a free Clown or Acrobat, or +1 reputation."""

    type: Literal["rest_bonus"] = "rest_bonus"
    bonus: str


class BlockLink(MoveModel):
    """Event card (rail strike, washed-out bridge): mark a rail link as unusable this month."""

    type: Literal["block_link"] = "block_link"
    a: str
    b: str


class ReturnTalent(MoveModel):
    """Event card (talent walkout, payroll dispute): return one counter of your choice to the pool."""

    type: Literal["return_talent"] = "return_talent"
    talent: str


class Pass(MoveModel):
    """Decline what is optional now: the Perform/Hire, further hires, the purchase after a failed
    roll, the Special Hire, a claim, the long-month steal or the Rest bonus."""

    type: Literal["pass"] = "pass"


CircusTrainMove = (
    PickTalent
    | ChooseStart
    | PlayCard
    | PocketWages
    | UseSam
    | ClaimCharacter
    | Perform
    | Hire
    | BuyAfterFailure
    | Steal
    | BuyFromPool
    | KeepTalent
    | SendFired
    | LongSteal
    | RestBonus
    | BlockLink
    | ReturnTalent
    | Pass
)
"""Every move of the game: each model above, told apart by its `type`."""

MOVE_ADAPTER: TypeAdapter[CircusTrainMove] = TypeAdapter(Annotated[CircusTrainMove, Field(discriminator="type")],
                                                         config=ConfigDict(**LAZY))
"""Validates a move's JSON into its model (the ruleset's `move_adapter`)."""
