"""The application's own aggregates besides the match: the secret seed, custom component sets and the
keys of imported records, each with the stable topics it has always been stored under, and the IDs
they are stored at.

Why stable topics: eventsourcing stores each event with its class's topic and resolves the class
from it when it reads the event back. These classes say their topics (`TOPIC`), so the event
classes can move between modules (they did: from `domain/application.py` into this package)
without orphaning a stored event; `tests/kernel/test_stored_records.py` reads a store written
before the move.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate


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


def secret_id(match_id: UUID) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:match-secret:{match_id}")


def annotations_id(match_id: UUID) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:annotations:{match_id}")


def components_id(game: str, content_hash: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:components:{game}:{content_hash}")


def key_record_id(key_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"ringside:key:{key_id}")

