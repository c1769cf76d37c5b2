"""The circus primitives other phases share: where a gained trailer can go, assigning it, and a
performer leaving the circus (DR-0.7, DR-11.8, DR-20, DR-21.12).

Why one module: a trailer is gained by a bizarre performer's reward (DR-18.4), by a Trailer
investment card (DR-21.11) and checked again when its performer is fired (DR-11.8) or dismissed by
a Fire performer card (DR-21.12). Every one of them must place and lose trailers the same way
(DR-20.1, DR-20.3, DR-20.6, DR-20.7 with the readings of the digest's ambiguities 18 and 19), so the
rules live here once, with the signatures docs/games/drum-roll.md names for the other phases.

The performer types these rules single out are read by their ids in the component data: the
default data (and any real printing transcribed into the same format) names them "magician" and
"bizarre"; `tests/games/drum_roll/test_circus.py` checks the data has them.
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.values import evolve

from .state import Hired, State

MAGICIAN = "magician"
"""The type id of magicians: each raises its owner's investment hand limit (DR-21.3, DR-21.5)."""
BIZARRE = "bizarre"
"""The type id of bizarre performers: their trailer may be shared (DR-20.3), their wage and flip
fame depend on how many the circus holds (DR-18.4)."""


def type_of(state: State, card: str) -> str:
    return state.components.performer(card).type


def performer(state: State, seat: int, card: str) -> Hired | None:
    """The seat's hired performer `card`, or None when it is not in the seat's circus."""
    for hired in state.players[seat].performers:
        if hired.card == card:
            return hired
    return None


def bizarre_count(state: State, seat: int) -> int:
    """How many bizarre performers the circus holds, flipped ones included (DR-18.4)."""
    return sum(1 for hired in state.players[seat].performers if type_of(state, hired.card) == BIZARRE)


def by_bizarre_count(state: State, seat: int, table: list[int]) -> int:
    """A bizarre performer's value by the number of bizarre performers in its circus (DR-18.4): the
    table's entry for 1, 2, 3 ..., its last entry for that many or more. Its wage (wages.py) and its
    flip fame (performance.py) read their tables the same way."""
    count = max(bizarre_count(state, seat), 1)
    return table[min(count, len(table)) - 1]


def _free(hired: Hired) -> bool:
    """A performer with no trailer of its own and none shared (DR-20.1: at most one trailer)."""
    return not hired.trailer and hired.shares_trailer_of is None


def trailer_spots(state: State, seat: int) -> tuple[tuple[str, str | None], ...]:
    """Where a trailer gained now can go (DR-20.1, DR-20.3, DR-20.6; AMB-18, AMB-19), sorted:
    `(performer, None)` for each performer with no trailer, own or shared, and `(bizarre, other)`
    for each bizarre performer with none paired with each other such performer (the trailer goes
    onto the bizarre performer and `other` shares it). Empty with no such performer or when the
    general supply has no trailer left (DR-16.4)."""
    if state.trailers < 1:
        return ()
    free = [hired.card for hired in state.players[seat].performers if _free(hired)]
    spots: list[tuple[str, str | None]] = [(card, None) for card in free]
    for card in free:
        if type_of(state, card) == BIZARRE:
            spots += [(card, other) for other in free if other != card]
    return tuple(sorted(spots, key=lambda spot: (spot[0], spot[1] or "")))


def assign_trailer(state: State, seat: int, performer: str, shared_by: str | None) -> State:
    """One trailer from the general supply onto `performer`; `shared_by`, if any, shares it
    (DR-20.3). The caller has checked the pair is one of `trailer_spots`."""
    performers = []
    for hired in state.players[seat].performers:
        if hired.card == performer:
            hired = evolve(hired, trailer=True)
        elif hired.card == shared_by:
            hired = evolve(hired, shares_trailer_of=performer)
        performers.append(hired)
    return evolve(state, trailers=state.trailers - 1).with_player(seat, performers=tuple(performers))


def fire(state: State, seat: int, card: str) -> State:
    """The performer leaves the circus for the performer discard pile (DR-11.8 (1)); its cubes go
    back to the general supply (DR-11.8 (2)); its own trailer stays with the performer sharing it,
    which then has it as its own, or else goes back to the supply, and a performer that shared
    another's trailer just leaves it to its owner (DR-20.7, AMB-19). Firing a magician can lower
    the hand limit, so `hand_limit` is pushed for the seat (DR-21.5). No severance and no fame:
    the caller adds them where a rule asks for them (DR-11.8 (3), (4))."""
    gone = performer(state, seat, card)
    assert gone is not None, f"{card} is not in seat {seat}'s circus"
    supply = dict(state.cubes)
    for level in gone.cubes:
        for colour in level:
            supply[colour] += 1
    trailers = state.trailers
    kept_by_sharer = False
    performers = []
    for hired in state.players[seat].performers:
        if hired.card == card:
            continue
        if gone.trailer and hired.shares_trailer_of == card:
            hired = evolve(hired, trailer=True, shares_trailer_of=None)
            kept_by_sharer = True
        performers.append(hired)
    if gone.trailer and not kept_by_sharer:
        trailers += 1
    state = evolve(state, cubes=supply, trailers=trailers, performer_discard=(*state.performer_discard, card))
    state = state.with_player(seat, performers=tuple(performers))
    if type_of(state, card) == MAGICIAN:
        state = push(state, Step("hand_limit", seat=seat))
    return state
