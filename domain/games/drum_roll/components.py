"""Drum Roll component set: resource colours, performer types, the 45 performers, 15 helpers, 30
investments, 5 regions, the ticket track, the end-game awards and the constants of the rules, as data.

Why data: the seed rulebook lost its card faces, so most card values are not known (the digest's
"Data not in the text"). Every entry keeps the reference's confidence mark (`rulebook`, `sourced`,
`filled-in`), the default set (`data/default.json`) ships the unknown values as marked fill-ins,
and a set transcribed from the real cards loads with `load_components` and no code change.

A performer level's cube requirement is a list of colours (AMB-35: one cube per level is the
recommended reading, but real card data may differ; "any" accepts every colour). Rewards are a
small vocabulary of `Effect`s (money, cube, cube_choice, investment_look, trailer, skip_wage,
cubes_for_money), to be interpreted later by one module. The data holds no floats, so the
content hash is canonical.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import Field, model_validator

from domain.kernel import components as kernel
from domain.kernel.components import ComponentPart, ComponentSet

Confidence = Literal["rulebook", "sourced", "filled-in"]

ANY = "any"
"""The "any resource" icon (AMB-35): a requirement or a gain that accepts every colour."""

EffectKind = Literal[
    "money",  # take `count` money
    "cube",  # take `count` cubes of the one colour in `colours`
    "cube_choice",  # take `count` cubes, each of a colour chosen from `colours` ("any" = all)
    "investment_look",  # look at the top `look` investment cards, keep `keep`, rest to the bottom (AMB-37)
    "trailer",  # pay `pay_money` for `count` trailers
    "skip_wage",  # pay `pay_cubes` cubes to skip `count` wages (AMB-36)
    "cubes_for_money",  # pay `pay_cubes` cubes of any colour for `count` money (AMB-39)
]


class Effect(ComponentPart):
    """One reward effect of a performer level."""

    effect: EffectKind
    count: int = Field(1, ge=0, le=20)
    colours: list[str] = []
    look: int = Field(0, ge=0, le=5)
    keep: int = Field(0, ge=0, le=5)
    pay_money: int = Field(0, ge=0, le=20)
    pay_cubes: int = Field(0, ge=0, le=5)

    @model_validator(mode="after")
    def _complete(self) -> Effect:
        if self.effect == "cube" and len(self.colours) != 1:
            raise ValueError("a cube effect names exactly one colour")
        if self.effect == "cube_choice" and not self.colours:
            raise ValueError("a cube_choice effect names the colours to choose from")
        if self.effect == "investment_look" and not 1 <= self.keep <= self.look:
            raise ValueError("an investment_look keeps between 1 and the cards looked at")
        return self


class Resource(ComponentPart):
    """A cube colour (DR-0.5) and its general supply (DR-1.6)."""

    id: str
    name: str
    supply: int = Field(ge=0)
    confidence: Confidence


class PerformerType(ComponentPart):
    """A performer type (DR-1.9) and how many cards of it the deck holds."""

    id: str
    name: str
    cards: int = Field(ge=0)
    confidence: Confidence


class Level(ComponentPart):
    """One performance level of a performer (DR-17.1): its cube requirement, reward and fame."""

    level: Literal["poor", "good", "outstanding"]
    cubes: list[str] = Field(min_length=1)
    """The colours this level needs, one cube each (AMB-35); "any" accepts any colour."""
    reward: list[Effect]
    fame: int


class Performer(ComponentPart):
    """A performer card (DR-17): cost, wage, secondary wage, flip fame and three levels."""

    id: str
    name: str
    type: str
    hire_cost: int = Field(ge=0)
    wage: int = Field(ge=0)
    secondary_wage: int = Field(ge=0)
    flip_fame: int
    levels: list[Level] = Field(min_length=3, max_length=3)
    wage_by_bizarre_count: list[int] | None = None
    """Bizarre performers: the wage with 1, 2, 3+ bizarre performers in the circus (a fill-in)."""
    flip_fame_by_bizarre_count: list[int] | None = None
    """Bizarre performers: the flip fame with 1, 2, 3+ bizarre performers (a fill-in)."""
    confidence: Confidence


class Exchange(ComponentPart):
    """An agent's or personal secretary's cube exchange (DR-19.7, DR-19.8)."""

    give: list[str] = Field(min_length=1)
    take: list[str] = Field(min_length=1)


class Helper(ComponentPart):
    """A helper card (DR-19)."""

    id: str
    name: str
    kind: Literal[
        "show_organiser", "handyman", "brass_band", "popcorn_seller", "bank_clerk", "agent", "personal_secretary"
    ]
    hire_cost: int = Field(ge=0)
    wage: int = Field(ge=0)
    exchange: Exchange | None = None
    value: int | None = None
    """Handyman: cubes placed per sharing phase; brass band: fame; popcorn seller: money."""
    coins_per_fame: int | None = None
    max_fame: int | None = None
    text: str
    confidence: Confidence


class CubeOption(ComponentPart):
    """One choice of an Extra resource card: `count` cubes of `colour` ("any" for a free choice)."""

    colour: str
    count: int = Field(ge=1)


class Investment(ComponentPart):
    """An investment card (DR-21)."""

    id: str
    name: str
    kind: Literal[
        "unlock_action",
        "trailer",
        "fire_performer",
        "trailer_bonus",
        "longer_applause",
        "helper_bonus",
        "resource_bonus",
        "extra_resource",
        "double_vote",
        "extra_income",
        "extra_income_cube",
    ]
    uses: int | None = Field(None, ge=1)
    """How many times it can be used; None: any number (DR-21.1)."""
    effect: str
    amount: int | None = None
    per: str | None = None
    performer_type: str | None = None
    per_outstanding: int | None = None
    per_poor: int | None = None
    coins: int | None = None
    pay_cubes: int | None = None
    options: list[CubeOption] = []
    fame_if_unused: int | None = None
    confidence: Confidence


class RegionBonus(ComponentPart):
    """`fame` for every `per` performers of `performer_type` (DR-15)."""

    performer_type: str
    per: int = Field(ge=1)
    fame: int


class Region(ComponentPart):
    id: str
    name: str
    bonuses: list[RegionBonus]
    confidence: Confidence


class TicketTrack(ComponentPart):
    """The money printed on each ticket space after the start (DR-5.5)."""

    spaces: list[int] = Field(min_length=1)
    confidence: Confidence


class Award(ComponentPart):
    id: str
    name: str
    condition: str
    fame: int
    confidence: Confidence


class Constants(ComponentPart):
    """The numbers of the rules that do not depend on the player count."""

    starting_money: int = Field(ge=0)  # DR-2.11
    starting_cubes: int = Field(ge=0)  # DR-2.10
    starting_draw: int = Field(ge=2)  # DR-2.9: performers drawn, one kept
    markers: int = Field(ge=1)  # DR-1.7
    pass_money: int = Field(ge=0)  # DR-5.16
    ticket_sale_per_round: int = Field(ge=1)  # DR-5.6
    investment_per_round: int = Field(ge=1)  # DR-5.9
    investment_cost: int = Field(ge=0)  # DR-5.8
    hire_per_round: int = Field(ge=1)  # DR-5.12, DR-5.14
    hand_limit: int = Field(ge=0)  # DR-21.3
    hand_limit_per_magician: int = Field(ge=0)  # DR-21.4
    placements_per_sharing: int = Field(ge=1)  # DR-8
    performances: int = Field(ge=1)  # DR-3
    rounds_min: int = Field(ge=1)
    rounds_max: int = Field(ge=1)
    discount_tokens: int = Field(ge=0)  # DR-1.2
    trailers: int = Field(ge=0)  # DR-1.2
    confidence: Confidence


class PlayerCount(ComponentPart):
    """What depends on the player count: DR-5.3, DR-2.4/DR-22.3, DR-2.5, DR-2.6/DR-22.4, DR-22.1."""

    players: int = Field(ge=2, le=4)
    cube_actions: int = Field(ge=1)
    helper_row: int = Field(ge=1)
    performer_row: int = Field(ge=1)
    type_limit: int = Field(ge=1)
    """At most this many performers of one type in the performer row."""
    neutral_region: bool
    """Two players: a third region token for an imaginary player (DR-22.1)."""
    confidence: Confidence


class DrumRollComponents(ComponentSet):
    resources: list[Resource]
    performer_types: list[PerformerType]
    performers: list[Performer]
    helpers: list[Helper]
    investments: list[Investment]
    regions: list[Region]
    ticket_track: TicketTrack
    awards: list[Award]
    constants: Constants
    player_counts: list[PlayerCount]

    @model_validator(mode="before")
    @classmethod
    def _no_floats(cls, data: Any) -> Any:
        """Integers only: a float would make the content hash depend on its printing."""
        _refuse_floats(data, "(root)")
        return data

    @model_validator(mode="after")
    def _consistent(self) -> DrumRollComponents:
        colours = [resource.id for resource in self.resources]
        types = [kind.id for kind in self.performer_types]
        _unique("resource", colours)
        _unique("performer type", types)
        cards = [card.id for card in self.performers] + [card.id for card in self.helpers]
        _unique("card", cards + [card.id for card in self.investments])
        _unique("region", [region.id for region in self.regions])
        _count("performer", len(self.performers), 45, "DR-1.5")
        _count("helper", len(self.helpers), 15, "DR-1.5")
        _count("investment", len(self.investments), 30, "DR-1.5")
        _count("region", len(self.regions), 5, "DR-1.2")
        _count("resource colour", len(colours), 5, "DR-0.5")
        known = {*colours, ANY}
        for performer in self.performers:
            if performer.type not in types:
                raise ValueError(f"performer {performer.id}: unknown type {performer.type!r}")
            if [level.level for level in performer.levels] != ["poor", "good", "outstanding"]:
                raise ValueError(f"performer {performer.id}: the levels are poor, good, outstanding (DR-0.10)")
            for level in performer.levels:
                for colour in level.cubes:
                    if colour not in known:
                        raise ValueError(f"performer {performer.id}: unknown colour {colour!r}")
                for effect in level.reward:
                    for colour in effect.colours:
                        if colour not in known:
                            raise ValueError(f"performer {performer.id}: unknown colour {colour!r}")
        for kind in self.performer_types:
            actual = sum(1 for performer in self.performers if performer.type == kind.id)
            if actual != kind.cards:
                raise ValueError(f"performer type {kind.id}: {kind.cards} cards declared, {actual} found")
        for helper in self.helpers:
            if helper.exchange is not None:
                for colour in (*helper.exchange.give, *helper.exchange.take):
                    if colour not in known:
                        raise ValueError(f"helper {helper.id}: unknown colour {colour!r}")
            if (helper.kind in ("agent", "personal_secretary")) != (helper.exchange is not None):
                raise ValueError(f"helper {helper.id}: agents and secretaries, and only they, have an exchange")
        kinds = [card.kind for card in self.investments]
        _count("Longer applause card", kinds.count("longer_applause"), 5, "DR-21.14")
        _count("Extra resource card", kinds.count("extra_resource"), 10, "DR-21.17")
        for card in self.investments:
            if card.performer_type is not None and card.performer_type not in types:
                raise ValueError(f"investment {card.id}: unknown type {card.performer_type!r}")
            for option in card.options:
                if option.colour not in known:
                    raise ValueError(f"investment {card.id}: unknown colour {option.colour!r}")
        for region in self.regions:
            for bonus in region.bonuses:
                if bonus.performer_type not in types:
                    raise ValueError(f"region {region.id}: unknown type {bonus.performer_type!r}")
        if sorted(count.players for count in self.player_counts) != [2, 3, 4]:
            raise ValueError("player counts 2, 3 and 4 each need one entry (DR-0.1)")
        for count in self.player_counts:
            if count.cube_actions > len(colours):
                raise ValueError(f"{count.players} players: more cube actions than colours (DR-5.3)")
            if count.type_limit * len(types) < count.performer_row:
                raise ValueError(f"{count.players} players: the type limit cannot fill the performer row")
        if self.constants.rounds_min > self.constants.rounds_max:
            raise ValueError("rounds_min exceeds rounds_max")
        return self

    def colours(self) -> tuple[str, ...]:
        return _index_of(self).colours

    def performer(self, card_id: str) -> Performer:
        return _index_of(self).performers[card_id]

    def helper(self, card_id: str) -> Helper:
        return _index_of(self).helpers[card_id]

    def investment(self, card_id: str) -> Investment:
        return _index_of(self).investments[card_id]

    def region(self, region_id: str) -> Region:
        return _index_of(self).regions[region_id]

    def for_players(self, players: int) -> PlayerCount:
        for count in self.player_counts:
            if count.players == players:
                return count
        raise KeyError(players)


@dataclass(frozen=True)
class _Index:
    """A component set's lookups by ID (IDs are unique: the validators refuse duplicates)."""

    colours: tuple[str, ...]
    performers: dict[str, Performer]
    helpers: dict[str, Helper]
    investments: dict[str, Investment]
    regions: dict[str, Region]


_LAST_INDEX: list[tuple[DrumRollComponents, _Index] | None] = [None]
"""The last set indexed and its index. Why: the engine looks cards up by ID many times per event
(sharing and placing check every performer and helper), and a scan of 45 performers each time was
a fifth of a replay; a match uses one set, so one entry is enough."""


def _index_of(components: DrumRollComponents) -> _Index:
    last = _LAST_INDEX[0]
    if last is not None and last[0] is components:
        return last[1]
    index = _Index(colours=tuple(resource.id for resource in components.resources),
                   performers={card.id: card for card in components.performers},
                   helpers={card.id: card for card in components.helpers},
                   investments={card.id: card for card in components.investments},
                   regions={region.id: region for region in components.regions})
    _LAST_INDEX[0] = (components, index)
    return index


def _refuse_floats(data: Any, where: str) -> None:
    if isinstance(data, float):
        raise ValueError(f"{where} is a float; the data holds integers only")
    if isinstance(data, dict):
        for key, value in data.items():
            _refuse_floats(value, f"{where}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _refuse_floats(value, f"{where}.{index}")


def _unique(what: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise ValueError(f"duplicate {what} id {item!r}")
        seen.add(item)


def _count(what: str, actual: int, wanted: int, rule: str) -> None:
    if actual != wanted:
        raise ValueError(f"{wanted} {what}s are needed ({rule}), {actual} found")


def load_components(data: Any) -> DrumRollComponents:
    """Another set (the real cards transcribed, a test's variation) from its JSON data, validated;
    a broken set raises InvalidComponentsError naming the first fault."""
    return kernel.load_components(DrumRollComponents, data)


@cache
def default_components() -> DrumRollComponents:
    """The packaged default set (loaded once; component sets are immutable)."""
    return kernel.load_packaged(DrumRollComponents, "domain.games.drum_roll", "data/default.json")
