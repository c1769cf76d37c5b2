"""Wage payment (DR-12): after everyone has performed, each circus pays its helpers and performers.

Why a module of its own: a performer's current wage depends on several rules at once (the printed
wage, or the bizarre wage by count; the flip and the secondary wage with the AMB-40 delay; the
trailer's reduction), and both the payment and anything that wants to show a wage bill (a bot, a
renderer) must read it the same way, so `wage_of` is the one place that computes it.

The payment is not a decision: a player pays all it can (DR-12.4), and each coin short costs 1
fame (DR-12.3). Money on the bank clerk is not money (DR-12.5, DR-19.6), so it is never touched.
Cards whose wage a reward skipped (DR-18.8, AMB-36) are left out, and the skips are used up by the
payment.
"""

from __future__ import annotations

from domain.kernel.agenda import Step

from . import circus
from .state import Hired, State

TRAILER_REDUCTION = 1
"""DR-20.2: a trailer, its own or a shared one (DR-20.3, AMB-18), lowers the wage by 1."""


def base_wage(state: State, seat: int, hired: Hired) -> int:
    """The front wage (DR-17.1): the printed `wage`, or for a card with `wage_by_bizarre_count` the
    entry for the number of bizarre performers in the circus (1, 2, 3 or more: the last entry;
    DR-18.4)."""
    card = state.components.performer(hired.card)
    if not card.wage_by_bizarre_count:
        return card.wage
    return circus.by_bizarre_count(state, seat, card.wage_by_bizarre_count)


def pays_secondary(state: State, hired: Hired) -> bool:
    """DR-17.8, AMB-40: a flipped performer is paid its base wage in the performance it was flipped
    in (and, with `secondary_wage_delay` 1, in the next one too), its secondary wage after that."""
    if hired.flipped is None:
        return False
    return state.performance > hired.flipped + state.options.secondary_wage_delay


def wage_of(state: State, seat: int, hired: Hired) -> int:
    """The current wage of a performer in the seat's circus (DR-12.2): the base or the secondary
    wage (DR-17.8, AMB-40), less 1 with a trailer of its own or a shared one (DR-20.2, DR-20.5,
    DR-17.10), never below 0. Skipped wages (DR-18.8) are the payment's business, not this one's."""
    card = state.components.performer(hired.card)
    wage = card.secondary_wage if pays_secondary(state, hired) else base_wage(state, seat, hired)
    if hired.trailer or hired.shares_trailer_of is not None:
        wage -= TRAILER_REDUCTION
    return max(wage, 0)


def wage_bill(state: State, seat: int) -> int:
    """DR-12.2: the seat's total wage: every helper's printed wage and every performer's current
    wage, leaving out the cards whose wage was skipped this performance (DR-18.8, AMB-36)."""
    player = state.players[seat]
    skipped = set(player.skipped)
    components = state.components
    helpers = sum(components.helper(card).wage for card in player.helpers if card not in skipped)
    performers = sum(wage_of(state, seat, hired) for hired in player.performers if hired.card not in skipped)
    return helpers + performers


def pay(state: State, seat: int) -> State:
    """DR-12.3, DR-12.4, EX-11: pay the bill from money, all that can be paid; each coin short
    costs 1 fame (fame may fall below 0, DR-0.4). The deposit is not money (DR-12.5). The skips are
    used up (DR-18.8: for this performance's payment only)."""
    player = state.players[seat]
    bill = wage_bill(state, seat)
    paid = min(bill, player.money)
    short = bill - paid
    state = state.with_player(seat, money=player.money - paid, skipped=())
    detail = f"wages {bill}, paid {paid}, {short} short"
    return state.gain_fame(seat, -short, "DR-12.3", "wages", detail)


def wages(state: State, step: Step) -> State:
    """DR-12.1: after every seat has performed, each pays the wages of its circus. The payments are
    independent of one another (money is unlimited, DR-16.5), so the order only fixes the ledger's:
    clockwise from the start player, as the performance (AMB-38)."""
    for seat in state.clockwise():
        state = pay(state, seat)
    return state
