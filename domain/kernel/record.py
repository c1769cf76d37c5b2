"""One entry of a record: a hash-chained, signed event in a match's (or annotations') stream.

This is the unit stored inside each eventsourcing event, exported line by line in bundles, and
re-checked by verification. Kinds are stable strings; their payloads are documented in
docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .canonical import JSON
from .integrity import event_hash, head_message, verify_signature

CREATED = "created"
MOVE = "move"
CHANCE = "chance"
UNDO_REQUESTED = "undo-requested"
UNDO_ANSWERED = "undo-answered"
RETRACTED = "retracted"
REDONE = "redone"
SEED_REVEALED = "seed-revealed"
RULING = "ruling"
ENDED = "ended"
KEY_ROTATED = "key-rotated"
"""The recording server hands its authority over this record to a new signing key; signed by the
old key, it is the only way another key may sign the events that follow."""
ENTROPY_ADDED = "entropy-added"

MATCH_KINDS = (CREATED, MOVE, CHANCE, UNDO_REQUESTED, UNDO_ANSWERED, RETRACTED, REDONE,
               SEED_REVEALED, RULING, ENDED, KEY_ROTATED, ENTROPY_ADDED)

ANNOTATIONS_OPENED = "annotations-opened"
ANNOTATION_ADDED = "annotation-added"
ANNOTATION_EDITED = "annotation-edited"
ANNOTATION_KINDS = (ANNOTATIONS_OPENED, ANNOTATION_ADDED, ANNOTATION_EDITED)


@dataclass(frozen=True)
class Entry:
    """A recorded event: position, kind, who, when, what, and its place in the chain."""

    stream: str
    seq: int
    kind: str
    actor: dict[str, Any]
    at: str
    payload: dict[str, Any]
    prev: str
    hash: str
    sig: str
    key: str

    def expected_hash(self) -> str:
        return event_hash(self.stream, self.seq, self.kind, self.actor, self.at, self.payload, self.prev)

    def signature_valid(self, public_hex: str) -> bool:
        return verify_signature(public_hex, head_message(self.stream, self.seq, self.hash), self.sig)

    def to_json(self) -> dict[str, JSON]:
        return {
            "stream": self.stream, "seq": self.seq, "kind": self.kind, "actor": self.actor,
            "at": self.at, "payload": self.payload, "prev": self.prev, "hash": self.hash,
            "sig": self.sig, "key": self.key,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        """The entry a record line (or stored event) holds (KeyError names a missing field). Made
        as the generated `__init__` makes it, without its ten frozen-attribute calls: a bundle's
        reader makes one per line."""
        entry = object.__new__(cls)
        entry.__dict__.update(
            stream=data["stream"], seq=data["seq"], kind=data["kind"], actor=data["actor"],
            at=data["at"], payload=data["payload"], prev=data["prev"], hash=data["hash"],
            sig=data["sig"], key=data["key"],
        )
        return entry
