"""Longer applause (DR-21.14, DR-11.12, AMB-22): played during its owner's own performance.

The seat is offered its Longer applause cards once all its performers have been resolved and
before its region bonus, so a card covers the whole performance: for the card's performer type it
gains `per_outstanding` fame for each performer of that type that was dazzling in this performance
(a flip counts as dazzling) and `per_poor` (a loss) for each weak one; good ones and fired ones
count nothing. The `applause` step takes one card per move (`play_longer_applause`) until the seat
says `done_applause`; each card is played at most once per performance, and its use is spent as
any card's (DR-21.6): with none left it goes to the investment discard pile.

The seat is asked whenever its hand holds any card (the count is public), so the question itself
reveals nothing about which cards it holds; with no Longer applause card its only answer is
`done_applause`.
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import circus
from . import moves as mv
from .state import State

LONGER_APPLAUSE = "longer_applause"


def seat_of(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


def played(step: Step) -> tuple[str, ...]:
    cards = step.get("played", ())
    assert isinstance(cards, tuple)
    return tuple(str(card) for card in cards)


def playable(state: State, seat: int, step: Step) -> tuple[str, ...]:
    """The seat's Longer applause cards with a use left, not yet played in this performance."""
    found: list[str] = []
    for held in state.players[seat].hand:
        card = state.components.investment(held.card)
        if card.kind != LONGER_APPLAUSE or held.card in played(step) or held.card in found:
            continue
        if card.uses is None or held.used < card.uses:
            found.append(held.card)
    return tuple(found)


def applause_legal(state: State, seat: int, step: Step) -> list[mv.PlayLongerApplause | mv.DoneApplause]:
    return [*(mv.PlayLongerApplause(card=card) for card in playable(state, seat, step)), mv.DoneApplause()]


def applause_needed(state: State, step: Step) -> bool:
    """Asked of every seat holding any investment card, whatever the cards: how many a seat holds is
    public, which they are is not, so asking only the holders of a Longer applause card would tell
    the table what is in their hands."""
    return bool(state.players[seat_of(step)].hand)


def applause_validate(state: State, seat: int, step: Step,
                      move: mv.PlayLongerApplause | mv.DoneApplause) -> None:
    if isinstance(move, mv.DoneApplause):
        return
    if move.card not in playable(state, seat, step):
        if move.card in played(step):
            raise IllegalMoveError("DR-21.14", f"{move.card} has been played in this performance already")
        raise IllegalMoveError("DR-21.14", f"you hold no Longer applause card {move.card} with a use left")


def spend_use(state: State, seat: int, card: str) -> State:
    """DR-21.6 (AMB-21): one use of the card is spent; with none left it goes to the discard pile."""
    hand = list(state.players[seat].hand)
    index = next(i for i, held in enumerate(hand) if held.card == card)
    held = hand[index]
    uses = state.components.investment(card).uses
    discard = state.investment_discard
    if uses is not None and held.used + 1 >= uses:
        del hand[index]
        discard = (*discard, card)
    else:
        hand[index] = evolve(held, used=held.used + 1)
    return evolve(state, investment_discard=discard).with_player(seat, hand=tuple(hand))


def applause_apply(state: State, seat: int, step: Step, move: mv.PlayLongerApplause | mv.DoneApplause) -> State:
    """DR-21.14 (AMB-22): fame for the dazzling performers of the card's type in this performance,
    a loss for the weak ones."""
    if isinstance(move, mv.DoneApplause):
        return state
    card = state.components.investment(move.card)
    kind = card.performer_type
    levels = [hired.level for hired in state.players[seat].performers
              if hired.performed == state.performance and circus.type_of(state, hired.card) == kind]
    dazzling = levels.count(3)
    weak = levels.count(1)
    state = state.gain_fame(seat, dazzling * (card.per_outstanding or 0), "DR-21.14", "applause",
                            f"{card.name}: {dazzling} dazzling", card=move.card)
    state = state.gain_fame(seat, weak * (card.per_poor or 0), "DR-21.14", "applause",
                            f"{card.name}: {weak} weak", card=move.card)
    state = spend_use(state, seat, move.card)
    return push(state, step.but(played=[*played(step), move.card]))
