"""The fold: a match's record, consumed entry by entry, gives its state and all derived facts.

`MatchFold` is plain Python with no storage: the eventsourcing aggregate wraps one, verification
runs one over a bundle in strict mode, and time travel is a fold of a prefix. Everything a command
must check before appending (whose turn, legality, undo barriers) is asked of the fold, so the
live path and the verifier apply literally the same rules. The record's own rules have one home
each, which both call with the fold: the undo protocol in `undo.py`, rulings in `rulings.py`, the
created event's header in `header.py`, every payload's type in `payloads.py`.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from .canonical import JSON, NotCanonicalError, digest
from .chance import entropy_problem
from .contract import Decision, MatchConfig, Result, Ruleset, ScoreLine, ScoreSheet
from .errors import (
    ChancePendingError,
    EngineVersionError,
    EntropyRefusedError,
    ImpossibleOutcomeError,
    InvalidRequestError,
    MatchOverError,
    NotYourTurnError,
)
from .packed_map import PackedEntries, PackedMap, by_key, copy_map
from .positions import start_state
from .record import (
    CHANCE,
    CREATED,
    ENDED,
    ENTROPY_ADDED,
    KEY_ROTATED,
    MOVE,
    REDONE,
    RETRACTED,
    RULING,
    SEED_REVEALED,
    UNDO_ANSWERED,
    UNDO_REQUESTED,
    Entry,
)
from .registry import get_game
from .steps import GameStep as GameStep  # re-exported: where it was read from before steps.py
from .steps import StepLog, checkpoints_dropped, pack, snapshot_checkpoints, unpack
from .undo import UNDO_POLICIES as UNDO_POLICIES  # re-exported: where it was read from before undo.py
from .undo import UndoRequest, within_barrier
from .values import evolve
from .viewers import Viewer


class MatchFold:
    """The derived state of one match after the entries consumed so far."""

    def __init__(self, created: Entry) -> None:
        if created.kind != CREATED or created.seq != 1:
            raise ValueError("a match record starts with its created event at seq 1")
        header = created.payload
        self.match_id: str = created.stream
        self.header: dict[str, Any] = header
        self.ruleset: Ruleset[Any, Any] = get_game(header["game"])
        options = self.ruleset.parse_options(header["options"])
        self.config: MatchConfig[Any] = MatchConfig(
            variant=header["variant"], options=options, seats=len(header["seats"]),
            components=_components_for(self.ruleset, header),
        )
        self.seq = 1
        self.head = created.hash
        self.steps: StepLog = StepLog()
        self._states: dict[int, Any] = {}
        """Checkpoints: the game state after the prelude and the first n steps, by n (`steps.py`
        says which are kept); a value restored from a snapshot is its JSON text until used."""
        self.recorded_engine: str = header["engine_version"]
        self.created_key: str = created.key
        """The key that signed the created event: the server where this match is recorded."""
        self.signing_keys: set[str] = {created.key}
        self.record_keys: list[str] = [created.key]
        """The keys the record authorised in turn: the created event's, then each key-rotated one."""
        self.retracted: MutableMapping[int, int] = {}
        self.retractions: dict[int, dict[str, Any]] = {}
        """The last retraction, with the steps it took back: a redo puts back only the last change
        (the redo candidate, while nothing else happened since), so no earlier one is read again."""
        self.redo_candidate: int | None = None
        self.last_ruling_seq = 0
        self.last_ruling: dict[str, Any] = {}
        self.secret_reveal: MutableMapping[int, int | None] = {}
        self.secret_pending: dict[int, int] = {}
        self.hidden_chance: MutableMapping[int, JSON] = {}
        self.private: dict[int, dict[str, Any]] = {}
        """Private choices by seq (`Ruleset.private_choice`): the seat, the reveal point it waits
        for (`until`), its private `fields` (None: the whole move) and the seq that `revealed` it."""
        self.undo: MutableMapping[str, UndoRequest] = {}
        self._open_undo: set[str] = set()
        """The requests still pending, which the next change of the game makes stale."""
        self._unrevealed: set[int] = set()
        """The effective private choices not revealed yet (of `private`): a retracted one leaves it
        (it stays hidden for good, as a retracted secret vote does) and a redone one comes back."""
        self.seed: str | None = None
        self.seat_entropy: dict[int, str] = {}
        """Entropy each seat added after creation (policy entropy_from "seats"), by seat."""
        self.first_chance_seq: int | None = None
        """The first chance event of this record: seat entropy is taken only before it."""
        # a fork starts with its parent's penalties (their `seq` is the parent's ruling)
        self.penalties: list[dict[str, Any]] = [dict(p) for p in header.get("penalties", [])]
        self.status = "active"
        self.end: dict[str, Any] | None = None
        self.last_at = created.at
        self.created_at = created.at
        self.state: Any = self._prelude_state()
        self.decision: Decision = self.ruleset.decision(self.state)
        self._states[0] = self.state

    # ---- reading -------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return self.config.seats

    @property
    def randomness(self) -> str:
        return str(self.header["randomness"])

    @property
    def undo_policy(self) -> str:
        return str(self.header["undo_policy"])

    @property
    def entropy_from(self) -> str | None:
        """"seats" when every seat adds entropy before the first draw; None (older records too)
        when the entropy given at creation is all."""
        value = self.header.get("entropy_from")
        return None if value is None else str(value)

    @property
    def entropy(self) -> list[str]:
        """What server-drawn outcomes derive from besides the seed: the creation-time entropy,
        then each seat's added entropy in seat order (so the order in which they arrived, which
        the server could influence, changes nothing). Without seat entropy: the creation list."""
        creation = list(self.header["entropy"])
        if not self.seat_entropy:
            return creation
        return [*creation, *(self.seat_entropy[seat] for seat in sorted(self.seat_entropy))]

    @property
    def awaiting_entropy(self) -> list[int]:
        """The seats whose entropy is still missing while the match may take it (policy "seats",
        active, before the first draw): no chance outcome is drawn until this is empty."""
        if self.entropy_from != "seats" or self.first_chance_seq is not None or self.status != "active":
            return []
        return [seat for seat in range(self.seats) if seat not in self.seat_entropy]

    _sheet: tuple[Any, list[dict[str, Any]], ScoreSheet] | None = None
    """The last score sheet, with the game state and the penalties it was scored from."""

    def score_sheet(self) -> ScoreSheet:
        """The rules engine's score of the current state, with the penalties ruled: computed once
        per state and penalties (the result is scored from the same sheet, and an ended event
        records both)."""
        cached = self._sheet
        if cached is not None and cached[0] is self.state and cached[1] == self.penalties:
            return cached[2]
        sheet = self.ruleset.score(self.state)
        extra = [ScoreLine(p["seat"], -p["points"], "penalty", "RULING", p.get("reason", ""),
                           {"ruling_seq": p["seq"]}) for p in self.penalties]
        sheet = sheet.with_lines(extra)
        self._sheet = (self.state, [dict(p) for p in self.penalties], sheet)
        return sheet

    _game_hash: tuple[Any, str] | None = None
    """The last game state hashed and its hash (`game_state_hash`)."""

    def game_state_hash(self) -> str:
        """The rules engine's hash of the current game state, computed once per state: verification
        asks it of the final state twice (the ended event's claim, then the report), and each is a
        canonical encoding of the whole state."""
        cached = self._game_hash
        if cached is None or cached[0] is not self.state:
            cached = self._game_hash = (self.state, self.ruleset.state_hash(self.state))
        return cached[1]

    def state_hash(self) -> str:
        return digest({"game": self.game_state_hash(), "status": self.status})

    @property
    def record_key(self) -> str:
        """The key that must sign the record's next event."""
        return self.record_keys[-1]

    @property
    def engine_mismatch(self) -> bool:
        """True when the record was made under another version of the rules engine."""
        return self.recorded_engine != self.ruleset.engine_version

    # ---- checks shared by commands and verification -------------------------------------
    def check_engine(self) -> None:
        if self.engine_mismatch:
            raise EngineVersionError(
                f"this match was recorded under {self.ruleset.name} engine {self.recorded_engine} and this "
                f"server runs {self.ruleset.engine_version}: nothing can be appended; replaying it under "
                "another version is an explicit choice (verify with --allow-engine-mismatch)",
                recorded=self.recorded_engine, running=self.ruleset.engine_version)

    def check_active(self) -> None:
        if self.status != "active":
            raise MatchOverError("the match is over: nothing more can be played")

    def check_move(self, seat: int, move_json: Any) -> Any:
        """Parse and validate a seat's move against the current state; return the parsed move."""
        self.check_active()
        if self.decision.chance is not None:
            missing = self.awaiting_entropy
            after = f", drawn once seats {missing} have added their entropy" if missing else ""
            raise ChancePendingError(f"waiting for a chance outcome ({self.decision.chance.kind}){after}, not a move")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise NotYourTurnError(f"there is no seat {seat!r} in this match")
        if seat not in self.decision.seats:
            waiting = ", ".join(str(s) for s in self.decision.seats) or "nobody"
            raise NotYourTurnError(f"seat {seat} is not to act now (waiting for seat {waiting})")
        move = self.ruleset.parse_move(move_json)
        self.ruleset.validate(self.state, seat, move)
        self._checked = (self.state, seat, move_json, move)
        return move

    _checked: tuple[Any, int, Any, Any] | None = None
    """The last move `check_move` passed: the state it was checked against, the seat, the move's
    JSON (the very object) and the parsed move. Verification checks a move, then folds the same
    payload: `_apply_move` takes the parsed move from here instead of parsing it again, when it is
    that state, seat and object (the rules are pure, so the parse would give the same move)."""

    def hides_move(self, seat: int, move: Any) -> bool:
        """Whether a move (a parsed move model) made now must be salted: a secret simultaneous
        choice, or a private choice of the seat. Its event is shown redacted to other viewers, so
        without a salt they could hash every possible move and find the one recorded."""
        return self.decision.secret or self.ruleset.private_choice(self.state, seat, move) is not None

    def private_visible(self, seq: int, viewer: Viewer, as_of: int | None = None) -> bool:
        """Whether `viewer` may see the private part of the move recorded at `seq` as of `as_of`
        (default: the head): always for a move that is no private choice, its seat and the
        arbiter; for others only once it was revealed."""
        record = self.private.get(seq)
        if record is None or viewer.sees_all or viewer.is_seat(record["seat"]):
            return True
        revealed = record["revealed"]
        return revealed is not None and revealed <= (self.seq if as_of is None else as_of)

    def check_outcome(self, outcome: JSON) -> None:
        """A recorded outcome must be one the pending chance event could have produced."""
        self.check_active()
        spec = self.decision.chance
        if spec is None:
            raise ImpossibleOutcomeError("no chance event is pending: the match waits for a move")
        try:
            weight = spec.weight_of(outcome)
        except NotCanonicalError:  # a float, a set, bytes: nothing a chance event can produce
            weight = 0
        if weight <= 0:
            raise ImpossibleOutcomeError(
                f"{outcome!r} cannot come out of {spec.kind} now (it is not among the remaining outcomes)"
            )

    def check_entropy(self, seat: Any, text: Any) -> None:
        """A seat's entropy may be added: the match takes it, before the first draw, once per
        seat, well-formed (the same checks for the command and for verification)."""
        self.check_active()
        if self.entropy_from != "seats":
            raise EntropyRefusedError(
                "this match takes no entropy from its seats: its chance draws use the entropy given at "
                "creation (create the match with entropy_from 'seats' for seat entropy)")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise InvalidRequestError(f"there is no seat {seat!r} in this match (seats 0..{self.seats - 1})")
        if self.first_chance_seq is not None:
            raise EntropyRefusedError(
                f"too late: the first chance outcome was drawn at event {self.first_chance_seq}, and "
                "entropy is taken only before it")
        if seat in self.seat_entropy:
            raise EntropyRefusedError(f"seat {seat} already added its entropy (each seat adds it once)")
        problem = entropy_problem(text)
        if problem is not None:
            raise InvalidRequestError(problem)

    def own_undo_allowed(self, seat: int, from_seq: int) -> bool:
        """True when `seat` may take back its moves from `from_seq` with nobody's consent (the
        barrier rule: `undo.within_barrier`)."""
        return within_barrier(self, seat, from_seq)

    def last_move_of(self, seat: int) -> int | None:
        for step in reversed(self.steps):
            if step.kind == "move" and step.seat == seat:
                return step.seq
        return None

    def result(self, reason: str, ranks: list[int] | None = None, forfeits: tuple[int, ...] = ()) -> Result:
        sheet = self.score_sheet()
        totals = sheet.totals()
        if ranks is not None:
            return Result(tuple(ranks), totals, ("adjudicated by an arbiter",))
        if forfeits:
            keys = [(0 if seat in forfeits else 1, totals[seat]) for seat in range(self.seats)]
            return Result.from_keys(totals, keys, ("forfeit ranks last",))
        return self.ruleset.result(self.state, sheet)

    # ---- consuming entries ---------------------------------------------------------
    def consume(self, entry: Entry) -> None:
        """Advance the fold by one entry (already chain-checked by whoever read it)."""
        if entry.seq != self.seq + 1:
            raise ValueError(f"entry {entry.seq} does not follow {self.seq}")
        handler = _HANDLERS.get(entry.kind)
        if handler is None:
            raise ValueError(f"unknown event kind {entry.kind!r}")
        handler(self, entry)
        self.seq = entry.seq
        self.head = entry.hash
        self.last_at = entry.at
        self.signing_keys.add(entry.key)

    def _on_move(self, entry: Entry) -> None:
        payload = entry.payload
        self._apply_move(entry.seq, payload["seat"], payload["move"], "move")
        self._touch()

    def _on_chance(self, entry: Entry) -> None:
        spec = self.decision.chance
        if spec is None:
            raise ValueError(f"entry {entry.seq}: chance outcome while no chance event is pending")
        if self.first_chance_seq is None:
            self.first_chance_seq = entry.seq
        if spec.visible_to != "all":
            self.hidden_chance[entry.seq] = list(spec.visible_to) if isinstance(spec.visible_to, tuple) \
                else spec.visible_to
        self._apply_chance(entry.seq, entry.payload["outcome"])
        self._touch()

    def _on_undo_requested(self, entry: Entry) -> None:
        payload = entry.payload
        self.undo[payload["request"]] = UndoRequest(
            id=payload["request"], seat=payload["seat"], from_seq=payload["from_seq"],
            requested_seq=entry.seq, consent_from=list(payload["consent_from"]),
            arbiter_needed=payload["arbiter_needed"],
        )
        self._open_undo.add(payload["request"])

    def _on_undo_answered(self, entry: Entry) -> None:
        payload = entry.payload
        request = self.undo[payload["request"]].answered(payload.get("seat"), payload["accept"])
        self.undo[request.id] = request
        if request.status != "pending":
            self._open_undo.discard(request.id)

    def _on_retracted(self, entry: Entry) -> None:
        payload = entry.payload
        from_seq = payload["from_seq"]
        cut = self.steps.index_of(from_seq)  # the steps are in seq order: a retraction takes a tail
        removed = self.steps.between(cut, len(self.steps))
        for step in removed:
            self.retracted[step.seq] = entry.seq
            self.secret_pending.pop(step.seq, None)
            self._unrevealed.discard(step.seq)
        self.retractions = {entry.seq: {
            "from_seq": from_seq, "to_seq": removed[-1].seq if removed else from_seq,
            "request": payload.get("request"), "steps": [step.to_json() for step in removed],
            "authority": payload["authority"], "seat": payload.get("seat"),
        }}
        asked = payload.get("request")  # none: taken back without asking (own, or an arbiter's)
        request = self.undo.get(asked) if asked else None
        if request is not None:
            self.undo[request.id] = evolve(request, status="done")
            self._open_undo.discard(request.id)
        self.steps.truncate(cut)
        undone = {count: state for count, state in self._states.items()
                  if count > cut and not isinstance(state, _PackedState)}
        self._states = {count: state for count, state in self._states.items() if count <= cut}
        self.state = self._state_at(cut, keep=True)
        self._undone = (entry.seq, cut, self.state, undone)
        self.decision = self.ruleset.decision(self.state)
        self._touch(keep_redo=True)
        self.redo_candidate = entry.seq

    _undone: tuple[int, int, Any, dict[int, Any]] | None = None
    """The last retraction's seq, its cut (the steps left), the state it left and the states after
    the steps it took back, by step count: what a redo of it gives again (`_on_redone`)."""

    def _on_redone(self, entry: Entry) -> None:
        seq = entry.payload["retraction"]
        retraction = {**self.retractions[seq], "redone": entry.seq}
        self.retractions[seq] = retraction
        # The steps put back are the ones taken back, after the same steps and from the very state
        # the retraction left (nothing happened since): the rules are pure, so the states after
        # them are the ones the retraction dropped. Those still kept are taken back as they were;
        # the others are applied forward, never refolded.
        undone = self._undone
        again = undone[3] if undone is not None and undone[:2] == (seq, len(self.steps)) \
            and undone[2] is self.state else {}
        self._undone = None
        for data in retraction["steps"]:
            step = GameStep.from_json(data)
            self.retracted.pop(step.seq, None)
            private = self.private.get(step.seq)
            if private is not None and private["revealed"] is None:
                self._unrevealed.add(step.seq)
            if step.secret and self.secret_reveal.get(step.seq) is None:
                self.secret_pending[step.seq] = step.seat if step.seat is not None else -1
            self.steps.append(step)
            state = again.get(len(self.steps))
            self.state = state if state is not None else _apply_step(self.ruleset, self.state, step.kind, step.seat,
                                                                     step.data)
            self._keep(len(self.steps), self.state)
        self.decision = self.ruleset.decision(self.state)
        self._touch()

    def _on_seed_revealed(self, entry: Entry) -> None:
        self.seed = entry.payload["seed"]

    def _on_ruling(self, entry: Entry) -> None:
        payload = entry.payload
        kind = payload["ruling"]
        if kind == "penalty":
            self.penalties.append({"seat": payload["seat"], "points": payload["points"],
                                   "reason": payload.get("note", ""), "seq": entry.seq})
        elif kind == "illegal-move-stands":
            self._apply_move(entry.seq, payload["seat"], payload["move"], "forced")
        self.last_ruling_seq = entry.seq
        self.last_ruling = dict(payload)
        self._touch()

    def _on_key_rotated(self, entry: Entry) -> None:
        self.record_keys = [*self.record_keys, entry.payload["key"]]

    def _on_ended(self, entry: Entry) -> None:
        self.status = "ended"
        self.end = entry.payload
        # the seed is revealed next, and with it every salt: what is still private comes out now
        for seq in self._private_pending():
            self.private[seq] = {**self.private[seq], "revealed": entry.seq}
            self._unrevealed.discard(seq)

    def _on_entropy_added(self, entry: Entry) -> None:
        """A seat's entropy: public, and part of every later draw's derivation; the game is unchanged."""
        self.seat_entropy[entry.payload["seat"]] = entry.payload["entropy"]

    # ---- mechanics -------------------------------------------------------------------
    def _touch(self, keep_redo: bool = False) -> None:
        """Something changed the game: pending undo requests no longer describe it."""
        if self._open_undo:
            for key in self._open_undo:
                self.undo[key] = evolve(self.undo[key], status="stale")
            self._open_undo = set()
        if not keep_redo:
            self.redo_candidate = None

    def _apply_move(self, seq: int, seat: int, move_json: JSON, kind: str) -> None:
        ruleset = self.ruleset
        before, decision = self.state, self.decision
        checked = self._checked
        if checked is not None and checked[0] is before and checked[2] is move_json and checked[1] == seat:
            move = checked[3]
        else:
            move = ruleset.parse_move(move_json)
        self._checked = None
        choice = ruleset.private_choice(before, seat, move)
        after = ruleset.apply(before, seat, move)
        self.state, self.decision = after, ruleset.decision(after)
        step = GameStep(seq, kind, seat, move_json, secret=decision.secret,
                        barrier=ruleset.undo_barrier(before, after, seat, move))
        self.steps.append(step)
        self._keep(len(self.steps), after)
        if choice is not None:
            self.private[seq] = {"seat": seat, "until": choice.until, "revealed": None,
                                 "fields": None if choice.fields is None else list(choice.fields)}
            self._unrevealed.add(seq)
        self._reveal_private(step)
        if decision.secret:
            self.secret_reveal[seq] = None
            self.secret_pending[seq] = seat
            if self._secret_group_complete(decision):
                for pending in self.secret_pending:
                    self.secret_reveal[pending] = seq
                self.secret_pending = {}
                step.barrier = True

    def _secret_group_complete(self, before: Decision) -> bool:
        return secret_group_complete(before, self.decision, set(self.secret_pending.values()))

    def _apply_chance(self, seq: int, outcome: JSON) -> None:
        self.state = self.ruleset.resolve(self.state, outcome)
        self.decision = self.ruleset.decision(self.state)
        step = GameStep(seq, "chance", None, outcome, barrier=True)
        self.steps.append(step)
        self._keep(len(self.steps), self.state)
        self._reveal_private(step)

    def _private_pending(self) -> list[int]:
        """The effective private choices not revealed yet (a retracted one stays hidden for good,
        as a retracted secret vote does, unless it is redone)."""
        return sorted(self._unrevealed)

    def _reveal_private(self, step: GameStep) -> None:
        """Reveal the private choices whose reveal point the game reached with `step`; revealing
        another step's choice makes `step` an undo barrier (what was shown cannot be unshown)."""
        if not self._unrevealed:  # most steps: no private choice waits to be revealed
            return
        pending = self._private_pending()
        if not pending:
            return
        reached = set(self.ruleset.reveals(self.state))
        for seq in pending:
            if self.private[seq]["until"] in reached:
                self.private[seq] = {**self.private[seq], "revealed": step.seq}
                self._unrevealed.discard(seq)
                if seq != step.seq:
                    step.barrier = True

    def _prelude_state(self) -> Any:
        """The game state after setup (or the recorded position) and the prelude (a fork's parent steps)."""
        ruleset = self.ruleset
        state = start_state(ruleset, self.config, self.header)
        for step in self.header.get("prelude", []):
            state = _apply_step(ruleset, state, step["kind"], step.get("seat"), step["data"])
        return state

    # ---- checkpoints -----------------------------------------------------------------
    def _keep(self, count: int, state: Any) -> None:
        """The state after `count` steps, kept as a checkpoint (`steps.py` says for how long)."""
        self._states[count] = state
        for dropped in checkpoints_dropped(count):
            self._states.pop(dropped, None)

    def _state_at(self, count: int, keep: bool) -> Any:
        """The game state after the prelude and the first `count` steps: replayed from the nearest
        checkpoint at or before it, from setup only when there is none (a retraction deeper than
        the checkpoints a snapshot carries). `keep`: keep the checkpoints passed on the way."""
        base = max((kept for kept in self._states if kept <= count), default=None)
        if base is None:
            base, state = 0, self._prelude_state()
            if keep:
                self._keep(0, state)
        else:
            state = self._checkpoint(base)
        for index, step in enumerate(self.steps.between(base, count), start=base + 1):
            state = _apply_step(self.ruleset, state, step.kind, step.seat, step.data)
            if keep:
                self._keep(index, state)
        return state

    def _checkpoint(self, count: int) -> Any:
        state = self._states[count]
        if isinstance(state, _PackedState):  # restored from a snapshot, decoded once used
            state = self._states[count] = self.ruleset.decode_state(unpack(state.text), self.config)
        return state

    def _packed_checkpoint(self, count: int) -> str:
        state = self._states.get(count)
        if isinstance(state, _PackedState):
            return state.text
        return pack(self.ruleset.encode_state(self._state_at(count, keep=False)))

    # ---- snapshots -------------------------------------------------------------------
    SNAPSHOT_FORMAT = 3

    def to_snapshot(self) -> dict[str, Any]:
        """The fold as JSON for a sealed snapshot (format 3). What grows with the match is packed
        as JSON text: the fold's own record (`fold`), the steps in chunks of `steps.CHUNK`, the
        game states at the checkpoints before the last step (`steps.snapshot_checkpoints`: a
        retraction after a restore rebuilds from one of them, not from setup), and the maps that
        grow with take-backs and hidden draws (`packed`: the settled undo requests, the retracted
        steps, the secret moves' reveals, the hidden draws), which a restored fold decodes only
        when it reads them (`PackedMap`). Storing, sealing and loading text costs a scan of it.
        Format 2 (all maps in `fold`) and format 1 (plain JSON) are still read."""
        count = len(self.steps)
        settled = sorted((r for r in self.undo.values() if r.status not in _OPEN_REQUEST),
                         key=lambda r: r.requested_seq)
        return {
            "format": self.SNAPSHOT_FORMAT, "seq": self.seq, "fold": pack(self._record_json(maps=False)),
            "packed": {
                "undo": pack([request.to_json() for request in settled]),
                "retracted": _pack_pairs(self.retracted), "secret_reveal": _pack_pairs(self.secret_reveal),
                "hidden_chance": _pack_pairs(self.hidden_chance),
            },
            "steps": self.steps.packed(), "step_seqs": self.steps.firsts(), "step_count": count,
            "checkpoints": {str(at): self._packed_checkpoint(at) for at in snapshot_checkpoints(count)},
        }

    def _record_json(self, maps: bool = True) -> dict[str, Any]:
        """Everything of the fold but its steps and checkpoints (format 1's fields); without
        `maps` (format 3), the undo requests still open are its only ones, and the maps a
        snapshot packs apart are left out."""
        return {
            "match_id": self.match_id, "header": self.header, "seq": self.seq, "head": self.head,
            "state": self.ruleset.encode_state(self.state),
            **({"retracted": {str(k): v for k, v in self.retracted.items()},
                "secret_reveal": {str(k): v for k, v in self.secret_reveal.items()},
                "hidden_chance": {str(k): v for k, v in self.hidden_chance.items()}} if maps else {}),
            "retractions": {str(k): v for k, v in self.retractions.items()},
            "redo_candidate": self.redo_candidate, "last_ruling_seq": self.last_ruling_seq,
            "last_ruling": self.last_ruling,
            "secret_pending": {str(k): v for k, v in self.secret_pending.items()},
            **({"private": {str(k): v for k, v in self.private.items()}} if self.private else {}),
            "undo": {k: v.to_json() for k, v in self.undo.items() if maps or v.status in _OPEN_REQUEST},
            **({} if maps else {"unrevealed": sorted(self._unrevealed)}),
            "seed": self.seed, "penalties": self.penalties, "status": self.status, "end": self.end,
            "last_at": self.last_at, "created_at": self.created_at,
            "created_key": self.created_key, "signing_keys": sorted(self.signing_keys),
            "record_keys": self.record_keys,
            "seat_entropy": {str(k): v for k, v in self.seat_entropy.items()},
            "first_chance_seq": self.first_chance_seq,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MatchFold:
        """The fold a snapshot holds: format 3 (`to_snapshot`), or formats 2 and 1 as stores
        written before it hold (2: every map in `fold`; 1: every field in plain JSON, the steps a
        list), read as they always were."""
        if data.get("format") in (cls.SNAPSHOT_FORMAT, 2):
            fold = cls._restore(unpack(data["fold"]), data.get("packed"))
            fold.steps = StepLog.from_packed(data["steps"], data["step_seqs"], data["step_count"])
            fold._states = {int(at): _PackedState(text) for at, text in data["checkpoints"].items()}
        else:
            fold = cls._restore(data)
            fold.steps = StepLog(GameStep.from_json(step) for step in data["steps"])
            fold._states = {}
            # format 1 kept every retraction; only the last one can be redone, so only it is kept
            fold.retractions = {last: fold.retractions[last] for last in sorted(fold.retractions)[-1:]}
        fold._states[len(fold.steps)] = fold.state
        return fold

    @classmethod
    def _restore(cls, data: dict[str, Any], packed: dict[str, str] | None = None) -> MatchFold:
        fold = cls.__new__(cls)
        header = data["header"]
        fold.match_id = data["match_id"]
        fold.header = header
        fold.ruleset = get_game(header["game"])
        fold.config = MatchConfig(
            variant=header["variant"], options=fold.ruleset.parse_options(header["options"]),
            seats=len(header["seats"]), components=_components_for(fold.ruleset, header),
        )
        fold.seq, fold.head = data["seq"], data["head"]
        fold.recorded_engine = header["engine_version"]
        fold.created_key = data["created_key"]
        fold.signing_keys = set(data["signing_keys"])
        fold.record_keys = list(data.get("record_keys", [data["created_key"]]))
        fold.state = fold.ruleset.decode_state(data["state"], fold.config)
        fold.decision = fold.ruleset.decision(fold.state)
        # integer-keyed maps in seq order, the order a fold of the events inserts them in
        if packed is not None:  # format 3: the maps that grow are text until read
            fold.retracted = _packed_pairs(packed["retracted"])
            fold.secret_reveal = _packed_pairs(packed["secret_reveal"])
            fold.hidden_chance = _packed_pairs(packed["hidden_chance"])
        else:
            fold.retracted = _by_seq(data["retracted"])
            fold.secret_reveal = _by_seq(data["secret_reveal"])
            fold.hidden_chance = _by_seq(data["hidden_chance"])
        fold.retractions = _by_seq(data["retractions"])
        fold.redo_candidate = data["redo_candidate"]
        fold.last_ruling_seq = data["last_ruling_seq"]
        fold.last_ruling = data["last_ruling"]
        fold.secret_pending = _by_seq(data["secret_pending"])
        fold.private = _by_seq(data.get("private", {}))
        if "unrevealed" in data:  # format 3 says which: the retracted steps stay packed
            fold._unrevealed = set(data["unrevealed"])
        else:
            fold._unrevealed = {seq for seq, record in fold.private.items()
                                if record["revealed"] is None and seq not in fold.retracted}
        requests = sorted((UndoRequest.from_json(v) for v in data["undo"].values()), key=lambda r: r.requested_seq)
        fold.undo = {request.id: request for request in requests}
        if packed is not None and packed["undo"] != "[]":
            fold.undo = PackedMap(fold.undo, PackedEntries(packed["undo"], _decode_requests), _by_request_seq)
        fold._open_undo = {request.id for request in requests if request.status == "pending"}
        fold.seed, fold.penalties = data["seed"], data["penalties"]
        fold.status, fold.end = data["status"], data["end"]
        fold.last_at, fold.created_at = data["last_at"], data["created_at"]
        # snapshots taken before seat entropy existed have neither (their matches take none)
        fold.seat_entropy = {int(k): v for k, v in data.get("seat_entropy", {}).items()}
        fold.first_chance_seq = data.get("first_chance_seq")
        return fold

    def __deepcopy__(self, memo: dict[int, Any]) -> MatchFold:
        """Cheap copy for the aggregate cache: the ruleset, config, game states, undo requests and
        retractions are treated as immutable values (replaced, never changed in place) and shared;
        only the fold's own containers are copied (the step log shares its full chunks)."""
        clone = MatchFold.__new__(MatchFold)
        clone.__dict__.update(self.__dict__)
        clone.steps = self.steps.copy()
        clone._states = dict(self._states)
        clone.retracted = copy_map(self.retracted)
        clone.retractions = dict(self.retractions)
        clone.secret_reveal = copy_map(self.secret_reveal)
        clone.secret_pending = dict(self.secret_pending)
        clone.hidden_chance = copy_map(self.hidden_chance)
        clone.private = dict(self.private)
        clone._unrevealed = set(self._unrevealed)
        clone.undo = copy_map(self.undo)
        clone._open_undo = set(self._open_undo)
        clone.penalties = list(self.penalties)
        clone.signing_keys = set(self.signing_keys)
        clone.seat_entropy = dict(self.seat_entropy)
        return clone


class _PackedState:
    """A checkpoint restored from a snapshot: the game state's JSON text, decoded when used."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _by_seq(data: dict[str, Any]) -> dict[int, Any]:
    return {int(k): data[k] for k in sorted(data, key=int)}


_OPEN_REQUEST = ("pending", "granted")
"""The undo requests a fold still changes (`_touch` makes a pending one stale, a retraction makes
a granted one done): a format 3 snapshot keeps them in the fold's record, the settled ones packed."""


def _pack_pairs(value: MutableMapping[int, Any]) -> str:
    return pack(sorted(value.items()))


def _packed_pairs(text: str) -> MutableMapping[int, Any]:
    """An integer-keyed map from `_pack_pairs`: a plain dict when empty, else a `PackedMap`."""
    if text == "[]":
        return {}
    return PackedMap({}, PackedEntries(text, _decode_pairs), by_key)


def _decode_pairs(text: str) -> list[tuple[int, Any]]:
    return [(key, value) for key, value in unpack(text)]


def _decode_requests(text: str) -> list[tuple[str, UndoRequest]]:
    return [(data["id"], UndoRequest.from_json(data)) for data in unpack(text)]


def _by_request_seq(pair: tuple[str, UndoRequest]) -> int:
    return pair[1].requested_seq


def secret_group_complete(before: Decision, after: Decision, pending_seats: set[int]) -> bool:
    """Whether a secret simultaneous choice is over (so its moves are revealed) once the decision
    went from `before` to `after`, with these seats' secret moves still hidden."""
    if not after.secret or after.chance is not None:
        return True
    return bool(pending_seats & set(after.seats)) or not set(after.seats) <= set(before.seats)


def entropy_actor_problem(seat: Any, actor: Any) -> str | None:
    """Why `actor` may not add `seat`'s entropy, or None: the seat's own player (or a substitute
    or bot playing that seat), or an arbiter acting for it."""
    kind = actor.get("kind") if isinstance(actor, dict) else None
    if kind == "arbiter" and actor.get("seat") in (None, seat):
        return None
    if kind in ("seat", "substitute", "bot"):
        if actor.get("seat") == seat:
            return None
        return f"seat {actor.get('seat')}'s {'player' if kind == 'seat' else kind} cannot add seat {seat}'s entropy"
    return f"a {kind} cannot add a seat's entropy: only the seat's player or an arbiter acting for it"


def prelude_visibility(ruleset: Ruleset[Any, Any], config: MatchConfig[Any],
                       prelude: list[dict[str, Any]], position: dict[str, Any] | None = None) -> dict[int, list[int]]:
    """The hidden steps of a fork's prelude (by index) and the seats that may see each: a draw
    face down or into one seat's hand, a secret move whose group had not completed, and a private
    choice not revealed by the end of the prelude (hidden whole: the prelude shows no part of it).
    The prelude starts from the setup, or from `position` when the forked match started from one."""
    hidden: dict[int, list[int]] = {}
    pending: dict[int, int] = {}
    private: dict[int, tuple[int, str]] = {}
    state = start_state(ruleset, config, {"position": position})
    for index, step in enumerate(prelude):
        before = ruleset.decision(state)
        if step["kind"] == "chance":
            state = ruleset.resolve(state, step["data"])
        else:
            move = ruleset.parse_move(step["data"])
            choice = ruleset.private_choice(state, step["seat"], move)
            if choice is not None:
                private[index] = (step["seat"], choice.until)
            state = ruleset.apply(state, step["seat"], move)
        if private:
            reached = set(ruleset.reveals(state))
            private = {i: waiting for i, waiting in private.items() if waiting[1] not in reached}
        if step["kind"] == "chance":
            spec = before.chance
            if spec is not None and spec.visible_to != "all":
                hidden[index] = [] if spec.visible_to == "none" else list(spec.visible_to)
        elif before.secret:
            pending[index] = step["seat"]
            if secret_group_complete(before, ruleset.decision(state), set(pending.values())):
                pending = {}
    hidden.update({index: [seat] for index, seat in pending.items()})
    hidden.update({index: [seat] for index, (seat, _) in private.items()})
    return hidden


def _apply_step(ruleset: Ruleset[Any, Any], state: Any, kind: str, seat: int | None, data: JSON) -> Any:
    if kind == "chance":
        return ruleset.resolve(state, data)
    assert seat is not None, "a move step always names its seat"
    return ruleset.apply(state, seat, ruleset.parse_move(data))


def _components_for(ruleset: Ruleset[Any, Any], header: dict[str, Any]) -> Any:
    """The component set named by the created event: the shipped default, or the custom set
    registered under its hash (see components_store)."""
    from .component_store import default_components, lookup

    wanted = header["components"]["hash"]
    default, default_hash = default_components(ruleset)
    if default_hash == wanted:
        return default
    return lookup(ruleset, wanted)


_HANDLERS = {
    MOVE: MatchFold._on_move,
    CHANCE: MatchFold._on_chance,
    UNDO_REQUESTED: MatchFold._on_undo_requested,
    UNDO_ANSWERED: MatchFold._on_undo_answered,
    RETRACTED: MatchFold._on_retracted,
    REDONE: MatchFold._on_redone,
    SEED_REVEALED: MatchFold._on_seed_revealed,
    RULING: MatchFold._on_ruling,
    ENDED: MatchFold._on_ended,
    KEY_ROTATED: MatchFold._on_key_rotated,
    ENTROPY_ADDED: MatchFold._on_entropy_added,
}
