"""The ruleset contract: the one interface through which the kernel, API, CLI and the
conformance suite use a game.

A game is a subclass of `Ruleset` that is pure: given the same state and input it returns the same
new state, with no clock, no global random and no iteration-order or float dependence. States are
treated as immutable values: `apply` and `resolve` return a new state and never mutate their input
(the kernel shares states between snapshots, caches and time-travel reads).

Randomness is never inside the engine: a die, a draw or a shuffle is a *chance decision* whose
outcome arrives as an explicit event (derived from the match seed in server mode, or entered by a
recorder), so replay never needs a random generator.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from .canonical import JSON, _text, digest, encode
from .components import ComponentSet
from .errors import InvalidOptionsError, MalformedMoveError, PositionUnavailableError
from .strict import LAZY
from .viewers import Viewer

if TYPE_CHECKING:
    from .rule_texts import RuleBook

S = TypeVar("S")
M = TypeVar("M", bound=BaseModel)

_weight = itemgetter(1)
"""An (outcome, weight) pair's weight."""

Visibility = Literal["all", "none"] | tuple[int, ...]
"""Who may see a chance outcome when it happens: everyone, nobody (face-down), or these seats."""


@dataclass(frozen=True)
class ChanceSpec:
    """A pending chance event: which kind, over which outcomes, with integer weights.

    `outcomes` lists (outcome, weight) pairs in a canonical order the engine chooses (the same on
    every machine); outcomes are JSON values. For a draw from a stack or bag, each distinct
    remaining item is an outcome weighted by how many remain, so a drawn outcome is always one
    that was still there.
    """

    kind: str
    outcomes: tuple[tuple[JSON, int], ...]
    visible_to: Visibility = "all"

    def total_weight(self) -> int:
        return sum(map(_weight, self.outcomes))

    def weight_of(self, outcome: JSON) -> int:
        """The total weight of the outcomes whose canonical encoding is `outcome`'s (raises
        NotCanonicalError when it has none). Equal encodings, not equal digests: the same test
        without hashing every remaining outcome at every draw. A text or integer outcome (a tile,
        a counter, a seat: the usual draw) is compared as canonical JSON would encode it, without
        encoding each candidate."""
        key = encode(outcome)
        if isinstance(outcome, str):
            text = _text(outcome)
            return sum(weight for candidate, weight in self.outcomes
                       if isinstance(candidate, str) and _text(candidate) == text)
        if isinstance(outcome, int) and not isinstance(outcome, bool):
            number = int(outcome)
            return sum(weight for candidate, weight in self.outcomes
                       if isinstance(candidate, int) and not isinstance(candidate, bool) and int(candidate) == number)
        return sum(weight for candidate, weight in self.outcomes if encode(candidate) == key)

    def pick(self, index: int) -> JSON:
        """The outcome at position `index` of the weighted line 0..total-1: the first whose running
        total of weights exceeds it (verification picks one per chance event of a record, over
        every remaining tile or counter, so the running totals are summed in C)."""
        position = bisect_right(list(accumulate(map(_weight, self.outcomes))), index) if index >= 0 else 0
        if position >= len(self.outcomes):
            raise IndexError("index beyond total weight")
        return self.outcomes[position][0]


@dataclass(frozen=True)
class Decision:
    """What the match waits for now: seats to move, a chance outcome, or nothing (over).

    Several seats at once means a simultaneous decision; `secret` means their choices stay hidden
    from the other seats until every one of them is in.
    """

    seats: tuple[int, ...] = ()
    chance: ChanceSpec | None = None
    secret: bool = False
    over: bool = False
    prompt: str = ""

    @classmethod
    def finished(cls) -> Decision:
        return cls(over=True, prompt="the match is over")

    @classmethod
    def to_move(cls, *seats: int, prompt: str = "", secret: bool = False) -> Decision:
        """Seats to move. An immutable value asked for after every step of a match, and a game has
        few of them (who, and what it is asked): each is made once and shared."""
        if type(secret) is not bool or type(prompt) is not str or not all(type(seat) is int for seat in seats):
            return cls(seats=tuple(seats), prompt=prompt, secret=secret)
        key = (cls, seats, prompt, secret)
        decision = _TO_MOVE.get(key)
        if decision is None:
            decision = cls(seats=seats, prompt=prompt, secret=secret)
            if len(_TO_MOVE) >= 4096:
                _TO_MOVE.clear()
            _TO_MOVE[key] = decision
        return decision

    @classmethod
    def of_chance(cls, spec: ChanceSpec, prompt: str = "") -> Decision:
        return cls(chance=spec, prompt=prompt or spec.kind)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seats": list(self.seats), "over": self.over, "prompt": self.prompt}
        if self.secret:
            data["secret"] = True
        if self.chance is not None:
            data["chance"] = {"kind": self.chance.kind}
        return data


_TO_MOVE: dict[tuple[Any, ...], Decision] = {}
"""The decisions `Decision.to_move` made, by class, seats, prompt and secrecy (a key of other
types than int seats and a bool could stand for an equal one, 1 for True: those are not shared)."""


@dataclass(frozen=True)
class PrivateChoice:
    """A move, or named fields of it, that only the seat making it (and an arbiter) may know until
    the game reveals it: a final bonus card taken face down and kept so until final scoring
    (RR-21.2), an investment card chosen from a look at the deck into a hidden hand (DR-18.9).

    Unlike a secret simultaneous choice (`Decision.secret`, revealed when the whole group has
    chosen), a private choice is made on the seat's own turn, the match goes on around it, and
    the game names when it comes out: `until` is a reveal point, and the choice is revealed at
    the first step after which `Ruleset.reveals(state)` lists it (at the latest when the match
    ends, since the seed revealed then makes every salt derivable and the record public).

    `fields` names the move's fields that are private; the rest (the move's `type`, say) is
    public, so the table knows that a card was taken but not which. None hides the whole move.
    """

    until: str
    fields: tuple[str, ...] | None = None

    def public_part(self, move: Mapping[str, Any]) -> dict[str, Any] | None:
        """What other viewers may see of the move's JSON before the reveal: the move without its
        private fields, or None when the whole move is private."""
        if self.fields is None:
            return None
        return {key: value for key, value in move.items() if key not in self.fields}


@dataclass(frozen=True)
class VariantInfo:
    """One playable variant: its seat range and what it is."""

    description: str
    min_seats: int
    max_seats: int


@dataclass(frozen=True)
class ScoreLine:
    """One scoring event: who, how many points, under which rule, and what produced it."""

    seat: int
    points: int
    category: str
    rule: str
    detail: str = ""
    refs: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "points": self.points,
            "category": self.category,
            "rule": self.rule,
            "detail": self.detail,
            "refs": dict(self.refs),
        }


@dataclass(frozen=True)
class ScoreSheet:
    """Every line that scored, so any total can be explained line by line."""

    seats: int
    lines: tuple[ScoreLine, ...] = ()

    def totals(self) -> tuple[int, ...]:
        sums = [0] * self.seats
        for line in self.lines:
            sums[line.seat] += line.points
        return tuple(sums)

    def with_lines(self, extra: Sequence[ScoreLine]) -> ScoreSheet:
        return ScoreSheet(self.seats, self.lines + tuple(extra))

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals()),
            "lines": [line.to_json() for line in self.lines],
        }


@dataclass(frozen=True)
class Result:
    """Final standing: rank per seat (1 is best; equal ranks are shared ties) and why."""

    ranks: tuple[int, ...]
    totals: tuple[int, ...]
    tiebreaks: tuple[str, ...] = ()

    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "ranks": list(self.ranks),
            "totals": list(self.totals),
            "winners": list(self.winners()),
            "tiebreaks": list(self.tiebreaks),
        }

    @classmethod
    def from_keys(cls, totals: Sequence[int], keys: Sequence[tuple[int, ...]],
                  tiebreaks: Sequence[str] = ()) -> Result:
        """Rank seats by descending key tuples (total first, then tie-breakers); equal keys share."""
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return cls(ranks=ranks, totals=tuple(totals), tiebreaks=tuple(tiebreaks))


@dataclass(frozen=True)
class MatchConfig(Generic[S]):
    """What setup needs and what a decoded state is re-linked to: the fixed facts of a match."""

    variant: str
    options: BaseModel
    seats: int
    components: ComponentSet


Bot = Callable[[Any, int, random.Random], BaseModel]
"""A bot picks a move for `seat` in `state`, drawing any randomness from the given generator."""


class Ruleset(ABC, Generic[S, M]):
    """A game's rules engine. Subclasses set the class attributes and implement the methods.

    The kernel calls only what is declared here; anything else a game has is private to it.
    """

    name: ClassVar[str]
    """Registry key, lowercase with dashes (e.g. "carcassonne")."""
    title: ClassVar[str]
    engine_version: ClassVar[str]
    """Bumped whenever a change could alter the fold of an existing record."""
    rule_prefix: ClassVar[str] = ""
    rule_texts_file: ClassVar[str] = "data/rules.json"
    """The game's rule texts, relative to the package of its ruleset class (see `rule_texts`)."""
    variants: ClassVar[Mapping[str, VariantInfo]]
    default_variant: ClassVar[str]
    options_model: ClassVar[type[BaseModel]]
    components_model: ClassVar[type[ComponentSet]]
    move_adapter: ClassVar[TypeAdapter[Any]]
    """Validates a move's JSON into the game's discriminated union of pydantic move models."""

    # ---- components, options, moves -------------------------------------------------
    @abstractmethod
    def default_components(self) -> ComponentSet:
        """The component set shipped in the game's package."""

    def option_presets(self) -> Mapping[str, Mapping[str, Any]]:
        """Named option sets worth playing (and testing): the first is the plain game. Games with
        optional rules list each one, so catalogues can offer them and the conformance suite plays
        every one of them over many seeds."""
        return {"standard": {}}

    def parse_options(self, data: Mapping[str, Any] | None) -> BaseModel:
        if data is not None and not isinstance(data, Mapping):
            raise InvalidOptionsError(f"options must be an object of named options, not {type(data).__name__}")
        try:
            return self.options_model.model_validate(dict(data or {}))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "(root)"
            raise InvalidOptionsError(f"option {where}: {first['msg']}") from None

    def parse_move(self, data: Any) -> M:
        """Turn move JSON into the game's move model, or raise a MalformedMoveError."""
        try:
            move: M = self.move_adapter.validate_python(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "(move)"
            raise MalformedMoveError(f"malformed move at {where}: {first['msg']}") from None
        return move

    def dump_move(self, move: BaseModel) -> dict[str, Any]:
        data: dict[str, Any] = move.model_dump(mode="json")
        return data

    def move_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self.move_adapter.json_schema()
        return schema

    def rule_texts(self) -> RuleBook:
        """A title and statement of every rule ID this engine can cite (in refusals, score lines,
        prompts and tie-breaks), so that a user who is shown an ID can read what it means.

        Shipped as data beside the component set (`rule_texts_file` in the ruleset's package),
        validated once and shared; a game may override this to build its texts another way."""
        from .rule_texts import load_rule_book  # here: a process that prints no rule title never loads the texts

        package = type(self).__module__.rpartition(".")[0]
        return load_rule_book(package, self.rule_texts_file)

    # ---- the fold ------------------------------------------------------------------
    @abstractmethod
    def setup(self, config: MatchConfig[S]) -> S:
        """The starting state. Deterministic: any shuffle or deal is left to chance decisions."""

    @abstractmethod
    def decision(self, state: S) -> Decision:
        """Who must act now, which chance event is pending, or that the match is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> Sequence[M]:
        """Every legal move of `seat` now (empty when the seat is not to act)."""

    @abstractmethod
    def validate(self, state: S, seat: int, move: M) -> None:
        """Raise IllegalMoveError naming the rule broken, or return if the move is legal.

        The kernel has already checked that `seat` is to act and no chance is pending.
        """

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> S:
        """The state after a validated move. Must not mutate `state`."""

    @abstractmethod
    def resolve(self, state: S, outcome: JSON) -> S:
        """The state after the pending chance event came out as `outcome`. Must not mutate."""

    # ---- reading ---------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """The state as JSON, with everything `viewer` may not know removed."""

    @abstractmethod
    def score(self, state: S) -> ScoreSheet:
        """Every scoring line so far (at the end, including final scoring)."""

    def result(self, state: S, sheet: ScoreSheet) -> Result:
        """Ranks by total; games with tie-breakers override this."""
        totals = sheet.totals()
        return Result.from_keys(totals, [(total,) for total in totals])

    def round_of(self, state: S) -> int | tuple[int, ...] | None:
        """The round `state` is in, as the game itself counts its rounds: its round counter (RR's
        round, Circus Train's week), or a tuple where rounds are counted within a larger cycle
        (Drum Roll's (performance, preparation round)); None where the game has no rounds, or
        `state` is in none yet (setup). The default: None, a game without rounds.

        The replay viewer lists the steps where a new round begins (`GET /view/{id}/log`,
        `rounds`; docs/viewer.md): a step, not taken back, whose state is in a later round than
        every step before it (an int, or a tuple compared item by item, so rounds must grow as the
        match goes on). Only those step numbers leave the server, never the value, and the value
        must be public (the same whoever looks), as a round is at the table. Pure and cheap: it is
        asked of the state after every step of a match."""
        return None

    # ---- private choices -------------------------------------------------------------
    def private_choice(self, state: S, seat: int, move: M) -> PrivateChoice | None:
        """Whether `move` by `seat` in `state` (before the move) is a private choice, and which
        part of it; None (the default) for a move every viewer may see.

        The kernel then salts the move's event (its hash cannot be matched against guesses),
        shows its private part only to the seat and the arbiter in the log, the live stream and
        a fork's prelude until the reveal point, and keeps forks and exports of the match sealed
        as for any hidden information. The game's own `view` must hide the choice's effects the
        same way (the conformance suite checks both counterfactually: another private choice
        must look the same to every other viewer until it is revealed)."""
        return None

    def reveals(self, state: S) -> Collection[str]:
        """The reveal points (`PrivateChoice.until`) reached in `state`: every private choice
        waiting for one of them is revealed by the step that led here (final scoring, RR-17.2;
        a card played from the hand). Called after each step while a choice is still private;
        a point once reached stays reached. The default names none."""
        return ()

    def looking(self, state: S) -> Collection[int]:
        """The seats looking through a face-down pile now (a final bonus deck searched for a card to
        keep, RR-21.2; an investment deck, DR-18.9). Their view and legal moves show the pile, and
        with it what hidden draws and other seats' private choices left there, as at the table;
        everyone else still sees none of it. The conformance suite lets only these seats' views
        differ with such draws and choices (from then on they know what the pile held). The default
        names none."""
        return ()

    # ---- persistence ---------------------------------------------------------------
    @abstractmethod
    def encode_state(self, state: S) -> JSON:
        """The complete state as JSON (for snapshots and the state hash)."""

    @abstractmethod
    def decode_state(self, data: JSON, config: MatchConfig[S]) -> S:
        """Inverse of encode_state; `config` gives back what encode left out (components)."""

    def state_hash(self, state: S) -> str:
        return digest(self.encode_state(state))

    # ---- undo, termination, bots ---------------------------------------------------
    def undo_barrier(self, before: S, after: S, seat: int, move: M) -> bool:
        """True when this move itself revealed hidden information (looking at a card, say), so
        that it may not be taken back without consent. Chance events and other seats' moves
        are barriers already; most games need not override this."""
        return False

    @abstractmethod
    def max_events(self, config: MatchConfig[S]) -> int:
        """An upper bound on moves plus chance events in a match, from the rulebook's limits."""

    def bots(self) -> dict[str, Bot]:
        """Named bots. Every game has at least "random" (uniform over legal moves)."""
        return {"random": self.random_bot}

    def random_bot(self, state: S, seat: int, rng: random.Random) -> M:
        moves = self.legal_moves(state, seat)
        return moves[rng.randrange(len(moves))]

    # ---- positions: a match that starts from a given table -----------------------------
    position_model: ClassVar[type[BaseModel] | None] = None
    """The game's position format (a `PositionModel`): the table as a player would describe it
    (boards, hands, supplies, whose turn, the round), documented in docs/positions.md. None: the
    game has none, and its matches start from `setup` only. Chance order is never part of a
    position: stacks, decks and bags are multisets and every draw from them stays a chance
    decision, so a match from a position is as fair as one from the setup."""

    def position_of(self, state: S) -> dict[str, Any]:
        """`state` written as a position (JSON of `position_model`), in the normal form that
        `from_position` gives back: position_of(from_position(config, p)) is p's normal form.
        Raises PositionUnavailableError where the format describes no position (mid-turn, over)."""
        raise PositionUnavailableError(f"{self.title} has no position format")

    def from_position(self, config: MatchConfig[S], position: Any) -> S:
        """The state a position describes (`position` is a validated `position_model`), checked
        against the components and the game's invariants: an InvalidPositionError names the first
        field that is inconsistent and the rule it breaks. Points already scored are one score
        line per seat (the kernel's rule POSITION, `kernel.positions.position_line`)."""
        raise PositionUnavailableError(f"{self.title} has no position format")

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The position as `viewer` may see it: what the game's `view` hides (hands, face-down
        items, the contents of stacks) replaced, as the view shows it. A game whose positions hold
        nothing hidden keeps the default; the conformance suite checks it counterfactually."""
        return position


class OptionsModel(BaseModel):
    """Base for a game's options: frozen, unknown options refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)


class MoveModel(BaseModel):
    """Base for a game's moves: frozen, unknown fields refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)


class PositionModel(BaseModel):
    """Base for a game's position format: frozen, unknown fields refused (a misspelt field must
    not be silently dropped from a table someone transcribed)."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)
