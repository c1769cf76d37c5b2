"""The match flow: setup, rounds, replenishment, month and season ends, as an agenda of tasks.

Each task is a small JSON record `{"t": kind, ...}`. Automatic tasks run here; chance tasks wait
for an outcome (their ChanceSpec is built from the state); move tasks wait for a seat (turn.py).
`advance` runs automatic tasks until the head of the agenda needs a decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec, MatchConfig

from . import events as ev
from .components import BankruptCounter, CharacterCounter, PointsCounter, RequestCounter
from .scoring import end_of_game, gain_vp, month_end_scoring
from .state import (
    PlayerState,
    State,
    Task,
    add_sorted,
    catalog_for,
    remove_one,
    sorted_tuple,
)

CHANCE_TASKS = frozenset(
    {
        "first_player",
        "init_card",
        "init_counter",
        "news_draw",
        "news_card",
        "news_redraw",
        "sc_second",
        "die",
        "event_draw",
        "event_dest",
        "fill_card",
    }
)
MOVE_TASKS = frozenset(
    {
        "pick",
        "start",
        "turn",
        "claim",
        "ph",
        "hire_more",
        "buy",
        "special",
        "keep",
        "fired_city",
        "long_steal",
        "rest",
        "block_link",
        "return",
    }
)

# ---- setup ------------------------------------------------------------------------------------


def setup(config: MatchConfig[Any]) -> State:
    catalog = catalog_for(config.components)
    components = catalog.components
    constants = components.constants
    seats = config.seats
    options = config.options
    advanced = config.variant in ("advanced", "solitaire-advanced")
    simpler = bool(getattr(options, "simpler", False))
    characters = bool(getattr(options, "special_characters", False))
    pool = {t.id: t.counters for t in components.talent_types}
    hand: list[str] = []
    for card in components.action_cards:
        if card.advanced_only and not advanced:
            continue
        if card.min_players > seats:
            continue
        if simpler and card.effect == "move_then_wages":
            continue
        hand.extend([card.id] * card.copies)
    players = []
    for _ in range(seats):
        clowns = min(constants.starting_clowns, pool["clown"])
        pool["clown"] -= clowns
        players.append(
            PlayerState(
                circus=("clown",) * clowns,
                hand=sorted_tuple(hand),
                discard=(),
                city=None,
                money=constants.starting_money,
                vp=constants.vp_start,
                best=constants.best_performance_start,
                requests=(),
                reputation=components.reputation.start_level if advanced else 0,
            )
        )
    first_season = components.months[0].season
    events_left: tuple[str, ...] = ()
    if getattr(options, "event_cards", False) and not simpler:  # CT-21.20: no events in the simpler variant
        events_left = sorted_tuple(e.id for e in components.event_cards if e.min_players <= seats)
    agenda: list[Task] = []
    if seats > 1:
        agenda.append({"t": "first_player"})
    agenda += [
        {"t": "picks"},
        {"t": "init_requests"},
        {"t": "fill", "quota": constants.initial_cities_with_counters, "setup": True},
        {"t": "starts"},
        {"t": "round"},
    ]
    state = State(
        config=config,
        seats=seats,
        week=0,
        first=0,
        players=tuple(players),
        bag=catalog.season_counters(first_season, characters),
        deck=sorted_tuple(d.id for d in components.destination_cards),
        dest_discard=(),
        pool=pool,
        news={},
        talents={},
        characters={},
        reserve=(),
        agenda=tuple(agenda),
        events_left=events_left,
    )
    return advance(state)


# ---- helpers used across the flow -------------------------------------------------------------


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
    state = replace(state, news=news, pool=pool, talents=talents, characters=characters, reserve=reserve)
    for seat, player in enumerate(state.players):
        if player.show == city:
            state = state.update_player(seat, show=None, show_fresh=False)
    return state


def add_city_talents(state: State, city: str, items: list[str] | tuple[str, ...]) -> State:
    if not items:
        return state
    talents = dict(state.talents)
    talents[city] = add_sorted(talents.get(city, ()), *items)
    return replace(state, talents=talents)


def remove_city_talent(state: State, city: str, talent: str) -> State:
    talents = dict(state.talents)
    remaining = remove_one(talents[city], talent)
    if remaining:
        talents[city] = remaining
    else:
        del talents[city]
    return replace(state, talents=talents)


def take_from_pool(state: State, talent: str) -> State:
    pool = dict(state.pool)
    pool[talent] -= 1
    return replace(state, pool=pool)


def return_to_pool(state: State, items: list[str] | tuple[str, ...]) -> State:
    """Counters back to the Talent Pool; Special Characters go to the reserve instead."""
    pool = dict(state.pool)
    reserve = state.reserve
    for item in items:
        if item in pool:
            pool[item] += 1
        else:
            reserve = add_sorted(reserve, item)
    return replace(state, pool=pool, reserve=reserve)


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


def draw_destination(state: State, card: str) -> tuple[State, str]:
    """Turn up a destination card (already the chance outcome) onto the discard pile (CT-13.1)."""
    deck = remove_one(state.deck, card)
    state = replace(state, deck=deck, dest_discard=add_sorted(state.dest_discard, card))
    if not deck:
        state = replace(state, deck=state.dest_discard, dest_discard=())  # CT-14.4
    return state, state.catalog.destination_city[card]


def place_counter(state: State, counter_id: str, city: str, clear: bool = True) -> State:
    """Place a drawn Local News counter by its kind (CT-13.4 to CT-13.7, CT-14.2, CT-21.4)."""
    catalog = state.catalog
    counter = catalog.counters[counter_id]
    if isinstance(counter, CharacterCounter):
        if clear:
            state = clear_city(state, city)
        characters = dict(state.characters)
        characters[city] = counter.character
        state = replace(state, characters=characters)
        return state.push({"t": "sc_second", "city": city})
    if isinstance(counter, BankruptCounter):
        available = Counter({t: n for t, n in state.pool.items() if n > 0})
        placed: list[str] = []
        for talent in counter.talents:
            if available[talent] > 0:
                available[talent] -= 1
                placed.append(talent)
        if not placed:
            return state.push({"t": "news_redraw", "city": city, "clear": clear})  # CT-14.2
        if clear:
            state = clear_city(state, city)
        for talent in placed:
            state = take_from_pool(state, talent)
        return add_city_talents(state, city, placed)
    if clear:
        state = clear_city(state, city)
    news = dict(state.news)
    news[city] = counter_id
    return replace(state, news=news)


def quota(state: State) -> int:
    return state.catalog.seasons[state.month.season].local_news_quota


def seat_order(state: State) -> list[int]:
    return [(state.first + i) % state.seats for i in range(state.seats)]


# ---- automatic tasks --------------------------------------------------------------------------


def _picks(state: State, task: Task) -> State:
    return state.push(
        *[
            {"t": "pick", "seat": seat, "left": state.catalog.components.constants.starting_picks}
            for seat in seat_order(state)
        ]
    )


def _init_requests(state: State, task: Task) -> State:
    """CT-5.15: requests on N different cities (A-2: redraw only the counter)."""
    catalog = state.catalog
    have = sum(1 for counter in state.news.values() if catalog.is_request(counter))
    if have >= state.seats or not any(catalog.is_request(c) for c in state.bag):
        return state
    return state.push({"t": "init_card"}, {"t": "init_requests"})


def _fill(state: State, task: Task) -> State:
    """Draw until the quota of counter cities is met or the bag is empty (CT-5.16, CT-12.2).

    Setup turns up the Destination card first, then draws the counter for it (CT-5.16); play draws
    the counter first, then turns up the card (CT-13.1). Either way the outcomes arrive in the
    order a table would see them."""
    if state.counter_cities() >= task["quota"] or not state.bag:
        return state
    if task.get("setup"):
        return state.push({"t": "fill_card"}, task)
    return state.push({"t": "news_draw"}, task)


def _starts(state: State, task: Task) -> State:
    return state.push(*[{"t": "start", "seat": seat} for seat in seat_order(state)])


def _round(state: State, task: Task) -> State:
    """CT-6.1 and CT-15.5: top up to the quota, every player's turn, then the Roustabout Phase."""
    turns = [{"t": "turn", "seat": seat} for seat in seat_order(state)]
    return state.push({"t": "fill", "quota": quota(state)}, *turns, {"t": "roustabout"})


def _roustabout(state: State, task: Task) -> State:
    """CT-12.2 to CT-12.5: replenish to the quota of the month just played, then advance."""
    return state.push({"t": "fill", "quota": quota(state)}, {"t": "advance_week"})


def _advance_week(state: State, task: Task) -> State:
    catalog = state.catalog
    week = state.week
    last_of_month = catalog.is_last_week_of_month(week)
    state = replace(state, week=week + 1)
    if last_of_month:
        return state.push({"t": "month_end", "month": catalog.month_index(week)}, {"t": "round"})
    return state.push({"t": "round"})


def _month_end(state: State, task: Task) -> State:
    """CT-15.7 (A-13): scoring, September's final scoring, first player, steal, event, season."""
    catalog = state.catalog
    index = task["month"]
    state = month_end_scoring(state, index)
    if index == len(catalog.months) - 1:
        return replace(end_of_game(state), over=True, agenda=())
    state = replace(state, first=(state.first + 1) % state.seats)
    tasks: list[Task] = []
    month = catalog.months[index]
    if month.long_month and state.seats > 1 and not state.options.simpler:
        vps = [p.vp for p in state.players]
        low = min(vps)
        if vps.count(low) == 1:
            tasks.append({"t": "long_steal", "seat": vps.index(low)})
    state = ev.expire(state)
    if (
        state.options.event_cards
        and state.events_drawn < catalog.components.constants.event_cards_per_game
        and state.events_left
    ):
        tasks.append({"t": "event_draw"})
    if catalog.months[index + 1].season != month.season:
        tasks.append({"t": "season_change"})
    return state.push(*tasks)


def _season_change(state: State, task: Task) -> State:
    """CT-15.3 (A-14): swap the bag for the new season's counters and draw to the new quota."""
    catalog = state.catalog
    bag = catalog.season_counters(state.month.season, state.options.special_characters)
    state = replace(state, bag=bag)
    return state.push({"t": "fill", "quota": quota(state)})


def _arrive(state: State, task: Task) -> State:
    """After a card's movement: collect a Points counter (CT-13.6) and offer a claim (CT-21.6),
    then queue the card's own action."""
    seat = task["seat"]
    city = state.players[seat].city
    assert city is not None
    tasks: list[Task] = []
    if task["moved"]:
        counter = state.news.get(city)
        if counter is not None and state.catalog.is_points(counter):
            points = state.catalog.counters[counter]
            assert isinstance(points, PointsCounter)
            state = replace(state, news={k: v for k, v in state.news.items() if k != city})
            state = gain_vp(
                state,
                seat,
                points.victory_points,
                "points_counter",
                "CT-20.5" if state.solitaire else "CT-13.6",
                f"Points counter in {city}",
            )
        if city in state.characters:
            tasks.append({"t": "claim", "seat": seat})
    follow = task.get("then")
    if follow is not None:
        tasks.append(dict(follow))
    return state.push(*tasks)


def _end_turn(state: State, task: Task) -> State:
    """End of a turn: lone Special Characters go to the reserve (CT-21.5), an uncompleted two-week
    show is abandoned (CT-9.16, A-7), and an empty hand refills (A-3)."""
    seat = task["seat"]
    lone = [city for city in state.characters if city not in state.news and city not in state.talents]
    if lone:
        reserve = add_sorted(state.reserve, *[state.characters[c] for c in lone])
        state = replace(state, reserve=reserve, characters={k: v for k, v in state.characters.items() if k not in lone})
    player = state.players[seat]
    if player.show is not None:
        if player.show_fresh:
            state = state.update_player(seat, show_fresh=False)
        else:
            state = state.update_player(seat, show=None)
    return refill_if_empty(state, seat)


def _steal_done(state: State, task: Task) -> State:
    """CT-10.5: a robbed victim discards Overnight Hire from hand, refilling if that empties it."""
    if task["stolen"] == 0:
        return state
    victim = task["victim"]
    player = state.players[victim]
    for card in state.catalog.card_with_effect("move_then_special_hire"):
        if card in player.hand:
            state = state.update_player(
                victim, hand=remove_one(player.hand, card), discard=add_sorted(player.discard, card)
            )
            return refill_if_empty(state, victim)
    return state


def _wages(state: State, task: Task) -> State:
    """CT-11.1, CT-11.2: pay every wage when possible; otherwise (or in the advanced game, where
    talent may be released, CT-19.14) the player chooses what to keep."""
    seat = task["seat"]
    player = state.players[seat]
    total = sum(_wage(state, seat, t) for t in player.circus)
    paid_items = [t for t in player.circus if state.catalog.is_talent_type(t)]
    if not state.advanced and player.money >= total:
        return state.update_player(seat, money=player.money - total)
    if not paid_items:
        return state
    return state.push({"t": "keep", "seat": seat})


def _wage(state: State, seat: int, talent: str) -> int:
    from .scoring import wage_of

    return wage_of(state, seat, talent, state.solitaire)


AUTO: dict[str, Callable[[State, Task], State]] = {
    "picks": _picks,
    "init_requests": _init_requests,
    "fill": _fill,
    "starts": _starts,
    "round": _round,
    "roustabout": _roustabout,
    "advance_week": _advance_week,
    "month_end": _month_end,
    "season_change": _season_change,
    "arrive": _arrive,
    "end_turn": _end_turn,
    "steal_done": _steal_done,
    "wages": _wages,
}


def advance(state: State) -> State:
    """Run automatic tasks until a decision is needed or the match is over."""
    from .turn import needs_decision

    while state.agenda and not state.over:
        task = state.agenda[0]
        kind = task["t"]
        handler = AUTO.get(kind) or ev.AUTO.get(kind)
        if handler is not None:
            state = handler(state.pop(), task)
            continue
        if kind in CHANCE_TASKS:
            spec = chance_spec(state)
            if spec is None or not spec.outcomes:
                state = state.pop()  # nothing left to draw (CT-14.3)
                continue
            return state
        if kind in MOVE_TASKS:
            if needs_decision(state, task):
                return state
            state = state.pop()
            continue
        raise AssertionError(f"unknown task {kind}")
    if not state.agenda and not state.over:
        state = replace(state, over=True)
    return state


# ---- chance -----------------------------------------------------------------------------------


def _multiset(items: tuple[str, ...]) -> tuple[tuple[JSON, int], ...]:
    counts = Counter(items)
    return tuple((item, counts[item]) for item in sorted(counts))


DIE = tuple((face, 1) for face in range(1, 7))


def chance_spec(state: State) -> ChanceSpec | None:
    task = state.head()
    if task is None:
        return None
    kind = task["t"]
    catalog = state.catalog
    if kind == "first_player":
        return ChanceSpec("first_player", tuple((seat, 1) for seat in range(state.seats)))
    if kind in ("init_card", "news_card", "event_dest", "fill_card"):
        return ChanceSpec("destination_card", _multiset(state.deck))
    if kind == "init_counter":
        requests = tuple(c for c in state.bag if catalog.is_request(c))
        return ChanceSpec("initial_request", _multiset(requests))
    if kind in ("news_draw", "news_redraw", "sc_second"):
        return ChanceSpec("local_news", _multiset(state.bag))
    if kind == "die":
        return ChanceSpec(f"die:{task['purpose']}", DIE)
    if kind == "event_draw":
        return ChanceSpec("event_card", _multiset(state.events_left))
    return None


def resolve(state: State, outcome: JSON) -> State:
    task = state.head()
    assert task is not None
    kind = task["t"]
    state = state.pop()
    catalog = state.catalog
    if kind == "first_player":
        state = replace(state, first=int(outcome))
    elif kind == "init_card":
        state, city = draw_destination(state, str(outcome))
        state = state.push({"t": "init_counter", "city": city})
    elif kind == "init_counter":
        state = replace(state, bag=remove_one(state.bag, str(outcome)))
        state = place_counter(state, str(outcome), task["city"])
    elif kind == "news_draw":
        state = replace(state, bag=remove_one(state.bag, str(outcome)))
        state = state.push({"t": "news_card", "counter": str(outcome)})
    elif kind == "fill_card":
        state, city = draw_destination(state, str(outcome))
        state = state.push({"t": "news_redraw", "city": city, "clear": True})
    elif kind == "news_card":
        state, city = draw_destination(state, str(outcome))
        state = place_counter(state, task["counter"], city)
    elif kind == "news_redraw":
        state = replace(state, bag=remove_one(state.bag, str(outcome)))
        state = place_counter(state, str(outcome), task["city"], clear=task["clear"])
    elif kind == "sc_second":
        counter = str(outcome)
        if not catalog.is_character_counter(counter):  # CT-21.4: a second SC goes back
            state = replace(state, bag=remove_one(state.bag, counter))
            state = place_counter(state, counter, task["city"], clear=False)
    elif kind == "die":
        from .turn import resolve_die

        state = resolve_die(state, task, int(outcome))
    elif kind == "event_draw":
        state = ev.reveal(state, str(outcome))
    elif kind == "event_dest":
        state, city = draw_destination(state, str(outcome))
        state = ev.destination_drawn(state, task, city)
    return advance(state)


def is_request(state: State, counter_id: str) -> bool:
    return isinstance(state.catalog.counters[counter_id], RequestCounter)
