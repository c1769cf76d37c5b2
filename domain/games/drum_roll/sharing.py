"""The sharing phase of a preparation round (DR-8, DR-19.3, DR-19.7 to DR-19.9).

The seed has every player share "at the same time"; the digest's reading (DR-8.8, AMB-41) is one
seat at a time, clockwise from the start player, each seeing the general supply as it stands. A
seat's turn is one `share` step, re-pushed after every move, whose fields count what the seat has
done this phase: `placed` cubes (at most 2, 3 with the handyman, DR-8.1, DR-8.2, DR-19.3), and
whether it has used an agent and a secretary (one of each, DR-19.7 to DR-19.9, AMB-17). Each move
is one cube placed or one exchange made; `done_sharing` ends the turn. A seat with nothing left to
do is passed over by itself.
"""

from __future__ import annotations

from collections import Counter

from domain.kernel.agenda import Step, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import moves as mv
from .state import Hired, State

ANY = "any"
"""The "any resource" requirement and the agents' "give any cube" (AMB-35, DR-19.7)."""

LEVELS = ("poor", "good", "outstanding")

AGENT = "agent"
SECRETARY = "personal_secretary"

ShareMove = mv.PlaceCube | mv.ExchangeCube | mv.DoneSharing


def sharing_order(state: State, step: Step) -> tuple[int, ...]:
    """DR-8.8, AMB-41: clockwise from the start player."""
    return state.clockwise()


def allowance(state: State, seat: int) -> int:
    """DR-8.1: 2 cubes; DR-8.2, DR-19.3: the handyman's owner 3 (its `value`)."""
    most = state.components.constants.placements_per_sharing
    for card in state.players[seat].helpers:
        helper = state.components.helper(card)
        if helper.kind == "handyman":
            most = max(most, helper.value or most)
    return most


def unfilled(requirements: list[str], placed: tuple[str, ...]) -> Counter[str]:
    """DR-8.3, AMB-35: the requirements of a level not yet filled. A placed cube fills a
    requirement of its own colour first, else an "any" one (placements were checked, so this
    matching always succeeds)."""
    open_ = Counter(requirements)
    for colour in placed:
        if open_[colour] > 0:
            open_[colour] -= 1
        else:
            open_[ANY] -= 1
    return +open_


def fits(requirements: list[str], placed: tuple[str, ...], colour: str) -> bool:
    left = unfilled(requirements, placed)
    return left[colour] > 0 or left[ANY] > 0


def _performer(state: State, seat: int, card: str) -> tuple[int, Hired]:
    for index, hired in enumerate(state.players[seat].performers):
        if hired.card == card:
            return index, hired
    raise IllegalMoveError("DR-8.1", f"{card} is not a performer in your circus")


def placement_refusal(state: State, seat: int, step: Step, move: mv.PlaceCube) -> IllegalMoveError | None:
    most = allowance(state, seat)
    if int(step.get("placed", 0)) >= most:
        rule = "DR-8.2" if most > state.components.constants.placements_per_sharing else "DR-8.1"
        return IllegalMoveError(rule, f"you have placed {most} cubes this sharing phase, the most you may")
    if move.colour not in state.components.colours():
        return IllegalMoveError("DR-8.3", f"{move.colour!r} is not a cube colour")
    if state.players[seat].cubes.get(move.colour, 0) < 1:
        return IllegalMoveError("DR-8.1", f"you have no {move.colour} cube in your cube supply")
    try:
        _, hired = _performer(state, seat, move.performer)
    except IllegalMoveError as error:
        return error
    if hired.flipped is not None:
        return IllegalMoveError("DR-8.5", f"{move.performer} is flipped: no cubes may be placed on it")
    if move.level not in LEVELS:
        return IllegalMoveError("DR-8.3", f"{move.level!r} is not a level (poor, good, outstanding)")
    index = LEVELS.index(move.level)
    requirements = state.components.performer(move.performer).levels[index].cubes
    if not fits(requirements, hired.cubes[index], move.colour):
        return IllegalMoveError(
            "DR-8.3", f"the {move.level} level of {move.performer} has no unfilled {move.colour} requirement")
    return None


def _helper_kind(state: State, card: str) -> str:
    return state.components.helper(card).kind


def exchange_refusal(state: State, seat: int, step: Step, move: mv.ExchangeCube) -> IllegalMoveError | None:
    player = state.players[seat]
    if move.helper not in player.helpers or _helper_kind(state, move.helper) not in (AGENT, SECRETARY):
        return IllegalMoveError("DR-8.6", f"{move.helper} is not an agent or secretary in your circus")
    helper = state.components.helper(move.helper)
    exchange = helper.exchange
    assert exchange is not None  # components validation: agents and secretaries have one
    rule = "DR-19.7" if helper.kind == AGENT else "DR-19.8"
    used = "agent" if helper.kind == AGENT else "secretary"
    if step.get(used):
        return IllegalMoveError(rule, f"you have used one {used} this sharing phase, the most (DR-19.9)")
    if ANY not in exchange.give and move.give not in exchange.give:
        return IllegalMoveError(rule, f"{move.helper} exchanges {', '.join(exchange.give)} only, not {move.give}")
    if move.take not in exchange.take:
        return IllegalMoveError(rule, f"{move.helper} gives {', '.join(exchange.take)} only, not {move.take}")
    if player.cubes.get(move.give, 0) < 1:
        return IllegalMoveError(rule, f"you have no {move.give} cube in your cube supply to give")
    if state.cubes.get(move.take, 0) < 1:
        return IllegalMoveError("DR-16.1", f"the general supply has no {move.take} cube")
    return None


def _all_moves(state: State, seat: int) -> list[ShareMove]:
    colours = state.components.colours()
    player = state.players[seat]
    found: list[ShareMove] = []
    for hired in player.performers:
        for level in LEVELS:
            for colour in colours:
                found.append(mv.PlaceCube(performer=hired.card, level=level, colour=colour))
    for card in sorted(set(player.helpers)):
        if _helper_kind(state, card) in (AGENT, SECRETARY):
            for give in colours:
                for take in colours:
                    if give != take:
                        found.append(mv.ExchangeCube(helper=card, give=give, take=take))
    return found


def _refusal(state: State, seat: int, step: Step, move: ShareMove) -> IllegalMoveError | None:
    if isinstance(move, mv.PlaceCube):
        return placement_refusal(state, seat, step, move)
    if isinstance(move, mv.ExchangeCube):
        return exchange_refusal(state, seat, step, move)
    return None


def share_legal(state: State, seat: int, step: Step) -> list[ShareMove]:
    moves = [move for move in _all_moves(state, seat) if _refusal(state, seat, step, move) is None]
    return [*moves, mv.DoneSharing()]


def share_needed(state: State, step: Step) -> bool:
    """A seat with no cube it can place and no exchange it can make has nothing to decide.

    Why not `len(share_legal(...)) > 1`: the agenda asks this after every sharing move and every
    replayed one, and listing the moves checks some fifty candidates, each a move model and most a
    refusal. This asks the same question of the rules directly (a cube of one's own is needed for
    both; `tests/games/drum_roll/test_sharing_needed.py` checks the two agree on real matches)."""
    seat = step.seat
    assert seat is not None
    player = state.players[seat]
    colours = state.components.colours()
    own = [colour for colour in colours if player.cubes.get(colour, 0) >= 1]
    if not own:  # DR-8.1: a cube is placed from the supply; DR-19.7, DR-19.8: an exchange gives one
        return False
    return _can_place(state, seat, step, own) or _can_exchange(state, seat, step, colours, own)


def _can_place(state: State, seat: int, step: Step, own: list[str]) -> bool:
    """DR-8.1 to DR-8.5: a placement is left and some unflipped performer's level has an unfilled
    requirement of a colour the seat holds (or an "any" one)."""
    if int(step.get("placed", 0)) >= allowance(state, seat):
        return False
    for hired in state.players[seat].performers:
        if hired.flipped is not None:
            continue
        levels = state.components.performer(hired.card).levels
        for index in range(len(LEVELS)):
            left = unfilled(levels[index].cubes, hired.cubes[index])
            if left[ANY] > 0 or any(left[colour] > 0 for colour in own):
                return True
    return False


def _can_exchange(state: State, seat: int, step: Step, colours: tuple[str, ...] | list[str],
                  own: list[str]) -> bool:
    """DR-19.7 to DR-19.9: an unused agent or secretary takes a cube the seat holds for another
    colour the general supply still has."""
    for card in set(state.players[seat].helpers):
        helper = state.components.helper(card)
        if helper.kind not in (AGENT, SECRETARY) or step.get("agent" if helper.kind == AGENT else "secretary"):
            continue
        exchange = helper.exchange
        assert exchange is not None  # components validation: agents and secretaries have one
        gives = own if ANY in exchange.give else [colour for colour in own if colour in exchange.give]
        takes = [colour for colour in colours if colour in exchange.take and state.cubes.get(colour, 0) >= 1]
        if any(give != take for give in gives for take in takes):
            return True
    return False


def share_validate(state: State, seat: int, step: Step, move: ShareMove) -> None:
    error = _refusal(state, seat, step, move)
    if error is not None:
        raise error


def share_apply(state: State, seat: int, step: Step, move: ShareMove) -> State:
    if isinstance(move, mv.DoneSharing):
        return state
    player = state.players[seat]
    own = dict(player.cubes)
    if isinstance(move, mv.PlaceCube):
        # DR-8.1, DR-8.4: from the cube supply onto the card, for good
        own[move.colour] -= 1
        index, hired = _performer(state, seat, move.performer)
        level = LEVELS.index(move.level)
        cubes = tuple((*placed, move.colour) if n == level else placed for n, placed in enumerate(hired.cubes))
        performers = list(player.performers)
        performers[index] = evolve(hired, cubes=cubes)
        state = state.with_player(seat, cubes=own, performers=tuple(performers))
        return push(state, step.but(placed=int(step.get("placed", 0)) + 1))
    # DR-19.7, DR-19.8, AMB-17: one cube from the cube supply to the general supply, one back
    supply = dict(state.cubes)
    own[move.give] -= 1
    supply[move.give] += 1
    supply[move.take] -= 1
    own[move.take] = own.get(move.take, 0) + 1
    used = "agent" if _helper_kind(state, move.helper) == AGENT else "secretary"
    state = evolve(state, cubes=supply).with_player(seat, cubes=own)
    return push(state, step.but(**{used: True}))
