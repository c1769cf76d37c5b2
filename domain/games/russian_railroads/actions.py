"""A turn: taking an action by placing workers and rubles on a free action space, or passing
(RR-5, RR-10.6, RR-12.3); and the turn-order worker's move after reorganisation (RR-12.13).

Why the payment is part of the move: the rulebook lets every required worker be an own-colour
worker, a temporary worker, the black worker or a ruble (RR-10.6), and which one is placed matters
(the black worker's extra advancement, RR-20.3; the identity swap on a turn-order space, RR-12.9;
what a repeat may copy, RR-22.7). `legal_moves` lists each space with every way the seat can pay
for it, a few per space.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Step, all_or_nothing, push
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from . import moves as mv
from .components import ActionSpace
from .effects import steps_for
from .parts import changing_engineer, space_cost, space_effects, vp_line
from .state import Placement, State


def board_spaces(state: State) -> list[ActionSpace]:
    """The spaces of this board side (RR-3.6) open this round (RR-16.1, RR-16.2)."""
    spaces = []
    for space in state.components.spaces:
        if state.seats not in space.players:
            continue
        if (space.last_round == "never" and state.last_round) or (space.last_round == "only" and not state.last_round):
            continue
        spaces.append(space)
    return spaces


def used_own_engineer(state: State, seat: int, engineer: str) -> bool:
    return any(p.space == engineer and p.seat == seat for p in state.placements)


def candidate_spaces(state: State, seat: int) -> list[str]:
    """Board spaces that are free (RR-5.3) or reusable (RR-6.11) and exist now, then the seat's own
    engineers not used this round (RR-11.6, AMB-16)."""
    spaces = [s.id for s in board_spaces(state)
              if (s.reusable or not state.occupied(s.id)) and space_cost(state, seat, s.id)]
    for engineer in state.players[seat].engineers:
        if state.options.own_engineers == "unlimited" or not used_own_engineer(state, seat, engineer):
            spaces.append(engineer)
    return spaces


def payments(state: State, seat: int, workers: int, rubles: int) -> list[tuple[int, int, int, int]]:
    """Every (own, temporary, black, rubles) that pays `workers` workers and `rubles` rubles from the
    seat's personal supply (RR-5.2, RR-10.6, RR-10.7), own workers first."""
    player = state.players[seat]
    black_free = 1 if player.black_in_supply else 0
    ways = []
    for black in range(min(black_free, workers) + 1):
        for temporary in range(min(player.temporary, workers - black) + 1):
            for own in range(min(player.workers, workers - black - temporary), -1, -1):
                extra = workers - black - temporary - own
                if extra + rubles <= player.rubles:
                    ways.append((own, temporary, black, extra + rubles))
    return ways


def turn_order_claims(state: State) -> dict[int, int]:
    """Turn-order position claimed -> the seat that claimed it this round (RR-12.7)."""
    claims = {}
    for placement in state.placements:
        for effect in space_effects(state, placement.space):
            if effect.kind == "turn_order" and placement.items:
                claims[effect.count] = placement.seat
    return claims


def turn_order_problem(state: State, seat: int, space_id: str, move: mv.Place) -> tuple[str, str] | None:
    """RR-12.8, RR-3.11, RR-12.9: who may claim which turn-order space, and the identity swap."""
    effects = space_effects(state, space_id)
    claim = next((e.count for e in effects if e.kind == "turn_order"), None)
    if claim is None:
        return None
    own_space = state.components.for_players(state.seats).own_turn_order_space
    if state.positions[seat] == claim and not own_space:
        return "RR-12.8", "you may not claim the turn-order space below your own position"
    if seat in turn_order_claims(state).values():
        return "RR-12.8", "you already hold the other turn-order space"
    if move.workers != 1 and swap_source(state, seat) is None:
        return "RR-12.9", ("a turn-order space needs one of your own workers: paid otherwise, you must swap in an own "
                           "worker from another action space, and you have none there (AMB-17)")
    return None


def swap_source(state: State, seat: int) -> int | None:
    """The first of the seat's placements with an own-colour worker on it (RR-12.9)."""
    for index, placement in enumerate(state.placements):
        if placement.seat == seat and placement.workers > 0:
            return index
    return None


def place_problem(state: State, seat: int, move: mv.Place) -> tuple[str, str] | None:
    """The rule and reason that forbid `move`, or None."""
    components = state.components
    player = state.players[seat]
    space_id = move.space
    own = space_id in player.engineers
    if not own:
        try:
            space = components.space(space_id)
        except KeyError:
            try:
                components.engineer(space_id)
            except KeyError:
                return "RR-0.7", f"there is no action space {space_id!r}"
            return "RR-11.6", "only the engineer's owner may use a hired engineer's action"
        if state.seats not in space.players:
            return "RR-3.6", f"{space.name} is blocked on the {state.seats}-player board"
        if space.last_round == "never" and state.last_round:
            return "RR-16.1", "the last-round marker covers the turn-order spaces"
        if space.last_round == "only" and not state.last_round:
            return "RR-16.2", "the last-round action opens only in the last round"
        if state.occupied(space_id) and not space.reusable:
            return "RR-5.3", f"{space.name} is already occupied this round"
        if space.section == "engineer" and space_cost(state, seat, space_id) is None:
            return "RR-11.4", "there is no engineer on that changing action space"
        if any(e.kind == "hire" for e in space.effects) and state.strip[-1] is None:
            return "RR-11.5", "there is no engineer on the hiring space"
    elif state.options.own_engineers == "once_per_round" and used_own_engineer(state, seat, space_id):
        return "RR-11.6", "you have used this engineer's action this round (AMB-16)"
    cost = space_cost(state, seat, space_id)
    assert cost is not None
    workers, rubles = cost
    paid = move.workers + move.temporary + move.black + move.rubles
    if move.rubles < rubles:
        return "RR-10.7", f"this space needs {rubles} ruble{'s' if rubles != 1 else ''}, which workers cannot replace"
    if paid != workers + rubles:
        return "RR-5.2", f"this space needs exactly {workers} worker(s) and {rubles} ruble(s)"
    if move.workers > player.workers:
        return "RR-5.2", f"you have only {player.workers} of your own workers in your supply"
    if move.temporary > player.temporary:
        return "RR-10.11", f"you have only {player.temporary} temporary workers"
    if move.black and not player.black_in_supply:
        return "RR-20.3", "you do not have the black worker in your supply"
    if move.rubles > player.rubles:
        return "RR-10.6", f"you have only {player.rubles} rubles"
    if not own:
        return turn_order_problem(state, seat, space_id, move)
    return None


def action_steps(state: State, seat: int, space_id: str, black: bool) -> tuple[Step, ...]:
    """The steps of the action on `space_id`: in full for a board space or a changing engineer
    (RR-5.5, RR-11.4), as far as possible for an own engineer (RR-11.8)."""
    own = space_id in state.players[seat].engineers
    effects = space_effects(state, space_id)
    rule = state.components.engineer(space_id).rule if own else _rule_of(state, space_id)
    steps = steps_for(seat, effects, rule=rule, partial=own, black_bonus=black, source=space_id)
    return tuple(steps) if own else all_or_nothing("RR-5.5", *steps)


def _rule_of(state: State, space_id: str) -> str:
    space = state.components.space(space_id)
    if space.effects and space.effects[0].kind == "engineer":
        engineer_id = changing_engineer(state, space.effects[0].count)
        if engineer_id is not None:
            return state.components.engineer(engineer_id).rule
    return space.rule


def turn_legal(state: State, seat: int, step: Step) -> list[Any]:
    legal: list[Any] = []
    for space_id in candidate_spaces(state, seat):
        cost = space_cost(state, seat, space_id)
        assert cost is not None
        for own, temporary, black, rubles in payments(state, seat, *cost):
            move = mv.Place(space=space_id, workers=own, temporary=temporary, black=black, rubles=rubles)
            if place_problem(state, seat, move) is None:
                legal.append(move)
    legal.append(mv.Pass())
    return legal


def turn_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if isinstance(move, mv.Pass):
        return
    problem = place_problem(state, seat, move)
    if problem is not None:
        raise IllegalMoveError(*problem)


def turn_apply(state: State, seat: int, step: Step, move: Any) -> State:
    if isinstance(move, mv.Pass):
        return pass_turn(state, seat)
    player = state.players[seat]
    state = state.with_player(
        seat,
        workers=player.workers - move.workers,
        temporary=player.temporary - move.temporary,
        black_in_supply=player.black_in_supply and not move.black,
        rubles=player.rubles - move.rubles,
    )
    placement = Placement(move.space, seat, move.workers, move.temporary, move.black, move.rubles)
    placements = list(state.placements)
    if move.workers != 1 and any(e.kind == "turn_order" for e in space_effects(state, move.space)):
        index = swap_source(state, seat)  # RR-12.9: an own worker takes the turn-order space
        assert index is not None
        other = placements[index]
        placements[index] = evolve(other, workers=other.workers - 1, temporary=other.temporary + move.temporary,
                                   black=other.black + move.black, rubles=other.rubles + move.rubles)
        placement = Placement(move.space, seat, 1, 0, 0, 0)
    state = evolve(state, placements=(*placements, placement))
    return push(state, *action_steps(state, seat, move.space, bool(move.black)))


def pass_turn(state: State, seat: int) -> State:
    """RR-12.3, RR-12.4: no more turns this round; the VP on the back of the turn-order card."""
    state = state.with_player(seat, passed=True)
    position = state.positions[seat]
    points = state.components.constants.pass_vp[position - 1]
    return vp_line(state, seat, points, "RR-12.4", f"passed in position {position}", position=position)


# ---- the turn-order worker's move (RR-12.13, RR-12.14) ---------------------------------------------


def reuse_legal(state: State, seat: int, step: Step) -> list[Any]:
    legal: list[Any] = []
    for space_id in candidate_spaces(state, seat):
        if space_cost(state, seat, space_id) != (1, 0):
            continue
        if any(e.kind == "turn_order" for e in space_effects(state, space_id)):
            continue  # AMB-20: the other turn-order space would do nothing
        legal.append(mv.Place(space=space_id, workers=1, temporary=0, black=0, rubles=0))
    return [*legal, mv.Decline()]


def reuse_validate(state: State, seat: int, step: Step, move: Any) -> None:
    if isinstance(move, mv.Decline):
        return
    if isinstance(move, mv.Pass):
        raise IllegalMoveError("RR-12.13", "move the turn-order worker to a free action space, or decline")
    if (move.workers, move.temporary, move.black, move.rubles) != (1, 0, 0, 0):
        raise IllegalMoveError("RR-12.14", "the turn-order worker goes alone, with nothing added")
    if move not in reuse_legal(state, seat, step):
        problem = place_problem(state, seat, move)
        if problem is not None and problem[0] not in ("RR-5.2",):
            raise IllegalMoveError(*problem)
        raise IllegalMoveError("RR-12.14", "the turn-order worker goes only to a free space needing exactly one worker")


def reuse_apply(state: State, seat: int, step: Step, move: Any) -> State:
    if isinstance(move, mv.Decline):
        return state
    placements = [p for p in state.placements if not (p.seat == seat and p.space == step["space"])]
    placements.append(Placement(move.space, seat, 1, 0, 0, 0))
    state = evolve(state, placements=tuple(placements))
    return push(state, *action_steps(state, seat, move.space, False))
