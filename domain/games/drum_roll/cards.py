"""Playing investment cards (DR-21) and the hand-limit decision (DR-21.4, DR-21.5).

DR-21.2: a card may be played at any time unless its rule says otherwise. An engine needs a moment
to ask, so a card is offered in its owner's own decisions: the placement turn (`place_marker`), the
hires at resolution (`hire_performer`, `hire_helper`: Extra income to afford a card, DR-5.15), the
sharing turn (`share`) and the `hand_limit` decision. Not in the deposit, the vote or the show
organiser's return: those decisions ask one thing, and a card played there could as well be played
in the next placement or sharing turn. A hire is asked of a seat that holds any card even when it
can afford nothing yet (only the number of cards is public, so the question tells nothing); no
other decision is asked only because of cards.

The cards played this way, by `kind` in the data (ids are never read):
- Extra resource (DR-21.17): `colours` are the cubes of one of the card's `options` (a colour, or
  "any" for a free choice, `count` of them); only what the general supply has is given (DR-16.1,
  AMB-31), and a play that would give nothing is refused;
- Extra income (money) (DR-21.19): the card's `coins` (or `amount`) in money;
- Extra income (conversion) (DR-21.20): `colours` are the `pay_cubes` cubes paid from the cube
  supply to the general supply, for the card's `coins`;
- Trailer (DR-21.11): one trailer onto `performer` (shared by `shared_by`), one of `circus.trailer_spots`;
- Fire performer (DR-21.12): `performer` leaves the circus with no severance and no fame lost; never
  during a performance (AMB-24).
Unlock occupied action is played with a placement (`place_marker`'s `unlock`, actions.py); Double
vote in the vote (vote.py); Longer applause during its owner's performance (applause.py); the
bonus cards are never played, only held (DR-21.8, AMB-25).

Every play spends one use (DR-21.6, `investments.spend_use`). A card with no usage mark stays in
hand; it is played at most once in one decision (the step records it in `played`), so a match
stays finite. When over the hand limit, only a play after which the card leaves the hand is offered,
since the decision is to bring the hand down (DR-21.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

from domain.kernel.agenda import Step, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import circus
from . import investments as inv
from . import moves as mv
from .components import ANY, Investment
from .state import State

EXTRA_RESOURCE = "extra_resource"
EXTRA_INCOME = "extra_income"
EXTRA_INCOME_CUBE = "extra_income_cube"
TRAILER = "trailer"
FIRE_PERFORMER = "fire_performer"
UNLOCK = "unlock_action"

NOT_PLAYED: dict[str, tuple[str, str]] = {
    UNLOCK: ("DR-21.10", "is played when placing a marker on a cube action (place_marker with unlock)"),
    "double_vote": ("DR-21.18", "is played after a vote is revealed"),
    "longer_applause": ("DR-21.14", "is played during your own performance"),
    "trailer_bonus": ("DR-21.8", "is not played: it scores at the end of the game if still held"),
    "helper_bonus": ("DR-21.8", "is not played: it scores at the end of the game if still held"),
    "resource_bonus": ("DR-21.8", "is not played: it scores at the end of the game if still held"),
}
"""The kinds not played through `play_investment`, with the rule saying when (or that they are not)."""

RULE = {EXTRA_RESOURCE: "DR-21.17", EXTRA_INCOME: "DR-21.19", EXTRA_INCOME_CUBE: "DR-21.20",
        TRAILER: "DR-21.11", FIRE_PERFORMER: "DR-21.12"}


# ---- which plays there are --------------------------------------------------------------------


def _in_order(state: State, colours: tuple[str, ...]) -> bool:
    """Several cubes are named in the order of the colours in the data (one name per play)."""
    order = state.components.colours()
    return all(c in order for c in colours) and list(colours) == sorted(colours, key=order.index)


def _options(state: State, card: Investment) -> list[tuple[str, ...]]:
    """The cubes each option of an Extra resource card can give (DR-21.17), colours in data order."""
    colours = state.components.colours()
    found: list[tuple[str, ...]] = []
    for option in card.options:
        combos = (list(combinations_with_replacement(colours, option.count)) if option.colour == ANY
                  else [(option.colour,) * option.count])
        found.extend(combo for combo in combos if combo not in found)
    return found


def _candidates(state: State, seat: int, card: str) -> list[mv.PlayInvestment]:
    """Every play of `card` worth checking (refusal() then filters them)."""
    data = state.components.investment(card)
    if data.kind == EXTRA_RESOURCE:
        return [mv.PlayInvestment(card=card, colours=combo) for combo in _options(state, data)]
    if data.kind == EXTRA_INCOME:
        return [mv.PlayInvestment(card=card)]
    if data.kind == EXTRA_INCOME_CUBE:
        combos = combinations_with_replacement(state.components.colours(), data.pay_cubes or 0)
        return [mv.PlayInvestment(card=card, colours=combo) for combo in combos]
    if data.kind == TRAILER:
        return [mv.PlayInvestment(card=card, performer=performer, shared_by=shared)
                for performer, shared in circus.trailer_spots(state, seat)]
    if data.kind == FIRE_PERFORMER:
        return [mv.PlayInvestment(card=card, performer=hired.card) for hired in state.players[seat].performers]
    return []


def plays(state: State, seat: int, step: Step, *, at_limit: bool = False) -> list[mv.PlayInvestment]:
    """The seat's legal card plays now, in hand order."""
    return [move for hand_card in state.players[seat].hand for move in _candidates(state, seat, hand_card.card)
            if refusal(state, seat, step, move, at_limit=at_limit) is None]


# ---- whether a play is allowed ----------------------------------------------------------------


def refusal(state: State, seat: int, step: Step, move: mv.PlayInvestment, *,
            at_limit: bool = False) -> IllegalMoveError | None:
    """Why `seat` may not make this play now, naming the rule, or None."""
    if inv.held(state, seat, move.card) is None:
        return IllegalMoveError("DR-21.2", f"{move.card} is not in your hand")
    data = state.components.investment(move.card)
    if data.kind in NOT_PLAYED:
        rule, when = NOT_PLAYED[data.kind]
        return IllegalMoveError(rule, f"{data.name} {when}")
    rule = RULE[data.kind]
    if data.uses is None and move.card in step.get("played", ()):
        return IllegalMoveError("DR-21.6", f"{move.card} was used once in this decision; use it again in a later one")
    if at_limit and not inv.last_use(state, seat, move.card):
        return IllegalMoveError("DR-21.4", f"{move.card} stays in your hand when played; play or discard another")
    uses_cubes = data.kind in (EXTRA_RESOURCE, EXTRA_INCOME_CUBE)
    uses_performer = data.kind in (TRAILER, FIRE_PERFORMER)
    if (move.colours and not uses_cubes) or (move.performer is not None and not uses_performer):
        return IllegalMoveError(rule, f"{data.name} takes no {'cubes' if move.colours else 'performer'}")
    if move.shared_by is not None and data.kind != TRAILER:
        return IllegalMoveError(rule, f"{data.name} gives no trailer to share")
    if data.kind == EXTRA_RESOURCE:
        if move.colours not in _options(state, data):
            return IllegalMoveError(rule, f"{data.name} gives one of: {_describe(data)}")
        if not any(state.cubes.get(colour, 0) > 0 for colour in move.colours):
            lacking = " or ".join(sorted(set(move.colours)))
            return IllegalMoveError("DR-16.1", f"the general supply has no {lacking} cube")
    elif data.kind == EXTRA_INCOME_CUBE:
        wanted = data.pay_cubes or 0
        if len(move.colours) != wanted or not _in_order(state, move.colours):
            return IllegalMoveError(rule, f"{data.name} is paid with {wanted} cube(s), named in the colour order")
        own = state.players[seat].cubes
        if any(own.get(colour, 0) < count for colour, count in Counter(move.colours).items()):
            return IllegalMoveError(rule, "you do not have those cubes in your cube supply")
    elif data.kind == TRAILER:
        if move.performer is None or (move.performer, move.shared_by) not in circus.trailer_spots(state, seat):
            if state.trailers <= 0:
                return IllegalMoveError("DR-16.4", "the general supply has no trailer")
            return IllegalMoveError("DR-20.6", "the trailer must go to a performer of yours with no trailer "
                                               "(shared only from a bizarre performer, DR-20.3)")
    elif data.kind == FIRE_PERFORMER:
        if inv.in_performance(state):
            return IllegalMoveError(rule, "a performer cannot be fired this way during a performance, up to the wages")
        if move.performer not in [hired.card for hired in state.players[seat].performers]:
            return IllegalMoveError(rule, f"{move.performer} is not a performer in your circus")
    return None


def _describe(card: Investment) -> str:
    return ", ".join(f"{option.count} {option.colour}" for option in card.options)


# ---- playing ----------------------------------------------------------------------------------


def play(state: State, seat: int, move: mv.PlayInvestment) -> State:
    """Spend one use of the card (DR-21.6), then carry out its effect."""
    data = state.components.investment(move.card)
    state = inv.spend_use(state, seat, move.card)
    player = state.players[seat]
    if data.kind == EXTRA_RESOURCE:
        supply, own = dict(state.cubes), dict(player.cubes)
        for colour in move.colours:
            if supply.get(colour, 0) > 0:  # AMB-31: what the supply lacks is lost
                supply[colour] -= 1
                own[colour] = own.get(colour, 0) + 1
        return evolve(state, cubes=supply).with_player(seat, cubes=own)
    if data.kind == EXTRA_INCOME:
        return state.with_player(seat, money=player.money + _coins(data))
    if data.kind == EXTRA_INCOME_CUBE:
        supply, own = dict(state.cubes), dict(player.cubes)
        for colour in move.colours:  # AMB-31: paid cubes go to the general supply
            own[colour] -= 1
            supply[colour] = supply.get(colour, 0) + 1
        return evolve(state, cubes=supply).with_player(seat, cubes=own, money=player.money + _coins(data))
    assert move.performer is not None
    if data.kind == TRAILER:
        return circus.assign_trailer(state, seat, move.performer, move.shared_by)
    return circus.fire(state, seat, move.performer)  # DR-21.12: no severance, no fame lost


def _coins(card: Investment) -> int:
    return card.coins if card.coins is not None else (card.amount or 0)


def _after(step: Step, move: mv.PlayInvestment, data: Investment) -> Step:
    """The decision again, recording a card with no usage mark as used in it."""
    if data.uses is None:
        return step.but(played=[*step.get("played", ()), move.card])
    return step


def play_in(state: State, seat: int, step: Step, move: mv.PlayInvestment) -> State:
    """Play the card inside a decision: the decision is asked again after it (re-pushed first, so
    anything the card pushes, a hand check after a magician is fired, comes before it)."""
    state = push(state, _after(step, move, state.components.investment(move.card)))
    return play(state, seat, move)


# ---- offering cards in a seat's own decisions ------------------------------------------------

Legal = Callable[[State, int, Step], list[Any]]
Validate = Callable[[State, int, Step, Any], None]
Apply = Callable[[State, int, Step, Any], State]


def offering(legal: Legal, validate: Validate, apply: Apply) -> tuple[Legal, Validate, Apply]:
    """A decision's handlers with the seat's card plays added (DR-21.2): its legal moves plus the
    plays, a play refused with its rule, and a play carried out with the decision asked again."""

    def legal_with(state: State, seat: int, step: Step) -> list[Any]:
        return [*legal(state, seat, step), *plays(state, seat, step)]

    def validate_with(state: State, seat: int, step: Step, move: Any) -> None:
        if isinstance(move, mv.PlayInvestment):
            error = refusal(state, seat, step, move)
            if error is not None:
                raise error
            return
        validate(state, seat, step, move)

    def apply_with(state: State, seat: int, step: Step, move: Any) -> State:
        if isinstance(move, mv.PlayInvestment):
            return play_in(state, seat, step, move)
        return apply(state, seat, step, move)

    return legal_with, validate_with, apply_with


# ---- the hand-limit decision (DR-21.4, DR-21.5) --------------------------------------------


def _seat(step: Step) -> int:
    seat = step.seat
    assert seat is not None
    return seat


def limit_needed(state: State, step: Step) -> bool:
    """Only a hand above its limit has anything to do (AMB-20)."""
    return inv.over_limit(state, _seat(step)) > 0


def limit_legal(state: State, seat: int, step: Step) -> list[mv.DiscardInvestment | mv.PlayInvestment]:
    """Discard any card, the new ones included (DR-21.4), or play one that then leaves the hand."""
    discards = [mv.DiscardInvestment(card=hand_card.card) for hand_card in state.players[seat].hand]
    return [*discards, *plays(state, seat, step, at_limit=True)]


def limit_validate(state: State, seat: int, step: Step, move: mv.DiscardInvestment | mv.PlayInvestment) -> None:
    if isinstance(move, mv.DiscardInvestment):
        if inv.held(state, seat, move.card) is None:
            raise IllegalMoveError("DR-21.4", f"{move.card} is not in your hand")
        return
    error = refusal(state, seat, step, move, at_limit=True)
    if error is not None:
        raise error


def limit_apply(state: State, seat: int, step: Step, move: mv.DiscardInvestment | mv.PlayInvestment) -> State:
    """One card at a time; the decision is asked again while the hand is still over its limit."""
    if isinstance(move, mv.DiscardInvestment):
        return push(inv.discard(state, seat, move.card), step)
    return play_in(state, seat, step, move)
