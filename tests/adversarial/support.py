"""Helpers for the adversarial suite: run a command that must be refused, and prove nothing changed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.errors import RingsideError


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
