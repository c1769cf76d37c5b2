"""Russian Railroads state: immutable values and their JSON encoding.

States are frozen dataclasses whose dict fields are never mutated: every change builds new values
(`evolve`, the kernel's cheaper `dataclasses.replace`), so the kernel may share states freely. The
pending work of the match is its agenda, a tuple of the kernel's steps (`domain/kernel/agenda.py`),
taken head first; each kind of step has one row in the table (`tasks.py`).

Hidden parts (views.py removes them): each seat's final bonus cards (that seat alone until final
scoring), the final bonus deck and the two cards removed unseen at setup (the arbiter only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.agenda import Step, decode_agenda, encode_agenda
from domain.kernel.canonical import JSON
from domain.kernel.contract import MatchConfig, ScoreLine
from domain.kernel.values import evolve

from .components import RussianRailroadsComponents
from .options import RussianRailroadsOptions


@dataclass(frozen=True)
class Placement:
    """What a seat put on an action space this round (RR-5.2): own-colour workers, temporary
    workers, the black worker and rubles. `space` is a board space id or, for a seat's own hired
    engineer (RR-11.6), the engineer's id."""

    space: str
    seat: int
    workers: int = 0
    temporary: int = 0
    black: int = 0
    rubles: int = 0

    @property
    def items(self) -> int:
        return self.workers + self.temporary + self.black + self.rubles

    def to_json(self) -> list[JSON]:
        return [self.space, self.seat, self.workers, self.temporary, self.black, self.rubles]

    @classmethod
    def from_json(cls, data: Any) -> Placement:
        space, seat, workers, temporary, black, rubles = data
        return cls(space, seat, workers, temporary, black, rubles)


@dataclass(frozen=True)
class Player:
    tracks: Mapping[str, Mapping[str, int]]
    """railway -> colour -> position of the seat's track marker there (0: acquired, beside the
    railway, RR-0.3). Only colours the seat owns appear."""
    locomotives: Mapping[str, tuple[int, ...]]
    """railway -> the values of the locomotives in its slots (RR-7.3)."""
    factories: tuple[int | None, ...]
    """The factory in each gap of the industry track, as its locomotive's value (RR-8.4)."""
    markers: tuple[int, ...]
    """Industry marker positions on the track (index into the lane); two after token T3."""
    multipliers: int
    """Multipliers placed, filling the multiplier spaces from the left (RR-10.2)."""
    workers: int
    """Own-colour workers in the personal supply (RR-0.8)."""
    reserve: int
    gained_workers: int
    """Own-colour workers gained from the reserve (RR-13.5, RR-13.6; final bonus B4)."""
    temporary: int
    black_worker: bool
    """Owns the black worker (face-up card C2)."""
    black_in_supply: bool
    rubles: int
    engineers: tuple[str, ...]
    """Engineers owned: hired and the C3 engineer, in the order gained."""
    tokens: tuple[str, ...]
    """Bonus tokens used (placed on token spaces), in the order used."""
    claimed: tuple[str, ...]
    """One-time special spaces already gained: "railway:space", and "industry" for the token
    space of the industry track (RR-13.1, RR-13.10)."""
    revalued: bool
    medal: bool
    bonus_cards: tuple[str, ...]
    """Final bonus cards taken face down (hidden from the other seats until final scoring)."""
    passed: bool

    def position(self, railway: str, colour: str) -> int | None:
        return self.tracks.get(railway, {}).get(colour)

    def reach(self, railway: str) -> int:
        """RR-0.6: the sum of the railway's locomotive values (0 without one)."""
        return sum(self.locomotives.get(railway, ()))

    def key(self) -> tuple[Any, ...]:
        """The player as a hashable value (the all-or-nothing search's position key)."""
        return (
            tuple((r, tuple(c.items())) for r, c in self.tracks.items()), tuple(self.locomotives.items()),
            self.factories, self.markers, self.multipliers, self.workers, self.reserve, self.temporary,
            self.black_worker, self.black_in_supply, self.rubles, self.engineers, self.tokens, self.claimed,
            self.revalued, self.medal, self.bonus_cards, self.passed,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "tracks": {r: dict(c) for r, c in self.tracks.items()},
            "locomotives": {r: list(v) for r, v in self.locomotives.items()},
            "factories": list(self.factories),
            "markers": list(self.markers),
            "multipliers": self.multipliers,
            "workers": self.workers,
            "reserve": self.reserve,
            "gained_workers": self.gained_workers,
            "temporary": self.temporary,
            "black_worker": self.black_worker,
            "black_in_supply": self.black_in_supply,
            "rubles": self.rubles,
            "engineers": list(self.engineers),
            "tokens": list(self.tokens),
            "claimed": list(self.claimed),
            "revalued": self.revalued,
            "medal": self.medal,
            "bonus_cards": list(self.bonus_cards),
            "passed": self.passed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            tracks={r: dict(c) for r, c in data["tracks"].items()},
            locomotives={r: tuple(v) for r, v in data["locomotives"].items()},
            factories=tuple(data["factories"]),
            markers=tuple(data["markers"]),
            multipliers=data["multipliers"],
            workers=data["workers"],
            reserve=data["reserve"],
            gained_workers=data["gained_workers"],
            temporary=data["temporary"],
            black_worker=data["black_worker"],
            black_in_supply=data["black_in_supply"],
            rubles=data["rubles"],
            engineers=tuple(data["engineers"]),
            tokens=tuple(data["tokens"]),
            claimed=tuple(data["claimed"]),
            revalued=data["revalued"],
            medal=data["medal"],
            bonus_cards=tuple(data["bonus_cards"]),
            passed=data["passed"],
        )


def line_to_json(line: ScoreLine) -> list[JSON]:
    return [line.seat, line.points, line.category, line.rule, line.detail, dict(line.refs)]


def line_from_json(data: Any) -> ScoreLine:
    seat, points, category, rule, detail, refs = data
    return ScoreLine(seat, points, category, rule, detail, refs)


@dataclass(frozen=True)
class RussianRailroadsState:
    config: MatchConfig[Any] = field(compare=False, repr=False)
    seats: int
    round: int
    """The round being played, from 1 (0 during setup)."""
    positions: tuple[int, ...]
    """Each seat's place in turn order, 1 first (0: no turn-order card dealt yet, RR-2.18)."""
    players: tuple[Player, ...]
    placements: tuple[Placement, ...]
    """Everything on the action spaces this round, in the order placed."""
    stacks: Mapping[str, int]
    """Locomotives left in the supply, by value ("2".."9")."""
    pool: tuple[int, ...]
    """The face-up factory pool, as locomotive values, sorted (RR-7.7, RR-8.5)."""
    strip: tuple[str | None, ...]
    """The engineer on each space of the engineer area, left to right (RR-11.1)."""
    multipliers_left: int
    face_up: tuple[str, ...]
    """Face-up cards still in play (RR-20.1)."""
    bonus_deck: tuple[str, ...]
    """The final bonus deck, sorted: players look through it, so its order never matters."""
    removed_bonus: tuple[str, ...]
    """The final bonus cards removed unseen at setup (RR-2.3): nobody may know them."""
    starting_cards: tuple[str, ...]
    """Starting bonus cards not yet drafted (RR-2.20)."""
    decks: Mapping[str, tuple[str, ...]]
    """Engineers of decks X and Y not yet placed (setup only; the rest leave the game)."""
    lines: tuple[ScoreLine, ...]
    """Every VP gained so far, with its rule (the score sheet)."""
    agenda: tuple[Step, ...]
    over: bool = False

    # ---- the kernel's Scheduled protocol ------------------------------------------------------
    def with_agenda(self, agenda: tuple[Step, ...]) -> RussianRailroadsState:
        return evolve(self, agenda=agenda)

    def ended(self) -> RussianRailroadsState:
        return evolve(self, over=True)

    # ---- reading ----------------------------------------------------------------------------
    @property
    def components(self) -> RussianRailroadsComponents:
        components = self.config.components
        assert isinstance(components, RussianRailroadsComponents)
        return components

    @property
    def options(self) -> RussianRailroadsOptions:
        options = self.config.options
        assert isinstance(options, RussianRailroadsOptions)
        return options

    @property
    def rounds(self) -> int:
        return self.components.for_players(self.seats).rounds

    @property
    def last_round(self) -> bool:
        return self.round == self.rounds

    def order(self) -> tuple[int, ...]:
        """Seats in turn order, position 1 first (RR-12.1)."""
        return tuple(sorted(range(self.seats), key=lambda seat: self.positions[seat]))

    def occupied(self, space: str) -> bool:
        return any(p.space == space for p in self.placements)

    def with_player(self, seat: int, **changes: Any) -> RussianRailroadsState:
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))

    def with_line(self, line: ScoreLine) -> RussianRailroadsState:
        return evolve(self, lines=(*self.lines, line))

    # ---- encoding -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": self.seats,
            "round": self.round,
            "positions": list(self.positions),
            "players": [p.to_json() for p in self.players],
            "placements": [p.to_json() for p in self.placements],
            "stacks": dict(self.stacks),
            "pool": list(self.pool),
            "strip": list(self.strip),
            "multipliers_left": self.multipliers_left,
            "face_up": list(self.face_up),
            "bonus_deck": list(self.bonus_deck),
            "removed_bonus": list(self.removed_bonus),
            "starting_cards": list(self.starting_cards),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "lines": [line_to_json(line) for line in self.lines],
            "agenda": encode_agenda(self.agenda),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], config: MatchConfig[Any]) -> RussianRailroadsState:
        return cls(
            config=config,
            seats=data["seats"],
            round=data["round"],
            positions=tuple(data["positions"]),
            players=tuple(Player.from_json(p) for p in data["players"]),
            placements=tuple(Placement.from_json(p) for p in data["placements"]),
            stacks=dict(data["stacks"]),
            pool=tuple(data["pool"]),
            strip=tuple(data["strip"]),
            multipliers_left=data["multipliers_left"],
            face_up=tuple(data["face_up"]),
            bonus_deck=tuple(data["bonus_deck"]),
            removed_bonus=tuple(data["removed_bonus"]),
            starting_cards=tuple(data["starting_cards"]),
            decks={k: tuple(v) for k, v in data["decks"].items()},
            lines=tuple(line_from_json(line) for line in data["lines"]),
            agenda=decode_agenda(data["agenda"]),
            over=data["over"],
        )


State = RussianRailroadsState
