"""The investment deck and hands: drawing a card (DR-5.8, DR-16.3, DR-18.9), the hand limit
(DR-21.3 to DR-21.5, DR-21.8, AMB-20, AMB-25) and spending a card's uses (DR-21.6, AMB-21).

Where a drawn card comes from, in this order:
1. the shuffled deck, `investment_deck` (a multiset: the draw is a chance over what is left);
2. the cards put under it after a look reward, `investment_bottom`, the first put there first
   (DR-18.9, AMB-37). Their order is fixed, so the draw has one possible outcome; it is still a
   chance event, seen by the drawer alone, so that the card drawn is recorded in the log with the
   same visibility as any other draw (the agenda stops at a chance step with one outcome just as
   at any other, and only the arbiter sees a pending chance's outcomes);
3. the discard pile, which becomes the deck (DR-16.3). Decks are multisets, so the reshuffle is
   the move of the pile into the deck and its chance is the draw over it: `take_drawn` moves the
   pile, less the card drawn, into the deck;
4. nothing: no card can be drawn for the rest of the game (DR-16.3), and an Investment marker
   returns with no effect and no money (DR-5.10).

The hand limit is a standing maximum (AMB-20): `constants.hand_limit`, plus
`constants.hand_limit_per_magician` for every magician in the circus, flipped ones included
(DR-21.3). Bonus cards count towards it while held (DR-21.8). A `hand_limit` step (its row is in
`cards.py`) is pushed whenever a hand may be over it: after a card is taken (DR-5.8, DR-18.9) and
after a magician leaves (DR-21.5).
"""

from __future__ import annotations

from domain.kernel.agenda import Step
from domain.kernel.contract import ChanceSpec
from domain.kernel.values import evolve

from .circus import MAGICIAN
from .flow import multiset, without
from .state import HandCard, State

HAND_LIMIT = "hand_limit"
"""The step kind that makes a seat play or discard down to its hand limit (DR-21.4, DR-21.5)."""

PERFORMANCE_KINDS = ("wages",)
"""Step kinds pending from the first player's performance until wages are paid: while one is on the
agenda, a performance is in progress (AMB-24). The `performance` step pushes the organiser's return,
the seats' performances and then `wages` (performance.begin), so `wages` is pending throughout and
gone once they are paid."""


# ---- drawing (DR-5.8, DR-16.3, DR-18.9) -----------------------------------------------------


def draw_spec(state: State, seat: int) -> ChanceSpec | None:
    """The next investment card `seat` draws, seen by that seat alone; None when no card can be
    drawn (DR-16.3, DR-5.10)."""
    if state.investment_deck:
        return ChanceSpec("investment card drawn", multiset(state.investment_deck), visible_to=(seat,))
    if state.investment_bottom:
        return ChanceSpec("investment card drawn from under the deck", ((state.investment_bottom[0], 1),),
                          visible_to=(seat,))
    if state.investment_discard:
        return ChanceSpec("investment card drawn after the reshuffle", multiset(state.investment_discard),
                          visible_to=(seat,))
    return None


def take_drawn(state: State, card: str) -> State:
    """Remove the drawn `card` from where `draw_spec` drew it: the deck, the front of the cards under
    it, or the discard pile, whose other cards then become the deck (DR-16.3)."""
    if state.investment_deck:
        return evolve(state, investment_deck=without(state.investment_deck, card))
    if state.investment_bottom:
        assert state.investment_bottom[0] == card, f"{card} is not the first card under the deck"
        return evolve(state, investment_bottom=state.investment_bottom[1:])
    return evolve(state, investment_deck=without(state.investment_discard, card), investment_discard=())


# ---- the hand limit (DR-21.3 to DR-21.5) -----------------------------------------------------


def hand_limit(state: State, seat: int) -> int:
    """DR-21.3, AMB-20: the base limit plus one per magician in the circus, flipped or not."""
    constants = state.components.constants
    magicians = sum(1 for hired in state.players[seat].performers
                    if state.components.performer(hired.card).type == MAGICIAN)
    return constants.hand_limit + constants.hand_limit_per_magician * magicians


def over_limit(state: State, seat: int) -> int:
    """How many cards the seat holds above its hand limit (0 if none; DR-21.8: every card counts)."""
    return max(len(state.players[seat].hand) - hand_limit(state, seat), 0)


def check_hand(seat: int) -> Step:
    """The step that makes the seat play or discard down to its limit, if it is over it."""
    return Step(HAND_LIMIT, seat=seat)


def in_performance(state: State) -> bool:
    """AMB-24: a performance is in progress, from the first player's performance to the end of the
    wages (see PERFORMANCE_KINDS)."""
    return any(step.kind in PERFORMANCE_KINDS for step in state.agenda)


# ---- cards in hand (DR-21.6) ------------------------------------------------------------------


def held(state: State, seat: int, card: str) -> HandCard | None:
    """The seat's hand card `card` (card ids are unique, so a hand holds each at most once)."""
    return next((hand_card for hand_card in state.players[seat].hand if hand_card.card == card), None)


def last_use(state: State, seat: int, card: str) -> bool:
    """Whether using `card` now spends its last use, so that it leaves the hand (DR-21.6)."""
    hand_card = held(state, seat, card)
    assert hand_card is not None
    uses = state.components.investment(card).uses
    return uses is not None and hand_card.used + 1 >= uses


def spend_use(state: State, seat: int, card: str) -> State:
    """DR-21.6, AMB-21: one use of the card is spent; with none left it goes to the investment
    discard pile. A card with no usage mark (`uses` null) stays, its use counted (DR-21.7)."""
    leaves = last_use(state, seat, card)
    hand = state.players[seat].hand
    if leaves:
        state = evolve(state, investment_discard=(*state.investment_discard, card))
        return state.with_player(seat, hand=tuple(c for c in hand if c.card != card))
    return state.with_player(seat, hand=tuple(evolve(c, used=c.used + 1) if c.card == card else c for c in hand))


def discard(state: State, seat: int, card: str) -> State:
    """DR-21.4: a card discarded from the hand goes to the investment discard pile."""
    hand = state.players[seat].hand
    state = evolve(state, investment_discard=(*state.investment_discard, card))
    return state.with_player(seat, hand=tuple(c for c in hand if c.card != card))
