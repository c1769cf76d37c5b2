"""Between preparation rounds: the bank clerk's deposit at a round's start (DR-3.3, DR-19.6), what
follows the sharing phase (DR-3.4, AMB-6) and the end of round (DR-9, DR-19.2, AMB-15).

The end of round is carried out only when another preparation round follows (DR-3.4, AMB-6):
after rounds 5 and 6 the votes of vote.py decide, and after the last round the performance
begins (vote.py's `performance` step). The show organiser's handlers here also serve its return
just before a performance (performance_end.py, AMB-15).

The decks are multisets with no order (state.py), so reshuffling an exhausted deck's discard
pile (DR-16.3) is moving the pile into the deck: the shuffle's randomness is the draw's chance
event that follows, over every card in the new deck.
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import flow
from . import moves as mv
from .state import RowCard, State

LAST_ROUND_BEFORE_VOTE = 5
"""DR-3.4: rounds 1 to 4 are followed by an end of round, rounds 5 and 6 by the vote (DR-10)."""
LAST_ROUND = 7
"""DR-3.4, DR-10.6: after round 7 the performance begins with no vote."""

SHOW_ORGANISER = "show_organiser"
BANK_CLERK = "bank_clerk"


def owner_of(state: State, kind: str) -> int | None:
    """The seat whose circus holds the helper of this kind (there is one of each), or None."""
    for seat, player in enumerate(state.players):
        if any(state.components.helper(card).kind == kind for card in player.helpers):
            return seat
    return None


# ---- the bank clerk (DR-3.3, DR-19.6) ----------------------------------------------------------


def bank_clerk(state: State, step: Step) -> State:
    """DR-3.3: before the action phase, the bank clerk's owner may deposit money on it."""
    seat = owner_of(state, BANK_CLERK)
    if seat is None:
        return state
    return push(state, Step("deposit", seat=seat, round=step["round"]))


def deposit_legal(state: State, seat: int, step: Step) -> list[mv.Deposit]:
    return [mv.Deposit(amount=amount) for amount in range(state.players[seat].money + 1)]


def deposit_needed(state: State, step: Step) -> bool:
    seat = step.seat
    assert seat is not None
    return state.players[seat].money > 0


def deposit_validate(state: State, seat: int, step: Step, move: mv.Deposit) -> None:
    money = state.players[seat].money
    if move.amount > money:
        raise IllegalMoveError("DR-19.6", f"you have {money} money; you cannot deposit {move.amount}")


def deposit_apply(state: State, seat: int, step: Step, move: mv.Deposit) -> State:
    """DR-19.6: the money deposited can no longer be used for anything."""
    player = state.players[seat]
    return state.with_player(seat, money=player.money - move.amount, deposit=player.deposit + move.amount)


# ---- after the sharing phase (DR-3.4, AMB-6) --------------------------------------------------


def after_sharing(state: State, step: Step) -> State:
    """DR-3.4, AMB-6: after rounds 1 to 4, the end of round and the next round; after rounds 5 and 6
    the vote (DR-10, vote.py), which pushes the end of round only for a postponement; after round
    7 the performance, with no vote."""
    number = int(step["round"])
    if number < LAST_ROUND_BEFORE_VOTE:
        return push(state, Step("end_of_round", round=number), Step("prep_round", round=number + 1))
    if number < LAST_ROUND:
        return push(state, Step("vote", round=number))
    return push(state, Step("performance"))


# ---- the show organiser (DR-9.1, DR-19.2, AMB-15) ----------------------------------------------


def organiser(state: State, step: Step) -> State:
    """DR-9.1, AMB-15: first of all, the show organiser's owner may return it. The bar on hiring
    it back (DR-19.2) lasts one round, so an earlier return is forgotten here."""
    state = evolve(state, organiser_returned=None)
    seat = owner_of(state, SHOW_ORGANISER)
    if seat is None:
        return state
    return push(state, Step("return_organiser", seat=seat, round=step["round"]))


def organiser_legal(state: State, seat: int, step: Step) -> list[mv.ReturnOrganiser]:
    return [mv.ReturnOrganiser(returned=True), mv.ReturnOrganiser(returned=False)]


def organiser_validate(state: State, seat: int, step: Step, move: mv.ReturnOrganiser) -> None:
    return None


def organiser_apply(state: State, seat: int, step: Step, move: mv.ReturnOrganiser) -> State:
    """DR-19.2, AMB-15: the card goes back to the helper row with no discount tokens; its owner will
    start the next round and may not hire it in that round."""
    if not move.returned:
        return state
    player = state.players[seat]
    card = next(card for card in player.helpers if state.components.helper(card).kind == SHOW_ORGANISER)
    state = state.with_player(seat, helpers=tuple(c for c in player.helpers if c != card))
    return evolve(state, helper_row=(*state.helper_row, RowCard(card)), organiser_returned=seat)


def organiser_barred(state: State, seat: int, card: str) -> IllegalMoveError | None:
    """DR-19.2, AMB-15: the player who returned the show organiser may not hire it in the next round."""
    if state.organiser_returned == seat and state.components.helper(card).kind == SHOW_ORGANISER:
        return IllegalMoveError("DR-19.2", "you returned the show organiser: you may not hire it this round")
    return None


# ---- the refills (DR-9.2 to DR-9.4, DR-16.3, DR-22.3, DR-22.4) --------------------------------


def refill_helpers(state: State, step: Step) -> State:
    """DR-9.2, AMB-15, DR-22.3: draw helpers until the row holds N (two players: 3); a fuller row
    is left as it is. DR-9.4, DR-16.3: an empty deck takes its discard pile, once per refill; with
    both empty the row stays short."""
    if len(state.helper_row) >= state.components.for_players(state.seats).helper_row:
        return state
    if not state.helper_deck:
        if not state.helper_discard or step.get("reshuffled"):
            return state
        state = evolve(state, helper_deck=tuple(sorted(state.helper_discard)), helper_discard=())
        return push(state, step.but(reshuffled=True))
    return push(state, Step("refill_helper"), step)


def refill_performers(state: State, step: Step) -> State:
    """DR-9.3, DR-2.6, AMB-5, DR-22.4: draw performers from the bottom of the deck until the row holds
    N + 1, each past the type limit discarded. DR-9.4, DR-16.3: as for the helpers."""
    if len(state.performer_row) >= state.components.for_players(state.seats).performer_row:
        return state
    if not state.performer_deck:
        if not state.performer_discard or step.get("reshuffled"):
            return state
        state = evolve(state, performer_deck=tuple(sorted(state.performer_discard)), performer_discard=())
        return push(state, step.but(reshuffled=True))
    return push(state, Step("refill_performer"), step)


def refill_performer_spec(state: State, step: Step) -> ChanceSpec | None:
    return ChanceSpec("performer drawn from the bottom of the deck", flow.multiset(state.performer_deck),
                      visible_to="all")


def resolve_refill_performer(state: State, step: Step, outcome: JSON) -> State:
    return flow.place_performer(state, str(outcome))


# ---- the round marker and the start player (DR-9.5, DR-9.6) ------------------------------------


def pass_start(state: State, step: Step) -> State:
    """DR-9.6, DR-19.2: the start player passes to the left, unless the show organiser was returned:
    then its returner starts the next round. (DR-9.5: the round marker is the next round's number,
    set when that round starts.)"""
    if state.organiser_returned is not None:
        return evolve(state, start_player=state.organiser_returned)
    assert state.start_player is not None
    return evolve(state, start_player=state.left_of(state.start_player))
