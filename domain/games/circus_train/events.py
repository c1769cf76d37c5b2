"""Optional event cards (CT-21.17 to CT-21.19), driven entirely by each card's effect data.

One card is revealed at each month end from April to August (after the First Player marker
passes). Immediate effects happen at the reveal; lasting ones are read while the card is in force,
until the next month end discards it. Readings where a card's (filled-in) text is silent:
"the player with the most/fewest VP" means every player tied there, except Newspaper Rave whose
text says ties give nobody; a chooser "with the fewest VP" who is tied is the first of them in
turn order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from domain.kernel.errors import IllegalMoveError

from .moves import BlockLink, ReturnTalent

if TYPE_CHECKING:
    from .components import ActionCard
    from .state import State, Task

RULE = "CT-21.18"
MOVE_TASKS = frozenset({"block_link", "return"})


def _effect(state: State) -> Any:
    if state.event is None:
        return None
    return state.catalog.events[state.event].effect


# ---- lasting effects --------------------------------------------------------------------------


def movement_allowance(state: State, card: ActionCard, most: int) -> int:
    effect = _effect(state)
    if effect is None or effect.type != "movement_modifier" or most <= 0:
        return most
    if effect.cards and card.id not in effect.cards:
        return most
    value = most + effect.delta
    if effect.delta < 0:
        value = max(effect.floor, value)
    return max(0, value)


def roll_modifier(state: State) -> int:
    effect = _effect(state)
    return effect.delta if effect is not None and effect.type == "hire_roll_modifier" else 0


def price(state: State, base: int) -> int:
    effect = _effect(state)
    if effect is None or effect.type != "special_hire_cost_multiplier":
        return base
    return -(-base * effect.numerator // effect.denominator)


def performance_money(state: State) -> int:
    effect = _effect(state)
    return effect.amount if effect is not None and effect.type == "performance_money_bonus" else 0


def expire(state: State) -> State:
    """The card in force is discarded at the month end (CT-21.18)."""
    if state.event is None and not state.marks:
        return state
    return replace(state, event=None, marks={})


# ---- reveal -----------------------------------------------------------------------------------


def _extreme(values: list[int], highest: bool) -> list[int]:
    target = max(values) if highest else min(values)
    return [seat for seat, value in enumerate(values) if value == target]


def reveal(state: State, event_id: str) -> State:
    from .flow import seat_order
    from .scoring import gain_vp
    from .turn import change_reputation

    left = list(state.events_left)
    left.remove(event_id)
    state = replace(state, events_left=tuple(left), events_drawn=state.events_drawn + 1, event=event_id, marks={})
    effect = state.catalog.events[event_id].effect
    kind = effect.type
    vps = [p.vp for p in state.players]
    order = seat_order(state)
    if kind == "block_links":
        if effect.chooser == "fewest_vp":
            low = min(vps)
            chooser = next(seat for seat in order if vps[seat] == low)
            return state.push({"t": "block_link", "seat": chooser, "left": effect.count, "city": None})
        return state.push({"t": "event_dest", "purpose": "block_link", "count": effect.count})
    if kind == "block_city":
        return state.push({"t": "event_dest", "purpose": "block_city"})
    if kind == "place_talents":
        return state.push(*[{"t": "event_dest", "purpose": "place_talents"} for _ in range(effect.cities)])
    if kind == "performance_penalty_at_cities":
        requests = sorted(
            (
                (state.catalog.request(counter).base_points, city)
                for city, counter in state.news.items()
                if state.catalog.is_request(counter)
            ),
            key=lambda item: (-item[0], item[1]),
        )
        return replace(state, marks={"penalised": [city for _, city in requests[: effect.count]]})
    if kind == "money_loss":
        for seat in _extreme(vps, effect.target == "most_vp"):
            state = state.update_player(seat, money=max(0, state.players[seat].money - effect.amount))
        return state
    if kind == "money_gain":
        for seat in _extreme(vps, effect.target == "most_vp"):
            state = state.update_player(seat, money=state.players[seat].money + effect.amount)
        return state
    if kind == "vp_gain":
        bests = [p.best for p in state.players]
        leaders = _extreme(bests, True)
        if len(leaders) == 1:
            state = gain_vp(state, leaders[0], effect.amount, "event", RULE, state.catalog.events[event_id].name)
        return state
    if kind == "return_talent":
        return state.push(
            *[
                {"t": "return", "seat": seat, "left": effect.count}
                for seat in order
                if len(state.players[seat].circus) >= effect.threshold
            ]
        )
    if kind == "talent_loss_roll":
        assert effect.talent is not None
        return state.push(
            *[
                {
                    "t": "die",
                    "purpose": "event_loss",
                    "seat": seat,
                    "talent": effect.talent,
                    "fail_on": list(effect.fail_on),
                }
                for seat in order
                if state.players[seat].count(effect.talent) > 0
            ]
        )
    if kind == "canada_penalty":
        for seat in order:
            if state.players[seat].city in state.catalog.canada:
                if state.advanced:
                    state = change_reputation(state, seat, effect.reputation)
                else:
                    state = state.update_player(seat, money=max(0, state.players[seat].money + effect.money))
        return state
    if kind == "money_per_performance":
        for seat in order:
            gain = min(effect.cap, effect.per * len(state.players[seat].requests))
            state = state.update_player(seat, money=state.players[seat].money + gain)
        return state
    if kind == "pay_per_talent_or_lose":
        tasks = []
        for seat in order:
            player = state.players[seat]
            due = effect.per * len(player.circus)
            paid = min(due, player.money)
            state = state.update_player(seat, money=player.money - paid)
            losses = (due - paid) // effect.per if effect.per else 0
            if losses:
                tasks.append({"t": "return", "seat": seat, "left": losses})
        return state.push(*tasks)
    return state  # lasting effects only


def destination_drawn(state: State, task: Task, city: str) -> State:
    from .flow import add_city_talents, take_from_pool

    purpose = task["purpose"]
    if purpose == "block_link":
        return state.push({"t": "block_link", "seat": state.first, "left": task["count"], "city": city})
    if purpose == "block_city":
        return replace(state, marks={**state.marks, "blocked_city": city})
    effect = _effect(state)
    placed = []
    for talent in effect.talents if effect is not None else ():
        if state.pool.get(talent, 0) > 0:
            state = take_from_pool(state, talent)
            placed.append(talent)
    return add_city_talents(state, city, placed)


def resolve_die(state: State, task: Task, roll: int) -> State:
    from .flow import lose_talent, return_to_pool

    seat = task["seat"]
    if roll in task["fail_on"] and task["talent"] in state.players[seat].circus:
        state = lose_talent(state, seat, task["talent"])
        state = return_to_pool(state, [task["talent"]])
    return state


# ---- event decisions --------------------------------------------------------------------------


def _link_candidates(state: State, task: Task) -> list[tuple[str, str]]:
    blocked = state.marks.get("blocked_links", [])
    result = []
    for link in state.catalog.components.links:
        pair = sorted((link.a, link.b))
        if [pair[0], pair[1]] in blocked:
            continue
        if task["city"] is not None and task["city"] not in pair:
            continue
        result.append((pair[0], pair[1]))
    return sorted(result)


def needs_decision(state: State, task: Task) -> bool:
    if task["t"] == "block_link":
        return bool(_link_candidates(state, task))
    return bool(state.players[task["seat"]].circus)


def legal_moves(state: State, seat: int, task: Task) -> list[object]:
    if task["t"] == "block_link":
        return [BlockLink(a=a, b=b) for a, b in _link_candidates(state, task)]
    return [ReturnTalent(talent=t) for t in sorted(set(state.players[seat].circus))]


def validate(state: State, seat: int, task: Task, move: object) -> None:
    if task["t"] == "block_link":
        if not isinstance(move, BlockLink):
            raise IllegalMoveError(RULE, "this month's event asks you to block a rail link")
        if tuple(sorted((move.a, move.b))) not in _link_candidates(state, task):
            raise IllegalMoveError(RULE, f"{move.a}-{move.b} is not a link you may block now")
        return
    if not isinstance(move, ReturnTalent):
        raise IllegalMoveError(RULE, "this month's event asks you to return one talent counter")
    if move.talent not in state.players[seat].circus:
        raise IllegalMoveError(RULE, f"you own no {move.talent}")


def apply(state: State, seat: int, task: Task, move: object) -> State:
    from .flow import lose_talent, return_to_pool

    state = state.pop()
    if isinstance(move, BlockLink):
        links = [*state.marks.get("blocked_links", []), sorted([move.a, move.b])]
        state = replace(state, marks={**state.marks, "blocked_links": links})
    elif isinstance(move, ReturnTalent):
        state = lose_talent(state, seat, move.talent)
        state = return_to_pool(state, [move.talent])
    if task["left"] > 1:
        state = state.push({**task, "left": task["left"] - 1})
    return state


AUTO: dict[str, Any] = {}
