"""Circus Train component set: map, destination cards, Local News counters, talent pool,
calendar, action cards, reputation column, event cards and the rules' constants, as data.

The engine reads every piece from here and never hard-codes a city, counter or card face, so a set
transcribed from the real components loads without code changes. The default set
(`data/default.json`) is the shared component reference with its marked fill-ins; it holds no
floats (coordinates are in tenths of a degree) so that its content hash is canonical.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from domain.kernel import components as kernel
from domain.kernel.components import ComponentPart, ComponentSet


class TalentType(ComponentPart):
    id: str
    name: str
    wage: int = Field(ge=0)
    solitaire_wage: int = Field(ge=0)
    is_animal: bool
    counters: int = Field(ge=0)
    confidence: str = "rulebook"


class City(ComponentPart):
    id: str
    name: str
    region: str = ""
    country: str = ""
    canada: bool = False
    start_city: bool = False
    lat_tenths: int | None = None
    lon_tenths: int | None = None
    confidence: str = "rulebook"


class Link(ComponentPart):
    a: str
    b: str
    confidence: str = "rulebook"


class DestinationCard(ComponentPart):
    id: str
    city: str
    confidence: str = "rulebook"


class RequestCounter(ComponentPart):
    kind: Literal["performance_request"]
    id: str
    season: int
    base_points: int = Field(ge=0)
    bonuses: dict[str, int]
    two_week: bool = False
    confidence: str = "rulebook"


class BankruptCounter(ComponentPart):
    kind: Literal["bankrupt_circus"]
    id: str
    season: int
    talents: tuple[str, ...]
    confidence: str = "rulebook"


class PointsCounter(ComponentPart):
    kind: Literal["points"]
    id: str
    season: int
    victory_points: int = Field(ge=0)
    confidence: str = "rulebook"


class CharacterCounter(ComponentPart):
    kind: Literal["special_character"]
    id: str
    season: int
    character: str
    confidence: str = "rulebook"


LocalNewsCounter = Annotated[
    RequestCounter | BankruptCounter | PointsCounter | CharacterCounter, Field(discriminator="kind")
]


class SpecialCharacter(ComponentPart):
    id: str
    name: str
    enters_with_season: int
    effect: str
    power: Literal[
        "extra_move",
        "famous_clown_or_acrobat",
        "free_hire",
        "free_replay",
        "performance_bonus",
        "elephant_wage_cut",
    ]
    value: int = 0
    """Power's number: +10 for Big Bertha, $1 per Elephant for Trainer Ted."""
    confidence: str = "rulebook"


class Month(ComponentPart):
    name: str
    weeks: int = Field(ge=1)
    season: int
    long_month: bool


class Season(ComponentPart):
    season: int
    performance_money: int
    special_hire_cost: int
    local_news_quota: int


CardEffect = Literal[
    "move",
    "move_then_perform_hire",
    "basic_transit",
    "hold",
    "move_then_special_hire",
    "move_then_wages",
    "rest",
]


class ActionCard(ComponentPart):
    id: str
    name: str
    copies: int = Field(ge=1)
    move_max: int = Field(ge=0)
    effect: CardEffect
    advanced_only: bool = False
    min_players: int = 1
    rule: str = "CT-7.2"
    """The rule ID describing this card, cited when its play is refused."""
    confidence: str = "rulebook"


class ReputationLevel(ComponentPart):
    level: int
    success_on_die_at_most: int


class ReputationColumn(ComponentPart):
    levels: tuple[ReputationLevel, ...]
    start_level: int
    min_level_for_most_money: int
    confidence: str = "filled-in"


EffectType = Literal[
    "wage_modifier",
    "performance_money_bonus",
    "block_links",
    "block_city",
    "performance_penalty_at_cities",
    "talent_bonus_modifier",
    "talent_bonus_zero",
    "money_loss",
    "money_gain",
    "return_talent",
    "talent_loss_roll",
    "vp_gain",
    "movement_modifier",
    "place_talents",
    "special_hire_cost_multiplier",
    "hire_roll_modifier",
    "canada_penalty",
    "money_per_performance",
    "pay_per_talent_or_lose",
]


class EventEffect(ComponentPart):
    type: EffectType
    talents: tuple[str, ...] = ()
    talent: str | None = None
    delta: int = 0
    amount: int = 0
    count: int = 0
    chooser: str | None = None
    target: str | None = None
    threshold: int = 0
    floor: int = 0
    cards: tuple[str, ...] = ()
    """Card ids a movement modifier touches; empty means every card."""
    cities: int = 0
    numerator: int = 1
    denominator: int = 1
    fail_on: tuple[int, ...] = ()
    reputation: int = 0
    money: int = 0
    per: int = 0
    cap: int = 0


class EventCard(ComponentPart):
    id: str
    name: str
    text: str
    effect: EventEffect
    support_markers: int = 0
    min_players: int = 1
    confidence: str = "filled-in"


class FinalAwards(ComponentPart):
    most_clowns: int = 5
    no_clowns: int = -3
    missing_animal_type: int = -5
    most_money: int = 5
    most_performances: int = 5
    highest_reputation_advanced: int = 5
    tie_share: int = 2
    two_player_tax_vp: int = -3


class SuccessBand(ComponentPart):
    low: int
    high: int | None
    result: str


class Constants(ComponentPart):
    starting_clowns: int = 1
    starting_picks: int = 2
    starting_pick_types: tuple[str, ...] = ("acrobat", "freak", "horse")
    starting_money: int = 0
    vp_start: int = 0
    best_performance_start: int = 10
    initial_cities_with_counters: int = 8
    hire_success_at_most: int = 4
    buy_after_failed_hire: int = 10
    steal_success_at_most: int = 4
    claim_success_at_most: int = 4
    steal_max_talents: int = 2
    famous_threshold: int = 3
    famous_multiplier: int = 2
    best_performance_raise_money: int = 10
    month_end_best_performance_vp: tuple[int, ...] = (7, 4, 2)
    two_player_best_performance_vp: tuple[int, ...] = (4,)
    tie_for_third_vp: int = 1
    april_performed_vp: int = 5
    most_talent_min_counters: int = 2
    final: FinalAwards = FinalAwards()
    replay_reputation_cost: int = 2
    replay_vp_cost: int = 4
    replay_vp_cost_months: tuple[str, ...] = ("August", "September")
    pocket_bill: int = 5
    pocket_months: tuple[str, ...] = ("April", "May", "June", "July")
    wage_removal_reputation_cost: int = 1
    wage_removal_vp_cost: int = 3
    wage_removal_vp_months: tuple[str, ...] = ("August", "September")
    parade_cost: int = 10
    parade_vp: int = 2
    parade_reputation: int = 1
    rest_reputation: int = 1
    rest_talents: tuple[str, ...] = ("clown", "acrobat")
    solitaire_money_per_point: int = 1
    solitaire_money_per_vp: int = 5
    solitaire_replay_cost: int = 20
    solitaire_success_table: tuple[SuccessBand, ...] = ()
    event_cards_per_game: int = 5


class CircusTrainComponents(ComponentSet):
    """The whole component set of Circus Train (second edition)."""

    talent_types: tuple[TalentType, ...]
    cities: tuple[City, ...]
    links: tuple[Link, ...]
    destination_cards: tuple[DestinationCard, ...]
    local_news: tuple[LocalNewsCounter, ...]
    special_characters: tuple[SpecialCharacter, ...]
    months: tuple[Month, ...]
    seasons: tuple[Season, ...]
    action_cards: tuple[ActionCard, ...]
    reputation: ReputationColumn
    event_cards: tuple[EventCard, ...]
    constants: Constants
    provenance: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> CircusTrainComponents:
        talents = {t.id for t in self.talent_types}
        cities = {c.id for c in self.cities}
        characters = {c.id for c in self.special_characters}
        if len(talents) != len(self.talent_types) or len(cities) != len(self.cities):
            raise ValueError("talent and city ids must be unique")
        for link in self.links:
            if link.a not in cities or link.b not in cities or link.a == link.b:
                raise ValueError(f"link {link.a}-{link.b} names an unknown city")
        for card in self.destination_cards:
            if card.city not in cities:
                raise ValueError(f"destination card {card.id} names an unknown city")
        seasons = {s.season for s in self.seasons}
        ids: set[str] = set()
        for counter in self.local_news:
            if counter.id in ids:
                raise ValueError(f"local news id {counter.id} repeated")
            ids.add(counter.id)
            if counter.season not in seasons:
                raise ValueError(f"counter {counter.id} has an unknown season")
            if isinstance(counter, RequestCounter) and not set(counter.bonuses) <= talents:
                raise ValueError(f"request {counter.id} names an unknown talent")
            if isinstance(counter, BankruptCounter) and not set(counter.talents) <= talents:
                raise ValueError(f"bankrupt circus {counter.id} names an unknown talent")
            if isinstance(counter, CharacterCounter) and counter.character not in characters:
                raise ValueError(f"counter {counter.id} names an unknown character")
        for month in self.months:
            if month.season not in seasons:
                raise ValueError(f"month {month.name} has an unknown season")
        if not any(c.start_city for c in self.cities):
            raise ValueError("the map needs at least one start city")
        if not self.destination_cards:
            raise ValueError("there must be destination cards")
        levels = [lv.level for lv in self.reputation.levels]
        if levels != sorted(levels) or self.reputation.start_level not in levels:
            raise ValueError("reputation levels must ascend and contain the start level")
        if not set(self.constants.starting_pick_types) <= talents or "clown" not in talents:
            raise ValueError("starting talents must be talent types (and clown must exist)")
        return self


def load_components(data: Any) -> CircusTrainComponents:
    """Another set (the real faces transcribed, a test's variation) from its JSON data, validated; a
    broken set raises InvalidComponentsError naming the first fault."""
    return kernel.load_components(CircusTrainComponents, data)


@cache
def default_components() -> CircusTrainComponents:
    """The packaged default set (loaded once; component sets are immutable)."""
    return kernel.load_packaged(CircusTrainComponents, "domain.games.circus_train", "data/default.json")
