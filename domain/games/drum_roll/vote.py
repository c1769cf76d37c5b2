"""The vote whether to postpone the performance (DR-3.4, DR-10, DR-21.18, DR-22.5, AMB-6 to AMB-8,
AMB-26).

Each seat votes on its own `ballot` step, clockwise from the start player, as a private choice
(DR-10.2: hands are closed until all open together): the ruleset's `private_choice` hides the
ballot until the reveal point of this vote, reached when every seat has voted. Then, clockwise from
the start player (AMB-26), each seat holding an unused Double vote card may play one (DR-10.3,
DR-21.18); a played card is used up and goes to the investment discard pile (DR-21.6). The count
(DR-10.4, AMB-8) breaks ties by the start player's vote. After round 6 every postpone voter loses 1
fame (DR-10.7, AMB-7; option `postpone_fame_loss`). With two players the vote after round 5 has
an imaginary postpone vote (DR-22.5, EX-10). The ballots stay in the state, public once revealed,
until the next vote or the end of the performance (performance_end.py). A vote to perform
pushes the `performance` step (performance.py).
"""

from __future__ import annotations

from domain.kernel.agenda import Step, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import moves as mv
from .state import State

POSTPONE = "postpone"
PERFORM = "perform"
DOUBLE_VOTE = "double_vote"


def reveal_point(state: State) -> str:
    """The reveal point of the ballots of this vote: one per vote, since a point once reached stays
    reached (domain/kernel/contract.py)."""
    return f"vote-{state.performance}-{state.vote_round}"


def all_voted(state: State) -> bool:
    return state.vote_round > 0 and all(vote is not None for vote in state.votes)


def vote(state: State, step: Step) -> State:
    """DR-10.2: every seat votes, clockwise from the start player; then Double votes and the count."""
    state = evolve(state, votes=(None,) * state.seats, doubled=(False,) * state.seats, vote_round=int(step["round"]))
    ballots = [Step("ballot", seat=seat, round=step["round"]) for seat in state.clockwise()]
    doubles = [Step("double_vote", seat=seat, round=step["round"]) for seat in state.clockwise()]
    return push(state, *ballots, *doubles, Step("count_votes", round=step["round"]))


def ballot_legal(state: State, seat: int, step: Step) -> list[mv.CastVote]:
    return [mv.CastVote(postpone=True), mv.CastVote(postpone=False)]


def ballot_validate(state: State, seat: int, step: Step, move: mv.CastVote) -> None:
    return None


def ballot_apply(state: State, seat: int, step: Step, move: mv.CastVote) -> State:
    """DR-10.2 (3): a marker in the hand is a vote to postpone, an empty hand to perform now."""
    votes = list(state.votes)
    votes[seat] = POSTPONE if move.postpone else PERFORM
    return evolve(state, votes=tuple(votes))


def double_vote_card(state: State, seat: int) -> str | None:
    """An unused Double vote card in the seat's hand (the first, by position), or None."""
    for held in state.players[seat].hand:
        card = state.components.investment(held.card)
        if card.kind == DOUBLE_VOTE and held.used < (card.uses or 1):
            return held.card
    return None


def double_legal(state: State, seat: int, step: Step) -> list[mv.PlayDoubleVote]:
    play = [mv.PlayDoubleVote(play=True)] if double_vote_card(state, seat) is not None else []
    return [*play, mv.PlayDoubleVote(play=False)]


def double_needed(state: State, step: Step) -> bool:
    """Asked of every seat holding any investment card, whatever the cards: how many cards a seat
    holds is public, which they are is not, so asking only the holders of a Double vote card would
    tell the table what is in their hands (as for Longer applause, applause.py)."""
    seat = step.seat
    assert seat is not None
    return bool(state.players[seat].hand)


def double_validate(state: State, seat: int, step: Step, move: mv.PlayDoubleVote) -> None:
    if move.play and double_vote_card(state, seat) is None:
        raise IllegalMoveError("DR-21.18", "you hold no unused Double vote card")


def double_apply(state: State, seat: int, step: Step, move: mv.PlayDoubleVote) -> State:
    """DR-21.18, AMB-26: the vote counts twice; at most one card per player per vote. DR-21.6: the
    card's one use is spent, so it goes to the investment discard pile."""
    if not move.play:
        return state
    card = double_vote_card(state, seat)
    assert card is not None
    hand = list(state.players[seat].hand)
    index = next(i for i, held in enumerate(hand) if held.card == card)
    held = hand[index]
    uses = state.components.investment(card).uses or 1
    discard = state.investment_discard
    if held.used + 1 >= uses:
        del hand[index]
        discard = (*discard, card)
    else:
        hand[index] = evolve(held, used=held.used + 1)
    doubled = tuple(True if s == seat else d for s, d in enumerate(state.doubled))
    state = evolve(state, doubled=doubled, investment_discard=discard)
    return state.with_player(seat, hand=tuple(hand))


def result(state: State, number: int) -> str:
    """DR-10.4, AMB-8, DR-22.5: the weights; equal weights go the start player's way."""
    weights = {POSTPONE: 0, PERFORM: 0}
    for seat, ballot in enumerate(state.votes):
        assert ballot is not None
        weights[ballot] += 2 if state.doubled[seat] else 1
    if state.seats == 2 and number == 5:
        weights[POSTPONE] += 1  # DR-22.5: the imaginary postpone vote
    if weights[POSTPONE] != weights[PERFORM]:
        return POSTPONE if weights[POSTPONE] > weights[PERFORM] else PERFORM
    assert state.start_player is not None
    decided = state.votes[state.start_player]
    assert decided is not None
    return decided


def count_votes(state: State, step: Step) -> State:
    """DR-10.4 to DR-10.7, DR-3.4: postpone plays another round after an end of round; perform
    starts the performance. After round 6, postpone voters lose 1 fame (AMB-7)."""
    number = int(step["round"])
    outcome = result(state, number)
    if number == 6:
        every = state.options.postpone_fame_loss == "every_voter"
        if every or outcome == POSTPONE:
            for seat, ballot in enumerate(state.votes):
                if ballot == POSTPONE:
                    state = state.gain_fame(seat, -1, "DR-10.7", "vote", "voted to postpone after round 6")
    if outcome == POSTPONE:
        return push(state, Step("end_of_round", round=number), Step("prep_round", round=number + 1))
    return push(state, Step("performance"))

