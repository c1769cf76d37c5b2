"""The match aggregate: a match's record on `eventsourcing`, one event class per kind.

Each event carries one `Entry` (see record.py) and applying it advances the aggregate's
`MatchFold`. Topics are explicit, stable names ("ringside.match.move/1"), never module paths, so
moving code never orphans stored events; every class has a `class_version` for upcasting.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.utils import get_topic, register_topic, resolve_topic

from . import record
from .fold import MatchFold
from .record import Entry


class Match(Aggregate):
    """A match's record. All mutation goes through `record(entry)`."""

    TOPIC = "ringside.match/1"

    class Event(Aggregate.Event):
        TOPIC = "ringside.match.event/1"
        class_version = 1
        entry: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Match)
            aggregate.fold.consume(Entry.from_json(self.entry))

    class Created(Event, Aggregate.Created):
        TOPIC = "ringside.match.created/1"
        class_version = 1

        def apply(self, aggregate: Aggregate) -> None:
            """The created entry is consumed by __init__; nothing more to apply."""

    class MoveApplied(Event):
        TOPIC = "ringside.match.move/1"
        class_version = 1

    class ChanceResolved(Event):
        TOPIC = "ringside.match.chance/1"
        class_version = 1

    class UndoRequested(Event):
        TOPIC = "ringside.match.undo-requested/1"
        class_version = 1

    class UndoAnswered(Event):
        TOPIC = "ringside.match.undo-answered/1"
        class_version = 1

    class MovesRetracted(Event):
        TOPIC = "ringside.match.retracted/1"
        class_version = 1

    class MovesRedone(Event):
        TOPIC = "ringside.match.redone/1"
        class_version = 1

    class SeedRevealed(Event):
        TOPIC = "ringside.match.seed-revealed/1"
        class_version = 1

    class RulingMade(Event):
        TOPIC = "ringside.match.ruling/1"
        class_version = 1

    class MatchEnded(Event):
        TOPIC = "ringside.match.ended/1"
        class_version = 1

    class EntropyAdded(Event):
        TOPIC = "ringside.match.entropy-added/1"
        class_version = 1

    EVENT_BY_KIND: ClassVar[dict[str, type[Event]]] = {}

    def __init__(self, entry: dict[str, Any]) -> None:
        self.fold = MatchFold(Entry.from_json(entry))

    @classmethod
    def start(cls, match_id: UUID, entry: Entry) -> Match:
        match = cls._create(cls.Created, id=match_id, entry=entry.to_json())
        return match

    def record(self, entry: Entry) -> None:
        """Append one entry (its seq must be the next version)."""
        self.trigger_event(self.EVENT_BY_KIND[entry.kind], entry=entry.to_json())

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.__dict__["_pending_events"] = []
        clone.__dict__["fold"] = self.fold.__deepcopy__(memo)
        return clone


Match.EVENT_BY_KIND.update({
    record.MOVE: Match.MoveApplied,
    record.CHANCE: Match.ChanceResolved,
    record.UNDO_REQUESTED: Match.UndoRequested,
    record.UNDO_ANSWERED: Match.UndoAnswered,
    record.RETRACTED: Match.MovesRetracted,
    record.REDONE: Match.MovesRedone,
    record.SEED_REVEALED: Match.SeedRevealed,
    record.RULING: Match.RulingMade,
    record.ENDED: Match.MatchEnded,
    record.ENTROPY_ADDED: Match.EntropyAdded,
})


class MatchSnapshot(Snapshot):
    """A snapshot holding the fold's JSON form, so games need no custom transcodings."""

    TOPIC = "ringside.match.snapshot/1"

    @classmethod
    def take(cls, aggregate: Any) -> MatchSnapshot:
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            topic=get_topic(type(aggregate)),
            state={
                "fold": aggregate.fold.to_snapshot(),
                "created_on": aggregate.created_on.isoformat(),
                "modified_on": aggregate.modified_on.isoformat(),
            },
        )

    def mutate(self, _: Any) -> Any:
        cls = resolve_topic(self.topic)
        aggregate = object.__new__(cls)
        object.__setattr__(aggregate, "__dict__", {
            "_id": self.originator_id,
            "_version": self.originator_version,
            "_created_on": datetime.fromisoformat(self.state["created_on"]),
            "_modified_on": datetime.fromisoformat(self.state["modified_on"]),
            "_pending_events": [],
            "fold": MatchFold.from_snapshot(self.state["fold"]),
        })
        return aggregate


# eventsourcing's take_snapshot() prefers the aggregate's nested `Snapshot` class over the
# application's `snapshot_class`, and every Aggregate inherits a default one that cannot encode
# the fold; point it at the JSON snapshot.
Match.Snapshot = MatchSnapshot
register_topic(MatchSnapshot.TOPIC, MatchSnapshot)  # stored snapshots resolve in a fresh process
