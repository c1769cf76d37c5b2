"""The circus primitives: where a gained trailer can go, assigning it, and a performer leaving
(DR-8.4, DR-16.4, DR-20, DR-21.5, AMB-18, AMB-19).

PROVISIONAL (branch dr-invest): branch dr-show owns this module; this copy has exactly the
signatures and semantics of the shared interface (the briefs' interfaces.md) so that the Trailer
and Fire performer investment cards can be built and tested, and is replaced by dr-show's at the
merge. Keep it to these three functions.
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.values import evolve

from .state import Hired, State

BIZARRE = "bizarre"
"""The performer type whose trailer may be shared (DR-20.3): its type id in the data."""

MAGICIAN = "magician"
"""The performer type that raises the investment hand limit (DR-21.3): its type id in the data."""


def _free(hired: Hired) -> bool:
    """No trailer of its own and not sharing one (DR-20.1, AMB-18)."""
    return not hired.trailer and hired.shares_trailer_of is None


def trailer_spots(state: State, seat: int) -> tuple[tuple[str, str | None], ...]:
    """Where a trailer gained now can go (DR-20.1, DR-20.3, DR-20.6, AMB-18, AMB-19), sorted:
    `(performer, None)` for each performer with no trailer and no share, and `(bizarre, other)`
    for each such bizarre performer paired with each other such performer (the trailer goes to the
    bizarre performer and `other` shares it). Empty with no such performer or no trailer left in
    the general supply (DR-16.4)."""
    if state.trailers <= 0:
        return ()
    free = [hired for hired in state.players[seat].performers if _free(hired)]
    spots: list[tuple[str, str | None]] = [(hired.card, None) for hired in free]
    for hired in free:
        if state.components.performer(hired.card).type == BIZARRE:
            spots.extend((hired.card, other.card) for other in free if other.card != hired.card)
    return tuple(sorted(spots, key=lambda spot: (spot[0], spot[1] or "")))


def assign_trailer(state: State, seat: int, performer: str, shared_by: str | None) -> State:
    """One trailer from the general supply onto `performer`; `shared_by`, if any, shares it
    (DR-20.3). The caller has checked that this is one of `trailer_spots`."""
    performers = tuple(
        evolve(hired, trailer=True) if hired.card == performer
        else evolve(hired, shares_trailer_of=performer) if hired.card == shared_by
        else hired
        for hired in state.players[seat].performers
    )
    return evolve(state, trailers=state.trailers - 1).with_player(seat, performers=performers)


def fire(state: State, seat: int, card: str) -> State:
    """The performer leaves the circus for the performer discard pile; its cubes go back to the
    general supply (DR-8.4); its trailer stays with the performer sharing it, which then has it as
    its own, or goes back to the supply; a performer that shared a trailer simply loses the share
    (DR-20.7, AMB-19). A magician leaving lowers the hand limit, so the hand is checked again
    (DR-21.5). No severance and no fame: DR-11.8's caller adds those."""
    player = state.players[seat]
    leaving = next(hired for hired in player.performers if hired.card == card)
    supply = dict(state.cubes)
    for level in leaving.cubes:
        for colour in level:
            supply[colour] = supply.get(colour, 0) + 1
    trailers = state.trailers
    sharer = next((hired.card for hired in player.performers if hired.shares_trailer_of == card), None)
    if leaving.trailer and sharer is None:
        trailers += 1
    performers = tuple(
        evolve(hired, trailer=True, shares_trailer_of=None) if hired.card == sharer else hired
        for hired in player.performers if hired.card != card
    )
    state = evolve(state, cubes=supply, trailers=trailers, performer_discard=(*state.performer_discard, card))
    state = state.with_player(seat, performers=performers)
    if state.components.performer(card).type == MAGICIAN:
        state = push(state, Step("hand_limit", seat=seat))
    return state
