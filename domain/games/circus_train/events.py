"""Optional event cards (CT-21.17 to CT-21.19), driven entirely by each card's effect data.

One card is revealed at each month end from April to August (after the First Player marker
passes). Immediate effects happen at the reveal; lasting ones are read while the card is in force,
until the next month end discards it. Readings where a card's (filled-in) text is silent:
"the player with the most/fewest VP" means every player tied there, except Newspaper Rave whose
text says ties give nobody; a chooser "with the fewest VP" who is tied is the first of them in
turn order.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Step
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import IllegalMoveError
from domain.kernel.values import evolve

from .board import (
    add_city_talents,
    change_reputation,
    draw_destination,
    lose_talent,
    return_to_pool,
    seat_order,
    take_from_pool,
)
from .components import ActionCard
from .moves import BlockLink, ReturnTalent
from .scoring import gain_vp
from .state import State, multiset_outcomes

RULE = "CT-21.18"


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
    return evolve(state, event=None, marks={})


# ---- reveal -----------------------------------------------------------------------------------


def _extreme(values: list[int], highest: bool) -> list[int]:
    target = max(values) if highest else min(values)
    return [seat for seat, value in enumerate(values) if value == target]


def event_card_spec(state: State, step: Step) -> ChanceSpec:
    """CT-21.18: the month's event card, drawn from those not yet revealed."""
    return ChanceSpec("event_card", multiset_outcomes(state.events_left))


def resolve_event_card(state: State, step: Step, outcome: JSON) -> State:
    return reveal(state, str(outcome))


def resolve_event_destination(state: State, step: Step, outcome: JSON) -> State:
    state, city = draw_destination(state, str(outcome))
    return destination_drawn(state, step, city)


def reveal(state: State, event_id: str) -> State:
    left = list(state.events_left)
    left.remove(event_id)
    state = evolve(state, events_left=tuple(left), events_drawn=state.events_drawn + 1, event=event_id, marks={})
    effect = state.catalog.events[event_id].effect
    kind = effect.type
    vps = [p.vp for p in state.players]
    order = seat_order(state)
    if kind == "block_links":
        if effect.chooser == "fewest_vp":
            low = min(vps)
            chooser = next(seat for seat in order if vps[seat] == low)
            return state.push(Step("block_link", seat=chooser, left=effect.count, city=None))
        return state.push(Step("event_dest", purpose="block_link", count=effect.count))
    if kind == "block_city":
        return state.push(Step("event_dest", purpose="block_city"))
    if kind == "place_talents":
        return state.push(*[Step("event_dest", purpose="place_talents") for _ in range(effect.cities)])
    if kind == "performance_penalty_at_cities":
        requests = sorted(
            (
                (state.catalog.request(counter).base_points, city)
                for city, counter in state.news.items()
                if state.catalog.is_request(counter)
            ),
            key=lambda item: (-item[0], item[1]),
        )
        return evolve(state, marks={"penalised": [city for _, city in requests[: effect.count]]})
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
                Step("return", seat=seat, left=effect.count)
                for seat in order
                if len(state.players[seat].circus) >= effect.threshold
            ]
        )
    if kind == "talent_loss_roll":
        assert effect.talent is not None
        return state.push(
            *[
                Step("die", purpose="event_loss", seat=seat, talent=effect.talent, fail_on=list(effect.fail_on))
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
        steps = []
        for seat in order:
            player = state.players[seat]
            due = effect.per * len(player.circus)
            paid = min(due, player.money)
            state = state.update_player(seat, money=player.money - paid)
            losses = (due - paid) // effect.per if effect.per else 0
            if losses:
                steps.append(Step("return", seat=seat, left=losses))
        return state.push(*steps)
    return state  # lasting effects only


def destination_drawn(state: State, step: Step, city: str) -> State:
    purpose = step["purpose"]
    if purpose == "block_link":
        return state.push(Step("block_link", seat=state.first, left=step["count"], city=city))
    if purpose == "block_city":
        return evolve(state, marks={**state.marks, "blocked_city": city})
    effect = _effect(state)
    placed = []
    for talent in effect.talents if effect is not None else ():
        if state.pool.get(talent, 0) > 0:
            state = take_from_pool(state, talent)
            placed.append(talent)
    return add_city_talents(state, city, placed)


def resolve_loss_roll(state: State, step: Step, roll: int) -> State:
    """CT-21.18: an event's talent loss roll; a face in `fail_on` sends the talent back to the pool."""
    seat = step["seat"]
    if roll in step["fail_on"] and step["talent"] in state.players[seat].circus:
        state = lose_talent(state, seat, step["talent"])
        state = return_to_pool(state, [step["talent"]])
    return state


# ---- event decisions --------------------------------------------------------------------------


def _link_candidates(state: State, step: Step) -> list[tuple[str, str]]:
    blocked = state.marks.get("blocked_links", [])
    result = []
    for link in state.catalog.components.links:
        pair = sorted((link.a, link.b))
        if [pair[0], pair[1]] in blocked:
            continue
        if step["city"] is not None and step["city"] not in pair:
            continue
        result.append((pair[0], pair[1]))
    return sorted(result)


def _once_more(state: State, step: Step) -> State:
    """The same decision again while the card asks for more than one (`left`)."""
    if step["left"] > 1:
        return state.push(step.but(left=step["left"] - 1))
    return state


def block_link_needed(state: State, step: Step) -> bool:
    return bool(_link_candidates(state, step))


def block_link_moves(state: State, seat: int, step: Step) -> list[object]:
    return [BlockLink(a=a, b=b) for a, b in _link_candidates(state, step)]


def validate_block_link(state: State, seat: int, step: Step, move: object) -> None:
    if not isinstance(move, BlockLink):
        raise IllegalMoveError(RULE, "this month's event asks you to block a rail link")
    if tuple(sorted((move.a, move.b))) not in _link_candidates(state, step):
        raise IllegalMoveError(RULE, f"{move.a}-{move.b} is not a link you may block now")


def apply_block_link(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, BlockLink)
    links = [*state.marks.get("blocked_links", []), sorted([move.a, move.b])]
    state = evolve(state, marks={**state.marks, "blocked_links": links})
    return _once_more(state, step)


def return_needed(state: State, step: Step) -> bool:
    return bool(state.players[step["seat"]].circus)


def return_moves(state: State, seat: int, step: Step) -> list[object]:
    return [ReturnTalent(talent=t) for t in sorted(set(state.players[seat].circus))]


def validate_return(state: State, seat: int, step: Step, move: object) -> None:
    if not isinstance(move, ReturnTalent):
        raise IllegalMoveError(RULE, "this month's event asks you to return one talent counter")
    if move.talent not in state.players[seat].circus:
        raise IllegalMoveError(RULE, f"you own no {move.talent}")


def apply_return(state: State, seat: int, step: Step, move: object) -> State:
    assert isinstance(move, ReturnTalent)
    state = lose_talent(state, seat, move.talent)
    state = return_to_pool(state, [move.talent])
    return _once_more(state, step)
