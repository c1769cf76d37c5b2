"""The course of the match: the steps that run by themselves (setup's picks and starts, the week's
round, replenishment, month and season ends, the bookkeeping after a turn) and the chance steps
(the first player, Local News counters, Destination cards, dice, event cards).

Each function here is the handler of one step kind in the table (tasks.py). An automatic handler
gets the state with its step already taken off the agenda and returns the state after it, having
pushed the steps it resolves to; a chance step has a spec (what can come out, from the state) and
a resolution (given the state without the step, and the outcome).
"""

from __future__ import annotations

from collections import Counter

from domain.kernel.agenda import Step
from domain.kernel.canonical import JSON
from domain.kernel.contract import ChanceSpec
from domain.kernel.values import evolve

from . import events as ev
from .board import (
    add_city_talents,
    clear_city,
    draw_destination,
    quota,
    refill_if_empty,
    seat_order,
    take_from_pool,
)
from .components import BankruptCounter, CharacterCounter, PointsCounter
from .scoring import end_of_game, gain_vp, month_end_scoring, wage_of
from .state import State, add_sorted, multiset_outcomes, remove_one

DIE = tuple((face, 1) for face in range(1, 7))
"""A die roll's outcomes: the six faces, equally likely."""


# ---- Local News counters ----------------------------------------------------------------------


def place_counter(state: State, counter_id: str, city: str, clear: bool = True) -> State:
    """Place a drawn Local News counter by its kind (CT-13.4 to CT-13.7, CT-14.2, CT-21.4)."""
    catalog = state.catalog
    counter = catalog.counters[counter_id]
    if isinstance(counter, CharacterCounter):
        if clear:
            state = clear_city(state, city)
        characters = dict(state.characters)
        characters[city] = counter.character
        state = evolve(state, characters=characters)
        return state.push(Step("sc_second", city=city))
    if isinstance(counter, BankruptCounter):
        available = Counter({t: n for t, n in state.pool.items() if n > 0})
        placed: list[str] = []
        for talent in counter.talents:
            if available[talent] > 0:
                available[talent] -= 1
                placed.append(talent)
        if not placed:
            return state.push(Step("news_redraw", city=city, clear=clear))  # CT-14.2
        if clear:
            state = clear_city(state, city)
        for talent in placed:
            state = take_from_pool(state, talent)
        return add_city_talents(state, city, placed)
    if clear:
        state = clear_city(state, city)
    news = dict(state.news)
    news[city] = counter_id
    return evolve(state, news=news)


# ---- automatic steps --------------------------------------------------------------------------


def turn_order(state: State, step: Step) -> list[int]:
    """CT-7.1: the seats from the First Player marker, clockwise (setup's picks and starts too)."""
    return seat_order(state)


def picks(state: State, step: Step) -> State:
    """CT-5.14: each player in turn order picks the starting talent counters."""
    left = state.catalog.components.constants.starting_picks
    return state.push(*[Step("pick", seat=seat, left=left) for seat in seat_order(state)])


def init_requests(state: State, step: Step) -> State:
    """CT-5.15: requests on N different cities (A-2: redraw only the counter)."""
    catalog = state.catalog
    have = sum(1 for counter in state.news.values() if catalog.is_request(counter))
    if have >= state.seats or not any(catalog.is_request(c) for c in state.bag):
        return state
    return state.push(Step("init_card"), Step("init_requests"))


def fill(state: State, step: Step) -> State:
    """Draw until the quota of counter cities is met or the bag is empty (CT-5.16, CT-12.2).

    Setup turns up the Destination card first, then draws the counter for it (CT-5.16); play draws
    the counter first, then turns up the card (CT-13.1). Either way the outcomes arrive in the
    order a table would see them."""
    if state.counter_cities() >= step["quota"] or not state.bag:
        return state
    if step.get("setup"):
        return state.push(Step("fill_card"), step)
    return state.push(Step("news_draw"), step)


def play_round(state: State, step: Step) -> State:
    """CT-6.1 and CT-15.5: top up to the quota, every player's turn, then the Roustabout Phase."""
    turns = [Step("turn", seat=seat) for seat in seat_order(state)]
    return state.push(Step("fill", quota=quota(state)), *turns, Step("roustabout"))


def roustabout(state: State, step: Step) -> State:
    """CT-12.2 to CT-12.5: replenish to the quota of the month just played, then advance."""
    return state.push(Step("fill", quota=quota(state)), Step("advance_week"))


def advance_week(state: State, step: Step) -> State:
    catalog = state.catalog
    week = state.week
    last_of_month = catalog.is_last_week_of_month(week)
    state = evolve(state, week=week + 1)
    if last_of_month:
        return state.push(Step("month_end", month=catalog.month_index(week)), Step("round"))
    return state.push(Step("round"))


def month_end(state: State, step: Step) -> State:
    """CT-15.7 (A-13): scoring, September's final scoring, first player, steal, event, season."""
    catalog = state.catalog
    index = step["month"]
    state = month_end_scoring(state, index)
    if index == len(catalog.months) - 1:
        return evolve(end_of_game(state), over=True, agenda=())
    state = evolve(state, first=(state.first + 1) % state.seats)
    steps: list[Step] = []
    month = catalog.months[index]
    if month.long_month and state.seats > 1 and not state.options.simpler:
        vps = [p.vp for p in state.players]
        low = min(vps)
        if vps.count(low) == 1:
            steps.append(Step("long_steal", seat=vps.index(low)))
    state = ev.expire(state)
    if (
        state.options.event_cards
        and state.events_drawn < catalog.components.constants.event_cards_per_game
        and state.events_left
    ):
        steps.append(Step("event_draw"))
    if catalog.months[index + 1].season != month.season:
        steps.append(Step("season_change"))
    return state.push(*steps)


def season_change(state: State, step: Step) -> State:
    """CT-15.3 (A-14): swap the bag for the new season's counters and draw to the new quota."""
    catalog = state.catalog
    bag = catalog.season_counters(state.month.season, state.options.special_characters)
    state = evolve(state, bag=bag)
    return state.push(Step("fill", quota=quota(state)))


def arrive(state: State, step: Step) -> State:
    """After a card's movement: collect a Points counter (CT-13.6) and offer a claim (CT-21.6),
    then queue the card's own action."""
    seat = step["seat"]
    city = state.players[seat].city
    assert city is not None
    steps: list[Step] = []
    if step["moved"]:
        counter = state.news.get(city)
        if counter is not None and state.catalog.is_points(counter):
            points = state.catalog.counters[counter]
            assert isinstance(points, PointsCounter)
            state = evolve(state, news={k: v for k, v in state.news.items() if k != city})
            state = gain_vp(
                state,
                seat,
                points.victory_points,
                "points_counter",
                "CT-20.5" if state.solitaire else "CT-13.6",
                f"Points counter in {city}",
            )
        if city in state.characters:
            steps.append(Step("claim", seat=seat))
    follow = step.get("then")
    if follow is not None:
        steps.append(Step.of(follow))
    return state.push(*steps)


def end_turn(state: State, step: Step) -> State:
    """End of a turn: lone Special Characters go to the reserve (CT-21.5), an uncompleted two-week
    show is abandoned (CT-9.16, A-7), and an empty hand refills (A-3)."""
    seat = step["seat"]
    lone = [city for city in state.characters if city not in state.news and city not in state.talents]
    if lone:
        reserve = add_sorted(state.reserve, *[state.characters[c] for c in lone])
        state = evolve(state, reserve=reserve, characters={k: v for k, v in state.characters.items() if k not in lone})
    player = state.players[seat]
    if player.show is not None:
        if player.show_fresh:
            state = state.update_player(seat, show_fresh=False)
        else:
            state = state.update_player(seat, show=None)
    return refill_if_empty(state, seat)


def steal_done(state: State, step: Step) -> State:
    """CT-10.5: a robbed victim discards Overnight Hire from hand, refilling if that empties it."""
    if step["stolen"] == 0:
        return state
    victim = step["victim"]
    player = state.players[victim]
    for card in state.catalog.card_with_effect("move_then_special_hire"):
        if card in player.hand:
            state = state.update_player(
                victim, hand=remove_one(player.hand, card), discard=add_sorted(player.discard, card)
            )
            return refill_if_empty(state, victim)
    return state


def wages(state: State, step: Step) -> State:
    """CT-11.1, CT-11.2: pay every wage when possible; otherwise (or in the advanced game, where
    talent may be released, CT-19.14) the player chooses what to keep."""
    seat = step["seat"]
    player = state.players[seat]
    total = sum(wage_of(state, seat, t, state.solitaire) for t in player.circus)
    paid_items = [t for t in player.circus if state.catalog.is_talent_type(t)]
    if not state.advanced and player.money >= total:
        return state.update_player(seat, money=player.money - total)
    if not paid_items:
        return state
    return state.push(Step("keep", seat=seat))


# ---- chance steps -----------------------------------------------------------------------------


def first_player_spec(state: State, step: Step) -> ChanceSpec:
    """CT-5.12: the First Player marker goes to a player chosen at random."""
    return ChanceSpec("first_player", tuple((seat, 1) for seat in range(state.seats)))


def resolve_first_player(state: State, step: Step, outcome: JSON) -> State:
    return evolve(state, first=int(outcome))


def initial_request_spec(state: State, step: Step) -> ChanceSpec:
    """CT-5.15 (A-2): only Performance Requests are drawn for the setup's request cities."""
    requests = tuple(c for c in state.bag if state.catalog.is_request(c))
    return ChanceSpec("initial_request", multiset_outcomes(requests))


def local_news_spec(state: State, step: Step) -> ChanceSpec:
    """A Local News counter from the bag (CT-13.1, CT-14.2, CT-21.4)."""
    return ChanceSpec("local_news", multiset_outcomes(state.bag))


def die_spec(state: State, step: Step) -> ChanceSpec:
    return ChanceSpec(f"die:{step['purpose']}", DIE)


def resolve_init_card(state: State, step: Step, outcome: JSON) -> State:
    state, city = draw_destination(state, str(outcome))
    return state.push(Step("init_counter", city=city))


def resolve_init_counter(state: State, step: Step, outcome: JSON) -> State:
    state = evolve(state, bag=remove_one(state.bag, str(outcome)))
    return place_counter(state, str(outcome), step["city"])


def resolve_news_draw(state: State, step: Step, outcome: JSON) -> State:
    state = evolve(state, bag=remove_one(state.bag, str(outcome)))
    return state.push(Step("news_card", counter=str(outcome)))


def resolve_fill_card(state: State, step: Step, outcome: JSON) -> State:
    state, city = draw_destination(state, str(outcome))
    return state.push(Step("news_redraw", city=city, clear=True))


def resolve_news_card(state: State, step: Step, outcome: JSON) -> State:
    state, city = draw_destination(state, str(outcome))
    return place_counter(state, step["counter"], city)


def resolve_news_redraw(state: State, step: Step, outcome: JSON) -> State:
    state = evolve(state, bag=remove_one(state.bag, str(outcome)))
    return place_counter(state, str(outcome), step["city"], clear=step["clear"])


def resolve_sc_second(state: State, step: Step, outcome: JSON) -> State:
    counter = str(outcome)
    if not state.catalog.is_character_counter(counter):  # CT-21.4: a second SC goes back
        state = evolve(state, bag=remove_one(state.bag, counter))
        state = place_counter(state, counter, step["city"], clear=False)
    return state
