"""Fixtures of the adversarial suite."""

from __future__ import annotations

import pytest

from domain.application import Ringside
from domain.kernel.integrity import ServerKey
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor
from tests.support.helpers import new_match, play_to_end


@pytest.fixture
def undone(sqlite_app: Ringside, test_key: ServerKey) -> tuple[str, ServerKey]:
    """A finished match with an arbiter-granted undo and a redo, as a bundle."""
    match_id = new_match(sqlite_app, undo_policy="arbiter-only")
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    request = sqlite_app.request_undo(match_id, 0).entries[0].payload["request"]
    sqlite_app.answer_undo(match_id, request, True, seat=None, actor=Actor.arbiter())
    sqlite_app.redo(match_id, seat=0, actor=Actor.player(0))
    play_to_end(sqlite_app, match_id)
    text = sqlite_app.export_bundle(match_id)
    assert verify_bundle(text).intact
    return text, test_key
