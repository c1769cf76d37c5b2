"""The refusals of the table: a move the decision at the head does not take, and who else a
pending step belongs to.

Why a rule of its own: a move made at the wrong moment breaks the rule that says when such a move
may be made (a hire needs a Perform/Hire action, CT-9.20), not the rule of the step in progress,
so the refusal is chosen by the move as much as by the step.
"""

from __future__ import annotations

from domain.kernel.agenda import Step
from domain.kernel.errors import IllegalMoveError

from . import moves as mv
from .state import State

DIE_RULES = {"hire": "CT-9.21", "steal": "CT-10.4", "claim": "CT-21.6", "event_loss": "CT-21.18"}


def die_rule(step: Step) -> str:
    """The rule that makes a die roll the next thing to happen: the roll it is (CT-0.13 otherwise)."""
    purpose = step.get("purpose", "")
    return DIE_RULES.get(purpose if isinstance(purpose, str) else "", "CT-0.13")


def out_of_step(state: State, seat: int, step: Step, move: object, asks: str) -> IllegalMoveError:
    """A move of a kind the decision in progress does not take: cite the rule that says when such a
    move may be made (the rule it breaks), not the rule of the step in progress. `asks` is what the
    step in progress asks for (its row's words)."""
    kind = step.kind
    now = f"now you must {asks}"
    what = getattr(move, "type", type(move).__name__)
    if kind == "claim":
        return IllegalMoveError(
            "CT-21.6", f"a Special Character is claimed (or not) before anything else is done here; {now}"
        )
    if isinstance(move, mv.PickTalent):
        return IllegalMoveError("CT-5.14", f"starting talent is picked only during setup; {now}")
    if isinstance(move, mv.ChooseStart):
        return IllegalMoveError("CT-5.20", f"trains are placed on start cities only during setup; {now}")
    if isinstance(move, mv.PlayCard):
        if state.advanced:
            return IllegalMoveError(
                "CT-19.4", f"one card is played (or replayed) at the start of a turn, no more; {now}"
            )
        return IllegalMoveError("CT-7.2", f"exactly one action card is played at the start of a turn; {now}")
    if isinstance(move, mv.PocketWages):
        return IllegalMoveError(
            "CT-19.4", f"wages are pocketed instead of playing a card, at the start of a turn; {now}"
        )
    if isinstance(move, mv.UseSam):
        return IllegalMoveError(
            "CT-21.13", f"Smuggler Sam is spent for reputation at the start of a turn (A-33); {now}"
        )
    if isinstance(move, mv.ClaimCharacter):
        return IllegalMoveError(
            "CT-21.6", f"a claim is tried only on ending a movement in the Special Character's city; {now}"
        )
    if isinstance(move, mv.Perform):
        if kind in ("hire_more", "buy"):
            return IllegalMoveError(
                "CT-0.10", f"a Perform/Hire action is a performance or a hire, never both (A-9); {now}"
            )
        if kind == "special":
            return IllegalMoveError(
                "CT-0.10", f"a Special Hire is not a Perform/Hire action: nothing is performed; {now}"
            )
        return IllegalMoveError("CT-9.1", f"a performance needs a Perform/Hire action; {now}")
    if isinstance(move, mv.Hire):
        if kind == "buy":
            return IllegalMoveError(
                "CT-9.22",
                "the $10 purchase is decided right after the failed roll, before any other "
                "attempt: buy_after_failure or pass"
            )
        return IllegalMoveError("CT-9.20", f"a hire needs a Perform/Hire action or a Special Hire; {now}")
    if isinstance(move, mv.BuyAfterFailure):
        return _buy_out_of_step(state, seat, step, now)
    if isinstance(move, (mv.Steal, mv.BuyFromPool)):
        return IllegalMoveError("CT-10.1", f"stealing and buying from the pool are Special Hire options; {now}")
    if isinstance(move, mv.KeepTalent):
        return IllegalMoveError("CT-11.1", f"wages are paid after Wage & Transit's movement; {now}")
    if isinstance(move, mv.SendFired):
        return IllegalMoveError("CT-11.4", f"the player to the right chooses a city only for talent just fired; {now}")
    if isinstance(move, mv.LongSteal):
        return IllegalMoveError("CT-15.2", f"the long-month steal comes only after a 5-week month's scoring; {now}")
    if isinstance(move, mv.RestBonus):
        return IllegalMoveError("CT-19.11", f"the Rest bonus follows playing Rest in Canada; {now}")
    if isinstance(move, (mv.BlockLink, mv.ReturnTalent)):
        return IllegalMoveError("CT-21.18", f"that is an event card's decision, and no event asks for it; {now}")
    if isinstance(move, mv.Pass):
        if kind == "turn":
            if state.advanced:
                return IllegalMoveError(
                    "CT-19.4", "a turn plays or replays a card, or pockets wages: it cannot be passed"
                )
            return IllegalMoveError("CT-7.2", "playing a card is compulsory, even when its action would do nothing")
        if kind == "pick":
            return IllegalMoveError("CT-5.14", "each player takes two starting talent counters")
        if kind == "start":
            return IllegalMoveError("CT-5.20", "each player places their train on a start city")
        if kind == "keep":
            return IllegalMoveError("CT-11.1", "Wage & Transit's wages must be paid: choose the talent you keep")
        if kind == "fired_city":
            return IllegalMoveError("CT-11.4", "the fired group must go to one of the cities holding talent")
    return IllegalMoveError("CT-7.2", f"{what} is not a Circus Train decision; {now}")


def _buy_out_of_step(state: State, seat: int, step: Step, now: str) -> IllegalMoveError:
    """The $10 purchase outside its moment (CT-9.22): with no money for it after a failed roll, the
    money rule (CT-0.11); for a Special Character in the city, CT-21.6; otherwise CT-9.22."""
    constants = state.catalog.components.constants
    player = state.players[seat]
    cost = constants.buy_after_failed_hire
    failed = step.get("failed") if step.kind == "hire_more" else None
    if failed is not None and player.money < cost:
        return IllegalMoveError(
            "CT-0.11", f"buying the {failed} after the failed roll costs ${cost}; you have ${player.money}"
        )
    if failed is not None:
        return IllegalMoveError(
            "CT-9.22", f"the {failed} was not bought right after its failed roll, the only moment to"
        )
    if player.city in state.characters:
        return IllegalMoveError(
            "CT-21.6",
            "a Special Character on the board is taken only by a claim roll; after a failed "
            "claim it stays in the city and cannot be bought for $10 (A-41)"
        )
    return IllegalMoveError("CT-9.22", f"the $10 purchase is possible only right after a failed hire roll; {now}")
