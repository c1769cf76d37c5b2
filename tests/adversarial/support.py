"""Helpers for the adversarial suite: run a command that must be refused, and prove nothing changed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle, write_bundle
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey, event_hash
from domain.kernel.record import Entry


def record_of(app: Ringside, match_id: uuid.UUID) -> tuple[list[str], list[str]]:
    """The entry hashes of a match and of its annotation stream."""
    return ([e.hash for e in app.entries(match_id)], [e.hash for e in app.annotation_entries(match_id)])


def refused(app: Ringside, match_id: uuid.UUID, command: Callable[[], Any],
            error: type[RingsideError] = RingsideError) -> RingsideError:
    """Run a command that must fail with a typed error and leave the record exactly as it was."""
    before = record_of(app, match_id)
    with pytest.raises(error) as caught:
        command()
    assert record_of(app, match_id) == before
    return caught.value


def reforge(text: str, change: Callable[[list[dict[str, Any]]], None], signer: ServerKey,
            keys: dict[str, str] | None = None, key_id: str | None = None) -> str:
    """Change the parsed events, then re-hash and re-sign every event and the trailer."""
    bundle = read_bundle(text)
    entries = [e.to_json() for e in bundle.entries]
    change(entries)
    prev = "0" * 64
    rebuilt = []
    for data in entries:
        data["prev"] = prev
        data["hash"] = event_hash(data["stream"], data["seq"], data["kind"], data["actor"], data["at"],
                                  data["payload"], prev)
        data["sig"] = signer.sign_head(data["stream"], data["seq"], data["hash"])
        if key_id is not None:
            data["key"] = key_id
        prev = data["hash"]
        rebuilt.append(Entry.from_json(data))

    class Signer:  # signs as `signer` under the key ID the events claim
        key_id_ = key_id or signer.key_id

        def __getattr__(self, name: str) -> Any:
            return self.key_id_ if name == "key_id" else getattr(signer, name)

    return write_bundle(rebuilt, [], bundle.components, keys if keys is not None else bundle.keys,
                        Signer(), "2026-01-01T00:00:00.000000Z")  # type: ignore[arg-type]
