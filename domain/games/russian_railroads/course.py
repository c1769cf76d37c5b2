"""The steps that run by themselves or wait for chance: the setup's draws (RR-2.3, RR-2.8, RR-2.18),
the starting bonus draft's order (RR-2.20), and the phases that close a round: turn-order
reorganisation (RR-12.10, RR-12.11), the turn-order workers' moves (RR-12.13), the scoring phase
(§14), cleanup (§15) and the final scoring (§17).
"""

from __future__ import annotations

from collections import Counter

from domain.kernel.agenda import Step, push
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.values import evolve

from . import scoring
from .actions import turn_order_claims
from .state import State


def multiset(items: tuple[str, ...]) -> tuple[tuple[JSON, int], ...]:
    counts = Counter(items)
    return tuple((item, counts[item]) for item in sorted(counts))


# ---- setup ------------------------------------------------------------------------------------


def removal_spec(state: State, step: Step) -> ChanceSpec | None:
    """RR-2.3: a final bonus card leaves the game unseen: nobody sees which."""
    return ChanceSpec("final bonus card removed unseen", multiset(state.bonus_deck), visible_to="none")


def resolve_removal(state: State, step: Step, outcome: JSON) -> State:
    deck = list(state.bonus_deck)
    deck.remove(str(outcome))
    return evolve(state, bonus_deck=tuple(deck), removed_bonus=tuple(sorted((*state.removed_bonus, str(outcome)))))


def engineer_spec(state: State, step: Step) -> ChanceSpec | None:
    """RR-2.8: the top engineer of a shuffled deck goes onto its engineer space, face up."""
    deck = state.decks.get(str(step["deck"]), ())
    return ChanceSpec(f"engineer from deck {step['deck']}", multiset(deck), visible_to="all")


def resolve_engineer(state: State, step: Step, outcome: JSON) -> State:
    deck_id = str(step["deck"])
    decks = dict(state.decks)
    decks[deck_id] = tuple(e for e in decks[deck_id] if e != outcome)
    strip = list(state.strip)
    strip[int(step["slot"])] = str(outcome)
    return evolve(state, decks=decks, strip=tuple(strip))


def deal_spec(state: State, step: Step) -> ChanceSpec | None:
    """RR-2.18, RR-3.12: a turn-order card, numbered 1..N, dealt face up to one seat."""
    dealt = set(state.positions)
    left = [number for number in range(1, state.seats + 1) if number not in dealt]
    return ChanceSpec("turn-order card", tuple((number, 1) for number in left), visible_to="all")


def resolve_deal(state: State, step: Step, outcome: JSON) -> State:
    positions = list(state.positions)
    positions[int(step["seat"])] = int(outcome)
    return evolve(state, positions=tuple(positions))


def drafts(state: State, step: Step) -> State:
    """RR-2.20, AMB-26: from the last position back to the second, each takes a starting bonus card."""
    order = state.order()
    return push(state, *(Step("draft", seat=seat) for seat in reversed(order[1:])))


# ---- a round ------------------------------------------------------------------------------------


def round_start(state: State, step: Step) -> State:
    """A new round; before the first, the starting bonus cards nobody took go back in the box (RR-2.20)."""
    number = int(step["round"])
    if number == 1:
        return evolve(state, round=number, starting_cards=())
    return evolve(state, round=number)


def reorganise(state: State, step: Step) -> State:
    """RR-12.10, RR-12.11, AMB-18: claimers take positions 1 and 2, everyone else keeps their relative
    order behind them; when the first player claimed second place and nobody first, nothing changes.
    Nothing is claimed in the last round (RR-16.3)."""
    claims = turn_order_claims(state)
    order = state.order()
    if not claims or (1 not in claims and claims.get(2) == order[0]):
        return state
    new: dict[int, int] = {}
    for position, seat in claims.items():
        new[position] = seat
    others = [seat for seat in order if seat not in claims.values()]
    free = [position for position in range(1, state.seats + 1) if position not in new]
    for position, seat in zip(free, others, strict=True):
        new[position] = seat
    positions = [0] * state.seats
    for position, seat in new.items():
        positions[seat] = position
    return evolve(state, positions=tuple(positions))


def reuse(state: State, step: Step) -> State:
    """RR-12.13: the second space's worker moves first, then the first space's."""
    claims = turn_order_claims(state)
    steps = []
    for position in (2, 1):
        if position in claims:
            space = next(p.space for p in state.placements if p.seat == claims[position] and _claims(state, p.space))
            steps.append(Step("reuse_worker", seat=claims[position], space=space))
    return push(state, *steps)


def _claims(state: State, space_id: str) -> bool:
    try:
        space = state.components.space(space_id)
    except KeyError:
        return False
    return any(e.kind == "turn_order" for e in space.effects)


def scoring_phase(state: State, step: Step) -> State:
    """§14: every seat's railways and industry, added to the score (RR-14.2)."""
    return evolve(state, lines=(*state.lines, *scoring.round_lines(state, state.round)))


def cleanup(state: State, step: Step) -> State:
    """RR-15.1 to RR-15.6: workers and the black worker back to their owners, rubles and temporary
    workers back to the board; the unhired engineer leaves and the others move right; cards follow
    the new turn order (the positions are already set)."""
    workers = [0] * state.seats
    black = [False] * state.seats
    for placement in state.placements:
        workers[placement.seat] += placement.workers
        black[placement.seat] = black[placement.seat] or bool(placement.black)
    players = []
    for seat, player in enumerate(state.players):
        players.append(evolve(player, workers=player.workers + workers[seat], temporary=0, passed=False,
                              black_in_supply=player.black_in_supply or black[seat]))
    strip = (None, *state.strip[:-1])  # RR-15.4: the engineer on the hiring space goes to the box
    return evolve(state, players=tuple(players), placements=(), strip=strip)


def final_scoring(state: State, step: Step) -> State:
    """§17: final bonus cards and the engineer majority; the face-down cards are revealed."""
    return evolve(state, lines=(*state.lines, *scoring.final_lines(state)))
