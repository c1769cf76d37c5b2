"""The agenda: a game's pending work as a stack of typed, serialisable steps, and the machine that
runs it.

Why: a board game's flow is rounds of phases, turns within phases, actions within turns and
effects within actions, and any of them may stop to wait for a seat's decision or a chance
outcome. Written as control flow (loops, recursion) it cannot stop half-way; written as flags it
grows a flag for every place it can stop. An agenda keeps the pending work as data instead: a tuple
of steps taken head first. A step that runs pushes the steps it resolves to onto the head, so an
action's effects (and their effects) are finished before the step below them, which is the order a
table plays in. Stopping is just a step at the head that needs someone, and the state is then
complete: it encodes, hashes and resumes like any other.

A step is a JSON record `{"t": kind, ...fields}` (`Step`). Each kind has one row in the game's
table, and the row says what the step is:
- `Auto`: runs by itself (a phase starting, bookkeeping, scoring);
- `Chance`: waits for a chance outcome (its `ChanceSpec` is read from the state);
- `Choice`: waits for a move of the seat (or seats) that own it.

`Agenda(rows, ...)` is the machine over such a table. It gives a game everything the ruleset
contract asks of it at a decision: `advance`, `decision`, `legal_moves`, `validate`, `apply` and
`resolve`. It is generic over the game's state (anything `Scheduled`), pure and deterministic.

The machine also serves the shapes that Drum Roll and Russian Railroads need, as row factories
and helpers (docs/agenda.md has worked examples):
- phases and rounds as data: `program`, `each_seat`, `rounds`, `rotation`;
- composite actions whose parts the player orders (RR-5.7): `ordered` and `composite`;
- actions legal only if they can be done in full (RR-5.5): `all_or_nothing` and `Choice.whole`;
- actions placed now and resolved later in a fixed order (DR-4.4, DR-6.1): `hold`, `held`,
  `resolution`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Protocol, Self, TypeVar

from .canonical import JSON, NotCanonicalError, encode, normalize
from .contract import ChanceSpec, Decision
from .errors import IllegalMoveError

KIND = "t"
"""The key of a step record that holds its kind."""
WHOLE = "whole"
"""The kernel's own step kind: the end of an all-or-nothing action (see `all_or_nothing`)."""
PROBE_BUDGET = 10_000
"""How many positions one all-or-nothing check may visit before it is called a design error."""


class AgendaError(ValueError):
    """A step or table that cannot be right: an unknown kind, a malformed record, a table that
    names a kind twice. A programming error, never a player's."""


class Scheduled(Protocol):
    """What the machine needs of a game's state: its agenda, whether it is over, and how to make
    the same state with another agenda, or ended (the agenda ran out)."""

    @property
    def agenda(self) -> tuple[Step, ...]: ...

    @property
    def over(self) -> bool: ...

    def with_agenda(self, agenda: tuple[Step, ...]) -> Self: ...

    def ended(self) -> Self: ...


S = TypeVar("S", bound=Scheduled)
M = TypeVar("M")


# ---- steps ----------------------------------------------------------------------------------


class Step(Mapping[str, JSON]):
    """One pending piece of work: the record `{"t": kind, **fields}`, immutable.

    It reads as the mapping it is stored as (`step["t"]`, `step["seat"]`, `step.get("left")`) and
    compares equal to a dict with the same JSON. Field values are JSON (str, int, bool, None, lists,
    objects; never floats) and are frozen on the way in: lists become tuples, objects read-only
    mappings, so a step can be shared between states without anyone changing it under another.
    A nested step (say, the step an action continues with) may be kept as a `Step`."""

    __slots__ = ("_fields", "_hash", "kind")
    kind: str
    _fields: dict[str, JSON]
    _hash: int

    def __init__(self, kind: str, /, **fields: JSON) -> None:
        if not isinstance(kind, str) or not kind:
            raise AgendaError(f"a step's kind is a non-empty string, not {kind!r}")
        if KIND in fields:
            raise AgendaError(f"{KIND!r} is the step's kind, not a field")
        _set_kind(self, kind if type(kind) is str and kind.isascii() else _key(kind))  # NFC, as canonical JSON keeps it
        # `_key` and `_freeze` inlined for what most fields are (ASCII names, a seat, a flag, a step
        # or nothing): the engines make steps at every turn, several per event
        frozen: dict[str, JSON] = {}
        for key, value in fields.items():
            kind_of = type(value)
            if not (kind_of is int or kind_of is bool or value is None or kind_of is Step
                    or (kind_of is str and value.isascii())):
                value = _freeze(value)
            frozen[key if key.isascii() else _key(key)] = value
        _set_fields(self, frozen)

    @classmethod
    def _frozen(cls, kind: str, fields: dict[str, JSON]) -> Step:
        """A step of a kind and fields already as a step keeps them (read from another step):
        freezing them again would give equal values, at the cost of copying every container.
        `but` and the row factories make most steps of a match, so this is a hot path."""
        step = object.__new__(cls)
        _set_kind(step, kind)
        _set_fields(step, fields)
        return step

    @classmethod
    def of(cls, record: Mapping[str, JSON]) -> Step:
        """The step a stored record (or a step) stands for."""
        if isinstance(record, Step):
            return record
        if not isinstance(record, Mapping) or not isinstance(record.get(KIND), str):
            raise AgendaError(f"a step record is an object with a string {KIND!r}, not {record!r}")
        fields = {key: value for key, value in record.items() if key != KIND}
        if not all(isinstance(key, str) for key in fields):
            raise AgendaError(f"a step's field names are strings: {record!r}")
        return cls(record[KIND], **fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a step is immutable: use but() for a changed copy")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Step.of, (self.to_json(),))

    def __copy__(self) -> Step:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Step:
        return self

    # ---- the mapping ------------------------------------------------------------------
    def __getitem__(self, key: str) -> JSON:
        if key == KIND:
            return self.kind
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        yield KIND
        yield from self._fields

    def __len__(self) -> int:
        return 1 + len(self._fields)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Step):
            return self.kind == other.kind and self._fields == other._fields
        if isinstance(other, Mapping):
            return self.to_json() == _thaw(other)
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of its canonical JSON, computed once (a step never changes): games that key a
        search by their agenda hash the same steps again and again."""
        try:
            return self._hash
        except AttributeError:
            value = hash(encode(self.to_json()))
            object.__setattr__(self, "_hash", value)
            return value

    def __repr__(self) -> str:
        fields = "".join(f", {key}={_thaw(value)!r}" for key, value in self._fields.items())
        return f"Step({self.kind!r}{fields})"

    # ---- typed reading ----------------------------------------------------------------
    @property
    def fields(self) -> Mapping[str, JSON]:
        return MappingProxyType(self._fields)

    @property
    def seat(self) -> int | None:
        """The seat the step belongs to, when it names one (the `seat` field)."""
        seat = self._fields.get("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def but(self, **changes: JSON) -> Step:
        """The same step with some fields changed (or added)."""
        if KIND in changes:
            raise AgendaError(f"{KIND!r} is the step's kind, not a field")
        changed = {_key(key): _freeze(value) for key, value in changes.items()}
        return Step._frozen(self.kind, {**self._fields, **changed})

    def to_json(self) -> dict[str, JSON]:
        """The stored record: plain JSON, as canonical encoding and hashing take it."""
        return {KIND: self.kind, **{key: _thaw(value) for key, value in self._fields.items()}}


_set_kind = Step.kind.__set__  # type: ignore[attr-defined]
_set_fields = Step._fields.__set__  # type: ignore[attr-defined]
"""The slots' own setters: a step is immutable to everyone else (`__setattr__` refuses), and
making one through `object.__setattr__` cost twice as much as what it sets."""


def _freeze(value: Any) -> JSON:
    """A field value as a step keeps it: containers frozen, scalars as canonical JSON has them."""
    kind = type(value)
    if kind is int or kind is bool or value is None or (kind is str and value.isascii()):
        return value  # what normalize returns for them: a step's usual fields, without the walk
    if isinstance(value, Step):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, Mapping):
        return MappingProxyType({_key(key): _freeze(item) for key, item in value.items()})
    return normalize(value)  # text in NFC, an integer, a boolean or null; a float or anything else refused


def _key(key: Any) -> str:
    if type(key) is str and key.isascii():
        return key  # ASCII is NFC
    if not isinstance(key, str):
        raise NotCanonicalError(f"object keys must be strings, not {key!r}")
    return str(normalize(key))


def _thaw(value: Any) -> JSON:
    if isinstance(value, Step):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_thaw(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _thaw(item) for key, item in value.items()}
    return value


def encode_agenda(agenda: Iterable[Step]) -> list[JSON]:
    """The agenda as stored: a list of step records, head first."""
    return [step.to_json() for step in agenda]


def decode_agenda(data: Iterable[Mapping[str, JSON]]) -> tuple[Step, ...]:
    """The agenda a stored list of step records (or steps) stands for."""
    return tuple(Step.of(record) for record in data)


# ---- working on a state's agenda --------------------------------------------------------------


def push(state: S, *steps: Step) -> S:
    """`steps` onto the head of the agenda, in the order given (the first is taken next)."""
    return state.with_agenda((*steps, *state.agenda))


def pop(state: S) -> S:
    """The agenda without its head."""
    return state.with_agenda(state.agenda[1:])


def _steps_in(step: Step, field: str) -> tuple[Step, ...]:
    """The steps listed in a field of `step` (none when it is absent)."""
    items = step.get(field, ())
    if not isinstance(items, tuple):
        raise AgendaError(f"{step!r}: {field!r} is a list of steps")
    return tuple(Step.of(item) for item in items)


def hold(state: S, at: str, step: Step) -> S:
    """Place now, resolve later (DR-4.4): put `step` aside in the nearest pending step of kind `at`
    (a `resolution` row), after whatever was placed there before. Nothing happens until that step
    runs and pushes what it holds, in the fixed order its row gives."""
    agenda = state.agenda
    for index, pending in enumerate(agenda):
        if pending.kind == at:
            changed = pending.but(held=(*_steps_in(pending, "held"), step))
            return state.with_agenda((*agenda[:index], changed, *agenda[index + 1 :]))
    raise AgendaError(f"no pending {at!r} step to hold {step!r} in")


def held(state: Scheduled, at: str) -> tuple[Step, ...]:
    """What has been placed so far in the nearest pending step of kind `at`, in placement order
    (for limits such as "each cube action space once per round", DR-5.2)."""
    for pending in state.agenda:
        if pending.kind == at:
            return _steps_in(pending, "held")
    return ()


def all_or_nothing(rule: str, *steps: Step) -> tuple[Step, ...]:
    """An action that must be performed in full (RR-5.5): its steps, followed by the kernel's
    marker that ends it. Push the result. While the marker is pending, every decision above it is
    legal only if the whole action can still be finished; a choice row marked `whole` may open
    one, and the machine then refuses a move that opens an action that cannot be finished. The
    refusal cites `rule`."""
    return (*steps, Step(WHOLE, rule=rule))


def composite(kind: str, seat: int, parts: Sequence[Step], **fields: JSON) -> Step:
    """The step of an action whose parts the player orders (RR-5.7), for an `ordered` row."""
    return Step(kind, seat=seat, parts=tuple(parts), **fields)


def parts_of(step: Step) -> tuple[Step, ...]:
    """The parts still to be done of a `composite` step, in the order stored."""
    return _steps_in(step, "parts")


# ---- the table ------------------------------------------------------------------------------


def _always(state: Any, step: Step) -> bool:
    return True


def _seat_of(state: Any, step: Step) -> tuple[int, ...]:
    seat = step.seat
    if seat is None:
        raise AgendaError(f"{step!r} is a seat's decision but names no seat")
    return (seat,)


Rule = str | Callable[[Step], str]
"""A rule ID, or how to read it from the step (a die roll's rule depends on what it is for)."""


@dataclass(frozen=True)
class Auto(Generic[S]):
    """A step that runs by itself. `run` gets the state with the step already taken off the
    agenda, and returns the state after it, having pushed whatever the step resolves to."""

    kind: str
    run: Callable[[S, Step], S]


@dataclass(frozen=True)
class Chance(Generic[S]):
    """A step that waits for a chance outcome. `spec` reads what can come out (weighted) from the
    state; `None` or no outcomes means there is nothing left to draw, and the step is passed over.
    `resolve` gets the state with the step taken off, and the outcome."""

    kind: str
    spec: Callable[[S, Step], ChanceSpec | None]
    resolve: Callable[[S, Step, JSON], S]
    rule: Rule = ""
    """The rule that makes this moment chance's (cited when a seat tries to move now)."""
    prompt: str = ""


@dataclass(frozen=True)
class Choice(Generic[S, M]):
    """A step that waits for a move of the seat(s) that own it.

    - `accepts`: the move types this decision takes; any other is refused by the table's
      `out_of_step`, which can cite the rule that says when such a move is made.
    - `legal`, `validate`, `apply`: as in the ruleset contract, for this step. `apply` gets the
      state with the step taken off the agenda: it pushes what the move resolves to, including
      the step itself (changed, or as it was) when the decision is not finished.
    - `needed`: False when there is nothing to decide; then `otherwise` says what the step
      resolves to by itself (by default it is dropped: nothing to do).
    - `owners`: who decides (by default the step's `seat`); several seats decide at once, and
      `secret` keeps their moves hidden from each other until all are in.
    - `rule`: the rule that gives this decision to its owners (cited when another seat moves now).
    - `prompt`: what the decision asks, for the seat to act; `asks`: the same for refusals.
    - `whole`: a move here may open an all-or-nothing action (`all_or_nothing`); such a move is
      legal only if the action can then be done in full.
    """

    kind: str
    accepts: tuple[type, ...]
    legal: Callable[[S, int, Step], Sequence[M]]
    validate: Callable[[S, int, Step, M], None]
    apply: Callable[[S, int, Step, M], S]
    needed: Callable[[S, Step], bool] = _always
    otherwise: Callable[[S, Step], S] | None = None
    owners: Callable[[S, Step], tuple[int, ...]] = _seat_of
    rule: Rule = ""
    prompt: str = ""
    asks: str = ""
    secret: bool = False
    whole: bool = False


Row = Auto[S] | Chance[S] | Choice[S, M]


def _drop(state: S, step: Step) -> S:
    return state


class Agenda(Generic[S, M]):
    """The machine over one game's table of step kinds.

    `over_rule` is cited when a move arrives after the match ended; `out_of_step(state, seat,
    step, move, asks)` builds the refusal of a move the decision at the head does not take (`asks`
    is what that decision asks for, from its row), so that it can cite the rule saying when such a
    move may be made.
    """

    def __init__(self, rows: Iterable[Row[S, M]], *, over_rule: str,
                 out_of_step: Callable[[S, int, Step, M, str], IllegalMoveError],
                 probe_budget: int = PROBE_BUDGET, probe_key: Callable[[S], Hashable] | None = None) -> None:
        table: dict[str, Row[S, M]] = {WHOLE: Auto(WHOLE, _drop)}
        for row in rows:
            if row.kind in table:
                raise AgendaError(f"the table names the step kind {row.kind!r} twice (or it is the kernel's)")
            table[row.kind] = row
        self.rows: Mapping[str, Row[S, M]] = MappingProxyType(table)
        self._rows = table
        self._drawn: tuple[Any, ChanceSpec] | None = None
        """The last state `advance` stopped at for a chance event, with that event's outcomes
        (states are immutable values and the outcomes a function of the state: the decision asked
        of that very state next need not read them from the game again)."""
        self.over_rule = over_rule
        self.out_of_step = out_of_step
        self.probe_budget = probe_budget
        self.probe_key = probe_key
        """How the all-or-nothing search tells positions apart: a game whose decisions often reach the
        same position by different orders (two advancements of two tracks) gives one, and the search
        then never explores from a position it has already seen fail."""

    # ---- the table --------------------------------------------------------------------
    def row(self, kind: str) -> Row[S, M]:
        row = self.rows.get(kind)
        if row is None:
            raise AgendaError(f"unknown step kind {kind!r}")
        return row

    def kinds(self, mode: type) -> frozenset[str]:
        """The kinds whose rows are of this sort (`Auto`, `Chance` or `Choice`)."""
        return frozenset(kind for kind, row in self.rows.items() if isinstance(row, mode))

    def waiting_rule(self, step: Step) -> str:
        """The rule that gives the step at the head to someone else than a seat moving now."""
        row = self.row(step.kind)
        rule = row.rule if isinstance(row, (Chance, Choice)) else ""
        return rule(step) if callable(rule) else rule

    # ---- running --------------------------------------------------------------------
    def advance(self, state: S) -> S:
        """Run automatic steps until the head needs a decision or a chance outcome; a match whose
        agenda runs out is over."""
        rows = self._rows  # the loop runs at every event, several times: no method call per step for the row
        while True:
            agenda = state.agenda
            if not agenda or state.over:
                break
            step = agenda[0]
            row = rows.get(step.kind)
            if row is None:
                raise AgendaError(f"unknown step kind {step.kind!r}")
            if isinstance(row, Auto):
                state = row.run(state.with_agenda(agenda[1:]), step)
            elif isinstance(row, Chance):
                spec = row.spec(state, step)
                if spec is not None and spec.outcomes:
                    self._drawn = (state, spec)  # the decision asked next reads it, not the game again
                    return state
                state = state.with_agenda(agenda[1:])  # nothing left to draw
            elif row.needed(state, step):
                return state
            else:
                state = (row.otherwise or _drop)(state.with_agenda(agenda[1:]), step)
        if not state.agenda and not state.over:
            state = state.ended()
        return state

    def head(self, state: Scheduled) -> Step | None:
        return state.agenda[0] if state.agenda else None

    def chance(self, state: S) -> ChanceSpec | None:
        """The pending chance event, if the head waits for one."""
        step = self.head(state)
        if step is None or state.over:
            return None
        row = self.row(step.kind)
        return row.spec(state, step) if isinstance(row, Chance) else None

    def owners(self, state: S) -> tuple[int, ...]:
        """The seats whose move the head waits for (none while chance or nobody is to act)."""
        step = self.head(state)
        if step is None or state.over:
            return ()
        row = self.row(step.kind)
        return row.owners(state, step) if isinstance(row, Choice) else ()

    def decision(self, state: S) -> Decision:
        """What the match waits for, as the ruleset contract says it (after `advance`): asked after
        every step of a match."""
        agenda = state.agenda
        if not agenda or state.over:
            return Decision.finished()
        step = agenda[0]
        row = self._rows.get(step.kind) or self.row(step.kind)
        if isinstance(row, Chance):
            drawn = self._drawn
            spec = drawn[1] if drawn is not None and drawn[0] is state else row.spec(state, step)
            assert spec is not None, f"{step!r} has nothing to draw: advance() passes such steps over"
            return Decision.of_chance(spec, prompt=row.prompt or spec.kind)
        if isinstance(row, Choice):
            owners = row.owners(state, step)
            if not owners:
                raise AgendaError(f"{step!r} waits for a decision of nobody: its row's needed() should say so")
            return Decision.to_move(*owners, prompt=row.prompt or step.kind, secret=row.secret)
        raise AgendaError(f"{step!r} runs by itself: advance() before asking for the decision")

    def legal_moves(self, state: S, seat: int) -> list[M]:
        step = self.head(state)
        if step is None or state.over:
            return []
        row = self.row(step.kind)
        if not isinstance(row, Choice) or seat not in row.owners(state, step):
            return []
        moves = list(row.legal(state, seat, step))
        if row.whole or _region(state.agenda[1:]) is not None:
            moves = [move for move in moves if self._unfinishable(state, seat, step, row, move) is None]
        return moves

    def validate(self, state: S, seat: int, move: M) -> None:
        """Raise IllegalMoveError naming the rule broken, or return if `seat` may make `move` now."""
        step = self.head(state)
        if step is None or state.over:
            raise IllegalMoveError(self.over_rule, "the match is over")
        row = self.row(step.kind)
        if not isinstance(row, Choice) or seat not in row.owners(state, step):
            raise self._waiting(state, seat, step, row)
        if not isinstance(move, row.accepts):
            raise self.out_of_step(state, seat, step, move, row.asks or step.kind)
        row.validate(state, seat, step, move)
        if row.whole or _region(state.agenda, 1) is not None:
            rule = self._unfinishable(state, seat, step, row, move)
            if rule is not None:
                raise IllegalMoveError(rule, "the action could not then be carried out in full")

    def apply(self, state: S, seat: int, move: M) -> S:
        """The state after a validated move, advanced to the next decision."""
        step = self.head(state)
        assert step is not None, "no decision is pending"
        row = self.row(step.kind)
        assert isinstance(row, Choice), f"{step!r} is not a seat's decision"
        return self.advance(row.apply(pop(state), seat, step, move))

    def resolve(self, state: S, outcome: JSON) -> S:
        """The state after the pending chance event came out as `outcome`, advanced."""
        step = self.head(state)
        assert step is not None, "no chance event is pending"
        row = self.row(step.kind)
        assert isinstance(row, Chance), f"{step!r} does not wait for chance"
        return self.advance(row.resolve(pop(state), step, outcome))

    def _waiting(self, state: S, seat: int, step: Step, row: Row[S, M]) -> IllegalMoveError:
        if isinstance(row, Choice):
            owners = row.owners(state, step)
            who = f"seat {owners[0]}" if len(owners) == 1 else "seats " + ", ".join(str(s) for s in owners)
        else:
            who = "a chance outcome"
        return IllegalMoveError(self.waiting_rule(step), f"it is not seat {seat}'s decision: waiting for {who}")

    # ---- all or nothing -------------------------------------------------------------
    def can_finish(self, state: S) -> bool:
        """True when the all-or-nothing action pending on the agenda (the outermost, if they are
        nested) can still be carried out in full by some sequence of decisions; True when none is
        pending."""
        index = _region(state.agenda)
        if index is None:
            return True
        return self._finishes(state, len(state.agenda) - index - 1, [self.probe_budget], set())

    def _unfinishable(self, state: S, seat: int, step: Step, row: Choice[S, M], move: M) -> str | None:
        """The rule of the all-or-nothing action this move would leave unfinishable, if any."""
        try:
            after = row.apply(pop(state), seat, step, move)
        except IllegalMoveError as error:
            return error.rule
        index = _region(after.agenda)
        if index is None:
            return None
        rule = after.agenda[index].get("rule")
        below = len(after.agenda) - index - 1
        return None if self._finishes(after, below, [self.probe_budget], set()) else str(rule)

    def _finishes(self, state: S, below: int, budget: list[int], failed: set[Hashable]) -> bool:
        """Search the decisions inside the action for one way to finish it: True once the marker
        that ends it is at the head (with `below` steps beneath it). A chance outcome inside it
        cannot be foreseen, so reaching one counts as finished; a step that fails (a handler
        raising IllegalMoveError), a decision with no legal move, or a decision passed over for
        having nothing to do (with no `otherwise`) means this way leaves part of it undone."""
        while True:
            agenda = state.agenda
            if state.over or len(agenda) <= below or (len(agenda) == below + 1 and agenda[0].kind == WHOLE):
                return True
            budget[0] -= 1
            if budget[0] < 0:
                raise AgendaError(f"the all-or-nothing check visited more than {self.probe_budget} positions")
            step = agenda[0]
            row = self.row(step.kind)
            rest = pop(state)
            try:
                if isinstance(row, Auto):
                    state = row.run(rest, step)
                    continue
                if isinstance(row, Chance):
                    spec = row.spec(state, step)
                    if spec is not None and spec.outcomes:
                        return True
                    state = rest
                    continue
                if not row.needed(state, step):
                    if row.otherwise is None:
                        return False
                    state = row.otherwise(rest, step)
                    continue
                seat = row.owners(state, step)[0]
                moves = row.legal(state, seat, step)
            except IllegalMoveError:
                return False
            key = None if self.probe_key is None else (len(state.agenda) - below, self.probe_key(state))
            if key is not None and key in failed:
                return False
            for move in moves:
                try:
                    after = row.apply(rest, seat, step, move)
                except IllegalMoveError:
                    continue
                if self._finishes(after, below, budget, failed):
                    return True
            if key is not None:
                failed.add(key)
            return False


def _region(agenda: Sequence[Step], start: int = 0) -> int | None:
    """The position of the outermost pending all-or-nothing marker, if any (among the steps from
    `start` on, counted from there: `_region(agenda, 1)` is `_region(agenda[1:])` without the copy)."""
    for index in range(len(agenda) - 1, start - 1, -1):
        if agenda[index].kind == WHOLE:
            return index - start
    return None


# ---- phases and rounds as data --------------------------------------------------------------


def program(kind: str, phases: Sequence[str]) -> Auto[Any]:
    """A round written as data: `{"t": kind, ...fields}` pushes `{"t": phase, ...fields}` for each
    phase in order (the fields, say the round number, are carried into every phase)."""
    names = tuple(phases)

    def run(state: Any, step: Step) -> Any:
        return push(state, *(Step(name, **step.fields) for name in names))

    return Auto(kind, run)


def each_seat(kind: str, body: str, *, order: Callable[[Any, Step], Sequence[int]]) -> Auto[Any]:
    """A phase every seat plays once: `{"t": kind, ...fields}` pushes `{"t": body, "seat": s,
    ...fields}` for each seat s in `order(state, step)` (for instance clockwise from the start
    player)."""

    def run(state: Any, step: Step) -> Any:
        return push(state, *(Step(body, **{**step.fields, "seat": seat}) for seat in order(state, step)))

    return Auto(kind, run)


def rounds(kind: str, body: str, *, last: int | Callable[[Any, Step], int] | None = None,
           more: Callable[[Any, int], bool] | None = None, field: str = "round", first: int = 1) -> Auto[Any]:
    """Numbered rounds: `{"t": kind, field: r}` (r is `first` when absent) plays round r when
    r <= last and more(state, r) (either may be left out), by pushing `{"t": body, field: r,
    ...fields}` and then itself for r + 1; otherwise the rounds are over and it is dropped. `last`
    fixes the count (six or seven rounds by player count, RR-3.1); `more` decides as play goes
    (another preparation round after a vote to postpone, DR-3.4)."""

    def run(state: Any, step: Step) -> Any:
        number = step.get(field, first)
        if not isinstance(number, int):
            raise AgendaError(f"{step!r}: the round number {field!r} is an integer")
        top = last(state, step) if callable(last) else last
        if (top is not None and number > top) or (more is not None and not more(state, number)):
            return state
        return push(state, Step(body, **{**step.fields, field: number}), step.but(**{field: number + 1}))

    return Auto(kind, run)


def rotation(kind: str, turn: str, *, order: Callable[[Any, Step], Sequence[int]],
             active: Callable[[Any, int], bool]) -> Auto[Any]:
    """Turns round the table until nobody is left (RR-12.1 to RR-12.3): `{"t": kind, "at": i}`
    gives the next turn to the first seat at or after position i of `order(state, step)` (going
    round past the last position) that is still `active`, pushing `{"t": turn, "seat": s,
    ...fields}` and then itself at the position after; with no active seat left it is dropped."""

    def run(state: Any, step: Step) -> Any:
        seats = tuple(order(state, step))
        start = step.get("at", 0)
        if not isinstance(start, int):
            raise AgendaError(f"{step!r}: the position 'at' is an integer")
        for offset in range(len(seats)):
            position = (start + offset) % len(seats)
            seat = seats[position]
            if active(state, seat):
                fields = {key: value for key, value in step.fields.items() if key != "at"}
                return push(state, Step(turn, **{**fields, "seat": seat}),
                            step.but(at=(position + 1) % len(seats)))
        return state

    return Auto(kind, run)


# ---- composite actions whose parts the player orders ------------------------------------------


def _distinct(parts: Sequence[Step]) -> list[Step]:
    seen: list[Step] = []
    for part in parts:
        if part not in seen:
            seen.append(part)
    return seen


def ordered(kind: str, *, accepts: tuple[type, ...], choose: Callable[[Step], M],
            picks: Callable[[M, Step], bool], order_rule: str, rule: Rule = "", prompt: str = "",
            asks: str = "") -> Choice[Any, M]:
    """An action whose parts the player orders (RR-5.7, DR-11.2): a `composite` step lists its
    parts; the owner picks the one to do next (`choose(part)` is the move that picks it, and
    `picks(move, part)` tells which part a move picks); that part is pushed, then the step with
    the rest, so each part, with everything it triggers, is finished before the next is picked.
    When the parts left are all alike there is nothing to order and they run by themselves. A move
    that picks no part left is refused under `order_rule`. Pushed inside `all_or_nothing`, the
    action must be finished: an order after which some part could not be done is not offered, and
    refused."""

    def pick(step: Step, move: M) -> int:
        for index, part in enumerate(parts_of(step)):
            if picks(move, part):
                return index
        raise IllegalMoveError(order_rule, "that is not one of the parts of this action still to do")

    def legal(state: Any, seat: int, step: Step) -> list[M]:
        return [choose(part) for part in _distinct(parts_of(step))]

    def validate(state: Any, seat: int, step: Step, move: M) -> None:
        pick(step, move)

    def apply(state: Any, seat: int, step: Step, move: M) -> Any:
        parts = parts_of(step)
        index = pick(step, move)
        rest = parts[:index] + parts[index + 1 :]
        return push(state, parts[index], *((step.but(parts=rest),) if rest else ()))

    def needed(state: Any, step: Step) -> bool:
        return len(_distinct(parts_of(step))) > 1

    def otherwise(state: Any, step: Step) -> Any:
        return push(state, *parts_of(step))

    return Choice(kind, accepts, legal, validate, apply, needed=needed, otherwise=otherwise, rule=rule,
                  prompt=prompt, asks=asks)


# ---- placed now, resolved later -------------------------------------------------------------


def resolution(kind: str, order: Sequence[str]) -> Auto[Any]:
    """Resolution in a fixed order (DR-6.1): `{"t": kind, "held": [...]}` pushes the steps `hold`
    put aside in it, sorted by the position of their kind in `order` and, within a kind, in the
    order they were placed (the bottom of a stack first)."""
    rank = {name: position for position, name in enumerate(order)}

    def run(state: Any, step: Step) -> Any:
        placed = list(_steps_in(step, "held"))
        unknown = [item.kind for item in placed if item.kind not in rank]
        if unknown:
            raise AgendaError(f"{kind!r} resolves {', '.join(order)}, not {', '.join(sorted(set(unknown)))}")
        placed.sort(key=lambda item: rank[item.kind])  # stable: placement order within a kind
        return push(state, *placed)

    return Auto(kind, run)


__all__ = [
    "KIND",
    "WHOLE",
    "Agenda",
    "AgendaError",
    "Auto",
    "Chance",
    "Choice",
    "Row",
    "Scheduled",
    "Step",
    "all_or_nothing",
    "composite",
    "decode_agenda",
    "each_seat",
    "encode_agenda",
    "held",
    "hold",
    "ordered",
    "parts_of",
    "pop",
    "program",
    "push",
    "resolution",
    "rotation",
    "rounds",
]
