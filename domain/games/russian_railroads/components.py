"""Russian Railroads component set: railways and their special spaces, the industry track, action
spaces, engineers, locomotives and their factories, bonus tokens, face-up cards, final bonus cards,
starting bonus cards, turn-order cards and the constants of the rules, as data.

Why data: the rulebook text (the seed) lost every picture, so many values are known only from
public sources or not at all (the digest's DATA-1 to DATA-18). Each entry carries its confidence
(`rulebook`, `source`, `unverified`), the default set (`data/default.json`) ships the unknown ones
as marked fill-ins, and a set transcribed from the real components loads with `load_components`
and no code change: the engine reads every space, cost, value and effect from here.

Every action, engineer, factory, token and card is a list of `Effect`s from one small vocabulary
(advance, industry, multiplier, take, ...), which the engine's effect interpreter (`effects.py`)
turns into agenda steps. The data holds no floats, so its content hash is canonical.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import Field, model_validator

from domain.kernel import components as kernel
from domain.kernel.components import ComponentPart, ComponentSet

Confidence = Literal["rulebook", "source", "unverified"]

EffectKind = Literal[
    "advance",  # `count` track advancements of `colour` (a colour, "any" or "black_or_grey")
    "industry",  # `count` industry advancements
    "multiplier",  # place `count` multipliers on the Trans-Siberian (RR-10.2)
    "rubles",  # take `count` rubles
    "vp",  # gain `count` VP at once
    "temporary_workers",  # take the two temporary workers (RR-10.10)
    "locomotive_or_factory",  # take 1 locomotive or 1 factory (RR-7.1, RR-22.12, RR-23.2)
    "locomotive_and_factory",  # 1 locomotive and 1 factory, in the player's order (RR-7.1)
    "factory",  # take 1 factory (RR-20.6)
    "hire",  # hire the engineer on the hiring space (RR-11.5)
    "turn_order",  # claim turn-order position `count` (RR-12.7)
    "repeat",  # repeat a single-worker action used this round (RR-22.7, RR-23.4)
    "engineer",  # the action of the engineer on changing space `count` (RR-11.4)
    "vp_engineer_values",  # VP = the sum of the owned engineers' values (RR-23.1)
    "vp_two_best_locomotives",  # VP = the two best locomotives' values (RR-23.6)
    "final_bonus",  # take a final bonus card or 10 VP (RR-21.2)
    "black_worker",  # take the black worker from its card (RR-20.3)
    "engineer_and_ruble",  # take the unlettered engineer and its ruble (RR-20.4)
    "locomotive_card",  # place the locomotive lying on its card (RR-20.5)
    "again",  # do one of the card's earlier effects a second time (RR-20.2 (4))
    "token",  # gain a bonus token (RR-13.9)
    "second_industry_marker",  # RR-19.4
    "revaluation",  # RR-19.6
    "kiev_medal",  # RR-19.7
    "face_up_card",  # choose a face-up card, then a final bonus card (RR-19.8)
]


class Effect(ComponentPart):
    """One effect of an action, engineer, factory, token or card."""

    kind: EffectKind
    colour: str | None = None
    count: int = Field(1, ge=0, le=10)


class SpecialSpace(ComponentPart):
    """A special space of a player-board railway (RR-13): the track colour that must reach it, whether
    the railway's locomotives must reach it too, and what it gives."""

    space: int = Field(ge=1)
    track: str
    locomotive: bool
    benefit: Literal["tracks", "worker", "white", "token", "doubling", "star", "medal"]
    colour: str | None = None
    """For `tracks` and `white`: the colour gained (RR-6.7)."""
    vp: int = Field(0, ge=0)
    """For `star` and `medal`: the VP each scoring phase (RR-13.8, RR-19.7)."""
    rule: str
    confidence: Confidence = "rulebook"


class Railway(ComponentPart):
    id: str
    name: str
    short: str
    spaces: int = Field(ge=2, le=40)
    colours: tuple[str, ...]
    locomotive_slots: int = Field(ge=1, le=3)
    specials: tuple[SpecialSpace, ...]
    confidence: Confidence = "rulebook"


class TrackColour(ComponentPart):
    id: str
    vp: int = Field(ge=0)
    revalued_vp: int = Field(ge=0)
    """With the revaluation token (RR-19.6)."""
    per_player: int = Field(ge=0)
    confidence: Confidence = "rulebook"


class IndustrySpace(ComponentPart):
    """One place of the industry track: a space (with its printed VP, or none) or a factory gap."""

    kind: Literal["space", "gap"]
    vp: int | None = Field(None, ge=0)
    token: bool = False
    """The industrial token space (RR-13.10)."""
    confidence: Confidence = "source"
    """DATA-6: the lane's values and gaps come from public sources, not the rulebook text."""


class ActionSpace(ComponentPart):
    """A main-board action space (RR-0.7): its cost, what it gives and where it is available."""

    id: str
    name: str
    section: Literal["track", "locomotive", "industry", "auxiliary", "engineer", "turn_order", "last_round"]
    workers: int = Field(ge=0, le=5)
    """Workers required; each may be replaced by a ruble (RR-10.6)."""
    rubles: int = Field(0, ge=0, le=5)
    """Rubles required, which workers can never replace (RR-10.7)."""
    effects: tuple[Effect, ...]
    reusable: bool = False
    """The one space usable any number of times a round (RR-6.11)."""
    players: tuple[int, ...] = (2, 3, 4)
    """The player counts whose board side has this space (RR-3.6)."""
    last_round: Literal["normal", "only", "never"] = "normal"
    """The last round covers the turn-order spaces and opens its own (RR-16.1, RR-16.2)."""
    rule: str
    confidence: Confidence = "rulebook"


class Engineer(ComponentPart):
    id: str
    action: str
    deck: Literal["X", "Y", "none"]
    value: int = Field(ge=0, le=99)
    workers: int = Field(ge=0, le=3)
    rubles: int = Field(0, ge=0, le=3)
    effects: tuple[Effect, ...]
    rule: str
    confidence: Confidence = "unverified"


class FactoryBenefit(ComponentPart):
    """The factory on the back of every locomotive of one value (RR-8.1, §23)."""

    locomotive: int = Field(ge=1)
    label: str
    effects: tuple[Effect, ...]
    rule: str
    confidence: Confidence = "unverified"


class BonusToken(ComponentPart):
    id: str
    label: str
    effects: tuple[Effect, ...]
    rule: str


class FaceUpCard(ComponentPart):
    id: str
    label: str
    effects: tuple[Effect, ...]
    rule: str


class FinalBonusCard(ComponentPart):
    """A final bonus card (§21): `kind` says what it counts, `vp` per unit and `cap` the most it gives
    (0 for none); `doublers` is B6's table of (at least this many multipliers, VP)."""

    id: str
    label: str
    kind: Literal["flat", "completed_railways", "factories", "extra_workers", "black_positions",
                  "multipliers", "extra_engineer", "engineers", "locomotive_values", "tokens"]
    vp: int = Field(0, ge=0)
    cap: int = Field(0, ge=0)
    steps: tuple[tuple[int, int], ...] = ()
    rule: str
    confidence: Confidence = "rulebook"


class StartingBonusCard(ComponentPart):
    id: str
    label: str
    effects: tuple[Effect, ...]
    rule: str = "RR-18.1"


class EngineerSlot(ComponentPart):
    """One space of the engineer area, left to right (RR-11.1): which kind and which deck fills it at
    setup (None: it stays empty, RR-3.3)."""

    kind: Literal["preview", "changing", "hire"]
    deck: Literal["X", "Y"] | None


class PlayerCount(ComponentPart):
    """What changes with the number of players (RR-2, RR-3)."""

    players: int = Field(ge=2, le=4)
    rounds: int = Field(ge=1, le=12)
    workers: int = Field(ge=1)
    """Own-colour workers in the personal supply at the start."""
    reserve: int = Field(ge=0)
    rubles: int = Field(ge=0)
    locomotives_removed: int = Field(ge=0)
    """Locomotives of each value back in the box (RR-3.2, RR-3.7)."""
    engineer_slots: tuple[EngineerSlot, ...]
    own_turn_order_space: bool = False
    """RR-3.11: a player may claim the turn-order space below their own position."""
    confidence: Confidence = "rulebook"


class Constants(ComponentPart):
    multiplier_spaces: tuple[int, ...]
    """The Trans-Siberian space under each multiplier space, left to right (DATA-7)."""
    multiplier_supply: int = Field(ge=0)
    factory_slots: int = Field(ge=1)
    terminus_vp: int = Field(ge=0)
    majority_vp: tuple[int, int]
    final_bonus_vp: int = Field(ge=0)
    """The VP taken instead of a final bonus card (RR-21.2)."""
    final_bonus_removed: int = Field(ge=0)
    pass_vp: tuple[int, ...]
    """VP on the back of turn-order cards 1, 2, ... (RR-12.4, DATA-11)."""
    starting_locomotive: int = Field(ge=1)
    locomotive_card_value: int = Field(ge=1)
    """The locomotive lying on face-up card C4, which has no factory side (RR-1.2)."""
    confidence: Confidence = "source"


class RussianRailroadsComponents(ComponentSet):
    colours: tuple[TrackColour, ...]
    railways: tuple[Railway, ...]
    industry: tuple[IndustrySpace, ...]
    locomotives: dict[str, int]
    """How many locomotives of each value ("1".."9"), including the one on card C4."""
    factories: tuple[FactoryBenefit, ...]
    spaces: tuple[ActionSpace, ...]
    engineers: tuple[Engineer, ...]
    tokens: tuple[BonusToken, ...]
    face_up_cards: tuple[FaceUpCard, ...]
    final_bonus_cards: tuple[FinalBonusCard, ...]
    starting_bonus_cards: tuple[StartingBonusCard, ...]
    player_counts: tuple[PlayerCount, ...]
    constants: Constants
    provenance: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> RussianRailroadsComponents:
        colours = [c.id for c in self.colours]
        if len(set(colours)) != len(colours) or not colours:
            raise ValueError("track colours must be unique")
        known_colours = set(colours) | {"any", "black_or_grey"}
        for railway in self.railways:
            if tuple(railway.colours) != tuple(colours[: len(railway.colours)]) or not railway.colours:
                raise ValueError(f"railway {railway.id}: its colours must be the first of the colour order")
            for special in railway.specials:
                if special.space > railway.spaces or special.track not in railway.colours:
                    raise ValueError(f"railway {railway.id}: special space {special.space} is off the railway")
                if special.benefit in ("tracks", "white") and special.colour not in colours:
                    raise ValueError(f"railway {railway.id}: special space {special.space} gains no colour")
        if len({r.id for r in self.railways}) != len(self.railways):
            raise ValueError("railway ids must be unique")
        if not self.industry or self.industry[0].kind != "space" or self.industry[0].vp is None:
            raise ValueError("the industry track starts on a space with a value (RR-9.2)")
        if sum(1 for place in self.industry if place.kind == "gap") != self.constants.factory_slots:
            raise ValueError("the industry track has one gap per factory space (RR-8.8)")
        values = sorted(int(value) for value in self.locomotives)
        if values != list(range(1, len(values) + 1)):
            raise ValueError("locomotive values must be 1..N")
        if sorted(f.locomotive for f in self.factories) != values:
            raise ValueError("every locomotive value needs its factory benefit (RR-8.1)")
        ids = [s.id for s in self.spaces] + [e.id for e in self.engineers]
        if len(set(ids)) != len(ids):
            raise ValueError("action space and engineer ids must be unique")
        effects = [e for s in self.spaces for e in s.effects] + [e for g in self.engineers for e in g.effects]
        effects += [e for f in self.factories for e in f.effects] + [e for t in self.tokens for e in t.effects]
        effects += [e for c in self.face_up_cards for e in c.effects]
        effects += [e for c in self.starting_bonus_cards for e in c.effects]
        for effect in effects:
            if effect.kind == "advance" and effect.colour not in known_colours:
                raise ValueError(f"an advance names the unknown colour {effect.colour!r}")
        if sum(1 for e in self.engineers if e.deck == "none") > 1:
            raise ValueError("at most one engineer has no deck letter (RR-1.3)")
        for count in self.player_counts:
            for deck in ("X", "Y"):
                wanted = sum(1 for slot in count.engineer_slots if slot.deck == deck)
                if wanted > sum(1 for e in self.engineers if e.deck == deck):
                    raise ValueError(f"{count.players} players need {wanted} engineers of deck {deck}")
            if [slot.kind for slot in count.engineer_slots][-1:] != ["hire"]:
                raise ValueError("the hiring space is the rightmost engineer space (RR-11.1)")
            if len(self.constants.pass_vp) < count.players:
                raise ValueError(f"{count.players} players need as many turn-order cards")
        if len(self.final_bonus_cards) <= self.constants.final_bonus_removed:
            raise ValueError("more final bonus cards are removed than exist")
        return self

    # ---- lookups the engine uses ---------------------------------------------------------------
    def railway(self, railway_id: str) -> Railway:
        for railway in self.railways:
            if railway.id == railway_id:
                return railway
        raise KeyError(railway_id)

    def colour(self, colour_id: str) -> TrackColour:
        for colour in self.colours:
            if colour.id == colour_id:
                return colour
        raise KeyError(colour_id)

    def space(self, space_id: str) -> ActionSpace:
        for space in self.spaces:
            if space.id == space_id:
                return space
        raise KeyError(space_id)

    def engineer(self, engineer_id: str) -> Engineer:
        for engineer in self.engineers:
            if engineer.id == engineer_id:
                return engineer
        raise KeyError(engineer_id)

    def factory(self, locomotive: int) -> FactoryBenefit:
        for factory in self.factories:
            if factory.locomotive == locomotive:
                return factory
        raise KeyError(locomotive)

    def token(self, token_id: str) -> BonusToken:
        for token in self.tokens:
            if token.id == token_id:
                return token
        raise KeyError(token_id)

    def card(self, card_id: str) -> FaceUpCard:
        for card in self.face_up_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def bonus_card(self, card_id: str) -> FinalBonusCard:
        for card in self.final_bonus_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def starting_card(self, card_id: str) -> StartingBonusCard:
        for card in self.starting_bonus_cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def for_players(self, players: int) -> PlayerCount:
        for count in self.player_counts:
            if count.players == players:
                return count
        raise KeyError(players)


def load_components(data: Any) -> RussianRailroadsComponents:
    """Another set (the real values transcribed, a test's variation) from its JSON data, validated;
    a broken set raises InvalidComponentsError naming the first fault."""
    return kernel.load_components(RussianRailroadsComponents, data)


@cache
def default_components() -> RussianRailroadsComponents:
    """The packaged default set (loaded once; component sets are immutable)."""
    return kernel.load_packaged(RussianRailroadsComponents, "domain.games.russian_railroads", "data/default.json")
