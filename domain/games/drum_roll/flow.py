"""The setup of a match (DR-2, DR-22): the starting state, and the setup's draws and choices on the
agenda, run up to the first of them.

Everything random is a chance decision on the agenda, never done here: each helper and performer
drawn into the rows (DR-2.4, DR-2.5; public), each region token (DR-2.8, DR-22.1; public), each
performer drawn for the opening draft (DR-2.9; seen by its seat alone) and, unless the options
name one, the start player (DR-2.12). The decks are multisets, so no order is stored for anyone
to see; the arbiter sees every outcome as it is drawn.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from domain.kernel.agenda import Step, push
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec, MatchConfig
from domain.kernel.errors import IllegalMoveError, InvalidOptionsError
from domain.kernel.values import evolve

from . import moves as mv
from .components import DrumRollComponents
from .options import DrumRollOptions
from .state import Hired, Player, RowCard, State

DRAFT_REVEALED = "draft"
"""The reveal point of the opening draft's choices (DR-2.9 (3): revealed together)."""


def multiset(items: tuple[str, ...]) -> tuple[tuple[JSON, int], ...]:
    counts = Counter(items)
    return tuple((item, counts[item]) for item in sorted(counts))


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    listed = list(items)
    listed.remove(item)
    return tuple(listed)


def setup(config: MatchConfig[Any]) -> State:
    components = config.components
    options = config.options
    assert isinstance(components, DrumRollComponents)
    assert isinstance(options, DrumRollOptions)
    seats = config.seats
    if options.start_player is not None and options.start_player >= seats:
        raise InvalidOptionsError(f"start_player is a seat, 0 to {seats - 1} (DR-2.12)")
    count = components.for_players(seats)
    constants = components.constants
    agenda: list[Step] = [Step("draw_helper") for _ in range(count.helper_row)]  # DR-2.4, DR-22.3
    agenda.append(Step("draw_performer"))  # DR-2.5, DR-2.6, DR-22.4: repeats until the row is full
    agenda += [Step("draw_region", seat=seat) for seat in range(seats)]  # DR-2.8
    if count.neutral_region:
        agenda.append(Step("draw_region", neutral=True))  # DR-22.1
    agenda.append(Step("regions_out"))  # AMB-30
    agenda += [Step("draft_draw", seat=seat) for seat in range(seats) for _ in range(constants.starting_draw)]
    agenda += [Step("keep_performer", seat=seat) for seat in range(seats)]  # DR-2.9 (2)
    agenda.append(Step("draft_reveal"))  # DR-2.9 (3), (4)
    agenda += [Step("starting_cubes", seat=seat) for seat in range(seats)]  # DR-2.10
    agenda.append(Step("starting_money"))  # DR-2.11
    agenda += [Step("start_player"), Step("given_start")]  # DR-2.12: drawn, or named by the options
    agenda.append(Step("prep_round", round=1))  # DR-3.1; each round pushes the next (DR-3.4)
    state = State(
        config=config,
        seats=seats,
        performance=0,
        round=0,
        start_player=None,
        players=tuple(Player(money=0) for _ in range(seats)),
        performer_deck=tuple(sorted(card.id for card in components.performers)),
        helper_deck=tuple(sorted(card.id for card in components.helpers)),
        investment_deck=tuple(sorted(card.id for card in components.investments)),
        performer_discard=(),
        helper_discard=(),
        investment_discard=(),
        investment_bottom=(),
        performer_row=(),
        helper_row=(),
        regions=tuple(sorted(region.id for region in components.regions)),
        neutral_region=None,
        cubes={resource.id: resource.supply for resource in components.resources},
        discounts=constants.discount_tokens,
        trailers=constants.trailers,
        votes=(None,) * seats,
        doubled=(False,) * seats,
        vote_round=0,
        organiser_returned=None,
        agenda=tuple(agenda),
    )
    from .tasks import AGENDA  # the table imports these handlers

    return AGENDA.advance(state)


# ---- the rows (DR-2.4 to DR-2.6, DR-22.3, DR-22.4) -------------------------------------------


def helper_spec(state: State, step: Step) -> ChanceSpec | None:
    """DR-2.4: a helper drawn face up into the helper row."""
    return ChanceSpec("helper drawn into the row", multiset(state.helper_deck), visible_to="all")


def resolve_helper(state: State, step: Step, outcome: JSON) -> State:
    card = str(outcome)
    return evolve(state, helper_deck=without(state.helper_deck, card), helper_row=(*state.helper_row, RowCard(card)))


def performer_spec(state: State, step: Step) -> ChanceSpec | None:
    """DR-2.3, DR-2.5: a performer drawn from the bottom of the deck, face up into the row. None
    once the row is full (or the deck is empty: the row stays short)."""
    if len(state.performer_row) >= state.components.for_players(state.seats).performer_row:
        return None
    return ChanceSpec("performer drawn from the bottom of the deck", multiset(state.performer_deck), visible_to="all")


def resolve_performer(state: State, step: Step, outcome: JSON) -> State:
    """DR-2.6, AMB-5 (3 and 4 players: at most 2 of a type) and DR-22.4 (2 players: 3 different
    types): a drawn performer that would break the type limit is discarded, and another is drawn."""
    return push(place_performer(state, str(outcome)), Step("draw_performer"))


def place_performer(state: State, card: str) -> State:
    """A drawn performer joins the row, or is discarded if it would break the type limit (DR-2.6,
    AMB-5, DR-22.4); also the end of round's refill (DR-9.3)."""
    components = state.components
    limit = components.for_players(state.seats).type_limit
    kind = components.performer(card).type
    deck = without(state.performer_deck, card)
    same = sum(1 for row_card in state.performer_row if components.performer(row_card.card).type == kind)
    if same >= limit:
        return evolve(state, performer_deck=deck, performer_discard=(*state.performer_discard, card))
    return evolve(state, performer_deck=deck, performer_row=(*state.performer_row, RowCard(card)))


# ---- regions (DR-2.8, DR-22.1) ----------------------------------------------------------------


def region_spec(state: State, step: Step) -> ChanceSpec | None:
    return ChanceSpec("region token drawn", multiset(state.regions), visible_to="all")


def resolve_region(state: State, step: Step, outcome: JSON) -> State:
    region = str(outcome)
    state = evolve(state, regions=without(state.regions, region))
    if step.get("neutral"):
        return evolve(state, neutral_region=region)
    seat = step.seat
    assert seat is not None
    return state.with_player(seat, region=region)


def regions_out(state: State, step: Step) -> State:
    """AMB-30: the region tokens nobody drew are out of the game."""
    return evolve(state, regions=())


# ---- the opening draft (DR-2.9, DR-22.6) ------------------------------------------------------


def draft_spec(state: State, step: Step) -> ChanceSpec | None:
    """DR-2.9 (1): a performer drawn secretly from the bottom of the deck: its seat alone sees it."""
    seat = step.seat
    assert seat is not None
    return ChanceSpec("performer drawn for the opening draft", multiset(state.performer_deck), visible_to=(seat,))


def resolve_draft(state: State, step: Step, outcome: JSON) -> State:
    seat = step.seat
    assert seat is not None
    card = str(outcome)
    state = evolve(state, performer_deck=without(state.performer_deck, card))
    return state.with_player(seat, drawn=(*state.players[seat].drawn, card))


def keep_legal(state: State, seat: int, step: Step) -> list[mv.KeepPerformer]:
    return [mv.KeepPerformer(card=card) for card in sorted(set(state.players[seat].drawn))]


def keep_validate(state: State, seat: int, step: Step, move: mv.KeepPerformer) -> None:
    if move.card not in state.players[seat].drawn:
        raise IllegalMoveError("DR-2.9", f"keep one of the performers you drew, not {move.card!r}")


def keep_apply(state: State, seat: int, step: Step, move: mv.KeepPerformer) -> State:
    return state.with_player(seat, kept=move.card)


def draft_done(state: State) -> bool:
    """Every seat has chosen: the draft's choices are revealed together (DR-2.9 (3))."""
    return all(player.kept is not None or player.performers for player in state.players)


def draft_reveal(state: State, step: Step) -> State:
    """DR-2.9 (2) to (4), DR-22.6: each seat keeps its choice and passes the other drawn performer
    to its left neighbour; all are revealed and every circus holds two performers."""
    passed: dict[int, str] = {}
    for seat, player in enumerate(state.players):
        assert player.kept is not None
        passed[state.left_of(seat)] = without(player.drawn, player.kept)[0]
    players = []
    for seat, player in enumerate(state.players):
        assert player.kept is not None
        circus = (Hired(player.kept), Hired(passed[seat]))
        players.append(evolve(player, performers=circus, drawn=(), kept=None))
    return evolve(state, players=tuple(players))


# ---- starting cubes, money, start player (DR-2.10 to DR-2.12) ---------------------------------


def cubes_legal(state: State, seat: int, step: Step) -> list[mv.TakeCubes]:
    wanted = state.components.constants.starting_cubes
    colours = state.components.colours()
    return [
        mv.TakeCubes(colours=pick)
        for pick in combinations_with_replacement(colours, wanted)
        if all(state.cubes[colour] >= pick.count(colour) for colour in set(pick))
    ]


def cubes_validate(state: State, seat: int, step: Step, move: mv.TakeCubes) -> None:
    wanted = state.components.constants.starting_cubes
    if len(move.colours) != wanted:
        raise IllegalMoveError("DR-2.10", f"take exactly {wanted} cubes, not {len(move.colours)}")
    for colour in move.colours:
        if colour not in state.cubes:
            raise IllegalMoveError("DR-2.10", f"{colour!r} is not a cube colour")
        if state.cubes[colour] < move.colours.count(colour):
            raise IllegalMoveError("DR-2.10", f"the general supply has {state.cubes[colour]} {colour} cubes left")


def cubes_apply(state: State, seat: int, step: Step, move: mv.TakeCubes) -> State:
    supply = dict(state.cubes)
    own = dict(state.players[seat].cubes)
    for colour in move.colours:
        supply[colour] -= 1
        own[colour] = own.get(colour, 0) + 1
    return evolve(state, cubes=supply).with_player(seat, cubes=own)


def starting_money(state: State, step: Step) -> State:
    """DR-2.11, EX-1: 15 money minus the printed hiring costs of the two starting performers."""
    components = state.components
    start = components.constants.starting_money
    for seat, player in enumerate(state.players):
        costs = sum(components.performer(hired.card).hire_cost for hired in player.performers)
        state = state.with_player(seat, money=max(start - costs, 0))
    return state


def start_spec(state: State, step: Step) -> ChanceSpec | None:
    """DR-2.12: a random start player, unless the options name one (then nothing to draw)."""
    if state.options.start_player is not None:
        return None
    return ChanceSpec("start player", tuple((seat, 1) for seat in range(state.seats)), visible_to="all")


def resolve_start(state: State, step: Step, outcome: JSON) -> State:
    assert isinstance(outcome, int)
    return evolve(state, start_player=int(outcome))


def given_start(state: State, step: Step) -> State:
    """DR-2.12 with the start player named by the options."""
    if state.start_player is None and state.options.start_player is not None:
        return evolve(state, start_player=state.options.start_player)
    return state
