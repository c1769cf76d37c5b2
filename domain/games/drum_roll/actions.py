"""The action phase of a preparation round (DR-4 to DR-7): placing markers with the limits of DR-5,
resolution in the fixed order of DR-6.1, and the discount tokens and row upkeep of DR-7.1.

A placement does nothing when it is made (DR-4.4): it is held in the pending `resolve` step (the
kernel's `hold`), whose row pushes the held markers in the order cube actions, ticket sale,
investment, hire performer, hire helper, each kind in placement order (DR-6.1). Every refusal
names the rule of DR-5 that forbids the placement. An Unlock occupied action card, played with a
placement, lifts DR-5.2 and DR-5.3 for a cube action (DR-21.10, AMB-23): the space then holds two
markers, resolved in placement order, so a short supply serves the earlier one first (DR-6.3). An
Investment marker draws through `investments.draw_spec` and checks the hand limit after (DR-5.8).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.agenda import Step, hold, push
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import investments as inv
from . import moves as mv
from .round_end import organiser_barred
from .state import RESOLVE, HandCard, Hired, RowCard, State

TICKET = "ticket"
INVESTMENT = "investment"
HIRE_PERFORMER = "hire_performer"
HIRE_HELPER = "hire_helper"
CUBE = "cube"
UNLOCK = "unlock_action"
"""The Unlock occupied action investment card's kind in the data (DR-21.10)."""
ORDER = (CUBE, TICKET, INVESTMENT, HIRE_PERFORMER, HIRE_HELPER)
"""The resolution order of DR-6.1, as the kinds of the held steps."""


def seat_of(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


# ---- a round's start --------------------------------------------------------------------------


def round_start(state: State, step: Step) -> State:
    """DR-4.1: a new preparation round; every player has all 3 action markers to place."""
    markers = state.components.constants.markers
    players = tuple(evolve(player, markers=markers) for player in state.players)
    return evolve(state, performance=max(state.performance, 1), round=int(step["round"]), players=players)


def placement_order(state: State, step: Step) -> tuple[int, ...]:
    """DR-4.1: clockwise from the start player."""
    return state.clockwise()


def has_markers(state: State, seat: int) -> bool:
    return state.players[seat].markers > 0


# ---- placing (DR-4, DR-5) ---------------------------------------------------------------------


def spaces(state: State) -> tuple[str, ...]:
    """Every action space: the five cube actions (by colour, DR-0.5) and the other four."""
    return (*state.components.colours(), TICKET, INVESTMENT, HIRE_PERFORMER, HIRE_HELPER)


def refusal(state: State, seat: int, space: str, unlock: str | None = None) -> IllegalMoveError | None:
    """Why `seat` may not place a marker on `space` now (DR-4.3, DR-5), or None; with `unlock`, an
    Unlock occupied action card played with the placement (DR-21.10)."""
    placed = state.placements()
    mine = [step for step in placed if step.seat == seat]
    options = state.options
    if space in state.components.colours():
        return _cube_refusal(state, seat, space, unlock)
    if unlock is not None:
        return IllegalMoveError("DR-21.10", "an Unlock occupied action card opens cube actions only")
    if space in (TICKET, INVESTMENT):
        counted = mine if options.action_limits == "per_player" else list(placed)
        most = (state.components.constants.ticket_sale_per_round if space == TICKET
                else state.components.constants.investment_per_round)
        rule = "DR-5.6" if space == TICKET else "DR-5.9"
        if sum(1 for step in counted if step.kind == space) >= most:
            whose = "you have" if options.action_limits == "per_player" else "the players have"
            return IllegalMoveError(rule, f"{whose} placed {most} markers on {space.replace('_', ' ')} this round")
        if space == TICKET:
            last = len(state.components.ticket_track.spaces)
            reached = state.players[seat].ticket + sum(1 for step in mine if step.kind == TICKET)
            if reached >= last:
                return IllegalMoveError("DR-5.7", "your ticket cube is (or will be) on the last space of the track")
        return None
    if space in (HIRE_PERFORMER, HIRE_HELPER):
        if any(step.kind == space for step in mine):
            rule = "DR-5.12" if space == HIRE_PERFORMER else "DR-5.14"
            return IllegalMoveError(rule, f"you have a marker on {space.replace('_', ' ')} this round")
        return None
    return IllegalMoveError("DR-4.3", f"{space!r} is not an action space")


def _cube_refusal(state: State, seat: int, space: str, unlock: str | None) -> IllegalMoveError | None:
    """DR-5.2, DR-5.3: a cube action is taken once per round, and at most N are occupied (a space
    shared through an Unlock card counts once). DR-21.10, AMB-23: an Unlock occupied action card
    opens a taken or closed space to a second marker, of another player."""
    cubes = [step for step in state.placements() if step.kind == CUBE]
    here = [step for step in cubes if step["colour"] == space]
    occupied = {step["colour"] for step in cubes}
    limit = state.components.for_players(state.seats).cube_actions
    closed: IllegalMoveError | None = None
    if here:
        closed = IllegalMoveError("DR-5.2", f"the {space} cube action is taken this round")
    elif len(occupied) >= limit:
        closed = IllegalMoveError("DR-5.3", f"{limit} cube actions are occupied, the most for {state.seats} players")
    if unlock is None:
        return closed
    hand_card = inv.held(state, seat, unlock)
    if hand_card is None or state.components.investment(unlock).kind != UNLOCK:
        return IllegalMoveError("DR-21.10", f"{unlock} is not an Unlock occupied action card in your hand")
    if closed is None:
        return IllegalMoveError("DR-21.10", f"the {space} cube action is open: place there without the card")
    return unlocked_refusal(state, seat, space)


def unlocked_refusal(state: State, seat: int, space: str) -> IllegalMoveError | None:
    """DR-21.10, AMB-23: what an Unlock card still does not allow on a taken or closed cube action:
    a second marker of the same seat, or a third marker. Positions (position.py) check a placement
    marked as made with the card with this, since the card itself is spent by then."""
    here = [step for step in state.placements() if step.kind == CUBE and step["colour"] == space]
    if any(step.seat == seat for step in here):
        return IllegalMoveError("DR-21.10", f"your own marker is on the {space} cube action")
    if len(here) >= 2:
        return IllegalMoveError("DR-21.10", f"two markers already share the {space} cube action")
    return None


def unlock_cards(state: State, seat: int) -> list[str]:
    """The Unlock occupied action cards in the seat's hand (DR-21.10)."""
    return [c.card for c in state.players[seat].hand if state.components.investment(c.card).kind == UNLOCK]


def open_spaces(state: State, seat: int) -> list[str]:
    return [space for space in spaces(state) if refusal(state, seat, space) is None]


def unlocked_placements(state: State, seat: int) -> list[mv.PlaceMarker]:
    """Placements on taken or closed cube actions that one of the seat's Unlock cards allows."""
    return [mv.PlaceMarker(space=colour, unlock=card) for card in unlock_cards(state, seat)
            for colour in state.components.colours() if refusal(state, seat, colour, card) is None]


def place_legal(state: State, seat: int, step: Step) -> list[mv.PlaceMarker | mv.PassMarker]:
    return [*(mv.PlaceMarker(space=space) for space in open_spaces(state, seat)),
            *unlocked_placements(state, seat), mv.PassMarker()]


def place_needed(state: State, step: Step) -> bool:
    """DR-5.17: with no legal space (an Unlock card counted) there is nothing to choose: the marker
    is passed."""
    seat = seat_of(step)
    if any(refusal(state, seat, space) is None for space in reversed(spaces(state))):  # hires first: most often open
        return True
    return bool(unlocked_placements(state, seat))


def place_validate(state: State, seat: int, step: Step, move: mv.PlaceMarker | mv.PassMarker) -> None:
    if isinstance(move, mv.PlaceMarker):
        error = refusal(state, seat, move.space, move.unlock)
        if error is not None:
            raise error


def place_apply(state: State, seat: int, step: Step, move: mv.PlaceMarker | mv.PassMarker) -> State:
    player = state.players[seat]
    state = state.with_player(seat, markers=player.markers - 1)
    if isinstance(move, mv.PassMarker):
        return pass_marker(state, seat)
    if move.unlock is not None:
        state = inv.spend_use(state, seat, move.unlock)  # DR-21.10: played with the placement
    if move.space in state.components.colours():
        return hold(state, RESOLVE, Step(CUBE, seat=seat, colour=move.space))
    return hold(state, RESOLVE, Step(move.space, seat=seat))  # DR-4.4: nothing happens yet


def pass_marker(state: State, seat: int) -> State:
    """DR-5.16, AMB-2: passing with a marker pays 1 money at once."""
    pay = state.components.constants.pass_money
    return state.with_player(seat, money=state.players[seat].money + pay)


def forced_pass(state: State, step: Step) -> State:
    """DR-5.17: a player with no legal space passes with the marker (and is paid for it)."""
    seat = seat_of(step)
    state = state.with_player(seat, markers=state.players[seat].markers - 1)
    return pass_marker(state, seat)


# ---- resolution (DR-6.1) ----------------------------------------------------------------------


def take_cube(state: State, step: Step) -> State:
    """DR-5.1: one cube of the space's colour from the general supply (AMB-31: none if it is out)."""
    seat = seat_of(step)
    colour = str(step["colour"])
    if state.cubes[colour] == 0:
        return state
    supply = dict(state.cubes)
    supply[colour] -= 1
    own = dict(state.players[seat].cubes)
    own[colour] = own.get(colour, 0) + 1
    return evolve(state, cubes=supply).with_player(seat, cubes=own)


def sell_ticket(state: State, step: Step) -> State:
    """DR-5.5: the ticket cube moves one space and pays the money printed there."""
    seat = seat_of(step)
    player = state.players[seat]
    track = state.components.ticket_track.spaces
    if player.ticket >= len(track):
        return state  # cannot happen after DR-5.7's placement check; kept for hand-built states
    position = player.ticket + 1
    return state.with_player(seat, ticket=position, money=player.money + track[position - 1])


def investment_spec(state: State, step: Step) -> ChanceSpec | None:
    """DR-5.8, DR-5.10: the next investment card (investments.draw_spec), seen by its taker alone;
    nothing (and no charge) with no money or no card that can be drawn (DR-16.3)."""
    seat = seat_of(step)
    if state.players[seat].money < state.components.constants.investment_cost:
        return None
    return inv.draw_spec(state, seat)


def resolve_investment(state: State, step: Step, outcome: JSON) -> State:
    """DR-5.8: pay, take the card into the hand, then check the hand limit (DR-21.4)."""
    seat = seat_of(step)
    card = str(outcome)
    state = inv.take_drawn(state, card)
    player = state.players[seat]
    cost = state.components.constants.investment_cost
    state = state.with_player(seat, money=player.money - cost, hand=(*player.hand, HandCard(card)))
    return push(state, inv.check_hand(seat))


def effective_cost(printed: int, row_card: RowCard) -> int:
    """DR-0.9: printed cost minus the discount tokens on the card, at least 0."""
    return max(printed - row_card.discounts, 0)


def performer_cost(state: State, row_card: RowCard) -> int:
    return effective_cost(state.components.performer(row_card.card).hire_cost, row_card)


def helper_cost(state: State, row_card: RowCard) -> int:
    return effective_cost(state.components.helper(row_card.card).hire_cost, row_card)


def hire_performer_legal(state: State, seat: int, step: Step) -> list[mv.HirePerformer | mv.Decline]:
    money = state.players[seat].money
    cards = [mv.HirePerformer(card=c.card) for c in state.performer_row if performer_cost(state, c) <= money]
    return [*cards, mv.Decline()]


def hire_helper_legal(state: State, seat: int, step: Step) -> list[mv.HireHelper | mv.Decline]:
    money = state.players[seat].money
    cards = [mv.HireHelper(card=c.card) for c in state.helper_row
             if helper_cost(state, c) <= money and organiser_barred(state, seat, c.card) is None]
    return [*cards, mv.Decline()]


def hire_performer_needed(state: State, step: Step) -> bool:
    """DR-5.15, DR-5.18: with no card the player can pay for, the marker returns with no effect,
    unless the player holds investment cards, which it may play first (DR-21.2: Extra income to
    afford a card). Any hand is asked, whatever its cards, since only their number is public."""
    seat = seat_of(step)
    return len(hire_performer_legal(state, seat, step)) > 1 or bool(state.players[seat].hand and state.performer_row)


def hire_helper_needed(state: State, step: Step) -> bool:
    """As for a performer (hire_performer_needed)."""
    seat = seat_of(step)
    return len(hire_helper_legal(state, seat, step)) > 1 or bool(state.players[seat].hand and state.helper_row)


def hire_performer_validate(state: State, seat: int, step: Step, move: mv.HirePerformer | mv.Decline) -> None:
    if isinstance(move, mv.HirePerformer):
        row_card = _in_row(state.performer_row, move.card, "DR-5.11", "performer row")
        cost = performer_cost(state, row_card)
        if cost > state.players[seat].money:
            raise IllegalMoveError("DR-5.15", f"{move.card} costs {cost}; you have {state.players[seat].money} money")


def hire_helper_validate(state: State, seat: int, step: Step, move: mv.HireHelper | mv.Decline) -> None:
    if isinstance(move, mv.HireHelper):
        row_card = _in_row(state.helper_row, move.card, "DR-5.13", "helper row")
        barred = organiser_barred(state, seat, move.card)
        if barred is not None:
            raise barred
        cost = helper_cost(state, row_card)
        if cost > state.players[seat].money:
            raise IllegalMoveError("DR-5.15", f"{move.card} costs {cost}; you have {state.players[seat].money} money")


def _in_row(row: tuple[RowCard, ...], card: str, rule: str, where: str) -> RowCard:
    for row_card in row:
        if row_card.card == card:
            return row_card
    raise IllegalMoveError(rule, f"{card} is not in the {where} (DR-6.2: a card hired earlier is gone)")


def hire_performer_apply(state: State, seat: int, step: Step, move: mv.HirePerformer | mv.Decline) -> State:
    """DR-5.11, AMB-4: pay the effective cost; the card joins the circus, its tokens go back."""
    if isinstance(move, mv.Decline):
        return state  # DR-5.18: no effect and no money
    row_card = _in_row(state.performer_row, move.card, "DR-5.11", "performer row")
    player = state.players[seat]
    state = evolve(state, performer_row=tuple(c for c in state.performer_row if c.card != move.card),
                   discounts=state.discounts + row_card.discounts)
    return state.with_player(seat, money=player.money - performer_cost(state, row_card),
                             performers=(*player.performers, Hired(move.card)))


def hire_helper_apply(state: State, seat: int, step: Step, move: mv.HireHelper | mv.Decline) -> State:
    """DR-5.13, AMB-4: pay the effective cost; the helper joins the circus, its tokens go back."""
    if isinstance(move, mv.Decline):
        return state  # DR-5.18
    row_card = _in_row(state.helper_row, move.card, "DR-5.13", "helper row")
    player = state.players[seat]
    state = evolve(state, helper_row=tuple(c for c in state.helper_row if c.card != move.card),
                   discounts=state.discounts + row_card.discounts)
    return state.with_player(seat, money=player.money - helper_cost(state, row_card),
                             helpers=(*player.helpers, move.card))


# ---- discount tokens and row upkeep (DR-7.1 to DR-7.4) -----------------------------------------


def upkeep(state: State, step: Step) -> State:
    """DR-7.1, AMB-4: every card left in the rows that is already free is discarded with its tokens
    returned; every other card gets one discount token, while the supply has one (DR-16.2)."""
    performer_row, performer_discard, supply = _upkeep_row(
        state, state.performer_row, performer_cost, state.performer_discard, state.discounts)
    helper_row, helper_discard, supply = _upkeep_row(
        state, state.helper_row, helper_cost, state.helper_discard, supply)
    return evolve(state, performer_row=performer_row, helper_row=helper_row, discounts=supply,
                  performer_discard=performer_discard, helper_discard=helper_discard)


def _upkeep_row(state: State, row: tuple[RowCard, ...], cost: Callable[[State, RowCard], int],
                discard: tuple[str, ...], supply: int) -> tuple[tuple[RowCard, ...], tuple[str, ...], int]:
    """One row's upkeep (see `upkeep`): the row kept, its discard pile and the token supply after."""
    kept: list[RowCard] = []
    discarded = list(discard)
    for row_card in row:
        if cost(state, row_card) == 0:
            discarded.append(row_card.card)
            supply += row_card.discounts
        elif supply > 0:
            kept.append(RowCard(row_card.card, row_card.discounts + 1))
            supply -= 1
        else:
            kept.append(row_card)
    return tuple(kept), tuple(discarded), supply

