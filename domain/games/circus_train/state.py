"""Circus Train state: immutable values, their JSON encoding, and the catalogue derived from the
component set (adjacency, counters by id, calendar lookups).

States are frozen dataclasses. Their dict fields are never mutated: every change builds a new dict
(`evolve`, the kernel's cheaper `dataclasses.replace`, plus copies), so the kernel may share states
freely. The pending work of the match is an *agenda*: a tuple of the kernel's steps
(`domain/kernel/agenda.py`), each stored as the small JSON record `{"t": kind, ...}` and taken head
first; a step either runs by itself or waits for a seat's move or a chance outcome, as its row in
the table of step kinds (tasks.py) says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.agenda import Step, decode_agenda, encode_agenda
from domain.kernel.canonical import JSON
from domain.kernel.contract import MatchConfig, ScoreLine
from domain.kernel.values import evolve

from .components import (
    ActionCard,
    BankruptCounter,
    CharacterCounter,
    CircusTrainComponents,
    EventCard,
    Month,
    PointsCounter,
    RequestCounter,
    SpecialCharacter,
    TalentType,
)
from .options import CircusTrainOptions


def sorted_tuple(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(items))


def remove_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def add_sorted(items: tuple[str, ...], *more: str) -> tuple[str, ...]:
    return tuple(sorted(items + more))


def remove_many(items: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    result = items
    for item in gone:
        result = remove_one(result, item)
    return result


def multiset_contains(items: tuple[str, ...], wanted: Iterable[str]) -> bool:
    have = Counter(items)
    need = Counter(wanted)
    return all(have[key] >= count for key, count in need.items())


def multiset_outcomes(items: tuple[str, ...]) -> tuple[tuple[JSON, int], ...]:
    """A draw from a bag or deck as chance outcomes: each distinct item, weighted by how many are
    left, in sorted order (the same on every machine)."""
    return tuple(sorted(Counter(items).items()))  # the items are distinct keys: sorted by item


@dataclass(frozen=True)
class PlayerState:
    circus: tuple[str, ...]
    """Talent counters owned (talent type ids and Special Character ids), sorted."""
    hand: tuple[str, ...]
    discard: tuple[str, ...]
    city: str | None
    money: int
    vp: int
    best: int
    requests: tuple[str, ...]
    """Performance Request counters held, in the order performed (CT-9.7)."""
    reputation: int = 0
    show: str | None = None
    """City of this player's two-week show in progress (CT-9.14), if any."""
    show_fresh: bool = False
    """True during the turn the show was started."""
    refill_week: int = -1
    """Week of the last hand refill caused by playing the last card (CT-17.2)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "circus": list(self.circus),
            "hand": list(self.hand),
            "discard": list(self.discard),
            "city": self.city,
            "money": self.money,
            "vp": self.vp,
            "best": self.best,
            "requests": list(self.requests),
            "reputation": self.reputation,
            "show": self.show,
            "show_fresh": self.show_fresh,
            "refill_week": self.refill_week,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerState:
        return cls(
            circus=tuple(data["circus"]),
            hand=tuple(data["hand"]),
            discard=tuple(data["discard"]),
            city=data["city"],
            money=data["money"],
            vp=data["vp"],
            best=data["best"],
            requests=tuple(data["requests"]),
            reputation=data["reputation"],
            show=data["show"],
            show_fresh=data["show_fresh"],
            refill_week=data["refill_week"],
        )

    def count(self, talent: str) -> int:
        return self.circus.count(talent)


@dataclass(frozen=True)
class CircusTrainState:
    config: MatchConfig[Any] = field(compare=False, repr=False)
    seats: int
    week: int
    first: int
    players: tuple[PlayerState, ...]
    bag: tuple[str, ...]
    deck: tuple[str, ...]
    dest_discard: tuple[str, ...]
    pool: dict[str, int]
    news: dict[str, str]
    """City -> Performance Request or Points counter lying there."""
    talents: dict[str, tuple[str, ...]]
    """City -> talent counters lying there (sorted, never empty)."""
    characters: dict[str, str]
    """City -> Special Character lying there."""
    reserve: tuple[str, ...]
    agenda: tuple[Step, ...]
    """The pending steps, head first (see tasks.py for what each kind does)."""
    lines: tuple[ScoreLine, ...] = ()
    events_left: tuple[str, ...] = ()
    events_drawn: int = 0
    event: str | None = None
    marks: dict[str, Any] = field(default_factory=dict)
    """Event card markers: blocked links, a blocked city, penalised cities."""
    over: bool = False

    def __post_init__(self) -> None:
        """An agenda given as step records (a test's crafted position) is read into steps once, here,
        so that everything after works on steps. It runs for every new state (`evolve` too), so it
        is a plain loop that stops at the first record."""
        agenda = self.agenda
        if agenda is _STEPS_ONLY[0]:  # the agenda of the state this one was made from, most often
            return
        for step in agenda:
            if type(step) is not Step:
                object.__setattr__(self, "agenda", decode_agenda(agenda))
                break
        if type(self.agenda) is tuple:
            _STEPS_ONLY[0] = self.agenda

    # ---- convenience -------------------------------------------------------------------
    @property
    def options(self) -> CircusTrainOptions:
        options = self.config.options
        assert isinstance(options, CircusTrainOptions)
        return options

    @property
    def catalog(self) -> Catalog:
        components = self.config.components
        last = _LAST_CATALOG[0]
        if last is not None and last.components is components:  # the engine asks it many times per event
            return last
        catalog = _LAST_CATALOG[0] = catalog_for(components)
        return catalog

    @property
    def advanced(self) -> bool:
        return self.config.variant in ("advanced", "solitaire-advanced")

    @property
    def solitaire(self) -> bool:
        return self.seats == 1

    @property
    def month(self) -> Month:
        return self.catalog.month_of_week(min(self.week, self.catalog.total_weeks - 1))

    def with_player(self, seat: int, player: PlayerState) -> State:
        """`evolve(self, players=...)` with one player replaced, written out (as `with_agenda`):
        nearly every move changes a player."""
        players = self.players
        new = object.__new__(CircusTrainState)
        values = self.__dict__.copy()
        values["players"] = (*players[:seat], player, *players[seat + 1:]) if 0 <= seat < len(players) \
            else _replaced(players, seat, player)
        _set(new, "__dict__", values)
        return new

    def update_player(self, seat: int, **changes: Any) -> State:
        return self.with_player(seat, evolve(self.players[seat], **changes))

    def head(self) -> Step | None:
        return self.agenda[0] if self.agenda else None

    def push(self, *steps: Step) -> State:
        """`steps` onto the head of the agenda, the first to be taken next (nothing pushed: the
        same state, an immutable value)."""
        if not steps:
            return self
        return self.with_agenda((*steps, *self.agenda))

    def with_agenda(self, agenda: tuple[Step, ...]) -> State:
        """`evolve(self, agenda=agenda)`, written out: the agenda machine changes the agenda two or
        three times per event (the step taken off, the steps it leads to pushed)."""
        new = object.__new__(CircusTrainState)
        values = self.__dict__.copy()  # then set as the new one's: cheaper than filling an empty one
        values["agenda"] = agenda
        _set(new, "__dict__", values)
        new.__post_init__()
        return new

    def ended(self) -> State:
        """The agenda ran out: the match is over (CT-6.2)."""
        return evolve(self, over=True)

    def talent_cities(self) -> tuple[str, ...]:
        """The cities holding talent counters, sorted. A Special Character on the board is treated as
        a talent counter (CT-21.7), so its city is one of them. The one definition read both by the
        counter-city count (CT-0.9, CT-12.2) and by where fired talent goes (CT-11.4)."""
        return tuple(sorted(set(self.talents) | set(self.characters)))

    def counter_cities(self) -> int:
        """CT-0.9: cities holding a request, a Points counter, or talent (a Special Character too)."""
        return len(set(self.news) | set(self.talent_cities()))

    def right_of(self, seat: int) -> int:
        """CT-0.5: the player to the right plays just before; in solitaire it is yourself."""
        return (seat - 1) % self.seats

    # ---- encoding ----------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": self.seats,
            "week": self.week,
            "first": self.first,
            "players": [p.to_json() for p in self.players],
            "bag": list(self.bag),
            "deck": list(self.deck),
            "dest_discard": list(self.dest_discard),
            "pool": dict(sorted(self.pool.items())),
            "news": dict(sorted(self.news.items())),
            "talents": {city: list(items) for city, items in sorted(self.talents.items())},
            "characters": dict(sorted(self.characters.items())),
            "reserve": list(self.reserve),
            "agenda": encode_agenda(self.agenda),
            # stored as [seat, points, category, rule, detail]: no Circus Train line has refs
            "lines": [[line.seat, line.points, line.category, line.rule, line.detail] for line in self.lines],
            "events_left": list(self.events_left),
            "events_drawn": self.events_drawn,
            "event": self.event,
            "marks": self.marks,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], config: MatchConfig[Any]) -> State:
        return cls(
            config=config,
            seats=data["seats"],
            week=data["week"],
            first=data["first"],
            players=tuple(PlayerState.from_json(p) for p in data["players"]),
            bag=tuple(data["bag"]),
            deck=tuple(data["deck"]),
            dest_discard=tuple(data["dest_discard"]),
            pool=dict(data["pool"]),
            news=dict(data["news"]),
            talents={city: tuple(items) for city, items in data["talents"].items()},
            characters=dict(data["characters"]),
            reserve=tuple(data["reserve"]),
            agenda=decode_agenda(data["agenda"]),
            lines=tuple(ScoreLine(a, b, c, d, e) for a, b, c, d, e in data["lines"]),
            events_left=tuple(data["events_left"]),
            events_drawn=data["events_drawn"],
            event=data["event"],
            marks=_thaw(data["marks"]),
            over=data["over"],
        )


State = CircusTrainState

_set = object.__setattr__
"""Sets an attribute even of a frozen dataclass (as its generated `__init__` does)."""

_LAST_CATALOG: list[Catalog | None] = [None]
"""The catalogue last read through a state (it keeps its component set alive, so `is` is safe)."""


def _replaced(players: tuple[PlayerState, ...], seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    """`players` with the one at `seat` replaced, as list indexing reads `seat` (a negative one too)."""
    changed = list(players)
    changed[seat] = player
    return tuple(changed)


_STEPS_ONLY: list[tuple[Step, ...]] = [()]
"""The last agenda `__post_init__` found to hold nothing but steps (a tuple: immutable, and kept
alive here, so a state given the very same object need not be checked again)."""
"""The short name the engine's modules use."""


def _thaw(value: Any) -> Any:
    """JSON lists back to the lists the event markers use (no tuples inside `marks`)."""
    if isinstance(value, dict):
        return {key: _thaw(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thaw(item) for item in value]
    return value


# ---- catalogue ----------------------------------------------------------------------------


class Catalog:
    """Lookups derived once from a component set."""

    def __init__(self, components: CircusTrainComponents) -> None:
        self.components = components
        self.talent_types: dict[str, TalentType] = {t.id: t for t in components.talent_types}
        self.talent_ids: tuple[str, ...] = tuple(t.id for t in components.talent_types)
        self.animals: tuple[str, ...] = tuple(t.id for t in components.talent_types if t.is_animal)
        self.characters: dict[str, SpecialCharacter] = {c.id: c for c in components.special_characters}
        self.cities = {c.id: c for c in components.cities}
        self.city_ids: tuple[str, ...] = tuple(sorted(self.cities))
        neighbours: dict[str, set[str]] = {c: set() for c in self.cities}
        for link in components.links:
            neighbours[link.a].add(link.b)
            neighbours[link.b].add(link.a)
        self.neighbours: dict[str, tuple[str, ...]] = {c: tuple(sorted(n)) for c, n in neighbours.items()}
        self.start_cities: tuple[str, ...] = tuple(sorted(c.id for c in components.cities if c.start_city))
        self.canada: frozenset[str] = frozenset(c.id for c in components.cities if c.canada)
        self.destination_city: dict[str, str] = {d.id: d.city for d in components.destination_cards}
        self.counters = {c.id: c for c in components.local_news}
        self.months: tuple[Month, ...] = components.months
        self.week_month: tuple[int, ...] = tuple(
            index for index, month in enumerate(components.months) for _ in range(month.weeks)
        )
        self.total_weeks = len(self.week_month)
        self.seasons = {s.season: s for s in components.seasons}
        self.cards: dict[str, ActionCard] = {c.id: c for c in components.action_cards}
        self.events: dict[str, EventCard] = {e.id: e for e in components.event_cards}
        self.rep_levels: tuple[int, ...] = tuple(lv.level for lv in components.reputation.levels)
        self.rep_range: dict[int, int] = {lv.level: lv.success_on_die_at_most for lv in components.reputation.levels}

    def month_of_week(self, week: int) -> Month:
        return self.months[self.week_month[week]]

    def month_index(self, week: int) -> int:
        return self.week_month[week]

    def is_last_week_of_month(self, week: int) -> bool:
        return week + 1 >= self.total_weeks or self.week_month[week + 1] != self.week_month[week]

    def request(self, counter_id: str) -> RequestCounter:
        counter = self.counters[counter_id]
        assert isinstance(counter, RequestCounter)
        return counter

    def is_request(self, counter_id: str) -> bool:
        return isinstance(self.counters[counter_id], RequestCounter)

    def is_points(self, counter_id: str) -> bool:
        return isinstance(self.counters[counter_id], PointsCounter)

    def is_bankrupt(self, counter_id: str) -> bool:
        return isinstance(self.counters[counter_id], BankruptCounter)

    def is_character_counter(self, counter_id: str) -> bool:
        return isinstance(self.counters[counter_id], CharacterCounter)

    def season_counters(self, season: int, characters: bool) -> tuple[str, ...]:
        return sorted_tuple(
            c.id
            for c in self.components.local_news
            if c.season == season and (characters or not isinstance(c, CharacterCounter))
        )

    def card_with_effect(self, effect: str) -> tuple[str, ...]:
        return tuple(c.id for c in self.components.action_cards if c.effect == effect)

    def is_talent_type(self, item: str) -> bool:
        return item in self.talent_types


_CATALOGS: dict[int, tuple[CircusTrainComponents, Catalog]] = {}


def catalog_for(components: Any) -> Catalog:
    key = id(components)
    cached = _CATALOGS.get(key)
    if cached is not None and cached[0] is components:
        return cached[1]
    assert isinstance(components, CircusTrainComponents)
    built = Catalog(components)
    if len(_CATALOGS) > 64:
        _CATALOGS.clear()
    _CATALOGS[key] = (components, built)
    return built
