"""Circus Train positions: the table between two turns, as a player describes it (docs/positions.md).

A position is the calendar (the week and its month), the First Player marker and whose turn it is
(the seats after it in turn order still play this week), each player's train, money, victory
points, Best Performance marker, reputation, circus, hand, discard pile, requests performed and
show in progress, what lies in each city, the Special Characters in reserve, the Local News
counters still in the bag, the Destination discard pile, and the event cards: the one in force,
how many were drawn, which are left and what the card in force marks on the map.

What follows from that and the component set is not written twice: the Talent Pool holds every
talent counter not in a circus or a city, and the Destination deck every card not in the discard
pile (it is reshuffled from it when it runs out, CT-14.4). The bag, the deck and the event cards
left are multisets: the order they come out in is decided by each draw, a chance decision like
any other. Only the arbiter sees the bag and the event cards left; a seat or spectator sees how
many there are, as in the view (A-6).

Positions describe the table between turns only: mid-turn (a die to roll, a hire to finish) the
match waits on the agenda's sub-decisions, which no player would write down.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from pydantic import Field

from domain.kernel.agenda import Step
from domain.kernel.contract import PositionModel, ScoreLine
from domain.kernel.errors import InvalidPositionError, PositionUnavailableError
from domain.kernel.positions import RULE, position_line
from domain.kernel.viewers import Viewer

from .components import CharacterCounter, PointsCounter, RequestCounter
from .state import Catalog, PlayerState, State, sorted_tuple

Ids = tuple[str, ...]


class PlayerPosition(PositionModel):
    """One player's train and everything in front of them."""

    city: str = Field(min_length=1, max_length=64, description="where the train stands")
    money: int = Field(ge=0, le=1_000_000)
    vp: int = Field(ge=0, le=1_000_000, description="victory points (the score; $5 each in solitaire)")
    best: int = Field(ge=0, le=1_000_000, description="the Best Performance marker")
    reputation: int = Field(default=0, ge=0, le=100, description="the reputation level (advanced game; 0 otherwise)")
    circus: Ids = Field(max_length=200, description="talent counters and Special Characters owned")
    hand: Ids = Field(min_length=1, max_length=50, description="action cards in hand")
    discard: Ids = Field(default=(), max_length=50, description="action cards on the discard pile")
    requests: Ids = Field(default=(), max_length=200, description="Performance Requests performed, in order")
    show: str | None = Field(default=None, max_length=64, description="the city of a two-week show in progress")
    refilled_in_week: int | None = Field(default=None, ge=1, le=1_000, description=(
        "the week in which the last card played brought the discard pile back to hand (CT-17.2)"))


class CityPosition(PositionModel):
    """What lies in a city: a Local News counter, talent counters, a Special Character."""

    news: str | None = Field(default=None, max_length=64, description="a Performance Request or Points counter")
    talents: Ids = Field(default=(), max_length=200)
    character: str | None = Field(default=None, max_length=64)


class EventMarks(PositionModel):
    """What the event card in force marks on the map."""

    blocked_links: tuple[tuple[str, str], ...] = Field(default=(), max_length=50)
    blocked_city: str | None = Field(default=None, max_length=64)
    penalised: Ids = Field(default=(), max_length=50)


class CircusTrainPosition(PositionModel):
    """A Circus Train table at the start of a player's turn."""

    week: int = Field(ge=1, le=1_000, description="the week of the game, from 1")
    month: str = Field(min_length=1, max_length=32, description="the week's month (it must agree with `week`)")
    first: int = Field(ge=0, le=63, description="the seat holding the First Player marker")
    to_move: int = Field(ge=0, le=63, description="whose turn it is; the seats after it in turn order still play")
    players: tuple[PlayerPosition, ...] = Field(min_length=1, max_length=64)
    cities: dict[str, CityPosition] = Field(default_factory=dict, max_length=500)
    reserve: Ids = Field(default=(), max_length=50, description="Special Characters in the reserve")
    local_news_bag: Ids = Field(default=(), max_length=500, description="the counters still in the bag (a multiset)")
    destination_discard: Ids = Field(default=(), max_length=500)
    event_in_force: str | None = Field(default=None, max_length=64)
    events_drawn: int = Field(default=0, ge=0, le=100)
    events_left: Ids = Field(default=(), max_length=100, description="event cards not drawn yet (a multiset)")
    event_marks: EventMarks = EventMarks()


def _fail(path: str, rule: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(path, rule, reason)


def _between_turns(state: State) -> list[int] | None:
    """The seats still to play this week when the match waits for a turn to begin, else None: the
    agenda then holds exactly their turns and the Roustabout Phase after them."""
    agenda = state.agenda
    if state.over or not agenda or agenda[-1] != {"t": "roustabout"}:
        return None
    turns = agenda[:-1]
    if not turns or any(set(task) != {"t", "seat"} or task["t"] != "turn" for task in turns):
        return None
    return [task["seat"] for task in turns]


def position_of(state: State) -> dict[str, Any]:
    """The state as a position (normal form: every multiset sorted, cities by name)."""
    remaining = _between_turns(state)
    if remaining is None:
        raise PositionUnavailableError("Circus Train positions describe the table between turns, and this is "
                                       "not between two turns (setup, a turn or a month end is in progress)"
                                       if not state.over else "the game is over")
    broke = [seat for seat, player in enumerate(state.players) if player.money < 0]
    if broke:  # the format's money is $0 up (CT-0.11); a solitaire replay's parade can leave less
        raise PositionUnavailableError(f"player {broke[0]} holds ${state.players[broke[0]].money}, below the $0 a "
                                       "position can hold (CT-0.11)")
    cities: dict[str, CityPosition] = {}
    for city in sorted(set(state.news) | set(state.talents) | set(state.characters)):
        cities[city] = CityPosition(news=state.news.get(city), talents=state.talents.get(city, ()),
                                    character=state.characters.get(city))
    marks = state.marks
    position = CircusTrainPosition(
        week=state.week + 1, month=state.month.name, first=state.first, to_move=remaining[0],
        players=tuple(PlayerPosition(
            city=player.city or "", money=player.money, vp=player.vp, best=player.best,
            reputation=player.reputation, circus=player.circus, hand=player.hand, discard=player.discard,
            requests=player.requests, show=player.show,
            refilled_in_week=None if player.refill_week < 0 else player.refill_week + 1)
            for player in state.players),
        cities=cities, reserve=state.reserve, local_news_bag=state.bag, destination_discard=state.dest_discard,
        event_in_force=state.event, events_drawn=state.events_drawn, events_left=state.events_left,
        event_marks=EventMarks(blocked_links=tuple((a, b) for a, b in marks.get("blocked_links", [])),
                               blocked_city=marks.get("blocked_city"), penalised=tuple(marks.get("penalised", []))),
    )
    data: dict[str, Any] = position.model_dump(mode="json")
    return data


def hide_position(position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The bag and the event cards left are counted, not shown, to all but the arbiter (A-6)."""
    if viewer.sees_all:
        return position
    hidden = dict(position)
    for key in ("local_news_bag", "events_left"):
        if isinstance(hidden.get(key), list):
            hidden[key] = {"count": len(hidden[key])}
    return hidden


def from_position(base: State, position: CircusTrainPosition) -> State:
    """The state `position` describes, built on `base` (the setup of the same match config: the
    starting hands, the bag of the first season, the event cards in play); refuses an
    inconsistent position with an InvalidPositionError."""
    catalog = base.catalog
    seats = base.seats
    if len(position.players) != seats:
        raise _fail("players", RULE, f"one entry for each of the {seats} players, not {len(position.players)}")
    week = _calendar(position, catalog)
    order = [(position.first + i) % seats for i in range(seats)]
    if position.first >= seats or (base.solitaire and position.first != 0):
        raise _fail("first", "CT-7.1", f"the First Player marker is held by one of the {seats} seats")
    if position.to_move >= seats:
        raise _fail("to_move", "CT-7.1", f"there is no seat {position.to_move} among {seats}")
    news, talents, characters = _cities(position, catalog, base)
    players = tuple(_player(base, position, seat, week) for seat in range(seats))
    _counters(position, catalog, base, news, players)
    _talents(catalog, base, talents, characters, players, position)
    deck, discard = _destinations(position, catalog)
    events_left, marks = _events(position, catalog, base, week)
    state = replace(
        base, week=week, first=position.first, players=players, bag=sorted_tuple(position.local_news_bag),
        deck=deck, dest_discard=discard, pool=_pool(catalog, talents, players), news=news, talents=talents,
        characters=characters, reserve=sorted_tuple(position.reserve), agenda=_agenda(order, position.to_move),
        lines=_lines(base, position), events_left=events_left, events_drawn=position.events_drawn,
        event=position.event_in_force, marks=marks, over=False,
    )
    return state


def _calendar(position: CircusTrainPosition, catalog: Catalog) -> int:
    if position.week > catalog.total_weeks:
        raise _fail("week", "CT-6.2", f"the season has {catalog.total_weeks} weeks, not {position.week}")
    week = position.week - 1
    month = catalog.month_of_week(week).name
    if position.month != month:
        raise _fail("month", RULE, f"week {position.week} is in {month}, not {position.month}")
    return week


def _agenda(order: list[int], to_move: int) -> tuple[Step, ...]:
    """This week's turns still to play, from `to_move` on in turn order, then the Roustabout Phase."""
    remaining = order[order.index(to_move):]
    return (*(Step("turn", seat=seat) for seat in remaining), Step("roustabout"))


def _lines(base: State, position: CircusTrainPosition) -> tuple[ScoreLine, ...]:
    """The victory points from before the position, one line per seat, so that the sheet adds up
    to the VP markers (solitaire scores money and the simpler game Best Performance: no lines)."""
    if base.solitaire or base.options.simpler:
        return ()
    start = base.catalog.components.constants.vp_start
    lines = (position_line(seat, player.vp - start) for seat, player in enumerate(position.players))
    return tuple(line for line in lines if line.points)


def _player(base: State, position: CircusTrainPosition, seat: int, week: int) -> PlayerState:
    catalog = base.catalog
    given = position.players[seat]
    path = f"players.{seat}"
    start = base.players[seat]
    if given.city not in catalog.cities:
        raise _fail(f"{path}.city", RULE, f"there is no city {given.city!r} on the map")
    constants = catalog.components.constants
    if (base.solitaire or base.options.simpler) and given.vp != constants.vp_start:
        rule = "CT-20.2" if base.solitaire else "CT-21.20"
        raise _fail(f"{path}.vp", rule, "this game scores no victory points")
    if base.advanced:
        if given.reputation not in catalog.rep_levels:
            raise _fail(f"{path}.reputation", RULE, f"reputation levels run {min(catalog.rep_levels)} to "
                                                    f"{max(catalog.rep_levels)}")
    elif given.reputation != 0:
        raise _fail(f"{path}.reputation", "CT-3.3", "the basic game has no reputation")
    for index, item in enumerate(given.circus):
        if item not in catalog.talent_types and item not in catalog.characters:
            raise _fail(f"{path}.circus.{index}", RULE, f"{item!r} is neither a talent type nor a Special Character")
    if Counter(given.hand) + Counter(given.discard) != Counter(start.hand):
        raise _fail(f"{path}.hand", "CT-7.2", "a player's hand and discard pile hold their action cards, each "
                                              f"once: {', '.join(start.hand)}")
    if given.show is not None and given.show != given.city:
        raise _fail(f"{path}.show", RULE, "a two-week show goes on in the city where the train stands")
    if given.refilled_in_week is not None and given.refilled_in_week > week + 1:
        raise _fail(f"{path}.refilled_in_week", RULE, f"week {given.refilled_in_week} has not come yet")
    return PlayerState(
        circus=sorted_tuple(given.circus), hand=sorted_tuple(given.hand), discard=sorted_tuple(given.discard),
        city=given.city, money=given.money, vp=given.vp, best=given.best, requests=tuple(given.requests),
        reputation=given.reputation, show=given.show, show_fresh=False,
        refill_week=-1 if given.refilled_in_week is None else given.refilled_in_week - 1)


def _cities(position: CircusTrainPosition, catalog: Catalog,
            base: State) -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, str]]:
    news: dict[str, str] = {}
    talents: dict[str, tuple[str, ...]] = {}
    characters: dict[str, str] = {}
    for city, held in sorted(position.cities.items()):
        path = f"cities.{city}"
        if city not in catalog.cities:
            raise _fail(path, RULE, f"there is no city {city!r} on the map")
        if held.news is not None:
            counter = catalog.counters.get(held.news)
            if not isinstance(counter, RequestCounter | PointsCounter):
                raise _fail(f"{path}.news", "CT-13.1", f"{held.news!r} is not a Performance Request or Points "
                                                       "counter (only those lie in a city)")
            news[city] = held.news
        for index, talent in enumerate(held.talents):
            if talent not in catalog.talent_types:
                raise _fail(f"{path}.talents.{index}", RULE, f"{talent!r} is not a talent type")
        if held.talents:
            talents[city] = sorted_tuple(held.talents)
        if held.character is not None:
            if held.character not in catalog.characters or not base.options.special_characters:
                raise _fail(f"{path}.character", RULE, f"{held.character!r} is not a Special Character of this game")
            characters[city] = held.character
    return news, talents, characters


def _counters(position: CircusTrainPosition, catalog: Catalog, base: State, news: dict[str, str],
              players: tuple[PlayerState, ...]) -> None:
    """Every Local News counter is in one place at most: the bag (of this season's counters,
    CT-15.3), a city, or a player's performed requests."""
    season = catalog.month_of_week(position.week - 1).season
    seasonal = Counter(catalog.season_counters(season, base.options.special_characters))
    seen: dict[str, str] = {}
    places = [(f"local_news_bag.{index}", counter) for index, counter in enumerate(position.local_news_bag)]
    places += [(f"cities.{city}.news", counter) for city, counter in news.items()]
    places += [(f"players.{seat}.requests.{index}", counter) for seat, player in enumerate(players)
               for index, counter in enumerate(player.requests)]
    for path, counter in places:
        found = catalog.counters.get(counter)
        if found is None:
            raise _fail(path, RULE, f"there is no Local News counter {counter!r}")
        if counter in seen:
            raise _fail(path, RULE, f"counter {counter} is also at {seen[counter]}")
        seen[counter] = path
        if path.startswith("local_news_bag") and not seasonal[counter]:
            raise _fail(path, "CT-13.1", f"the bag holds this season's counters only (season {season})")
        if ".requests." in path and not isinstance(found, RequestCounter):
            raise _fail(path, RULE, f"{counter} is not a Performance Request")
        if found.season > season:
            raise _fail(path, RULE, f"counter {counter} comes out in season {found.season}, after this one")
    for seat, player in enumerate(players):
        if player.show is not None:
            lying = news.get(player.show)
            request = catalog.counters.get(lying) if lying is not None else None
            if not (isinstance(request, RequestCounter) and request.two_week):
                raise _fail(f"players.{seat}.show", RULE, "a two-week show is given for a two-week Performance "
                                                          "Request lying in its city")


def _talents(catalog: Catalog, base: State, talents: dict[str, tuple[str, ...]], characters: dict[str, str],
             players: tuple[PlayerState, ...], position: CircusTrainPosition) -> None:
    """Talent counters are limited (CT-14.1); each Special Character is in one place at most and
    only in the game that uses them, from the season it enters with."""
    have = Counter(talent for held in talents.values() for talent in held)
    have.update(item for player in players for item in player.circus if item in catalog.talent_types)
    for talent, count in sorted(have.items()):
        printed = catalog.talent_types[talent].counters
        if count > printed:
            raise _fail("(position)", "CT-14.1", f"{count} {talent} counters are in circuses and cities, and the "
                                                 f"game has {printed}")
    season = catalog.month_of_week(position.week - 1).season
    seen: dict[str, str] = {}
    places = [(f"reserve.{index}", item) for index, item in enumerate(position.reserve)]
    places += [(f"cities.{city}.character", item) for city, item in characters.items()]
    places += [(f"players.{seat}.circus", item) for seat, player in enumerate(players) for item in player.circus
               if item in catalog.characters]
    drawn_later = {counter.character for counter in (catalog.counters[item] for item in position.local_news_bag)
                   if isinstance(counter, CharacterCounter)}
    for path, item in places:
        character = catalog.characters.get(item)
        if character is None or not base.options.special_characters:
            raise _fail(path, RULE, f"{item!r} is not a Special Character of this game")
        if item in seen:
            raise _fail(path, RULE, f"{item} is also at {seen[item]}")
        seen[item] = path
        if character.enters_with_season > season:
            raise _fail(path, RULE, f"{item} enters with season {character.enters_with_season}, after this one")
        if item in drawn_later:
            raise _fail(path, "CT-21.4", f"{item} is out, so its counter is no longer in the bag")


def _pool(catalog: Catalog, talents: dict[str, tuple[str, ...]], players: tuple[PlayerState, ...]) -> dict[str, int]:
    """The Talent Pool: every counter not in a city or a circus."""
    out = Counter(talent for held in talents.values() for talent in held)
    out.update(item for player in players for item in player.circus)
    return {talent: kind.counters - out[talent] for talent, kind in catalog.talent_types.items()}


def _destinations(position: CircusTrainPosition, catalog: Catalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deck is every Destination card not on the discard pile; it is never empty, since the
    pile is shuffled back in when it runs out (CT-14.4)."""
    cards = Counter(catalog.destination_city.keys())
    discard: Counter[str] = Counter()
    for index, card in enumerate(position.destination_discard):
        if card not in cards:
            raise _fail(f"destination_discard.{index}", RULE, f"there is no Destination card {card!r}")
        discard[card] += 1
        if discard[card] > cards[card]:
            raise _fail(f"destination_discard.{index}", RULE, f"Destination card {card} is on the pile twice")
    deck = sorted_tuple((cards - discard).elements())
    if not deck:
        raise _fail("destination_discard", RULE, "the deck is never empty: the pile is shuffled back in when the "
                                                 "last card is turned up")
    return deck, sorted_tuple(position.destination_discard)


def _events(position: CircusTrainPosition, catalog: Catalog, base: State,
            week: int) -> tuple[tuple[str, ...], dict[str, Any]]:
    """One event card is revealed at each month end from April on while cards last, and stays in
    force until the next month end (CT-21.18)."""
    eligible = Counter(base.events_left)
    marks = position.event_marks
    in_use = bool(eligible)
    if not in_use and (position.event_in_force is not None or position.events_drawn or position.events_left):
        raise _fail("event_in_force", "CT-21.18", "this game plays without event cards")
    left = Counter(position.events_left)
    for index, card in enumerate(position.events_left):
        if left[card] > eligible[card]:
            raise _fail(f"events_left.{index}", "CT-21.18", f"{card!r} is not an event card of this game, or is "
                                                            "listed twice")
    month = catalog.month_index(week)
    limit = min(catalog.components.constants.event_cards_per_game, sum(eligible.values()))
    if in_use and position.events_drawn != min(month, limit):
        raise _fail("events_drawn", "CT-21.18", f"{min(month, limit)} event cards have been drawn by {position.month}")
    if in_use and sum(left.values()) + position.events_drawn != sum(eligible.values()):
        raise _fail("events_left", "CT-21.18", f"the {sum(eligible.values())} event cards are those drawn and those "
                                               "left")
    event = position.event_in_force
    if in_use and (event is not None) != (1 <= month <= limit):
        raise _fail("event_in_force", "CT-21.18", "the card revealed at the last month end is in force until the next"
                    if event is None else "no event card is in force now")
    if event is not None and (not eligible[event] or left[event]):
        raise _fail("event_in_force", "CT-21.18", f"{event!r} is not an event card drawn in this game")
    effect = catalog.events[event].effect.type if event is not None else None
    found: dict[str, Any] = {}
    if marks.blocked_links:
        if effect != "block_links":
            raise _fail("event_marks.blocked_links", "CT-21.18", "no card in force blocks links")
        links = {tuple(sorted((link.a, link.b))) for link in catalog.components.links}
        for index, pair in enumerate(marks.blocked_links):
            if tuple(sorted(pair)) not in links:
                raise _fail(f"event_marks.blocked_links.{index}", RULE, f"there is no link {pair[0]}-{pair[1]}")
        found["blocked_links"] = [sorted(pair) for pair in marks.blocked_links]
    if marks.blocked_city is not None:
        if effect != "block_city" or marks.blocked_city not in catalog.cities:
            raise _fail("event_marks.blocked_city", "CT-21.18", "no card in force blocks that city")
        found["blocked_city"] = marks.blocked_city
    if marks.penalised:
        if effect != "performance_penalty_at_cities" or any(city not in catalog.cities for city in marks.penalised):
            raise _fail("event_marks.penalised", "CT-21.18", "no card in force penalises those cities")
        found["penalised"] = list(marks.penalised)
    return sorted_tuple(position.events_left), found
