"""The Ringside application: every command and query on matches, over one eventsourcing store.

Commands load a match, check the request against its fold (the same checks verification runs),
append hash-chained, signed entries, settle automatic steps (server-mode chance, the end of the
match, the seed reveal) and save everything in one atomic write with the expected version. A
version conflict reloads and retries; a caller-supplied stale version is refused. Nothing is
appended unless every check passed, so bad input never changes the record.

One instance per process; the library is synchronous, so callers (FastAPI, the CLI) use it from
plain threads.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

import orjson
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Recording

from .kernel import component_store, record
from .kernel.annotations import AnnotationLog, check_glyphs, check_visibility, hidden_entries, visible_to
from .kernel.canonical import JSON
from .kernel.chance import commitment, derive_outcome, derive_salt, new_seed
from .kernel.clock import Clock, utc_now, utc_text
from .kernel.contract import MatchConfig
from .kernel.diff import diff
from .kernel.errors import (
    ConflictError,
    ForbiddenError,
    InvalidRequestError,
    InvalidSeatsError,
    MatchNotFoundError,
    NotFoundError,
    RingsideError,
    StaleVersionError,
    UndoRefusedError,
    UnknownVariantError,
)
from .kernel.fold import UNDO_POLICIES, MatchFold, entropy_actor_problem, prelude_visibility
from .kernel.integrity import GENESIS, Receipt, ServerKey, event_hash, load_retired_keys
from .kernel.match import Match, MatchSnapshot
from .kernel.positions import normal_position, position_hides
from .kernel.record import Entry
from .kernel.redaction import redact
from .kernel.registry import get_game
from .kernel.trust import Trust
from .kernel.viewers import Actor, Viewer
from .plugins import install_games
from .store.group_commit import GroupCommit
from .store.index import MatchIndex
from .store.recorders import Answer, AnswerRecorder
from .store.saving import ClassCheckedSave
from .store.settings import StoreSettings
from .store.write_lock import WriteLock

T = TypeVar("T")
logger = logging.getLogger("ringside")
RETRIES = 5
MAX_POSITION = 2**62
"""Beyond any match's length and within what SQLite and PostgreSQL can compare positions with."""


class MatchSecret(Aggregate):
    """The secret seed of one match, kept outside the public record until it is revealed."""

    TOPIC = "ringside.match-secret/1"

    class Created(Aggregate.Created):
        TOPIC = "ringside.match-secret.created/1"
        seed: str

    def __init__(self, seed: str) -> None:
        self.seed = seed


class ComponentSetRecord(Aggregate):
    """A custom component set, stored once under its content hash."""

    TOPIC = "ringside.component-set/1"

    class Created(Aggregate.Created):
        TOPIC = "ringside.component-set.created/1"
        game: str
        content: dict[str, Any]

    def __init__(self, game: str, content: dict[str, Any]) -> None:
        self.game = game
        self.content = content


class KnownKey(Aggregate):
    """The public key of a server whose record was imported here: kept so the record can be
    exported again with the keys that signed it. Knowing a key is not trusting it: only the keys
    this server holds are its own (`own_keys`)."""

    TOPIC = "ringside.known-key/1"

    class Created(Aggregate.Created):
        TOPIC = "ringside.known-key.created/1"
        key_id: str
        public_hex: str

    def __init__(self, key_id: str, public_hex: str) -> None:
        self.key_id = key_id
        self.public_hex = public_hex


class MatchCache:
    """Recently used matches, kept as of their last save and fast-forwarded by the events other
    processes appended since (one indexed query). Commands work on a cheap copy and the saved copy
    replaces the cached one, so no event is ever folded twice in this process."""

    def __init__(self, app: Application[UUID], size: int,
                 project: Callable[[Any, Iterable[Any]], Any] | None = None) -> None:
        self.app = app
        self.size = size
        self.project = project or project_match
        self._items: OrderedDict[UUID, Match] = OrderedDict()
        self._lock = threading.Lock()

    def current(self, match_id: UUID) -> Match:
        """The match at the head of the record. Read-only: callers must not change it."""
        with self._lock:
            cached = self._items.get(match_id)
        if cached is None:
            try:
                loaded: Any = self.app.repository.get(match_id, projector_func=self.project)
            except AggregateNotFoundError:
                raise MatchNotFoundError(f"no match {match_id}") from None
            assert isinstance(loaded, Match)
            self.keep(loaded)
            return loaded
        newer = list(self.app.events.get(match_id, gt=cached.version))
        if not newer:
            return cached
        match = copy.deepcopy(cached)
        for event in newer:
            event.mutate(match)  # type: ignore[attr-defined]
        self.keep(match)
        return match

    def known(self, match_id: UUID) -> Match:
        """The cached match as this process last saw it (the store is read only on a miss): for
        facts that never change after creation, such as the randomness mode. Read-only."""
        with self._lock:
            cached = self._items.get(match_id)
        return cached if cached is not None else self.current(match_id)

    def for_command(self, match_id: UUID, fresh: bool) -> Match:
        """A private copy of the match that a command may append to. Unless `fresh`, the cached
        copy is used as it is: the append's expected version catches any event another process
        added since, and the command is then retried on a fresh copy."""
        if not fresh:
            with self._lock:
                cached = self._items.get(match_id)
            if cached is not None:
                return copy.deepcopy(cached)
        return copy.deepcopy(self.current(match_id))

    def keep(self, match: Match) -> None:
        with self._lock:
            cached = self._items.get(match.id)
            if cached is None or cached.version < match.version:
                self._items[match.id] = match
            self._items.move_to_end(match.id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def project_match(aggregate: Any, events: Iterable[Any]) -> Any:
    """Fold stored events onto a match. Unlike eventsourcing's generic projector it skips a runtime
    protocol check per event, which costs more than folding a move: time travel folds up to 99."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def secret_id(match_id: UUID) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:match-secret:{match_id}")


def annotations_id(match_id: UUID) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:annotations:{match_id}")


def components_id(game: str, content_hash: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:components:{game}:{content_hash}")


def key_record_id(key_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:key:{key_id}")


@dataclass(frozen=True)
class RequestKey:
    """A client's idempotency key for one command: the scope and fingerprint its caller derived,
    and how the caller answers the command's result. The answer is stored in the same transaction
    as the command's events, so a retry with the same key is answered, never applied again."""

    scope: str
    fingerprint: str
    respond: Callable[[Any], tuple[int, dict[str, Any]]]

    def answer(self, result: Any) -> Answer:
        """The answer to store (and send): compact JSON text, by orjson, since every keyed write
        renders one on the event loop (json.dumps took 28 µs of a move's, orjson 2 µs)."""
        status, body = self.respond(result)
        try:
            text = orjson.dumps(body).decode()
        except orjson.JSONEncodeError:  # integers beyond 64 bits in a move: the standard library takes them
            text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
        return Answer(self.scope, self.fingerprint, status, text)


@dataclass(frozen=True)
class Accepted:
    """The answer to an accepted command: the receipt of its main entry and the new head."""

    receipt: Receipt
    version: int
    entries: tuple[Entry, ...]
    fold: MatchFold | None = field(default=None, compare=False, repr=False)
    """The match right after the command, for callers that answer with it (no second read)."""
    answer: Answer | None = field(default=None, compare=False, repr=False)
    """What was stored for the command's request key, if it had one."""

    def to_json(self) -> dict[str, Any]:
        return {"receipt": self.receipt.to_json(), "version": self.version,
                "appended": [entry.seq for entry in self.entries]}


class Ringside(ClassCheckedSave):
    """The application service. Construct with `Ringside.open(...)`."""

    name = "ringside"
    snapshotting_intervals = {Match: 100}
    snapshotting_projectors = {Match: project_match}
    snapshot_class = MatchSnapshot
    env = {"IS_SNAPSHOTTING_ENABLED": "y"}
    CACHE_SIZE = 500

    def __init__(self, settings: StoreSettings, key: ServerKey | None = None, clock: Clock | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.settings = settings
        super().__init__({**settings.eventsourcing_env(), **(env or {})})
        self.key = key or ServerKey.load_or_create(settings.data_dir)
        self.retired_keys: dict[str, ServerKey] = {
            key_id: retired for key_id, retired in load_retired_keys(settings.data_dir).items()
            if key_id != self.key.key_id}
        """Keys this server signed with before its current one: it still answers for the records
        they signed, and hands each over to the current key (a key-rotated event) when it appends."""
        self.clock: Clock = clock or utc_now
        self._seeds: dict[UUID, str] = {}
        self.snapshot_rejections = 0
        """Stored snapshots that failed their seal and were replaced by a fold of the events."""
        self._matches = MatchCache(self, self.CACHE_SIZE, self._project)
        self._write_lock = None if settings.is_postgres else WriteLock(settings.sqlite_path().with_suffix(".lock"))
        self._commits = GroupCommit(self)
        self.index = MatchIndex(self, settings)
        component_store.add_loader(self._load_components)

    @classmethod
    def open(cls, data_dir: Path | str | None = None, store: str | None = None,
             key: ServerKey | None = None, clock: Clock | None = None) -> Ringside:
        """The application on the configured store (SQLite in the data dir unless a PostgreSQL URL),
        with every installed game registered: this is where the service and the CLI are composed."""
        install_games()
        return cls(StoreSettings.resolve(data_dir, store), key=key, clock=clock)

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """Every save of the record (group commits, match creation, imports, annotations) is one
        transaction under the store's writer lock, so that workers sharing an embedded store queue
        for it instead of polling."""
        with self._exclusive():
            return super().save(*objs, **kwargs)

    def _exclusive(self) -> contextlib.AbstractContextManager[None]:
        return self._write_lock.held() if self._write_lock is not None else contextlib.nullcontext()

    def close(self) -> None:
        component_store.remove_loader(self._load_components)
        self._commits.close()
        if self._write_lock is not None:
            self._write_lock.close()
        self.index.close()
        super().close()

    # ==== keys and components ==========================================================
    def own_keys(self) -> dict[str, str]:
        """The keys this server holds (its current one and those it retired): the only keys it
        vouches for, published at /keys and trusted by its own verification."""
        return {key.key_id: key.public_hex for key in (self.key, *self.retired_keys.values())}

    def trust(self) -> Trust:
        return Trust.of(self.own_keys(), "this server")

    def known_keys(self) -> dict[str, str]:
        """Every public key this store has seen sign a record: its own and those of imported
        records (to export them again with their signers). Not a list of trusted keys."""
        keys = self.own_keys()
        for notification in self.recorder.select_notifications(start=None, limit=10_000,
                                                                topics=[KnownKey.Created.TOPIC]):
            event = self.mapper.to_domain_event(notification)
            keys.setdefault(event.key_id, event.public_hex)  # type: ignore[attr-defined]
        return keys

    def _load_components(self, game: str, content_hash: str) -> Any | None:
        try:
            stored: Any = self.repository.get(components_id(game, content_hash))
        except AggregateNotFoundError:
            return None
        assert isinstance(stored, ComponentSetRecord)
        return stored.content

    def _components_header(self, game: str, components: dict[str, Any] | None) -> tuple[dict[str, Any],
                                                                                        list[Aggregate]]:
        ruleset = get_game(game)
        if components is None:
            chosen = ruleset.default_components()
            return {"name": chosen.name, "hash": chosen.content_hash()}, []
        from .kernel.components import load_components

        chosen = load_components(ruleset.components_model, components)
        content_hash = component_store.remember(ruleset, chosen)
        to_save: list[Aggregate] = []
        try:
            self.repository.get(components_id(game, content_hash))
        except AggregateNotFoundError:
            to_save.append(ComponentSetRecord._create(
                ComponentSetRecord.Created, id=components_id(game, content_hash),
                game=game, content=chosen.content()))
        return {"name": chosen.name, "hash": content_hash}, to_save

    def components_of(self, match_id: UUID) -> dict[str, Any]:
        fold = self.fold(match_id)
        return fold.config.components.content()

    # ==== creating =========================================================================
    def create_match(self, game: str, players: list[str], *, variant: str | None = None,
                     options: dict[str, Any] | None = None, randomness: str = "server",
                     undo_policy: str = "own-turn", entropy: Iterable[str] = (),
                     entropy_from: str | None = None,
                     components: dict[str, Any] | None = None, match_id: UUID | None = None,
                     seed: str | None = None, actor: Actor | None = None,
                     fork_of: dict[str, Any] | None = None, prelude: list[dict[str, Any]] | None = None,
                     penalties: list[dict[str, Any]] | None = None,
                     title: str = "", position: dict[str, Any] | None = None) -> Accepted:
        """Start a match. Chance events at the start (deals) are resolved at once in server mode,
        unless `entropy_from="seats"`: then every draw waits until each seat has added its entropy
        (`add_entropy`), after the seed commitment is in the record. With a `position` (the game's
        position format) the match starts there instead of at the setup: it is validated, and its
        normal form recorded in the created event (docs/positions.md)."""
        ruleset = get_game(game)
        variant = variant or ruleset.default_variant
        if not isinstance(variant, str) or variant not in ruleset.variants:
            raise UnknownVariantError(
                f"{game} has no variant {variant!r} (variants: {', '.join(ruleset.variants)})")
        info = ruleset.variants[variant]
        if not info.min_seats <= len(players) <= info.max_seats:
            raise InvalidSeatsError(
                f"{game} {variant} is played by {info.min_seats}–{info.max_seats} players, not {len(players)}")
        if any(not isinstance(p, str) or not p.strip() or len(p) > 80 or not _name_text(p) for p in players):
            raise InvalidSeatsError("every seat needs a player name of 1–80 characters, without control "
                                    "characters (NUL, tabs, line breaks) or lone surrogates")
        if randomness not in ("server", "recorded"):
            raise InvalidRequestError("randomness must be 'server' or 'recorded'")
        if undo_policy not in UNDO_POLICIES:
            raise InvalidRequestError(f"undo policy must be one of {', '.join(UNDO_POLICIES)}")
        if isinstance(entropy, (str, bytes)) or not isinstance(entropy, Iterable):
            raise InvalidRequestError("entropy must be a list of strings")
        entropy_list = [str(item)[:200] for item in entropy]
        _check_entropy_policy(entropy_from, randomness)
        if seed is not None and not _is_seed(seed):
            raise InvalidRequestError("a seed must be 64 hexadecimal digits")
        parsed = ruleset.parse_options(options)
        components_header, extra = self._components_header(game, components)
        start = None if position is None else _start_position(ruleset, variant, parsed, len(players), components,
                                                              position)
        match_id = match_id or uuid4()
        seed = seed or new_seed()
        header = {
            "match_id": str(match_id), "game": game, "variant": variant,
            "options": parsed.model_dump(mode="json"),
            "seats": [{"seat": seat, "player": name.strip()} for seat, name in enumerate(players)],
            "engine_version": ruleset.engine_version, "components": components_header,
            "randomness": randomness, "seed_commitment": commitment(seed), "entropy": entropy_list,
            "undo_policy": undo_policy, "fork_of": fork_of, "prelude": prelude or [], "title": title,
        }
        if start is not None:  # absent: the standard setup (older records too)
            header["position"] = start
        if prelude or start is not None:  # hidden draws, secret moves, hands: salt it against guessing
            header["salt"] = derive_salt(seed, str(match_id), 1)
        if penalties:  # a fork starts with the scores its parent had there
            header["penalties"] = penalties
        if entropy_from is not None:  # absent: the entropy given at creation is all (older records too)
            header["entropy_from"] = entropy_from
        actor_json = (actor or Actor.system()).to_json()
        at = self.clock()
        stream = str(match_id)
        hash_ = event_hash(stream, 1, record.CREATED, actor_json, at, header, GENESIS)
        created = Entry(stream, 1, record.CREATED, actor_json, at, header, GENESIS, hash_,
                        self.key.sign_head(stream, 1, hash_), self.key.key_id)
        match = Match.start(match_id, created)
        secret = MatchSecret._create(MatchSecret.Created, id=secret_id(match_id), seed=seed)
        if match_id in self._seeds or self._current_version(match_id):
            # before the seed below replaces the existing match's secret in memory
            raise InvalidRequestError(f"a match with id {match_id} already exists")
        self._seeds[match_id] = seed
        entries = (created, *self._settle(match))
        for stored in extra:  # stored under its content hash: a concurrent creation may have saved it
            with contextlib.suppress(IntegrityError):
                self.save(stored)
        try:
            self.save(match, secret)
        except IntegrityError:
            self._seeds.pop(match_id, None)  # whoever won holds this ID: its seed is the stored one
            raise InvalidRequestError(f"a match with id {match_id} already exists") from None
        self._matches.keep(match)
        return self._accepted(match, created, entries)

    def fork(self, match_id: UUID, at: int, players: list[str] | None = None, *,
             randomness: str = "server", actor: Actor | None = None) -> Accepted:
        """A what-if branch from position `at`: a new, unofficial match that starts where the
        parent stood, carrying the parent's effective moves as its prelude."""
        parent = self.fold(match_id, at)
        if players is not None and len(players) != parent.seats:
            raise InvalidSeatsError(f"a fork keeps its parent's {parent.seats} seats (the steps it replays "
                                    f"are theirs), not {len(players)}")
        prelude = [*parent.header.get("prelude", []),
                   *({"kind": s.kind, "seat": s.seat, "data": s.data} for s in parent.steps)]
        names = players or [seat["player"] for seat in parent.header["seats"]]
        return self.create_match(
            parent.header["game"], names, variant=parent.header["variant"],
            options=parent.header["options"], randomness=randomness,
            undo_policy=parent.header["undo_policy"],
            entropy_from=parent.header.get("entropy_from") if randomness == "server" else None,
            components=None if parent.config.components.content_hash() ==
            parent.ruleset.default_components().content_hash() else parent.config.components.content(),
            actor=actor, fork_of={"match_id": str(match_id), "seq": at, "hash": parent.head},
            prelude=prelude, penalties=[dict(p) for p in parent.penalties], title=f"fork of {match_id} at {at}",
            position=parent.header.get("position"))

    def sealed_by(self, match_id: UUID) -> str | None:
        """The match in play whose hidden information this fork carries, or None. A fork replays its
        parent's steps, face-down draws and pending secret choices included; until every ancestor
        it took them from has ended, the fork keeps them as hidden as a match in play would: only
        its arbiter may export or fork it, whatever the fork's own status."""
        fold = self.fold(match_id)
        prelude = fold.header.get("prelude") or []
        position = fold.header.get("position")
        hides = position is not None and position_hides(fold.ruleset, position, fold.seats)
        if not hides and (not prelude or not prelude_visibility(fold.ruleset, fold.config, prelude, position)):
            return None
        seen: set[str] = set()
        fork_of = fold.header.get("fork_of")
        while isinstance(fork_of, dict) and isinstance(fork_of.get("match_id"), str):
            ancestor_id = fork_of["match_id"]
            if ancestor_id in seen:
                return None
            seen.add(ancestor_id)
            try:
                ancestor = self.fold(UUID(ancestor_id))
            except (ValueError, RingsideError):  # not held here: its own server keeps it sealed
                return None
            if ancestor.status == "active":
                return ancestor_id
            fork_of = ancestor.header.get("fork_of")
        return None

    # ==== playing ==========================================================================
    def submit_move(self, match_id: UUID, seat: int, move: Any, *, actor: Actor | None = None,
                    expected_version: int | None = None, claimed_at: str | None = None,
                    key: RequestKey | None = None) -> Accepted:
        """A seat's move: checked against the rules, recorded, then automatic steps settled."""
        return self._command(match_id, expected_version, self._move(match_id, seat, move, actor, claimed_at), key)

    async def submit_move_async(self, match_id: UUID, seat: int, move: Any, *, actor: Actor | None = None,
                                expected_version: int | None = None, claimed_at: str | None = None,
                                key: RequestKey | None = None) -> Accepted:
        """`submit_move` for an event loop (the API's hot path)."""
        return await self._command_async(match_id, expected_version,
                                         self._move(match_id, seat, move, actor, claimed_at), key)

    def _move(self, match_id: UUID, seat: int, move: Any, actor: Actor | None,
              claimed_at: str | None) -> Callable[[Match], tuple[Entry, list[Entry]]]:
        actor = actor or Actor.player(seat)
        _check_player(seat, actor)

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            parsed = fold.check_move(seat, move)
            payload: dict[str, Any] = {"seat": seat, "move": fold.ruleset.dump_move(parsed)}
            if claimed_at is not None:
                payload["claimed_at"] = str(claimed_at)[:40]
            if fold.decision.secret:
                payload["salt"] = derive_salt(self._seed(match_id), str(match_id), fold.seq + 1)
            main = self._append(match, record.MOVE, actor, payload)
            return main, [main, *self._settle(match)]

        return command

    def submit_outcome(self, match_id: UUID, outcome: JSON, *, actor: Actor,
                       expected_version: int | None = None, key: RequestKey | None = None) -> Accepted:
        """A recorder's (or an arbiter's) chance outcome in recorded mode, recorded with who entered
        it; refused if it could not have happened."""
        return self._command(match_id, expected_version, self._outcome(outcome, actor), key)

    async def submit_outcome_async(self, match_id: UUID, outcome: JSON, *, actor: Actor,
                                   expected_version: int | None = None, key: RequestKey | None = None) -> Accepted:
        """`submit_outcome` for an event loop."""
        return await self._command_async(match_id, expected_version, self._outcome(outcome, actor), key)

    def _outcome(self, outcome: JSON, actor: Actor) -> Callable[[Match], tuple[Entry, list[Entry]]]:
        if actor.kind not in ("recorder", "arbiter"):
            raise ForbiddenError("only a recorder or an arbiter enters chance outcomes")

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            if fold.randomness != "recorded":
                raise ForbiddenError("this match draws its own chance outcomes (server mode)")
            fold.check_outcome(outcome)
            main = self._append_chance(match, outcome, {"mode": "recorded"}, actor)
            return main, [main, *self._settle(match)]

        return command

    def add_entropy(self, match_id: UUID, seat: int, entropy: str, *, actor: Actor | None = None,
                    key: RequestKey | None = None) -> Accepted:
        """A seat's entropy, in a match created with entropy_from "seats": once per seat, before
        the first chance draw, by the seat's player or an arbiter acting for it. The last seat's
        entropy lets the server draw: chance events waiting for it are settled in this command."""
        actor = actor or Actor.player(seat)
        problem = entropy_actor_problem(seat, actor.to_json())
        if problem is not None:
            raise ForbiddenError(problem)
        text = unicodedata.normalize("NFC", entropy) if isinstance(entropy, str) else entropy

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            match.fold.check_entropy(seat, text)
            main = self._append(match, record.ENTROPY_ADDED, actor, {"seat": seat, "entropy": text})
            return main, [main, *self._settle(match)]

        return self._command(match_id, None, command, key)

    def play_bot(self, match_id: UUID, bot: str = "random", seed: int = 0) -> Accepted | None:
        """Let a bot make the next move for the first seat to act; None if no seat is to act."""
        import random

        fold = self.fold(match_id)
        if fold.status != "active" or not fold.decision.seats:
            return None
        seat = fold.decision.seats[0]
        rng = random.Random(f"{match_id}:{fold.seq}:{seed}")
        move = fold.ruleset.bots()[bot](fold.state, seat, rng)
        return self.submit_move(match_id, seat, fold.ruleset.dump_move(move),
                                actor=Actor("bot", seat, bot), expected_version=fold.seq)

    # ==== undo ==============================================================================
    def request_undo(self, match_id: UUID, seat: int, from_seq: int | None = None, *,
                     actor: Actor | None = None, reason: str = "", key: RequestKey | None = None) -> Accepted:
        """Take back this seat's moves from `from_seq` (default: its last move) onwards.

        Within the last barrier and where the policy allows, the retraction follows at once;
        otherwise the request waits for the affected seats' consent or an arbiter."""
        actor = actor or Actor.player(seat)
        _check_player(seat, actor)
        if not isinstance(reason, str):
            raise InvalidRequestError("an undo request's reason is text")

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            target = from_seq if from_seq is not None else fold.last_move_of(seat)
            if target is None:
                raise UndoRefusedError(f"seat {seat} has no move to take back")
            fold.check_undo_target(seat, target)
            policy = fold.undo_policy
            own = fold.own_undo_allowed(seat, target)
            if policy == "own-turn" and not own:
                raise UndoRefusedError(
                    "past a barrier (another seat acted, a chance outcome was drawn or something hidden "
                    "was revealed): this match's undo policy (own-turn) allows that only by an arbiter's ruling")
            request_id = f"u{fold.seq + 1}"  # the request's own sequence number: unique, reproducible
            immediate = own and policy in ("own-turn", "consent")
            consent_from = [] if immediate or policy == "arbiter-only" else \
                [s for s in range(fold.seats) if s != seat]
            # past a barrier with no other seat to ask (a solo match), only an arbiter may allow it:
            # nobody takes a move back alone to re-roll a die
            arbiter_needed = not immediate and (policy == "arbiter-only" or not consent_from)
            main = self._append(match, record.UNDO_REQUESTED, actor, {
                "request": request_id, "seat": seat, "from_seq": target, "reason": reason[:500],
                "consent_from": consent_from, "arbiter_needed": arbiter_needed,
            })
            entries = [main]
            if immediate:
                entries.append(self._append(match, record.RETRACTED, Actor.system(), {
                    "request": request_id, "from_seq": target, "authority": "own", "seat": seat}))
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    def answer_undo(self, match_id: UUID, request_id: str, accept: bool, *, seat: int | None,
                    actor: Actor, key: RequestKey | None = None) -> Accepted:
        """A seat's consent (or refusal), or an arbiter's decision (seat None), on a pending request."""
        _check_answerer(seat, actor)

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            fold.check_active()
            request = fold.undo.get(request_id) if isinstance(request_id, str) else None
            if request is None:
                raise NotFoundError(f"no undo request {request_id}")
            if request.status != "pending":
                raise UndoRefusedError(f"undo request {request_id} is {request.status}, not pending")
            if seat is not None and seat not in request.consent_from:
                raise ForbiddenError(f"seat {seat} is not asked to consent to this request")
            main = self._append(match, record.UNDO_ANSWERED, actor,
                                {"request": request_id, "seat": seat, "accept": bool(accept)})
            entries = [main]
            if match.fold.undo[request_id].status == "granted":
                entries.append(self._append(match, record.RETRACTED, Actor.system(), {
                    "request": request_id, "from_seq": request.from_seq,
                    "authority": "arbiter" if seat is None else "consent", "seat": request.seat}))
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    def redo(self, match_id: UUID, *, seat: int | None, actor: Actor, key: RequestKey | None = None) -> Accepted:
        """Put back the moves of the last retraction, while nothing else has happened since."""
        _check_answerer(seat, actor)

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            fold.check_active()
            if fold.redo_candidate is None:
                raise UndoRefusedError("nothing to redo: the last change was not a retraction")
            retraction = fold.retractions[fold.redo_candidate]
            if seat is not None and retraction.get("seat") != seat:
                raise ForbiddenError("only the seat whose moves were taken back (or an arbiter) may redo them")
            main = self._append(match, record.REDONE, actor, {"retraction": fold.redo_candidate})
            return main, [main, *self._settle(match)]

        return self._command(match_id, None, command, key)

    # ==== rulings and reveal ==================================================================
    def make_ruling(self, match_id: UUID, ruling: dict[str, Any], *, actor: Actor,
                    key: RequestKey | None = None) -> Accepted:
        """An arbiter's decision: correction (take back from a seq), penalty, forfeit, adjudicated
        result, or an illegal move that stands."""
        if actor.kind != "arbiter":
            raise ForbiddenError("only an arbiter may rule")
        if not isinstance(ruling, dict):
            raise InvalidRequestError("a ruling is an object with a 'ruling' field")
        kind = ruling.get("ruling")
        note = str(ruling.get("note", ""))[:2000]

        def command(match: Match) -> tuple[Entry, list[Entry]]:
            fold = match.fold
            fold.check_active()
            payload: dict[str, Any] = {"ruling": kind, "note": note}
            after: list[tuple[str, dict[str, Any]]] = []
            if kind == "correction":
                from_seq = _int(ruling, "from_seq")
                if not any(step.seq == from_seq for step in fold.steps):
                    raise InvalidRequestError(f"event {from_seq} is not an effective move or outcome")
                payload["from_seq"] = from_seq
                after.append((record.RETRACTED, {"request": None, "from_seq": from_seq,
                                                 "authority": "arbiter", "seat": None}))
            elif kind == "penalty":
                payload.update(seat=self._seat(fold, ruling), points=_int(ruling, "points"))
            elif kind == "forfeit":
                payload["seat"] = self._seat(fold, ruling)
            elif kind == "adjudicated-result":
                ranks = ruling.get("ranks")
                if not (isinstance(ranks, list) and len(ranks) == fold.seats
                        and all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= fold.seats
                                for r in ranks)):
                    raise InvalidRequestError(f"ranks must list a rank 1..{fold.seats} for each seat")
                payload["ranks"] = ranks
            elif kind == "illegal-move-stands":
                seat = self._seat(fold, ruling)
                if fold.decision.chance is not None or seat not in fold.decision.seats:
                    raise InvalidRequestError(f"seat {seat} is not to act now")
                move = fold.ruleset.parse_move(ruling.get("move"))
                payload.update(seat=seat, move=fold.ruleset.dump_move(move))
                if fold.decision.secret:  # as secret as the seat's own move would have been
                    payload["salt"] = derive_salt(self._seed(match_id), str(match_id), fold.seq + 1)
                try:
                    fold.ruleset.apply(fold.state, seat, move)
                except Exception as error:  # the engine cannot represent this move at all
                    raise InvalidRequestError(f"the rules engine cannot apply that move: {error}") from None
            else:
                raise InvalidRequestError(
                    "ruling must be correction, penalty, forfeit, adjudicated-result or illegal-move-stands")
            main = self._append(match, record.RULING, actor, payload)
            entries = [main]
            for kind_after, body in after:
                entries.append(self._append(match, kind_after, actor, body))
            if kind in ("forfeit", "adjudicated-result"):
                entries.extend(self._finish(match, kind))
            else:
                entries.extend(self._settle(match))
            return main, entries

        return self._command(match_id, None, command, key)

    def seed_for_arbiter(self, match_id: UUID) -> dict[str, Any]:
        """The secret seed, for an arbiter's eyes only. It enters the public record only when the
        match ends (automatically): published during play it would expose every future draw."""
        fold = self.fold(match_id)
        return {"seed": self._seed(match_id), "commitment": fold.header["seed_commitment"],
                "revealed_in_record": fold.seed is not None}

    # ==== annotations ======================================================================
    def annotate(self, match_id: UUID, seq: int, text: str, *, actor: Actor, glyphs: list[str] | None = None,
                 tags: list[str] | None = None, visibility: str = "public",
                 key: RequestKey | None = None) -> dict[str, Any]:
        """Add an annotation anchored to event `seq` and its hash."""
        fold = self.fold(match_id)
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= fold.seq:
            raise InvalidRequestError(f"there is no event {seq} (the match is at {fold.seq})")
        anchor = self.entries(match_id, seq, seq)[0]
        body = {"seq": seq, "hash": anchor.hash, "text": _text(text), "glyphs": check_glyphs(glyphs or []),
                "tags": _tags(tags or []), "visibility": check_visibility(visibility, fold.seats)}
        if body["visibility"] != "public":
            body["salt"] = secrets.token_hex(16)  # exported redacted, its hash must not give the text away

        def add(log: AnnotationLog) -> str:
            annotation_id = log.fold.next_id()  # a1, a2, ... in order of addition (older IDs kept)
            self._append_annotation(log, record.ANNOTATION_ADDED, actor, {"id": annotation_id, **body})
            return annotation_id

        return self._annotation_command(match_id, add, create=True, key=key)

    def edit_annotation(self, match_id: UUID, annotation_id: str, *, actor: Actor, text: str | None = None,
                        glyphs: list[str] | None = None, tags: list[str] | None = None,
                        visibility: str | None = None, key: RequestKey | None = None) -> dict[str, Any]:
        """Change one's own annotation; the earlier text stays in the stream."""
        changes: dict[str, Any] = {"id": annotation_id}
        if text is not None:
            changes["text"] = _text(text)
        if glyphs is not None:
            changes["glyphs"] = check_glyphs(glyphs)
        if tags is not None:
            changes["tags"] = _tags(tags)
        if visibility is not None:
            changes["visibility"] = check_visibility(visibility, self.fold(match_id).seats)

        def edit(log: AnnotationLog) -> str:
            log.fold.check_author(annotation_id, actor.to_json())
            if changes.get("visibility", log.fold.get(annotation_id)["visibility"]) != "public":
                changes["salt"] = secrets.token_hex(16)
            self._append_annotation(log, record.ANNOTATION_EDITED, actor, changes)
            return annotation_id

        return self._annotation_command(match_id, edit, create=False, key=key)

    def _annotation_command(self, match_id: UUID, change: Callable[[AnnotationLog], str],
                            create: bool, key: RequestKey | None) -> dict[str, Any]:
        """Apply a change to the annotation stream, retrying when another writer got there first."""
        for _ in range(RETRIES):
            log = self._annotation_log(match_id, create=create)
            if log is None:
                raise NotFoundError(f"match {match_id} has no annotations")
            annotation = dict(log.fold.items[change(log)])
            try:
                self.save(log, answers=[] if key is None else [key.answer(annotation)])
            except IntegrityError:
                self._check_unanswered(key)
                continue
            return annotation
        raise ConflictError(f"the annotations of {match_id} kept changing under concurrent writes; try again")

    def _append_annotation(self, log: AnnotationLog, kind: str, actor: Actor, payload: dict[str, Any]) -> None:
        fold = log.fold
        log.record(self._chain(f"{fold.match_id}/annotations", fold.seq + 1, kind, actor, payload, fold.head))

    def annotations(self, match_id: UUID, viewer: Viewer) -> list[dict[str, Any]]:
        self.fold(match_id)  # 404 for an unknown match
        log = self._annotation_log(match_id)
        if log is None:
            return []
        items = [item for item in log.fold.items.values() if visible_to(item, viewer)]
        return sorted(items, key=lambda item: (item["seq"], item["seq_in_stream"]))

    def annotation_version(self, match_id: UUID) -> int:
        """How many events the match's annotation stream holds (0: none yet)."""
        events = list(self.events.get(annotations_id(match_id), desc=True, limit=1))
        return events[0].originator_version if events else 0

    def annotation_entries(self, match_id: UUID) -> list[Entry]:
        events = self.events.get(annotations_id(match_id))
        return [Entry.from_json(event.entry) for event in events]  # type: ignore[attr-defined]

    def _annotation_log(self, match_id: UUID, create: bool = False) -> AnnotationLog | None:
        try:
            log: Any = self.repository.get(annotations_id(match_id))
            assert isinstance(log, AnnotationLog)
            return log
        except AggregateNotFoundError:
            if not create:
                return None
        entry = self._chain(f"{match_id}/annotations", 1, record.ANNOTATIONS_OPENED, Actor.system(),
                            {"match_id": str(match_id)}, GENESIS)
        return AnnotationLog._create(AnnotationLog.Created, id=annotations_id(match_id), entry=entry.to_json())

    # ==== reading ============================================================================
    def fold(self, match_id: UUID, at: int | None = None) -> MatchFold:
        """The fold at the head, or at event `at` (time travel, from the nearest snapshot)."""
        try:
            if at is None:
                match: Any = self._matches.current(match_id)
            else:
                if not isinstance(at, int) or isinstance(at, bool) or at < 1:
                    raise InvalidRequestError("positions are whole numbers from 1 (the created event)")
                head = self._matches.current(match_id).version
                if at > head:  # before the store is asked (it holds 64-bit positions at most)
                    raise InvalidRequestError(f"the match has {head} events, not {at}")
                match = self.repository.get(match_id, version=at, projector_func=self._project)
        except AggregateNotFoundError:
            raise MatchNotFoundError(f"no match {match_id}") from None
        assert isinstance(match, Match)
        if at is not None and match.version < at:
            raise InvalidRequestError(f"the match has {match.version} events, not {at}")
        return match.fold

    def known_fold(self, match_id: UUID) -> MatchFold:
        """A fold of the match that may lag behind other processes' appends: only for facts fixed
        at creation (header, seats, randomness mode). Saves a store read on the write path."""
        return self._matches.known(match_id).fold

    def entries(self, match_id: UUID, start: int = 1, stop: int | None = None) -> list[Entry]:
        """The raw (unredacted) entries from `start` to `stop` inclusive."""
        events = self.events.get(match_id, gt=min(start, MAX_POSITION) - 1,
                                 lte=None if stop is None else min(stop, MAX_POSITION))
        entries = [Entry.from_json(event.entry) for event in events]  # type: ignore[attr-defined]
        if not entries and start == 1:
            raise MatchNotFoundError(f"no match {match_id}")
        return entries

    def state(self, match_id: UUID, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        """The state as `viewer` may see it, at the head or at event `at`."""
        fold = self.fold(match_id, at)
        return state_view(fold, viewer)

    def legal_moves(self, match_id: UUID, seat: int) -> list[dict[str, Any]]:
        fold = self.fold(match_id)
        if fold.status != "active" or fold.decision.chance is not None or seat not in fold.decision.seats:
            return []
        return [fold.ruleset.dump_move(move) for move in fold.ruleset.legal_moves(fold.state, seat)]

    def log(  # type: ignore[override]  # shadows eventsourcing's deprecated `log` alias on purpose
        self, match_id: UUID, viewer: Viewer, start: int = 1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Events as `viewer` may see them, with retracted ones marked."""
        fold = self.fold(match_id)
        # never past the fold: an entry appended since would be redacted by a fold that does not
        # know it is hidden (a concurrent write could otherwise leak a face-down draw)
        stop = fold.seq if limit is None else min(start + limit - 1, fold.seq)
        return [redact(entry, fold, viewer) for entry in self.entries(match_id, start, stop)] \
            if start <= stop else []

    def score(self, match_id: UUID, at: int | None = None) -> dict[str, Any]:
        fold = self.fold(match_id, at)
        return {"seq": fold.seq, **fold.score_sheet().to_json(), "end": fold.end}

    def diff(self, match_id: UUID, a: int, b: int, viewer: Viewer) -> dict[str, Any]:
        before, after = self.state(match_id, viewer, a), self.state(match_id, viewer, b)
        return {"from": a, "to": b, "changes": diff(before, after)}

    def summary(self, match_id: UUID) -> dict[str, Any]:
        """The match's facts, with whether this server recorded it: an imported record is never
        official here, whoever signed it, and lists its signers for the reader to judge."""
        fold = self.fold(match_id)
        recorded_here = fold.created_key in self.own_keys()
        return {**summary(fold), "recorded_here": recorded_here, "imported": not recorded_here,
                "official": recorded_here and fold.header.get("fork_of") is None}

    def list_matches(self, **filters: Any) -> list[dict[str, Any]]:
        own = self.own_keys()
        rows = self.index.search(**filters)
        for row in rows:
            recorded_by = row.pop("recorded_by", None)
            row["imported"] = recorded_by is not None and recorded_by not in own
            row["official"] = row["official"] and not row["imported"]
        return rows

    # ==== bundles and verification ============================================================
    def export_bundle(self, match_id: UUID, viewer: Viewer | None = None) -> str:
        """The match's bundle as `viewer` may read it (default: the arbiter, who sees everything).
        The match's events are whole (callers let only the arbiter export a match whose hidden
        information is still hidden); the annotations the viewer may not see are redacted."""
        from .kernel.bundle import write_bundle

        entries = self.entries(match_id)
        fold = self.fold(match_id)
        annotations = self.annotation_entries(match_id)
        return write_bundle(entries, annotations, fold.config.components.content(), self.known_keys(),
                            self.key, self.clock(), redacted=hidden_entries(annotations, viewer or Viewer.arbiter()))

    def import_bundle(self, text: str, *, allow_engine_mismatch: bool = False) -> UUID:
        """Check a bundle and store its match exactly as it was (same IDs, hashes, signatures).
        It must be intact; it need not be signed by a key trusted here, because importing vouches
        for nothing: the match is marked imported, keeps its signers, and continues only where it
        was recorded. A record made under another engine version is imported only when explicitly
        allowed."""
        from .kernel.bundle import read_bundle
        from .kernel.verification import verify_bundle

        report = verify_bundle(text, allow_engine_mismatch=allow_engine_mismatch, trust=self.trust())
        if not report.intact:
            raise InvalidRequestError(f"the bundle does not verify: {report.summary()}", report=report.to_json())
        bundle = read_bundle(text)
        match_id = UUID(bundle.entries[0].stream)
        for _ in range(RETRIES):
            if self._current_version(match_id):
                raise InvalidRequestError(f"match {match_id} is already in this store")
            try:
                self.save(*self._imported(bundle, match_id))
            except IntegrityError:  # a concurrent import (of this match, or of the same set or key)
                continue
            return match_id
        raise ConflictError(f"importing match {match_id} kept colliding with concurrent writes; try again")

    def _imported(self, bundle: Any, match_id: UUID) -> list[Any]:
        """Everything an import stores: the match, its annotations and seed, new sets and keys."""
        created = bundle.entries[0]
        to_save: list[Any] = []
        _, extra = self._components_header(created.payload["game"], bundle.components)
        to_save.extend(extra)
        for key_id_, public_hex in bundle.keys.items():
            if key_id_ != self.key.key_id:
                try:
                    self.repository.get(key_record_id(key_id_))
                except AggregateNotFoundError:
                    to_save.append(KnownKey._create(KnownKey.Created, id=key_record_id(key_id_),
                                                    key_id=key_id_, public_hex=public_hex))
        match = Match.start(match_id, created)
        for entry in bundle.entries[1:]:
            match.record(entry)
        to_save.append(match)
        if bundle.annotations:
            log = AnnotationLog._create(AnnotationLog.Created, id=annotations_id(match_id),
                                        entry=bundle.annotations[0].to_json())
            for entry in bundle.annotations[1:]:
                log.record(entry)
            to_save.append(log)
        seed = match.fold.seed
        if seed is not None:
            to_save.append(MatchSecret._create(MatchSecret.Created, id=secret_id(match_id), seed=seed))
        return to_save

    def verify_match(self, match_id: UUID, receipts: Iterable[Any] = (), trust: Trust | None = None) -> Any:
        """The verification report of the stored record, against this server's own keys (and any
        further `trust`), checking a player's `receipts` too when given."""
        from .kernel.verification import verify_bundle

        anchors = self.trust() if trust is None else self.trust().merge(trust)
        return verify_bundle(self.export_bundle(match_id), trust=anchors, receipts=list(receipts))

    # ==== snapshots =========================================================================
    def take_snapshot(self, aggregate_id: UUID, version: int | None = None,
                      projector_func: Any = project_match) -> None:
        """Snapshots of matches are sealed: signed by this server over the match, the version and
        the fold, so that a snapshot edited in the store is never used (see `_project`)."""
        assert self.snapshots is not None
        aggregate: Any = self.repository.get(aggregate_id, version=version, projector_func=self._project)
        if not isinstance(aggregate, Match):
            super().take_snapshot(aggregate_id, version, projector_func)
            return
        self.snapshots.put([MatchSnapshot.take(aggregate, sealer=self.key)])

    def _project(self, aggregate: Any, events: Iterable[Any]) -> Any:
        """Fold stored events onto a match, checking a snapshot's seal before using it. A snapshot
        that fails (edited, unsealed, or sealed by a key this server does not hold) is reported and
        replaced by a fold of the events up to it: the record, not the snapshot, is the truth."""
        for event in events:
            if isinstance(event, MatchSnapshot):
                problem = event.seal_problem(self.own_keys())
                if problem is not None:
                    self.snapshot_rejections += 1
                    logger.warning("snapshot of match %s at event %d not used (%s): folded from the events instead",
                                   event.originator_id, event.originator_version, problem)
                    aggregate = project_match(None, self.events.get(event.originator_id,
                                                                    lte=event.originator_version))
                    continue
            aggregate = event.mutate(aggregate)
        return aggregate

    # ==== internals =========================================================================
    def _command(self, match_id: UUID, expected_version: int | None,
                 command: Callable[[Match], tuple[Entry, list[Entry]]], key: RequestKey | None = None) -> Accepted:
        """Run a command to its end, saving in this thread."""
        steps = self._command_steps(match_id, expected_version, command, key)
        step: tuple[Match, list[Answer]] | Accepted = next(steps)
        while not isinstance(step, Accepted):
            try:
                self._commits.save(*step)
            except IntegrityError as refusal:
                step = _advance(steps, refusal)
            else:
                step = _advance(steps, None)
        return step

    async def _command_async(self, match_id: UUID, expected_version: int | None,
                             command: Callable[[Match], tuple[Entry, list[Entry]]],
                             key: RequestKey | None = None) -> Accepted:
        """The same, for an event loop: the checks run here, the wait for the commit holds no thread."""
        steps = self._command_steps(match_id, expected_version, command, key)
        step: tuple[Match, list[Answer]] | Accepted = next(steps)
        while not isinstance(step, Accepted):
            try:
                await self._commits.commit(*step)
            except IntegrityError as refusal:
                step = _advance(steps, refusal)
            else:
                step = _advance(steps, None)
        return step

    def _command_steps(self, match_id: UUID, expected_version: int | None,
                       command: Callable[[Match], tuple[Entry, list[Entry]]], key: RequestKey | None,
                       ) -> CommandSteps:
        """A command's attempts: each yields the match to save (with the answer to store for its
        request key) and is sent back the save's `IntegrityError` (another writer appended first,
        or the key was answered meanwhile) or None. One logic for both drivers."""
        fresh = False  # the first try trusts this process's cached copy; later ones re-read the store
        for _ in range(RETRIES):
            match = self._matches.for_command(match_id, fresh)
            try:
                match.fold.check_engine()
                self._check_recorded_here(match.fold)
                if expected_version is not None and match.version != expected_version:
                    raise StaleVersionError(expected_version, match.version)
                rotation = self._hand_over_key(match)
                main, entries = command(match)
                if rotation is not None:
                    entries = [rotation, *entries]
            except RingsideError:
                if fresh:
                    raise
                fresh = True  # never refuse on a copy that another process may have outdated
                continue
            accepted = self._accepted(match, main, tuple(entries))
            answers = [] if key is None else [key.answer(accepted)]
            conflict = yield match, answers
            if conflict is not None:
                self._check_unanswered(key)
                if expected_version is not None:
                    raise StaleVersionError(expected_version, self._current_version(match_id)) from None
                fresh = True
                continue
            self._matches.keep(match)
            return replace(accepted, answer=answers[0] if answers else None)
        raise ConflictError(f"match {match_id} kept changing under concurrent writes; try again")

    def answer(self, scope: str) -> Answer | None:
        """The stored answer to a keyed request, if it was answered."""
        recorder = self.recorder
        assert isinstance(recorder, AnswerRecorder)
        return recorder.select_answer(scope)

    def prune_answers(self, older_than: timedelta) -> int:
        """Forget the answers to idempotency keys stored more than `older_than` ago; returns how
        many. A retry with a forgotten key runs again as a new request: a move sent with its
        expected version is then refused as stale rather than applied twice. Keys are meant to
        be retried within minutes, so a retention of days loses nothing in practice."""
        recorder = self.recorder
        assert isinstance(recorder, AnswerRecorder)
        now = datetime.strptime(recorder.clock(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        cutoff = utc_text(now - older_than)
        with self._exclusive():
            return recorder.prune_answers(cutoff)

    def record_answer(self, answer: Answer) -> None:
        """Keep the answer to a keyed request that changed nothing (a refusal), unless the key was
        answered meanwhile."""
        self._commits.save(None, [replace(answer, final=False)])

    async def record_answer_async(self, answer: Answer) -> None:
        await self._commits.commit(None, [replace(answer, final=False)])

    def _check_unanswered(self, key: RequestKey | None) -> None:
        """After a refused save: if the request's key was answered meanwhile (a duplicate won the
        race), retrying would only collide again; the caller replays the stored answer."""
        if key is not None and self.answer(key.scope) is not None:
            raise ConflictError("a request with this key was answered meanwhile")

    def _check_recorded_here(self, fold: MatchFold) -> None:
        """A match whose record another server signed continues only there: appending here would
        fork its history under the same ID. It can still be read, verified, annotated and forked."""
        if fold.record_key != self.key.key_id and fold.record_key not in self.retired_keys:
            raise ForbiddenError(
                f"this match was recorded by another server (key {fold.record_key}); it can be read, "
                "verified, annotated and forked here, but continues only where it is recorded")

    def _hand_over_key(self, match: Match) -> Entry | None:
        """Before this server appends to a record signed with a key it has since retired, the old key
        hands the record over to the current one: the only way a verifier accepts the new key's
        signatures on the events that follow."""
        fold = match.fold
        old = self.retired_keys.get(fold.record_key)
        if old is None:
            return None
        payload = {"key": self.key.key_id, "public_key": self.key.public_hex}
        rotation = self._chain(fold.match_id, fold.seq + 1, record.KEY_ROTATED, Actor.system(), payload,
                               fold.head, signer=old)
        match.record(rotation)
        return rotation

    def _current_version(self, match_id: UUID) -> int:
        events = list(self.events.get(match_id, desc=True, limit=1))
        return events[0].originator_version if events else 0

    def _accepted(self, match: Match, main: Entry, entries: tuple[Entry, ...]) -> Accepted:
        receipt = Receipt(main.stream, main.seq, main.hash, main.sig, main.key)
        return Accepted(receipt, match.version, entries, match.fold)

    def _seed(self, match_id: UUID) -> str:
        seed = self._seeds.get(match_id)
        if seed is None:
            try:
                secret: Any = self.repository.get(secret_id(match_id))
            except AggregateNotFoundError:  # imported before it ended: the seed stayed with its server
                raise ForbiddenError(
                    f"the secret seed of match {match_id} is not held here (it was imported while in play): "
                    "its chance outcomes, secret moves and end cannot be recorded in this store") from None
            assert isinstance(secret, MatchSecret)
            seed = self._seeds[match_id] = secret.seed
        return seed

    def _chain(self, stream: str, seq: int, kind: str, actor: Actor, payload: dict[str, Any], prev: str,
               signer: ServerKey | None = None) -> Entry:
        signer = signer or self.key
        actor_json = actor.to_json()
        at = self.clock()
        hash_ = event_hash(stream, seq, kind, actor_json, at, payload, prev)
        return Entry(stream, seq, kind, actor_json, at, payload, prev, hash_,
                     signer.sign_head(stream, seq, hash_), signer.key_id)

    def _append(self, match: Match, kind: str, actor: Actor, payload: dict[str, Any]) -> Entry:
        fold = match.fold
        entry = self._chain(fold.match_id, fold.seq + 1, kind, actor, payload, fold.head)
        match.record(entry)
        return entry

    def _append_chance(self, match: Match, outcome: JSON, derivation: dict[str, Any],
                       actor: Actor | None = None) -> Entry:
        fold = match.fold
        spec = fold.decision.chance
        assert spec is not None
        payload: dict[str, Any] = {"kind": spec.kind, "outcome": outcome, "derivation": derivation}
        if spec.visible_to != "all":
            payload["salt"] = derive_salt(self._seed(UUID(fold.match_id)), fold.match_id, fold.seq + 1)
        return self._append(match, record.CHANCE, actor or Actor.system(), payload)

    def _settle(self, match: Match) -> list[Entry]:
        """Append what follows automatically: server-mode chance outcomes and the end of the match."""
        fold = match.fold
        appended: list[Entry] = []
        while fold.status == "active":
            decision = fold.decision
            if decision.over:
                appended.extend(self._finish(match, "completed"))
                break
            if decision.chance is None or fold.randomness != "server":
                break
            if fold.awaiting_entropy:  # entropy_from "seats": no draw before every seat's entropy
                break
            derived = derive_outcome(self._seed(UUID(fold.match_id)), fold.match_id, fold.entropy,
                                     fold.seq + 1, decision.chance)
            appended.append(self._append_chance(match, derived.outcome, {
                "mode": "server", "index": derived.index, "draw": derived.draw}))
        return appended

    def _finish(self, match: Match, reason: str) -> list[Entry]:
        fold = match.fold
        last_ruling = fold.last_ruling
        ranks = last_ruling.get("ranks") if reason == "adjudicated-result" else None
        forfeits = (last_ruling["seat"],) if reason == "forfeit" else ()
        result = fold.result(reason, ranks, forfeits)
        ended = self._append(match, record.ENDED, Actor.system(), {
            "reason": reason, "result": result.to_json(), "scores": fold.score_sheet().to_json(),
            "state_hash": fold.ruleset.state_hash(fold.state)})
        revealed = self._append(match, record.SEED_REVEALED, Actor.system(),
                                {"seed": self._seed(UUID(fold.match_id))})
        return [ended, revealed]

    def _seat(self, fold: MatchFold, body: dict[str, Any]) -> int:
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < fold.seats:
            raise InvalidRequestError(f"seat must be 0..{fold.seats - 1}")
        return seat


CommandSteps = Generator[tuple[Match, list[Answer]], IntegrityError | None, Accepted]


def _advance(steps: CommandSteps, refusal: IntegrityError | None) -> tuple[Match, list[Answer]] | Accepted:
    """Tell a command how its save went: the next attempt to save, or the command's answer."""
    try:
        return steps.send(refusal)
    except StopIteration as finished:
        accepted: Accepted = finished.value
        return accepted


def _check_player(seat: int, actor: Actor) -> None:
    """A seat's player acts only for that seat (substitutes, bots, recorders and arbiters act for any)."""
    if actor.kind == "seat" and actor.seat != seat:
        raise ForbiddenError(f"seat {actor.seat}'s player cannot act for seat {seat}")


def _check_answerer(seat: int | None, actor: Actor) -> None:
    """Seat None means the arbiter decides: only an arbiter may; a seat's player acts only for itself."""
    if seat is None and actor.kind != "arbiter":
        raise ForbiddenError("only an arbiter decides for the arbiter; a seat answers as its own seat")
    if seat is not None and actor.kind == "seat" and actor.seat != seat:
        raise ForbiddenError(f"seat {actor.seat}'s player cannot act for seat {seat}")


def _start_position(ruleset: Any, variant: str, options: Any, seats: int, components: dict[str, Any] | None,
                    position: Any) -> dict[str, Any]:
    """A match's starting position, validated against the game (InvalidPositionError naming the
    field and the rule) and in the normal form its created event records."""
    from .kernel.components import load_components

    chosen = ruleset.default_components() if components is None else \
        load_components(ruleset.components_model, components)
    return normal_position(ruleset, MatchConfig(variant, options, seats, chosen), position)


def _check_entropy_policy(entropy_from: Any, randomness: str) -> None:
    if entropy_from is not None and entropy_from != "seats":
        raise InvalidRequestError("entropy_from must be 'seats' (or left out: the entropy given at creation only)")
    if entropy_from == "seats" and randomness != "server":
        raise InvalidRequestError(
            "seat entropy is for outcomes the server draws: a match in recorded mode takes its outcomes "
            "from the table, so it cannot take entropy from its seats (use randomness 'server')")


def decision_json(fold: MatchFold) -> dict[str, Any]:
    """The fold's decision as JSON; a chance event that waits for seat entropy says from whom."""
    data = fold.decision.to_json()
    if fold.decision.chance is not None and fold.awaiting_entropy:
        data["awaiting_entropy"] = fold.awaiting_entropy
    return data


def _is_seed(seed: Any) -> bool:
    """A secret seed is hex text of at least 128 bits (what bytes.fromhex reads, without spaces)."""
    return (isinstance(seed, str) and len(seed) >= 32 and len(seed) % 2 == 0
            and all(c in "0123456789abcdefABCDEF" for c in seed))


def _name_text(name: str) -> bool:
    """A name every store, list and terminal can hold: no control characters (NUL, which
    PostgreSQL's text refuses, tabs, line breaks, escapes), line separators or lone surrogates."""
    return name.isprintable() or all(unicodedata.category(c) not in ("Cc", "Cs", "Zl", "Zp") for c in name)


def _int(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRequestError(f"{key} must be a whole number")
    return value


def _text(text: str) -> str:
    if not isinstance(text, str) or len(text) > 10_000:
        raise InvalidRequestError("annotation text must be a string of at most 10,000 characters")
    return text


def _tags(tags: list[str]) -> list[str]:
    if not isinstance(tags, (list, tuple)) or len(tags) > 20 \
            or not all(isinstance(tag, str) and 0 < len(tag) <= 40 for tag in tags):
        raise InvalidRequestError("tags must be up to 20 strings of 1–40 characters")
    return sorted(set(tags))


def state_view(fold: MatchFold, viewer: Viewer) -> dict[str, Any]:
    """What a viewer sees of a fold: position, decision, the game's own view and the scores."""
    return {
        "match_id": fold.match_id, "seq": fold.seq, "status": fold.status,
        "decision": decision_json(fold) if fold.status == "active" else {"over": True, "seats": []},
        "state": fold.ruleset.view(fold.state, viewer),
        "scores": list(fold.score_sheet().totals()),
        "end": fold.end,
    }


def summary(fold: MatchFold) -> dict[str, Any]:
    header = fold.header
    return {
        "match_id": fold.match_id, "game": header["game"], "variant": header["variant"],
        "options": header["options"], "seats": header["seats"], "status": fold.status,
        "version": fold.seq, "head": fold.head, "randomness": header["randomness"],
        "undo_policy": header["undo_policy"], "engine_version": header["engine_version"],
        "engine_mismatch": {"recorded": fold.recorded_engine, "running": fold.ruleset.engine_version}
        if fold.engine_mismatch else None,
        "components": header["components"], "seed_commitment": header["seed_commitment"],
        "signed_by": sorted(fold.signing_keys),
        "fork_of": header.get("fork_of"), "official": header.get("fork_of") is None,
        "setup": "position" if "position" in header else "standard",
        "created_at": fold.created_at, "last_activity": fold.last_at, "end": fold.end,
        "decision": decision_json(fold) if fold.status == "active" else None,
        "pending_undo": [r.to_json() for r in fold.undo.values() if r.status == "pending"],
        **({"entropy_from": fold.entropy_from, "awaiting_entropy": fold.awaiting_entropy}
           if fold.entropy_from is not None else {}),
    }
