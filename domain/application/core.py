"""The application's core: the store, the keys, the cache and the reading primitives every
command and query is built on.

`RingsideCore` composes eventsourcing's application with Ringside's persistence (group commit,
the writer lock, the answers recorder, the match index) and holds what both sides need: the
server's keys, the custom component sets, a match's fold at any position (time travel, from a
sealed snapshot), its raw entries, the secret seed, and the signing of one hash-chained entry.
Commands (`writing.py`, `commands.py`, `annotating.py`) and queries (`queries.py`) are mixins on
it, composed into `Ringside` in `app.py`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Self
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Recording, Transcoder

from ..kernel import component_store, record
from ..kernel.annotations import AnnotationLog
from ..kernel.clock import Clock, utc_now
from ..kernel.errors import ForbiddenError, InvalidRequestError, MatchNotFoundError
from ..kernel.fold import MatchFold
from ..kernel.integrity import GENESIS, ServerKey, event_hash, load_retired_keys
from ..kernel.match import Match, MatchSnapshot
from ..kernel.record import Entry
from ..kernel.registry import get_game
from ..kernel.steps import CHUNK
from ..kernel.trust import Trust
from ..kernel.viewers import Actor
from ..plugins import install_games
from ..store.group_commit import GroupCommit
from ..store.index import MatchIndex
from ..store.saving import ClassCheckedSave
from ..store.settings import StoreSettings
from ..store.transcoder import OrjsonReadTranscoder
from ..store.write_lock import WriteLock
from .aggregates import ComponentSetRecord, KnownKey, MatchSecret, annotations_id, components_id, secret_id
from .cache import MatchCache, PositionCache, project_match

MAX_POSITION = 2**62
"""Beyond any match's length and within what SQLite and PostgreSQL can compare positions with."""


class RingsideCore(ClassCheckedSave):
    """The application's store, keys and reading primitives. Construct `Ringside` (app.py)."""

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
        self._positions = PositionCache(self, self.CACHE_SIZE, self._project)
        self._write_lock = None if settings.is_postgres else WriteLock(settings.sqlite_path().with_suffix(".lock"))
        self._commits = GroupCommit(self)
        self.index = MatchIndex(self, settings)
        component_store.add_loader(self._load_components)

    @classmethod
    def open(cls, data_dir: Path | str | None = None, store: str | None = None,
             key: ServerKey | None = None, clock: Clock | None = None) -> Self:
        """The application on the configured store (SQLite in the data dir unless a PostgreSQL URL),
        with every installed game registered: this is where the service and the CLI are composed."""
        install_games()
        return cls(StoreSettings.resolve(data_dir, store), key=key, clock=clock)

    def construct_transcoder(self) -> Transcoder:
        """The library's JSON transcoder, reading with orjson (`store/transcoder.py` says why)."""
        transcoder = OrjsonReadTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

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

    @property
    def _held_keys(self) -> dict[str, ServerKey]:
        """The keys this server holds (its current one and those it retired), by ID: the ones
        whose seals on its stored snapshots it accepts."""
        return {self.key.key_id: self.key, **self.retired_keys}

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
        from ..kernel.components import load_components

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

    # ==== reading ============================================================================
    def fold(self, match_id: UUID, at: int | None = None) -> MatchFold:
        """The fold at the head, or at event `at` (time travel: from the nearest position read
        lately, else from the nearest snapshot; read-only either way)."""
        try:
            if at is None:
                match: Any = self._matches.current(match_id)
            else:
                if not isinstance(at, int) or isinstance(at, bool) or at < 1:
                    raise InvalidRequestError("positions are whole numbers from 1 (the created event)")
                if at > MAX_POSITION:  # before the store is asked (it holds 64-bit positions at most)
                    head = self._matches.current(match_id).version
                    raise InvalidRequestError(f"the match has {head} events, not {at}")
                # bounded by what the read gives: the head is not read first (a store query per
                # position, as much as the position's own read when the position is kept)
                match = self._positions.at(match_id, at)
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

    # ==== signing ============================================================================
    def _chain(self, stream: str, seq: int, kind: str, actor: Actor, payload: dict[str, Any], prev: str,
               signer: ServerKey | None = None) -> Entry:
        """One entry of a stream, hash-chained to `prev` and signed (by this server's key unless
        `signer`), its payload first checked against its kind's model (kernel/payloads.py)."""
        from ..kernel.payloads import check_payload  # the payload models: a process that only reads never loads them

        signer = signer or self.key
        check_payload(kind, payload)  # what verification checks of it: never sign what it would refuse
        actor_json = actor.to_json()
        at = self.clock()
        hash_ = event_hash(stream, seq, kind, actor_json, at, payload, prev)
        return Entry(stream, seq, kind, actor_json, at, payload, prev, hash_,
                     signer.sign_head(stream, seq, hash_), signer.key_id)

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

    def _take_snapshots(self, processing_event: Any) -> None:
        """The library's snapshots every `snapshotting_intervals` events, and one more after a
        deep retraction (more than `CHUNK` steps taken back, as an arbiter's correction of an early
        step): a reader restoring an earlier snapshot would otherwise replay the match from setup
        to reach the retraction's cut at every position after it, until the next snapshot."""
        super()._take_snapshots(processing_event)
        if not self.snapshots:
            return
        interval = self.snapshotting_intervals[Match]
        for event in processing_event.events:
            if event.originator_version % interval == 0 or not isinstance(event, Match.MovesRetracted):
                continue
            aggregate = processing_event.aggregates.get(event.originator_id)
            if not isinstance(aggregate, Match):
                continue
            retraction = aggregate.fold.retractions.get(event.originator_version)
            if retraction is not None and len(retraction["steps"]) > CHUNK:
                self.take_snapshot(event.originator_id, event.originator_version)

    def _project(self, aggregate: Any, events: Iterable[Any]) -> Any:
        """Fold stored events onto a match, checking a snapshot's seal before using it. A snapshot
        that fails (edited, unsealed, or sealed by a key this server does not hold) is reported and
        replaced by a fold of the events up to it: the record, not the snapshot, is the truth."""
        for event in events:
            if isinstance(event, MatchSnapshot):
                problem = event.seal_problem(self._held_keys)
                if problem is not None:
                    self.snapshot_rejections += 1
                    import logging  # only to warn: a process that has nothing to say never loads it

                    logging.getLogger("ringside").warning(
                        "snapshot of match %s at event %d not used (%s): folded from the events instead",
                        event.originator_id, event.originator_version, problem)
                    aggregate = project_match(None, self.events.get(event.originator_id,
                                                                    lte=event.originator_version))
                    continue
            aggregate = event.mutate(aggregate)
        return aggregate
