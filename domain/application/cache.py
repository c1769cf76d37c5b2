"""The per-process match caches (the head of recent matches, and positions that time travel
reads), and the projector that folds stored events onto a match."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application

from ..kernel.errors import MatchNotFoundError
from ..kernel.match import Match


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


class PositionCache:
    """Matches as of positions on a grid (every `STRIDE` events) that time travel read lately.

    Why: a position is rebuilt from the nearest snapshot (every 100 events) by folding up to 99
    events through the rules engine, which costs far more per event than the store's read. The
    record never changes below its head, so the match at a position is a value: kept here, a
    position near it is its copy plus fewer than `STRIDE` events, and scrubbing through a match
    (a commentator's time travel) folds each stretch of events once per process. Bounded by
    `size` positions, least recently used first out."""

    STRIDE = 10

    def __init__(self, app: Application[UUID], size: int,
                 project: Callable[[Any, Iterable[Any]], Any] | None = None) -> None:
        self.app = app
        self.size = size
        self.project = project or project_match
        self._items: OrderedDict[tuple[UUID, int], Match] = OrderedDict()
        self._lock = threading.Lock()

    def at(self, match_id: UUID, version: int) -> Match:
        """The match as of event `version`, or at its head if the record holds fewer events (the
        caller refuses such a position: one store read then both reads and bounds it).
        Read-only: callers must not change it."""
        stop = version - version % self.STRIDE
        if stop < 1:
            return self._load(match_id, version)
        with self._lock:
            base = self._items.get((match_id, stop))
            if base is not None:
                self._items.move_to_end((match_id, stop))
        if base is None:
            base = self._load(match_id, stop)
            if base.version < stop:  # past the head: nothing to keep (the caller refuses the position)
                return base
            with self._lock:
                self._items[(match_id, stop)] = base
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        if base.version >= version:
            return base
        match = copy.deepcopy(base)
        for event in self.app.events.get(match_id, gt=base.version, lte=version):
            event.mutate(match)  # type: ignore[attr-defined]
        return match

    def _load(self, match_id: UUID, version: int) -> Match:
        loaded: Any = self.app.repository.get(match_id, version=version, projector_func=self.project)
        assert isinstance(loaded, Match)
        return loaded


def project_match(aggregate: Any, events: Iterable[Any]) -> Any:
    """Fold stored events onto a match. Unlike eventsourcing's generic projector it skips a runtime
    protocol check per event, which costs more than folding a move: time travel folds up to 99."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate

