"""Drum Roll state: immutable values and their JSON encoding.

States are frozen dataclasses whose dicts are never mutated: every change builds new values
(`evolve`), so the kernel may share states freely. The pending work is the agenda, a tuple of the
kernel's steps (`domain/kernel/agenda.py`), taken head first; each kind of step has one row in
`tasks.py`. The action markers placed this round are held inside the pending `resolve` step (the
kernel's `hold`, DR-4.4), in placement order, which is the stack order of each space (DR-6.1);
`placements()` reads them.

Decks are multisets, kept sorted: every draw is a chance event over the cards left (DR-2.2), so
no state holds an order that nobody at the table knows. The performer deck is drawn from the
bottom (DR-2.3); with a shuffled deck that is the same chance, and the chance's name says so.

Hidden parts (views.py removes them): the decks (nobody; the arbiter), each
seat's investment hand, and during the opening draft each seat's two drawn performers and its
choice (that seat alone until every seat has chosen, DR-2.9).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.agenda import Step, decode_agenda, encode_agenda, held
from domain.kernel.canonical import JSON
from domain.kernel.contract import MatchConfig
from domain.kernel.values import evolve

from .components import DrumRollComponents
from .options import DrumRollOptions

RESOLVE = "resolve"
"""The step kind that holds the round's placed markers until resolution (DR-4.4, DR-6.1)."""


@dataclass(frozen=True)
class RowCard:
    """A face-up card in the performer or helper row and the discount tokens on it (DR-7.1)."""

    card: str
    discounts: int = 0

    def to_json(self) -> list[JSON]:
        return [self.card, self.discounts]

    @classmethod
    def from_json(cls, data: Any) -> RowCard:
        card, discounts = data
        return cls(card, discounts)


@dataclass(frozen=True)
class Hired:
    """A performer in a circus: the cubes placed on each level (DR-8.3, one tuple per level, in
    the order placed), when it was flipped (DR-17.7: the performance, or None), its trailer
    (DR-20: its own, or shared from the bizarre performer named), and the level it reached in the
    latest performance it performed in (DR-11.14: 0 to 3, a flip counting as 3; None before its
    first performance), which the Perfect performance award reads after the third (DR-14.5)."""

    card: str
    cubes: tuple[tuple[str, ...], ...] = ((), (), ())
    flipped: int | None = None
    trailer: bool = False
    shares_trailer_of: str | None = None
    level: int | None = None
    performed: int | None = None
    """The performance in which `level` was reached (None: it has not performed yet)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "card": self.card,
            "cubes": [list(level) for level in self.cubes],
            "flipped": self.flipped,
            "trailer": self.trailer,
            "shares_trailer_of": self.shares_trailer_of,
            "level": self.level,
            "performed": self.performed,
        }

    @classmethod
    def from_json(cls, data: Any) -> Hired:
        return cls(
            card=data["card"],
            cubes=tuple(tuple(level) for level in data["cubes"]),
            flipped=data["flipped"],
            trailer=data["trailer"],
            shares_trailer_of=data["shares_trailer_of"],
            level=data["level"],
            performed=data["performed"],
        )


@dataclass(frozen=True)
class FameEntry:
    """One change of a player's fame, with the rule that made it and what produced it, so that the
    score sheet can say why every point is there (issue 16's score sheet; DR-0.4)."""

    points: int
    rule: str
    category: str
    """A short tag for the score sheet: "performance", "flip", "region", "award", "vote", ..."""
    detail: str = ""
    performance: int = 0
    """The performance cycle it happened in (0: setup; 1 to 3), so a sheet can be read per show."""
    refs: tuple[tuple[str, JSON], ...] = ()
    """What produced it (a card, a region, an award), as (name, value) pairs in a fixed order."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "points": self.points,
            "rule": self.rule,
            "category": self.category,
            "detail": self.detail,
            "performance": self.performance,
            "refs": {name: value for name, value in self.refs},
        }

    @classmethod
    def from_json(cls, data: Any) -> FameEntry:
        return cls(
            points=data["points"],
            rule=data["rule"],
            category=data["category"],
            detail=data["detail"],
            performance=data["performance"],
            refs=tuple((name, value) for name, value in data["refs"].items()),
        )


@dataclass(frozen=True)
class HandCard:
    """An investment card in hand and how many of its uses are spent (DR-21.6)."""

    card: str
    used: int = 0

    def to_json(self) -> list[JSON]:
        return [self.card, self.used]

    @classmethod
    def from_json(cls, data: Any) -> HandCard:
        card, used = data
        return cls(card, used)


@dataclass(frozen=True)
class Player:
    money: int
    fame: int = 0
    deposit: int = 0
    """Money locked on the bank clerk (DR-19.6)."""
    ticket: int = 0
    """Ticket cube position: 0 is the starting space, k the k-th printed space (DR-5.5)."""
    cubes: Mapping[str, int] = field(default_factory=dict)
    """The cube supply on the player board, by colour (DR-0.6)."""
    performers: tuple[Hired, ...] = ()
    helpers: tuple[str, ...] = ()
    hand: tuple[HandCard, ...] = ()
    region: str | None = None
    markers: int = 0
    """Action markers not yet placed or passed this round (DR-4.1)."""
    drawn: tuple[str, ...] = ()
    """The opening draft (DR-2.9): the performers drawn, private to this seat."""
    kept: str | None = None
    """The opening draft: the drawn performer kept, private until every seat has chosen."""
    ledger: tuple[FameEntry, ...] = ()
    """Every change of `fame`, in order: `fame` is always their sum (change both with `gain_fame`)."""
    skipped: tuple[str, ...] = ()
    """Cards of this circus whose wage is not paid in the current performance (DR-18.8, AMB-36)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "money": self.money,
            "fame": self.fame,
            "deposit": self.deposit,
            "ticket": self.ticket,
            "cubes": dict(self.cubes),
            "performers": [p.to_json() for p in self.performers],
            "helpers": list(self.helpers),
            "hand": [c.to_json() for c in self.hand],
            "region": self.region,
            "markers": self.markers,
            "drawn": list(self.drawn),
            "kept": self.kept,
            "ledger": [entry.to_json() for entry in self.ledger],
            "skipped": list(self.skipped),
        }

    @classmethod
    def from_json(cls, data: Any) -> Player:
        return cls(
            money=data["money"],
            fame=data["fame"],
            deposit=data["deposit"],
            ticket=data["ticket"],
            cubes=dict(data["cubes"]),
            performers=tuple(Hired.from_json(p) for p in data["performers"]),
            helpers=tuple(data["helpers"]),
            hand=tuple(HandCard.from_json(c) for c in data["hand"]),
            region=data["region"],
            markers=data["markers"],
            drawn=tuple(data["drawn"]),
            kept=data["kept"],
            ledger=tuple(FameEntry.from_json(entry) for entry in data["ledger"]),
            skipped=tuple(data["skipped"]),
        )


@dataclass(frozen=True)
class DrumRollState:
    config: MatchConfig[Any] = field(compare=False, repr=False)
    seats: int
    performance: int
    """The performance cycle being prepared or played, from 1 (0 during setup)."""
    round: int
    """The preparation round of this cycle, from 1 (0 during setup)."""
    start_player: int | None
    players: tuple[Player, ...]
    performer_deck: tuple[str, ...]
    helper_deck: tuple[str, ...]
    investment_deck: tuple[str, ...]
    performer_discard: tuple[str, ...]
    helper_discard: tuple[str, ...]
    investment_discard: tuple[str, ...]
    investment_bottom: tuple[str, ...]
    """Investment cards put under the deck after a look-and-keep reward (DR-18.9, AMB-37), the
    first put there first: drawn, in this order, only once the shuffled part (`investment_deck`)
    is empty."""
    performer_row: tuple[RowCard, ...]
    helper_row: tuple[RowCard, ...]
    regions: tuple[str, ...]
    """Region tokens not yet drawn (sorted); the rest are out of the game after setup (AMB-30)."""
    neutral_region: str | None
    """Two players: the imaginary third player's region (DR-22.1)."""
    cubes: Mapping[str, int]
    """The general supply's cubes, by colour (DR-0.6)."""
    discounts: int
    """Discount tokens in the general supply (DR-1.2)."""
    trailers: int
    """Trailers in the general supply (DR-1.2)."""
    votes: tuple[str | None, ...]
    """This vote's ballots, per seat: "postpone", "perform" or None (DR-10.2); private until all are in."""
    doubled: tuple[bool, ...]
    """This vote: who played a Double vote card (DR-21.18)."""
    vote_round: int
    """The round after which the last vote was held (0: none yet); the ballots stay until the next."""
    organiser_returned: int | None
    """The seat that returned the show organiser at the end of the last round (DR-19.2), or None."""
    agenda: tuple[Step, ...]
    over: bool = False

    # ---- the kernel's Scheduled protocol ------------------------------------------------------
    def with_agenda(self, agenda: tuple[Step, ...]) -> DrumRollState:
        return evolve(self, agenda=agenda)

    def ended(self) -> DrumRollState:
        return evolve(self, over=True)

    # ---- reading ----------------------------------------------------------------------------
    @property
    def components(self) -> DrumRollComponents:
        components = self.config.components
        assert isinstance(components, DrumRollComponents)
        return components

    @property
    def options(self) -> DrumRollOptions:
        options = self.config.options
        assert isinstance(options, DrumRollOptions)
        return options

    def clockwise(self, first: int | None = None) -> tuple[int, ...]:
        """Seats clockwise from `first` (by default the start player, DR-0.2)."""
        start = (self.start_player or 0) if first is None else first
        return tuple((start + offset) % self.seats for offset in range(self.seats))

    def left_of(self, seat: int) -> int:
        """The left neighbour: the next seat clockwise (DR-0.2)."""
        return (seat + 1) % self.seats

    def placements(self) -> tuple[Step, ...]:
        """The markers placed this round, in placement order (each space's stack bottom first)."""
        return held(self, RESOLVE)

    def with_player(self, seat: int, **changes: Any) -> DrumRollState:
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))

    def gain_fame(self, seat: int, points: int, rule: str, category: str, detail: str = "",
                  **refs: JSON) -> DrumRollState:
        """Change a seat's fame by `points` (negative to lose; DR-0.4: it may fall below 0) and record
        why in its ledger, which the score sheet reads. Every fame change goes through here."""
        if points == 0:
            return self
        player = self.players[seat]
        entry = FameEntry(points, rule, category, detail, self.performance, tuple(sorted(refs.items())))
        return self.with_player(seat, fame=player.fame + points, ledger=(*player.ledger, entry))

    # ---- encoding -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": self.seats,
            "performance": self.performance,
            "round": self.round,
            "start_player": self.start_player,
            "players": [p.to_json() for p in self.players],
            "performer_deck": list(self.performer_deck),
            "helper_deck": list(self.helper_deck),
            "investment_deck": list(self.investment_deck),
            "performer_discard": list(self.performer_discard),
            "helper_discard": list(self.helper_discard),
            "investment_discard": list(self.investment_discard),
            "investment_bottom": list(self.investment_bottom),
            "performer_row": [c.to_json() for c in self.performer_row],
            "helper_row": [c.to_json() for c in self.helper_row],
            "regions": list(self.regions),
            "neutral_region": self.neutral_region,
            "cubes": dict(self.cubes),
            "discounts": self.discounts,
            "trailers": self.trailers,
            "votes": list(self.votes),
            "doubled": list(self.doubled),
            "vote_round": self.vote_round,
            "organiser_returned": self.organiser_returned,
            "agenda": encode_agenda(self.agenda),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], config: MatchConfig[Any]) -> DrumRollState:
        return cls(
            config=config,
            seats=data["seats"],
            performance=data["performance"],
            round=data["round"],
            start_player=data["start_player"],
            players=tuple(Player.from_json(p) for p in data["players"]),
            performer_deck=tuple(data["performer_deck"]),
            helper_deck=tuple(data["helper_deck"]),
            investment_deck=tuple(data["investment_deck"]),
            performer_discard=tuple(data["performer_discard"]),
            helper_discard=tuple(data["helper_discard"]),
            investment_discard=tuple(data["investment_discard"]),
            investment_bottom=tuple(data["investment_bottom"]),
            performer_row=tuple(RowCard.from_json(c) for c in data["performer_row"]),
            helper_row=tuple(RowCard.from_json(c) for c in data["helper_row"]),
            regions=tuple(data["regions"]),
            neutral_region=data["neutral_region"],
            cubes=dict(data["cubes"]),
            discounts=data["discounts"],
            trailers=data["trailers"],
            votes=tuple(data["votes"]),
            doubled=tuple(data["doubled"]),
            vote_round=data["vote_round"],
            organiser_returned=data["organiser_returned"],
            agenda=decode_agenda(data["agenda"]),
            over=data["over"],
        )


State = DrumRollState
