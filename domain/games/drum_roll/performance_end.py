"""Around a performance: the show organiser's return just before it (DR-19.2, AMB-15), and what
follows its wage payment: the end of performance (DR-13) after the 1st and 2nd, the end of the game
(DR-14, end_of_game.py) after the 3rd (AMB-27: no clean-up then, it would change no score).

The end of performance is a list of small automatic steps, one per rule, so that the agenda says
where it stands when a deal from the decks waits for chance: the rows are discarded (DR-13.1,
AMB-28: the rows only, circuses keep their cards) and dealt again with the end of round's refill
steps (round_end.py: the same draws, type limit and deck exhaustion, DR-16.3), the markers move
(DR-13.2), the region tokens pass left (DR-13.3; with two players round the three-seat cycle of
DR-22.2, AMB-29), the ticket cubes go back to the start (DR-13.4) and the start player changes
(DR-13.5). Round 1 of the next performance follows (DR-13.6).
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.values import evolve

from . import round_end as rnd
from .state import State

# ---- the show organiser before a performance (DR-19.2 last point, AMB-15) -----------------------


def organiser_before_show(state: State, step: Step) -> State:
    """AMB-15: after the vote that starts the performance (or round 7's sharing phase) the show
    organiser's owner may return it. A return made at an earlier end of round is spent by now (it
    decided that round's start player), so it is forgotten first: only a return made here makes
    its returner start the next performance's round 1 (DR-13.5)."""
    state = evolve(state, organiser_returned=None)
    seat = rnd.owner_of(state, rnd.SHOW_ORGANISER)
    if seat is None:
        return state
    return push(state, Step("return_organiser_before_show", seat=seat, performance=state.performance))


# ---- after the wage payment (DR-3.5, AMB-27) -----------------------------------------------------


def after_performance(state: State, step: Step) -> State:
    """DR-3.5, AMB-27: after the 1st and 2nd performances' wages the end of performance (DR-13) and
    round 1 of the next (DR-13.6); after the last, the end of the game (DR-14.1)."""
    if state.performance >= state.components.constants.performances:
        return push(state, Step("end_of_game"))
    return push(state, Step("end_of_performance"), Step("prep_round", round=1))


def discard_rows(state: State, step: Step) -> State:
    """DR-13.1, AMB-28: every card of the helper and performer rows goes to its discard pile and
    their discount tokens to the general supply (DR-7.4); the deal that follows fills both rows
    again (the end of round's refill steps: N helpers, 3 for two players, DR-22.3; N + 1 performers
    from the bottom of the deck within the type limit, DR-2.6, DR-22.4; DR-16.3 if a deck runs out)."""
    tokens = sum(card.discounts for card in (*state.performer_row, *state.helper_row))
    return evolve(
        state,
        performer_discard=(*state.performer_discard, *(card.card for card in state.performer_row)),
        helper_discard=(*state.helper_discard, *(card.card for card in state.helper_row)),
        performer_row=(),
        helper_row=(),
        discounts=state.discounts + tokens,
    )


def next_performance(state: State, step: Step) -> State:
    """DR-13.2: the round marker back to space 1, the performance marker one space on.

    The last vote's ballots are put away with it: a vote's reveal point is named by the performance
    and the round (vote.reveal_point), and ballots left in the state would make the next
    performance's point of the same round count as reached before anyone had voted in it, so its
    ballots would never be secret (DR-10.2)."""
    return evolve(state, performance=state.performance + 1, round=1, votes=(None,) * state.seats,
                  doubled=(False,) * state.seats, vote_round=0)


def pass_regions(state: State, step: Step) -> State:
    """DR-13.3: each region token passes to the left neighbour. DR-22.2, AMB-29: with two players
    round the cycle seat 0 → seat 1 → neutral seat → seat 0 (seat 0's token to seat 1, seat 1's to
    the neutral seat, the neutral one to seat 0), so each player visits all three regions."""
    if state.seats == 2 and state.neutral_region is not None:
        first, second, neutral = state.players[0].region, state.players[1].region, state.neutral_region
        state = evolve(state, neutral_region=second)
        return state.with_player(1, region=first).with_player(0, region=neutral)
    regions = [player.region for player in state.players]
    for seat in range(state.seats):
        state = state.with_player(state.left_of(seat), region=regions[seat])
    return state


def reset_tickets(state: State, step: Step) -> State:
    """DR-13.4: every ticket cube goes back to the starting ticket space."""
    for seat in range(state.seats):
        state = state.with_player(seat, ticket=0)
    return state


def next_start_player(state: State, step: Step) -> State:
    """DR-13.5, DR-19.2, AMB-15: the left neighbour of the last start player starts round 1, unless
    the show organiser was returned just before the performance: then its returner does. The
    return stays noted for that round (its returner may not hire the card back in it, DR-19.2),
    and the round's end of round forgets it, as after any return."""
    if state.organiser_returned is not None:
        return evolve(state, start_player=state.organiser_returned)
    assert state.start_player is not None
    return evolve(state, start_player=state.left_of(state.start_player))
