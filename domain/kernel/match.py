"""The match aggregate: a match's record on `eventsourcing`, one event class per kind.

Each event carries one `Entry` (see record.py) and applying it advances the aggregate's
`MatchFold`. Topics are explicit, stable names ("ringside.match.move/1"), never module paths, so
moving code never orphans stored events; every class has a `class_version` for upcasting.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.utils import get_topic, register_topic, resolve_topic

from . import record
from .canonical import encode, encode_parsed
from .fold import MatchFold
from .integrity import ServerKey, verify_signature
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

    class KeyRotated(Event):
        TOPIC = "ringside.match.key-rotated/1"
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
    record.KEY_ROTATED: Match.KeyRotated,
    record.ENTROPY_ADDED: Match.EntropyAdded,
})


def seal_message(match_id: UUID, version: int, fold: dict[str, Any], parsed: bool = False) -> bytes:
    """What a snapshot's seal signs: which match, at which version, holding exactly this fold.
    `parsed`: the fold as read back from the store, written by orjson alone (`encode_parsed`): the
    same bytes for a fold that is what was sealed, without normalizing every value first (the
    seal check runs at every cold read). Never the only check: see `seal_problem`."""
    body = {"match": str(match_id), "version": version, "fold": fold}
    return b"ringside-snapshot\n" + (encode_parsed(body) if parsed else encode(body))


class MatchSnapshot(Snapshot):
    """A snapshot holding the fold's JSON form, so games need no custom transcodings."""

    TOPIC = "ringside.match.snapshot/1"

    @classmethod
    def take(cls, aggregate: Any, sealer: ServerKey | None = None) -> MatchSnapshot:
        fold = aggregate.fold.to_snapshot()
        state: dict[str, Any] = {
            "fold": fold,
            "created_on": aggregate.created_on.isoformat(),
            "modified_on": aggregate.modified_on.isoformat(),
        }
        if sealer is not None:
            message = seal_message(aggregate.id, aggregate.version, fold)
            state["seal"] = {"key": sealer.key_id, "mac": sealer.seal(message)}
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            topic=get_topic(type(aggregate)),
            state=state,
        )

    def seal_problem(self, keys: Mapping[str, ServerKey]) -> str | None:
        """Why this snapshot must not be used, or None when its seal holds. The seal binds the fold
        (state, scores, head hash) to the match and version it was taken at, so an edited or moved
        snapshot fails; one made before seals existed fails too, and is simply not used. `keys`:
        the keys this server holds, by ID. A seal is an HMAC tag (`mac`, ServerKey.seal); stores
        written before tags hold Ed25519 signatures (`sig`), still checked as they were."""
        seal = self.state.get("seal")
        if not isinstance(seal, dict):
            return "not sealed"
        key = keys.get(str(seal.get("key")))
        if key is None:
            return f"sealed by key {seal.get('key')}, which this server does not hold"

        def holds(message: bytes) -> bool:
            return key.seal_holds(message, seal["mac"]) if "mac" in seal \
                else verify_signature(key.public_hex, message, str(seal.get("sig")))

        # First the fold as orjson writes it: when those bytes are the sealed ones, the fold is the
        # sealed one, normalized (orjson writes distinct values as distinct bytes); else the
        # canonical encoding decides, as it always did, so nothing holds that did not before.
        try:
            sealed = holds(seal_message(self.originator_id, self.originator_version, self.state["fold"], parsed=True)) \
                or holds(seal_message(self.originator_id, self.originator_version, self.state["fold"]))
        except Exception as error:  # an edited fold that is not even canonical JSON
            return f"unreadable ({type(error).__name__})"
        if not sealed:
            return "its seal does not match its content"
        if self.state["fold"].get("seq") != self.originator_version:
            return "its fold is not at the version it is stored at"
        return None

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
