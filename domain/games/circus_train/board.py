"""Operations on the state that every part of the match shares: counters moving between the Talent
Pool, the cities, the circuses and the reserve; hands refilling; destination cards turned up; turn
order; reputation.

Why here: the automatic steps, the seats' decisions and the event cards all move the same counters
by the same rules (CT-13.2, CT-14.4, CT-7.4). Kept below all three, they import none of them.
"""

from __future__ import annotations

from domain.kernel.agenda import Step
from domain.kernel.contract import ChanceSpec
from domain.kernel.values import evolve

from .state import State, add_sorted, multiset_outcomes, remove_one


def clear_city(state: State, city: str) -> State:
    """CT-13.2: remove everything in a city (news leaves the game, talent to the pool, a Special
    Character to the reserve, A-35) and interrupt a two-week show there (CT-9.18)."""
    news = state.news
    if city in news:
        news = {k: v for k, v in news.items() if k != city}
    pool = state.pool
    talents = state.talents
    if city in talents:
        pool = dict(pool)
        for talent in talents[city]:
            pool[talent] = pool.get(talent, 0) + 1
        talents = {k: v for k, v in talents.items() if k != city}
    characters = state.characters
    reserve = state.reserve
    if city in characters:
        reserve = add_sorted(reserve, characters[city])
        characters = {k: v for k, v in characters.items() if k != city}
    state = evolve(state, news=news, pool=pool, talents=talents, characters=characters, reserve=reserve)
    for seat, player in enumerate(state.players):
        if player.show == city:
            state = state.update_player(seat, show=None, show_fresh=False)
    return state


def add_city_talents(state: State, city: str, items: list[str] | tuple[str, ...]) -> State:
    if not items:
        return state
    talents = dict(state.talents)
    talents[city] = add_sorted(talents.get(city, ()), *items)
    return evolve(state, talents=talents)


def remove_city_talent(state: State, city: str, talent: str) -> State:
    talents = dict(state.talents)
    remaining = remove_one(talents[city], talent)
    if remaining:
        talents[city] = remaining
    else:
        del talents[city]
    return evolve(state, talents=talents)


def take_from_pool(state: State, talent: str) -> State:
    pool = dict(state.pool)
    pool[talent] -= 1
    return evolve(state, pool=pool)


def return_to_pool(state: State, items: list[str] | tuple[str, ...]) -> State:
    """Counters back to the Talent Pool; Special Characters go to the reserve instead."""
    pool = dict(state.pool)
    reserve = state.reserve
    for item in items:
        if item in pool:
            pool[item] += 1
        else:
            reserve = add_sorted(reserve, item)
    return evolve(state, pool=pool, reserve=reserve)


def gain_talent(state: State, seat: int, item: str) -> State:
    player = state.players[seat]
    return state.update_player(seat, circus=add_sorted(player.circus, item))


def lose_talent(state: State, seat: int, item: str) -> State:
    player = state.players[seat]
    return state.update_player(seat, circus=remove_one(player.circus, item))


def refill_if_empty(state: State, seat: int) -> State:
    """CT-7.4 and A-3: an empty hand takes back the whole discard pile at once."""
    player = state.players[seat]
    if player.hand:
        return state
    return state.update_player(seat, hand=player.discard, discard=())


def destination_spec(state: State, step: Step) -> ChanceSpec:
    """The next Destination card, from those left in the deck (CT-13.1, CT-5.16, CT-21.18)."""
    return ChanceSpec("destination_card", multiset_outcomes(state.deck))


def draw_destination(state: State, card: str) -> tuple[State, str]:
    """Turn up a destination card (already the chance outcome) onto the discard pile (CT-13.1)."""
    deck = remove_one(state.deck, card)
    state = evolve(state, deck=deck, dest_discard=add_sorted(state.dest_discard, card))
    if not deck:
        state = evolve(state, deck=state.dest_discard, dest_discard=())  # CT-14.4
    return state, state.catalog.destination_city[card]


def quota(state: State) -> int:
    """CT-12.2: how many cities must hold counters in the current season."""
    return state.catalog.seasons[state.month.season].local_news_quota


def seat_order(state: State) -> list[int]:
    """CT-7.1: turn order, clockwise from the holder of the First Player marker."""
    return [(state.first + i) % state.seats for i in range(state.seats)]


def rep_bounds(state: State) -> tuple[int, int]:
    levels = state.catalog.rep_levels
    return levels[0], levels[-1]


def change_reputation(state: State, seat: int, delta: int) -> State:
    """CT-19.3: reputation moves within the column's boxes, never past either end."""
    low, high = rep_bounds(state)
    value = min(high, max(low, state.players[seat].reputation + delta))
    return state.update_player(seat, reputation=value)
