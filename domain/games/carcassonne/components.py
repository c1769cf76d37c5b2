"""The Carcassonne component set: tile types (edges and features), animal tokens, supply sizes.

Everything physical is data, so a user can load another printing (other token values, a
corrected tile) without touching the engine. The validator checks the geometric facts the
engine relies on, so a broken set is refused at load time instead of producing odd scores:
every city/road edge belongs to exactly one feature of that type, every field half-edge to
exactly one field, and no field touches a city edge.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from domain.kernel import components as kernel
from domain.kernel.components import ComponentPart, ComponentSet

EDGE_NAMES = ("N", "E", "S", "W")
HALF_EDGE_NAMES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
"""Half-edges clockwise from the north edge's western half; index // 2 is the edge index."""

TileKind = Literal["base", "circus", "acrobat"]


class CityFeature(ComponentPart):
    id: str
    type: Literal["city"]
    edges: tuple[Literal["N", "E", "S", "W"], ...] = Field(min_length=1)
    pennants: int = Field(default=0, ge=0)


class RoadFeature(ComponentPart):
    id: str
    type: Literal["road"]
    edges: tuple[Literal["N", "E", "S", "W"], ...] = Field(min_length=1, max_length=2)


class FieldFeature(ComponentPart):
    id: str
    type: Literal["field"]
    half_edges: tuple[Literal["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"], ...] = Field(min_length=1)
    cities: tuple[str, ...] = ()
    """Ids of the city features of the same tile this field borders (farmer scoring, CB-6.3)."""


class MonasteryFeature(ComponentPart):
    id: str
    type: Literal["monastery"]


TileFeature = Annotated[
    CityFeature | RoadFeature | FieldFeature | MonasteryFeature, Field(discriminator="type")
]


class TileType(ComponentPart):
    """One tile design in its reference orientation; `edges` is the N, E, S, W edge string."""

    id: str = Field(min_length=1)
    expansion: str = "base"
    kind: TileKind = "base"
    """base, circus (one circus space, BT-0.3) or acrobat (two acrobat spaces, BT-0.4)."""
    count: int = Field(ge=1)
    start_copies: int = Field(default=0, ge=0)
    edges: str = Field(pattern=r"^[CRF]{4}$")
    description: str = ""
    features: tuple[TileFeature, ...] = ()
    illustrations: tuple[str, ...] = ()
    """Small picture letter per copy ("" for none): stored, but without rules effect here
    (BT-10.2, AMB-23); other expansions may give them meaning."""
    seed_design: str = ""
    """The rules digest's design number (T01..T16) for expansion tiles (BT-10.5)."""

    @model_validator(mode="after")
    def _geometry(self) -> TileType:
        ids = [feature.id for feature in self.features]
        if len(set(ids)) != len(ids):
            raise ValueError(f"tile {self.id}: feature ids repeat")
        if self.illustrations and len(self.illustrations) != self.count:
            raise ValueError(f"tile {self.id}: one illustration entry per copy is needed")
        if self.start_copies > self.count:
            raise ValueError(f"tile {self.id}: more start copies than copies")
        cities = {f.id for f in self.features if isinstance(f, CityFeature)}
        for kind, letter in (("city", "C"), ("road", "R")):
            owners: dict[str, int] = {}
            for feature in self.features:
                if feature.type != kind:
                    continue
                for edge in feature.edges:  # type: ignore[union-attr]
                    if self.edges[EDGE_NAMES.index(edge)] != letter:
                        raise ValueError(f"tile {self.id}: {kind} {feature.id} on a non-{kind} edge {edge}")
                    owners[edge] = owners.get(edge, 0) + 1
            for index, edge in enumerate(EDGE_NAMES):
                if self.edges[index] == letter and owners.get(edge, 0) != 1:
                    raise ValueError(f"tile {self.id}: edge {edge} must belong to exactly one {kind}")
        halves: dict[str, int] = {}
        for feature in self.features:
            if isinstance(feature, FieldFeature):
                for half in feature.half_edges:
                    halves[half] = halves.get(half, 0) + 1
                unknown = [city for city in feature.cities if city not in cities]
                if unknown:
                    raise ValueError(f"tile {self.id}: field {feature.id} borders unknown city {unknown[0]}")
        for index, half_name in enumerate(HALF_EDGE_NAMES):
            edge_type = self.edges[index // 2]
            expected = 0 if edge_type == "C" else 1
            if halves.get(half_name, 0) != expected:
                raise ValueError(
                    f"tile {self.id}: half-edge {half_name} must belong to {expected} field(s) "
                    f"({'city' if edge_type == 'C' else 'field or road'} edge)"
                )
        monasteries = sum(1 for f in self.features if isinstance(f, MonasteryFeature))
        if monasteries > 1:
            raise ValueError(f"tile {self.id}: at most one monastery per tile")
        return self


class AnimalToken(ComponentPart):
    """An animal token type: its printed value per meeple (BT-1.2) and how many copies exist."""

    animal: str = Field(min_length=1)
    value: int = Field(ge=0)
    count: int = Field(ge=1)


class CarcassonneComponents(ComponentSet):
    """A full Carcassonne + Under the Big Top component set."""

    source: str = ""
    followers_per_player: int = Field(default=7, ge=1, le=20)
    """Normal meeples each player can place (CB-1.2); the ringmaster is extra (BT-2.5)."""
    start_tile: str
    tiles: tuple[TileType, ...] = Field(min_length=1)
    animal_tokens: tuple[AnimalToken, ...] = ()
    illustration_letters: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> CarcassonneComponents:
        ids = [tile.id for tile in self.tiles]
        if len(set(ids)) != len(ids):
            raise ValueError("tile ids repeat")
        starts = [tile for tile in self.tiles if tile.start_copies]
        if len(starts) != 1 or starts[0].id != self.start_tile or starts[0].start_copies != 1:
            raise ValueError(f"exactly one copy of tile {self.start_tile} must be the start tile (CB-1.1)")
        animals = [token.animal for token in self.animal_tokens]
        if len(set(animals)) != len(animals):
            raise ValueError("animal token types repeat")
        circus = sum(tile.count for tile in self.tiles if tile.kind == "circus")
        tokens = sum(token.count for token in self.animal_tokens)
        if circus and tokens < circus:
            raise ValueError(
                f"{circus} circus tiles need at least as many animal tokens, not {tokens} (BT-4.10)")
        return self

    def tile(self, tile_id: str) -> TileType:
        for tile in self.tiles:
            if tile.id == tile_id:
                return tile
        raise KeyError(tile_id)

    def token_value(self, animal: str) -> int:
        for token in self.animal_tokens:
            if token.animal == animal:
                return token.value
        raise KeyError(animal)


def load_components(data: Any) -> CarcassonneComponents:
    """Another set (a user's printing, a test's variation) from its JSON data, validated; a
    broken set raises InvalidComponentsError naming the first fault."""
    return kernel.load_components(CarcassonneComponents, data)


@cache
def default_components() -> CarcassonneComponents:
    """The shipped set: 72 base tiles, 20 Under the Big Top tiles, 16 animal tokens. Loaded once:
    the set is immutable, and one shared object lets the rotation catalog be built once too."""
    return kernel.load_packaged(CarcassonneComponents, "domain.games.carcassonne", "data/default.json")
